"""Requested byes: a round the player asked to sit out, worth 0 (Z), a draw (1, H) or a
win (2, F) as the arbiter grants it. The bye value is only ever a game score.

The checklist's warnings: a bye worth a win is a notice (level 2, the competition rules do not describe it:
keep it exceptional), recorded and written as a ### line; the second and every later bye worth a draw asks
for a confirmation (level 3); a player the regulations exclude from byes worth a draw cannot get one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import lock_tournament_of, locked_tournament
from tournaments.models import Entry, Game, RoundStatus, Tournament
from tournaments.results import REQUESTED_BYES, Result


def player_value(entry: Entry) -> str:
    """How an event names a player: his pairing number and name (data, not a sentence)."""
    return str(entry)


def bye_warnings(entry: Entry, round_number: int, result: Result, *, game_id: int | None = None) -> list[Warning]:
    """What granting `result` (a requested bye) to `entry` in `round_number` breaks; refused outright for a
    player excluded from byes worth a draw."""
    if result is Result.EXCUSED_WIN:
        return [Warning(Code.FULL_POINT_BYE, {"player": player_value(entry), "round": round_number})]
    if result is not Result.EXCUSED_DRAW:
        return []
    if entry.no_half_bye:
        raise DomainError(_("%(player)s may not have a requested bye worth a draw (the regulations exclude him); "
                            "give a bye worth 0 instead.") % {"player": entry.player})
    earlier = Game.objects.filter(white=entry, black__isnull=True, result=Result.EXCUSED_DRAW.value)
    if game_id is not None:
        earlier = earlier.exclude(pk=game_id)
    rounds = set(earlier.values_list("round__number", flat=True))
    rounds |= {int(r) for r, points in (entry.bye_points or {}).items() if points == 1}
    rounds.discard(round_number)
    if not rounds:
        return []
    return [Warning(Code.HALF_POINT_BYE, {"player": player_value(entry), "round": round_number,
                                          "count": len(rounds) + 1})]


def _refuse_unless_open(entry: Entry, round_number: int, paired: dict[int, str], total: int) -> None:
    """A requested bye is for a round not paired yet or paired only as a draft (the draft is then paired
    again); a published or completed round keeps its boards: its result is changed on the round page."""
    if round_number < 1 or (total and round_number > total) or paired.get(round_number, RoundStatus.DRAFT) != \
            RoundStatus.DRAFT:
        first = next((n for n in range(1, (total or max(paired, default=0)) + 2)
                      if paired.get(n, RoundStatus.DRAFT) == RoundStatus.DRAFT), 1)
        raise DomainError(_("%(player)s: a bye can be asked for a round not paired yet, or paired only as a "
                            "draft (%(first)s to %(last)s); for a published round change the result of his board.")
                          % {"player": entry.player, "first": first, "last": total or "…"})
    if entry.gone_before(round_number):
        raise DomainError(_("%(player)s has left the tournament: he is not paired in round %(round)s anyway.")
                          % {"player": entry.player, "round": round_number})


def requested_points(entry: Entry, round_number: int) -> int | None:
    """What the player asked for round `round_number`: None (he plays), or the bye's points 0, 1, 2."""
    if round_number not in (entry.excused_rounds or []):
        return None
    return int((entry.bye_points or {}).get(str(round_number), 0))


def _set(entry: Entry, round_number: int, points: int | None) -> None:
    """The entry's two fields, in memory: the round in excused_rounds, its points (1 or 2) in bye_points."""
    excused = set(entry.excused_rounds or [])
    values = dict(entry.bye_points or {})
    values.pop(str(round_number), None)
    if points is None:
        excused.discard(round_number)
    else:
        excused.add(round_number)
        if points:
            values[str(round_number)] = points
    entry.excused_rounds, entry.bye_points = sorted(excused), values


def _paired(tournament: Tournament) -> dict[int, str]:
    return dict(tournament.rounds.values_list("number", "status"))


@transaction.atomic
def bye_request(*, entry: Entry, round_number: int, points: int, confirmed: Collection[str] = (),
                user: Any = None) -> Entry:
    """The player sits out round `round_number` (not paired yet, or a draft), for 0, 1 or 2 points: the pairing
    gives him that bye. A draft round is stale afterwards: the control room offers to pair it again. Once the
    round is published, his board's result is changed on the round page instead."""
    lock_tournament_of(entry)  # the tournament first, as the pairing takes it: never a lock-order circle
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    tournament = entry.tournament
    if points not in REQUESTED_BYES:
        raise DomainError(_("A bye is worth 0, 1 or 2 points (a game's score), not %(points)s.") % {"points": points})
    if tournament.is_round_robin:
        raise DomainError(_("%(tournament)s is a round robin: its schedule has no requested byes.")
                          % {"tournament": tournament})
    _refuse_unless_open(entry, round_number, _paired(tournament), tournament.rounds_total or 0)
    result = REQUESTED_BYES[points]
    warnings = bye_warnings(entry, round_number, result)
    events.require(warnings, confirmed=confirmed)
    _set(entry, round_number, points)
    entry._change_reason = f"requested bye in round {round_number}: {points} point(s)"  # type: ignore[attr-defined]
    entry.save(update_fields=["excused_rounds", "bye_points"])
    events.record_all(tournament, warnings, user=user, round_number=round_number)
    return entry


# --- The grid: every player's requested byes, all rounds, saved at once ---------------------------------


@dataclass(frozen=True)
class Change:
    entry: Entry
    round: int
    old: int | None  # None: he plays
    new: int | None


def allowed_points(entry: Entry) -> list[int]:
    """The byes this player may be given: 0 and 2 always (2 is a notice), 1 unless the regulations exclude him."""
    return [p for p in REQUESTED_BYES if not (p == 1 and entry.no_half_bye)]


def grid_version(tournament: Tournament, entries: list[Entry] | None = None) -> str:
    """What a grid was read at: every entry's byes and footing and every round's state. A save on a grid read
    before another change (a bye, a withdrawal, a round paired or published) is refused."""
    if entries is None:
        entries = list(tournament.entries.order_by("pk"))
    state = [(e.pk, e.status, e.withdrawn_after_round, e.expelled_after_round, e.no_half_bye,
              sorted(e.excused_rounds or []), sorted((e.bye_points or {}).items())) for e in
             sorted(entries, key=lambda e: e.pk)]
    state.append(sorted(_paired(tournament).items()))
    return hashlib.sha256(json.dumps(state, default=str).encode()).hexdigest()[:20]


def open_rounds(tournament: Tournament) -> list[int]:
    """The rounds whose byes can still be asked: not paired, or paired only as a draft."""
    paired = _paired(tournament)
    return [n for n in range(1, (tournament.rounds_total or 0) + 1)
            if paired.get(n, RoundStatus.DRAFT) == RoundStatus.DRAFT]


@transaction.atomic
def byes_save_grid(*, tournament: Tournament, wanted: dict[int, dict[int, int | None]], read_at: str,
                   confirmed: Collection[str] = (), user: Any = None) -> list[Change]:
    """Every requested bye of the grid at once: `wanted` is, by entry id, by round, None (he plays) or the bye's
    points. All are saved or none; the checklist's warnings of every change are asked together; a grid read
    before another change (read_at: grid_version) is refused, nothing saved."""
    tournament = locked_tournament(tournament)
    if tournament.is_round_robin:
        raise DomainError(_("%(tournament)s is a round robin: its schedule has no requested byes.")
                          % {"tournament": tournament})
    entries = {e.pk: e for e in Entry.objects.select_for_update(of=("self",)).select_related("player")
               .filter(tournament=tournament).order_by("pk")}
    if grid_version(tournament, list(entries.values())) != read_at:
        raise StaleEditError(_("The requested byes changed since this grid was read (another arbiter, a round "
                               "paired or published, a withdrawal): nothing was saved. Your choices are kept "
                               "below; look at the grid as it now stands, then save again."))
    paired, total = _paired(tournament), tournament.rounds_total or 0
    changes: list[Change] = []
    warnings: list[Warning] = []
    for entry_id, rounds in wanted.items():
        entry = entries.get(entry_id)
        if entry is None:
            raise DomainError(_("An entry of this grid is no longer in %(tournament)s: nothing was saved.")
                              % {"tournament": tournament})
        for number, points in sorted(rounds.items()):
            old = requested_points(entry, number)
            if old == points:
                continue
            if points is not None and points not in allowed_points(entry):
                raise DomainError(_("%(player)s, round %(round)s: a bye worth %(points)s is not allowed for him.")
                                  % {"player": entry.player, "round": number, "points": points})
            if points is not None:
                _refuse_unless_open(entry, number, paired, total)
                warnings += bye_warnings(entry, number, REQUESTED_BYES[points])
            elif paired.get(number, RoundStatus.DRAFT) != RoundStatus.DRAFT:
                _refuse_unless_open(entry, number, paired, total)
            _set(entry, number, points)
            changes.append(Change(entry, number, old, points))
    events.require(warnings, confirmed=confirmed)
    for entry in {c.entry.pk: c.entry for c in changes}.values():
        entry._change_reason = "requested byes: " + ", ".join(  # type: ignore[attr-defined]
            f"round {c.round} {'plays' if c.new is None else c.new}" for c in changes if c.entry is entry)[:80]
        if user is not None:
            entry._history_user = user  # type: ignore[attr-defined]
        entry.save(update_fields=["excused_rounds", "bye_points"])
    for warning in warnings:
        events.record_all(tournament, [warning], user=user, round_number=warning.values.get("round"))
    return changes


def missed_rounds(entry: Entry) -> list[int]:
    """The published or completed rounds a late entrant holds no board in: he entered after they were paired."""
    played = set(Game.objects.filter(round__tournament_id=entry.tournament_id).filter(
        models.Q(white=entry) | models.Q(black=entry)).values_list("round__number", flat=True))
    return [n for n, status in sorted(_paired(entry.tournament).items())
            if status != RoundStatus.DRAFT and n not in played]


def record_missed_rounds(entry: Entry) -> list[int]:
    """A late entrant's missed rounds recorded as requested byes worth 0 (absent): the FMJD competition rules
    say nothing of late entries, and a zero scores nothing a round already played would have to change. The
    caller holds the tournament's lock (roster.entry_add)."""
    missed = missed_rounds(entry)
    if missed:
        for number in missed:
            _set(entry, number, 0)
        entry._change_reason = "late entry: missed rounds absent (0)"  # type: ignore[attr-defined]
        entry.save(update_fields=["excused_rounds", "bye_points"])
    return missed


def out_of_round(tournament: Tournament, round_number: int) -> list[tuple[Entry, int]]:
    """Who asked to sit out `round_number`, with the bye's points, in pairing-number order."""
    return [(e, requested_points(e, round_number) or 0) for e in
            tournament.entries.select_related("player").order_by("pairing_number")
            if round_number in (e.excused_rounds or []) and not e.gone_before(round_number)]


def draft_stale(tournament: Tournament) -> list[tuple[str, Entry]]:
    """Why the draft round (the last round, still a draft) no longer fits the roster: ("bye", entry) for a
    player who asked to sit it out but holds a board, ("gone", entry) for one who left and holds a game,
    ("missing", entry) for a player to be paired who has no board (a late entry), ("plays", entry) for one
    whose bye was taken back. Empty: the draft fits."""
    if tournament.is_round_robin:  # the Berger table keeps everyone: a withdrawal's boards are "not played"
        return []
    draft = tournament.rounds.order_by("-number").first()
    if draft is None or draft.status != RoundStatus.DRAFT:
        return []
    boards: dict[int, Game] = {}
    for game in draft.games.all():
        boards[game.white_id] = game
        if game.black_id is not None:
            boards[game.black_id] = game
    stale: list[tuple[str, Entry]] = []
    for entry in tournament.entries.select_related("player").order_by("pairing_number"):
        game = boards.get(entry.pk)
        if entry.gone_before(draft.number):
            if game is not None and game.black_id is not None:
                stale.append(("gone", entry))  # his opponent is left without a game
        elif draft.number in (entry.excused_rounds or []):
            if game is None or game.black_id is not None or game.result != bye_result(entry, draft.number).value:
                stale.append(("bye", entry))
        elif game is None:
            stale.append(("missing", entry))
        elif game.black_id is None and game.parsed_result is not None and game.parsed_result.is_requested_bye:
            stale.append(("plays", entry))  # his bye was taken back: he is to be paired
    return stale


def bye_result(entry: Entry, round_number: int) -> Result:
    """The result of the board the pairing gives a player who asked to sit out `round_number`."""
    return REQUESTED_BYES.get(int((entry.bye_points or {}).get(str(round_number), 0)), Result.EXCUSED)
