"""The manual pairing phase of a Swiss round (checklist questions 63-69).

A draft round's pairing is changed by hand only inside a phase with a visible start ("Edit the pairing",
`manual_edit_start`) and end ("Validate", `manual_edit_validate`). While it is open the round cannot be
published and the next round cannot be paired (services.round_publish / round_pair ask
`refuse_if_editing`). Each change (`manual_edit_save`) is checked against the engine's own absolute
rules: a rematch, a forbidden pair, a bye to a player who may not have it, a colour breach, a pair where
both get the colour they are not due; a new breach needs the arbiter's confirmation (level 3). At
validation the engine pairs the same round from the same state and the two pairings are compared: a
difference needs a confirmation and is recorded (MANUAL_PAIRING, written as a TRF `###` line), with each
breach the final pairing keeps. A round the engine cannot pair is created empty (`round_create_by_hand`)
and paired wholly by hand in the same phase.

Players are named by pairing number everywhere the data is kept (event values, warning keys).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import locks
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.models import Entry, Game, Numbering, Round, RoundStatus, Tournament
from tournaments.pairing import PairingRequest, pair_dutch
from tournaments.pairing.colours import facts
from tournaments.pairing.state import build_states
from tournaments.players import roster
from tournaments.results import Result
from tournaments.rounds import pairing_bridge, services
from tournaments.rounds.manual_phase import confirmed_at_validation, is_editing, refuse_if_editing

__all__ = ["confirmed_at_validation", "is_editing", "refuse_if_editing"]  # with the phase's writes below

#: Results of a game row that is not part of the pairing the arbiter edits (an excused player, a game
#: cancelled by a withdrawal): kept as they are, after the boards.
_FIXED = (Result.EXCUSED.value, Result.NOT_PLAYED.value)


@dataclass(frozen=True)
class Proposed:
    """A round's pairing by pairing numbers: (white, black) per board in board order, and the bye."""

    boards: tuple[tuple[int, int], ...] = ()
    bye: int | None = None

    def items(self) -> set[str]:
        """Each board as 'white-black', the bye as 'n-0' (TRF's 0000: no opponent)."""
        out = {f"{w}-{b}" for w, b in self.boards}
        if self.bye is not None:
            out.add(f"{self.bye}-0")
        return out

    def players(self) -> list[int]:
        return [p for board in self.boards for p in board] + ([self.bye] if self.bye is not None else [])


@dataclass(frozen=True)
class Breach:
    """One warning of the pairing and its key: what it is about, so a confirmed breach is not asked again."""

    key: str
    warning: Warning


@dataclass(frozen=True)
class Comparison:
    """The engine's pairing of the same round from the same state, beside the round's."""

    engine: Proposed | None  # None: the engine cannot pair the round within the absolute criteria
    engine_unpaired: tuple[int, ...]
    pairing: Proposed
    only_engine: tuple[str, ...]
    only_round: tuple[str, ...]
    rows: tuple[tuple[int, str, bool, str, bool], ...] = field(default=())  # board, engine, differs, round, differs

    @property
    def differs(self) -> bool:
        return self.engine is None or bool(self.only_engine or self.only_round)

    def values(self, number: int) -> dict[str, Any]:
        """The event's values: the engine's boards and the round's that are not in the other (colours count)."""
        return {"round": number, "engine": list(self.only_engine) if self.engine is not None else ["none"],
                "pairing": list(self.only_round)}


@dataclass(frozen=True)
class Validation:
    comparison: Comparison
    recorded: list[Any]


# --- Reads -----------------------------------------------------------------------------------------


def explanation(rnd: Round) -> str:
    """How the round was paired, in the reader's language: the engine's log, headed by what the arbiter
    changed by hand (the validated difference) when he did."""
    log = pairing_bridge.round_pairing_log(rnd)
    event = rnd.tournament.conformance_events.filter(round_number=rnd.number, code=str(Code.MANUAL_PAIRING)).last()
    if event is None:
        return log
    head = _("Paired by hand, validated with differences from the engine's pairing (pairing numbers, White "
             "first; 0: the bye). Engine: %(engine)s. This round: %(pairing)s.") % {
        "engine": listed(event.values.get("engine")) or "—", "pairing": listed(event.values.get("pairing")) or "—"}
    if is_editing(rnd):
        head += " " + _("Its pairing is being edited by hand again.")
    return head + ("\n\n" + _("The engine's pairing:") + "\n" + log if log else "")


def listed(value: Any) -> str:
    """An event's list as text. A stored event may come from a file (tournaments.exchange.trf_events): its
    items may be numbers, or the list one word (not-possible)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return "" if value is None else str(value)


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("player").order_by("pairing_number"))


def names_of(entries: Iterable[Entry]) -> dict[int, str]:
    return {e.pairing_number: str(e) for e in entries}


def request_for(rnd: Round, entries: list[Entry]) -> PairingRequest:
    """The engine's view of the tournament before this round: what round_pair paired it from."""
    return pairing_bridge.pairing_request(rnd.tournament, entries, rnd.number)


def to_pair(request: PairingRequest) -> list[int]:
    """The pairing numbers the round must place: neither withdrawn nor excused for it."""
    return sorted(p.id for p in request.players if not p.withdrawn and not p.excused)


def current_pairing(rnd: Round) -> Proposed:
    boards, bye = [], None
    for g in rnd.games.select_related("white", "black").order_by("board"):
        if g.result in _FIXED:
            continue
        if g.black_id is None:
            bye = g.white.pairing_number
        else:
            boards.append((g.white.pairing_number, g.black.pairing_number))
    return Proposed(tuple(boards), bye)


def breaches(request: PairingRequest, proposed: Proposed, names: dict[int, str]) -> list[Breach]:
    """The breaches of the engine's absolute rules in `proposed` (Dutch system, C.04.3 as the engine
    applies it): rematches over the board, forbidden pairs, the bye to a player who had one or a win
    without playing (C2), three same colours in a row or a colour difference beyond 2 (except a
    topscorer's pair in the last round, as the engine allows), and both players given the colour they
    are not due."""
    states = build_states(request)
    out: list[Breach] = []
    for w, b in proposed.boards:
        if w not in states or b not in states:
            continue
        sw, sb = states[w], states[b]
        low, high = sorted((w, b))
        pair = f"{names.get(w, w)} – {names.get(b, b)}"
        if b in sw.opponents:
            out.append(Breach(f"rematch:{low}-{high}", Warning(Code.REMATCH, {"pair": pair, "numbers": [w, b]})))
        if frozenset((w, b)) in request.forbidden_pairs:
            out.append(Breach(f"forbidden-pair-paired:{low}-{high}",
                              Warning(Code.FORBIDDEN_PAIR_PAIRED, {"pair": pair, "numbers": [w, b]})))
        if not (sw.topscorer or sb.topscorer):
            for state, colour in ((sw, "w"), (sb, "b")):
                if facts(state, colour).breaks_absolute:  # type: ignore[arg-type]
                    out.append(Breach(f"colour-breach:{state.id}{colour}", Warning(Code.COLOUR_BREACH, {
                        "player": names.get(state.id, state.id), "number": state.id, "colour": colour})))
        if sw.pref == "b" and sb.pref == "w":
            out.append(Breach(f"both-wrong-colour:{w}-{b}",
                              Warning(Code.BOTH_WRONG_COLOUR, {"pair": pair, "numbers": [w, b]})))
    if proposed.bye is not None and proposed.bye in states and not states[proposed.bye].bye_ok:
        out.append(Breach(f"bye-ineligible:{proposed.bye}", Warning(Code.BYE_INELIGIBLE, {
            "player": names.get(proposed.bye, proposed.bye), "number": proposed.bye})))
    return out


def engine_pairing(request: PairingRequest) -> tuple[Proposed | None, tuple[int, ...]]:
    result = pair_dutch(request)
    if result.unpaired:
        return None, tuple(result.unpaired)
    return Proposed(tuple((b.white, b.black) for b in result.boards), result.bye), ()


def compare(request: PairingRequest, proposed: Proposed) -> Comparison:
    """Pairs, colours and the bye of the round against the engine's; the order of the boards is not a
    difference (who meets whom with which colour is)."""
    engine, unpaired = engine_pairing(request)
    mine = proposed.items()
    theirs = engine.items() if engine is not None else set()
    rows = []
    left = _board_texts(engine) if engine is not None else []
    right = _board_texts(proposed)
    for i in range(max(len(left), len(right))):
        e = left[i] if i < len(left) else ""
        r = right[i] if i < len(right) else ""
        rows.append((i + 1, e, bool(e) and e not in mine, r, bool(r) and (engine is None or r not in theirs)))
    return Comparison(engine, unpaired, proposed, tuple(sorted(theirs - mine, key=_natural)),
                      tuple(sorted(mine - theirs, key=_natural)), tuple(rows))


def _board_texts(p: Proposed) -> list[str]:
    return [f"{w}-{b}" for w, b in p.boards] + ([f"{p.bye}-0"] if p.bye is not None else [])


def _natural(item: str) -> tuple[int, ...]:
    return tuple(int(x) for x in item.split("-"))


# --- Writes ----------------------------------------------------------------------------------------


def _lock(rnd: Round, expected_version: int | None) -> Round:
    locked = services._lock_round(rnd, expected_version)
    if locked.tournament.is_round_robin:
        raise DomainError(_("Round %(round)s: a round robin follows the Berger tables; its pairing is not edited "
                            "here.") % {"round": locked.number})
    return locked


def _open(rnd: Round) -> None:
    if not is_editing(rnd):
        raise DomainError(_("Round %(round)s: its pairing is not being edited; start with “Edit the pairing”.")
                          % {"round": rnd.number})


@transaction.atomic
def manual_edit_start(*, round: Round, expected_version: int | None = None, user: Any = None) -> Round:
    """Open the phase on a draft round: from now on its pairing is the arbiter's, until validated."""
    rnd = _lock(round, expected_version)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is %(status)s: only a draft round's pairing can be edited by hand.")
                          % {"round": rnd.number, "status": rnd.get_status_display().lower()})
    if is_editing(rnd):
        return rnd
    rnd.manual_edit_started_at = timezone.now()
    rnd.manual_edit_started_by = user if getattr(user, "is_authenticated", False) else None
    rnd.manual_edit_confirmed = []
    return services._save_round(rnd, ["manual_edit_started_at", "manual_edit_started_by", "manual_edit_confirmed"],
                                reason="manual pairing started", user=user)


def _require(pending: list[Breach], confirmed: Collection[str]) -> None:
    """events.require on the breaches not confirmed yet: a breach is confirmed by its key (one checkbox
    each) or by its code (the shared confirmation screen sends codes). The refusal carries the keys."""
    given = set(confirmed)
    missing = [b for b in pending if b.key not in given and str(b.warning.code) not in given]
    try:
        events.require([b.warning for b in missing])
    except events.NeedsConfirmation as exc:
        exc.keys = [b.key for b in missing]  # type: ignore[attr-defined]
        raise


@transaction.atomic
def manual_edit_save(*, round: Round, boards: list[tuple[Entry | None, Entry | None]], bye: Entry | None = None,
                     confirmed: Collection[str] = (), expected_version: int | None = None,
                     user: Any = None) -> Round:
    """The round's whole pairing as the arbiter set it: boards in his order (white, black), the bye.
    Players may still be left out while the phase is open (a round paired wholly by hand is built in
    steps); validation needs everyone. A breach this change adds needs confirming (NeedsConfirmation
    lists them); nothing is written until then."""
    rnd = _lock(round, expected_version)
    _open(rnd)
    entries = entries_of(rnd.tournament)
    by_pk = {e.pk: e for e in entries}
    request = request_for(rnd, entries)
    names = names_of(entries)
    pairs: list[tuple[Entry, Entry]] = []
    for index, (white, black) in enumerate(boards, start=1):
        if white is None and black is None:
            continue
        if white is None or black is None:
            raise DomainError(_("Board %(board)s: choose both players, or leave both empty.") % {"board": index})
        pairs.append((white, black))
    placed = [e for pair in pairs for e in pair] + ([bye] if bye is not None else [])
    allowed = set(to_pair(request))
    seen: set[int] = set()
    for entry in placed:
        if entry.pk not in by_pk:
            raise DomainError(_("%(player)s is not entered in %(tournament)s.")
                              % {"player": entry.player, "tournament": rnd.tournament})
        if entry.pairing_number in seen:
            raise DomainError(_("%(player)s is placed twice: once on a board only.")
                              % {"player": names[entry.pairing_number]})
        seen.add(entry.pairing_number)
        if entry.pairing_number not in allowed:
            raise DomainError(_("%(player)s is withdrawn or excused for round %(round)s and cannot be paired.")
                              % {"player": names[entry.pairing_number], "round": rnd.number})
    if bye is not None and len(allowed) % 2 == 0:
        raise DomainError(_("Round %(round)s has an even number of players to pair: there is no bye.")
                          % {"round": rnd.number})
    proposed = Proposed(tuple((w.pairing_number, b.pairing_number) for w, b in pairs),
                        bye.pairing_number if bye is not None else None)
    before = {b.key for b in breaches(request, current_pairing(rnd), names)} | set(rnd.manual_edit_confirmed)
    new = [b for b in breaches(request, proposed, names) if b.key not in before]
    _require(new, confirmed)
    _write(rnd, pairs, bye)
    rnd.refresh_from_db()
    rnd.manual_edit_confirmed = sorted(set(rnd.manual_edit_confirmed) | {b.key for b in new})
    return services._save_round(rnd, ["manual_edit_confirmed"], reason="pairing changed by hand", user=user)


def _write(rnd: Round, pairs: list[tuple[Entry, Entry]], bye: Entry | None) -> None:
    """The games of the round become `pairs` (boards 1..n) and the bye, the fixed rows after them; the
    existing rows are reused (their history goes on), rows are added or removed as needed, then
    services.round_set_boards seats the players and checks the result."""
    games = list(rnd.games.order_by("board"))
    fixed = [g for g in games if g.result in _FIXED]
    rows = [g for g in games if g.result not in _FIXED]
    wanted: list[tuple[Entry, Entry | None]] = [*pairs, *([(bye, None)] if bye is not None else [])]
    for g in rows[len(wanted):]:
        if g.has_sheet:
            raise DomainError(_("Board %(board)s has a game sheet: remove it before pairing the round again.")
                              % {"board": g.board})
        g.delete()
    rows = rows[:len(wanted)]
    # Out of the way of the unique board numbers first, then 1..n.
    offset = 1000 + (rnd.games.aggregate(m=Max("board"))["m"] or 0)
    for i, g in enumerate([*rows, *fixed]):
        g.board = offset + i
        g.save(update_fields=["board"])
    for i in range(len(rows), len(wanted)):
        rows.append(Game.objects.create(round=rnd, board=offset + len(games) + i, white=wanted[i][0],
                                        black=wanted[i][1]))
    for number, g in enumerate([*rows, *fixed], start=1):
        g.board = number
        g.save(update_fields=["board"])
    if wanted:
        services.round_set_boards(round=rnd, boards={i: pair for i, pair in enumerate(wanted, start=1)})


@transaction.atomic
def manual_edit_validate(*, round: Round, confirmed: Collection[str] = (), expected_version: int | None = None,
                         user: Any = None) -> Validation:
    """End the phase: every player placed, the breaches of the final pairing confirmed (those confirmed
    while editing are not asked again) and, when the engine pairs the same round otherwise (or cannot pair
    it), the difference confirmed. The breaches and the difference are then recorded as events."""
    rnd = _lock(round, expected_version)
    _open(rnd)
    entries = entries_of(rnd.tournament)
    request = request_for(rnd, entries)
    names = names_of(entries)
    proposed = current_pairing(rnd)
    missing = [n for n in to_pair(request) if n not in set(proposed.players())]
    if missing:
        raise DomainError(_("Round %(round)s cannot be validated: not paired yet: %(players)s.")
                          % {"round": rnd.number, "players": "; ".join(names[n] for n in missing)})
    # A round opened and validated again keeps one record of each fact: a breach or a difference already
    # recorded for this round (confirmed then) is neither asked nor recorded again; a new one is.
    on_record = _recorded(rnd)
    found = [b for b in breaches(request, proposed, names) if _fact(b.warning) not in on_record]
    comparison = compare(request, proposed)
    pending = [b for b in found if b.key not in set(rnd.manual_edit_confirmed)]
    difference = Warning(Code.MANUAL_PAIRING, comparison.values(rnd.number))
    new_difference = comparison.differs and _fact(difference) not in on_record
    if new_difference:
        pending.append(Breach("manual-pairing", difference))
    _require(pending, confirmed)
    recorded = [events.record(rnd.tournament, b.warning.code, values=b.warning.values, user=user,
                              round_number=rnd.number) for b in found]
    if new_difference:
        recorded.append(events.record(rnd.tournament, Code.MANUAL_PAIRING, values=difference.values, user=user,
                                      round_number=rnd.number))
    rnd.manual_edit_started_at = None
    rnd.manual_edit_started_by = None
    rnd.manual_edit_confirmed = []
    services._save_round(rnd, ["manual_edit_started_at", "manual_edit_started_by", "manual_edit_confirmed"],
                         reason="manual pairing validated" + (" (differs from the engine)" if comparison.differs
                                                              else ""), user=user)
    return Validation(comparison, recorded)


@transaction.atomic
def manual_edit_stop(*, round: Round, expected_version: int | None = None, user: Any = None) -> Round:
    """Leave the phase without validating: the round goes back to the engine's pairing (the one a draft is
    paired with), so nothing the arbiter changed by hand stands and nothing is recorded. Refused when the
    engine cannot pair the round: the arbiter's pairing is then the only one, and it is validated."""
    rnd = _lock(round, expected_version)
    _open(rnd)
    entries = entries_of(rnd.tournament)
    engine, unpaired = engine_pairing(request_for(rnd, entries))
    if engine is None:
        raise DomainError(_("Round %(round)s: the engine cannot pair this round, so there is no pairing of its to go "
                            "back to; place every player and validate the pairing.") % {"round": rnd.number})
    if engine.items() != current_pairing(rnd).items():
        by_number = {e.pairing_number: e for e in entries}
        _write(rnd, [(by_number[w], by_number[b]) for w, b in engine.boards],
               by_number[engine.bye] if engine.bye is not None else None)
        rnd.refresh_from_db()
    rnd.manual_edit_started_at = None
    rnd.manual_edit_started_by = None
    rnd.manual_edit_confirmed = []
    return services._save_round(rnd, ["manual_edit_started_at", "manual_edit_started_by", "manual_edit_confirmed"],
                                reason="manual pairing stopped: the engine's pairing kept", user=user)


def _fact(warning: Warning) -> tuple[str, str]:
    """A warning as the event it would be: its code and its values as stored (JSON: tuples become lists)."""
    return str(warning.code), json.dumps(warning.values, sort_keys=True, default=list)


def _recorded(rnd: Round) -> set[tuple[str, str]]:
    return {(code, json.dumps(values, sort_keys=True))
            for code, values in rnd.tournament.conformance_events.filter(round_number=rnd.number)
            .values_list("code", "values")}


@transaction.atomic
def round_create_by_hand(*, tournament: Tournament, expected_number: int, confirmed: Collection[str] = (),
                         user: Any = None) -> Round:
    """The next round created empty, its manual pairing phase open: only when the engine cannot pair it
    within the absolute criteria (e.g. three players and four rounds, or every remaining pair a rematch),
    after the arbiter confirmed it (level 3, recorded)."""
    tournament = locks.locked_tournament(tournament)
    if tournament.is_team:
        raise DomainError(services.team_rounds_are_matches() % {"tournament": tournament})
    if tournament.is_round_robin:
        raise DomainError(_("%(tournament)s: a round robin follows the Berger tables.") % {"tournament": tournament})
    previous = tournament.rounds.order_by("-number").first()
    number = previous.number + 1 if previous else 1
    if number != expected_number:
        raise DomainError(_("Round %(number)s is already paired (by someone else, or by an earlier click): "
                            "nothing was done; look at the control room again.") % {"number": expected_number})
    if previous is not None and previous.status != RoundStatus.COMPLETED:
        raise DomainError(_("Round %(round)s is not completed: complete it before pairing round %(next)s.")
                          % {"round": previous.number, "next": number})
    if number == 1 and tournament.numbering == Numbering.AUTO:
        from tournaments import selectors

        roster.renumber(tournament, sorted(tournament.entries.select_related("player"),
                                              key=selectors.rating_order_key))
    entries = entries_of(tournament)
    if len(entries) < 2:
        raise DomainError(_("%(tournament)s: at least two players are needed to pair a round.")
                          % {"tournament": tournament})
    if number > (tournament.rounds_total or 0):
        raise DomainError(_("%(tournament)s: all %(total)s rounds are paired.")
                          % {"tournament": tournament, "total": tournament.rounds_total})
    request = pairing_bridge.pairing_request(tournament, entries, number)
    _engine, unpaired = engine_pairing(request)
    if not unpaired:
        raise DomainError(_("The engine can pair round %(round)s: pair it, then edit its pairing by hand if "
                            "needed.") % {"round": number})
    warning = Warning(Code.ENGINE_CANNOT_PAIR, {"round": number, "players": list(unpaired)})
    events.require([warning], confirmed=confirmed)
    rnd = Round.objects.create(tournament=tournament, number=number, status=RoundStatus.DRAFT,
                               manual_edit_started_at=timezone.now(),
                               manual_edit_started_by=user if getattr(user, "is_authenticated", False) else None)
    by_number = {e.pairing_number: e for e in entries}
    excused = [p.id for p in request.players if p.excused and not p.withdrawn]
    for board, n in enumerate(excused, start=1):
        Game.objects.create(round=rnd, board=board, white=by_number[n], black=None, result=Result.EXCUSED.value)
    events.record(tournament, Code.ENGINE_CANNOT_PAIR, values=warning.values, user=user, round_number=number)
    return rnd


def engine_cannot_pair(tournament: Tournament) -> int | None:
    """The number of the next round when it is due and the engine cannot pair it (the control room offers
    to pair it by hand), else None."""
    previous = tournament.rounds.order_by("-number").first()
    if tournament.is_round_robin or (previous is not None and previous.status != RoundStatus.COMPLETED):
        return None
    number = previous.number + 1 if previous else 1
    entries = entries_of(tournament)
    if len(entries) < 2 or number > (tournament.rounds_total or 0):
        return None
    try:
        _engine, unpaired = engine_pairing(pairing_bridge.pairing_request(tournament, entries, number))
    except DomainError:
        return None
    return number if unpaired else None

