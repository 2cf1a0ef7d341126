"""Writes: every change to a tournament goes through these functions (HackSoft styleguide).

Each service is one transaction and raises DomainError with a message the arbiter can act on;
nothing is ever half-written.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Iterable

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from tournaments import locks, ratings, selectors
from tournaments.conformance import events
from tournaments.errors import DomainError, PublishNeedsConfirmation, StaleEditError
from tournaments.models import (
    Entry,
    Game,
    Numbering,
    Round,
    RoundStatus,
    ScheduledRound,
    System,
    Tournament,
)
from tournaments.pairing.roundrobin import berger_schedule
from tournaments.permissions import arbitrates
from tournaments.players import requested_byes, roster
from tournaments.results import SINGLE_PLAYER_RESULTS, TWO_PLAYER_RESULTS, Result
from tournaments.rounds import manual_phase, pairing_bridge, postponed, rr_guard
from tournaments.words import result_label


def team_rounds_are_matches() -> str:
    """The refusal of an individual pairing in a team competition, whose rounds are made of its matches."""
    return _("%(tournament)s is a team competition: its rounds are made from the matches' line-ups, never "
             "paired player by player.")


def _no_such_board() -> str:
    return _("Round %(round)s has no board %(board)s.")


# --- Rounds ----------------------------------------------------------------------------------


@transaction.atomic
def round_pair(*, tournament: Tournament, date: datetime.date | None = None,
               expected_number: int | None = None) -> Round:
    """Pair the next round as a draft: Berger tables for round robins, the Dutch system for Swiss.

    A Swiss still numbering by rating (never numbered by hand) is numbered by rating first, when round 1
    is paired. expected_number (the round the arbiter asked to pair) refuses a second click, or another
    arbiter's, that would pair the round after instead.
    """
    tournament = locks.locked_tournament(tournament)
    if tournament.is_team:
        raise DomainError(team_rounds_are_matches() % {"tournament": tournament})
    previous = tournament.rounds.order_by("-number").first()
    manual_phase.refuse_if_editing(previous, "pair")
    if expected_number is not None and (previous.number if previous else 0) + 1 != expected_number:
        raise StaleEditError(_("Round %(number)s is already paired (by someone else, or by an earlier click): "
                               "nothing was done; look at the control room again.") % {"number": expected_number})
    if previous is not None and previous.status != RoundStatus.COMPLETED:
        missing = list(previous.games.filter(result="").values_list("board", flat=True))
        values = {"round": previous.number, "next": previous.number + 1, "boards": ", ".join(map(str, missing))}
        if missing:
            raise DomainError(ngettext(
                "Round %(round)s is not completed (no result yet on board %(boards)s): complete it before pairing "
                "round %(next)s.",
                "Round %(round)s is not completed (no result yet on boards %(boards)s): complete it before pairing "
                "round %(next)s.", len(missing)) % values)
        raise DomainError(_("Round %(round)s is not completed: complete it before pairing round %(next)s.") % values)
    number = previous.number + 1 if previous else 1
    if tournament.checkin_enabled and tournament.checkin_round == number:
        # Who did not check in gets what the arbiter says (tournaments.hall.checkin.pair_round), never silently.
        raise DomainError(_("Check-in is open for round %(number)s: pair it from the control room, which asks what "
                            "the players not checked in get, or close the check-in first.") % {"number": number})
    if number == 1 and not tournament.is_round_robin and tournament.numbering == Numbering.AUTO:
        roster.renumber(tournament, sorted(tournament.entries.select_related("player"), key=selectors.rating_order_key))
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    if len(entries) < 2:
        raise DomainError(_("%(tournament)s: at least two players are needed to pair a round.")
                          % {"tournament": tournament})
    total = selectors.rounds_total(tournament, len(entries))
    if number > total:
        raise DomainError(_("%(tournament)s: all %(total)s rounds are paired.")
                          % {"tournament": tournament, "total": total})
    record = None
    notices = postponed.pairing_warnings(tournament, number)  # level 2: shown and recorded, never blocks
    if tournament.is_round_robin:
        boards, explanation = _round_robin_boards(tournament, entries, number), ""
    else:
        boards, record = pairing_bridge.pair_next_round(tournament, entries, number)
        explanation = pairing_bridge.pairing_log(record)  # the pairing arbiter's words, for the history and transfers
    if date is None:  # the round's planned date (the round schedule), if it has one
        date = ScheduledRound.objects.filter(tournament=tournament, number=number).values_list(
            "date", flat=True).first()
    rnd = Round.objects.create(tournament=tournament, number=number, date=date, status=RoundStatus.DRAFT,
                               pairing_explanation=explanation, pairing_record=record)
    # With history, so the audit trail shows who paired the round and how it was paired at first.
    bulk_create_with_history(
        [Game(round=rnd, board=i, white=white, black=black, result=result.value if result else "")
         for i, (white, black, result) in enumerate(boards, start=1)],
        Game,
    )
    events.record_all(tournament, notices, round_number=number)
    return rnd


def _round_robin_boards(tournament: Tournament, entries: list[Entry], number: int) -> list[pairing_bridge.NewGame]:
    numbers = [e.pairing_number for e in entries]
    if numbers != list(range(1, len(entries) + 1)):
        raise DomainError(_("%(tournament)s: a round robin needs pairing numbers 1 to %(n)s without gaps "
                            "(found %(found)s); draw them by lot or number them by rating.")
                          % {"tournament": tournament, "n": len(entries), "found": ", ".join(map(str, numbers))})
    schedule = berger_schedule(len(entries), double=tournament.system == System.DOUBLE_ROUND_ROBIN,
                               reverse_last_two=tournament.rr_reverse_last_two)
    by_number = {e.pairing_number: e for e in entries}
    boards: list[pairing_bridge.NewGame] = []
    for white_no, black_no in schedule[number - 1]:
        white = by_number[white_no]
        black = by_number[black_no] if black_no is not None else None
        gone = [e for e in (white, black) if e is not None and e.gone_before(number)]
        if black is None:
            # The free round of an odd round robin: nobody to play, no points (every player has one).
            result: Result | None = Result.NOT_PLAYED if gone else Result.BYE
        else:
            result = Result.NOT_PLAYED if gone else None
        boards.append((white, black, result))
    return boards


def _lock_round(round: Round, expected_version: int | None) -> Round:
    """The round as it stands, its row locked until the transaction ends; refused when it changed since the
    arbiter read it at expected_version (None: no check, for commands and older pages)."""
    locks.lock_tournament_of_round(round.pk)  # the tournament first (tournaments/locks.py), then the round
    rnd = (Round.objects.select_for_update(of=("self",)).select_related("tournament")
           .filter(pk=round.pk).first())
    if rnd is None:
        raise StaleEditError(_("Round %(number)s no longer exists: someone else deleted it; look at the "
                               "tournament again.") % {"number": round.number})
    if expected_version is not None and rnd.version != expected_version:
        raise StaleEditError(_("Round %(number)s was changed by someone else since you read it (it is now "
                               "%(status)s): nothing was done; look at it again.")
                             % {"number": rnd.number, "status": rnd.get_status_display().lower()})
    return rnd


# A round's life, the one place its state changes: draft -> published -> completed, and one step back
# (unpublish while no result is in, reopen while the next round is not paired). Step: (from, to).
ROUND_STEPS: dict[str, tuple[RoundStatus, RoundStatus]] = {
    "publish": (RoundStatus.DRAFT, RoundStatus.PUBLISHED),
    "complete": (RoundStatus.PUBLISHED, RoundStatus.COMPLETED),
    "reopen": (RoundStatus.COMPLETED, RoundStatus.PUBLISHED),
    "unpublish": (RoundStatus.PUBLISHED, RoundStatus.DRAFT),
}


def _refuse_unless(rnd: Round, step: str, refusal: str) -> None:
    """DomainError in the caller's words (%(round)s or %(number)s, %(status)s) when the round is not where
    the step starts from."""
    if rnd.status != ROUND_STEPS[step][0]:
        raise DomainError(refusal % {"round": rnd.number, "number": rnd.number,
                                     "status": rnd.get_status_display().lower()})


def _take_step(rnd: Round, step: str, *, reason: str = "", user: object = None) -> Round:
    rnd.status = ROUND_STEPS[step][1]
    return _save_round(rnd, ["status"], reason=reason, user=user)


def _save_round(rnd: Round, fields: list[str], *, reason: str = "", user: object = None) -> Round:
    rnd.version += 1
    if reason:
        rnd._change_reason = reason  # type: ignore[attr-defined]  # kept in the round's history
    if user is not None:
        rnd._history_user = user  # type: ignore[attr-defined]
    rnd.save(update_fields=[*fields, "version"])
    return rnd


@transaction.atomic
def round_set_boards(*, round: Round, boards: dict[int, tuple[Entry, Entry | None]],
                     expected_version: int | None = None, confirmed: Collection[str] = (),
                     user: object = None) -> Round:
    """The arbiter's manual override of a draft round: new players on some boards.

    Swiss: allowed even where the engine would pair otherwise (the admin then shows the checker's flags, and
    publishing asks to confirm each broken absolute criterion); refused only when the round could not
    be played: a player twice, or one from another tournament. Round robin: the round robin's guard
    (rr_guard) asks its confirmations for the whole round as it will stand, and records them.
    """
    rnd = _lock_round(round, expected_version)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is published: only a draft round can be re-paired.")
                          % {"round": rnd.number})
    games = {g.board: g for g in rnd.games.select_related("white__player", "black__player")}
    for board, (white, black) in boards.items():
        if board not in games:
            raise DomainError(_no_such_board() % {"round": rnd.number, "board": board})
        for entry in (white, black):
            if entry is not None and entry.tournament_id != rnd.tournament_id:
                raise DomainError(_("Board %(board)s: %(player)s is not entered in %(tournament)s.")
                                  % {"board": board, "player": entry.player, "tournament": rnd.tournament})
        game = games[board]
        game.white, game.black = white, black
        if black is None:
            game.result = game.result if game.result in (Result.BYE, Result.EXCUSED) else Result.BYE.value
        elif game.result in (Result.BYE, Result.EXCUSED):
            game.result = ""
    seen: dict[int, int] = {}
    for board, game in sorted(games.items()):
        for entry_id in (game.white_id, game.black_id):
            if entry_id is None:
                continue
            if entry_id in seen:
                name = game.white.player if game.white_id == entry_id else game.black.player
                raise DomainError(_("Round %(round)s: %(player)s would play on boards %(first)s and %(second)s.")
                                  % {"round": rnd.number, "player": name, "first": seen[entry_id], "second": board})
            seen[entry_id] = board
        if game.white_id == game.black_id:
            raise DomainError(_("Board %(board)s: a player cannot play himself.") % {"board": board})
    guarded = rr_guard.require(rnd, {b: (g.white.pairing_number, g.black.pairing_number if g.black_id else None)
                                     for b, g in games.items()}, confirmed=confirmed) \
        if rnd.tournament.is_round_robin else []
    for board in boards:
        game = games[board]
        game.version += 1
        game.save(update_fields=["white", "black", "result", "version"])
    events.record_all(rnd.tournament, guarded, user=user, round_number=rnd.number)
    return _save_round(rnd, [], user=user)


@transaction.atomic
def round_publish(*, round: Round, expected_version: int | None = None, confirmed_violations: bool = False,
                  user: object = None) -> Round:
    """Draft -> published. A pairing that breaks an absolute criterion is published only when the arbiter
    confirmed the violations (listed in the refusal); the round's history keeps who confirmed which."""
    rnd = _lock_round(round, expected_version)
    _refuse_unless(rnd, "publish", _("Round %(round)s is already %(status)s."))
    manual_phase.refuse_if_editing(rnd, "publish")
    broken = pairing_bridge.broken_criteria(rnd)
    if broken and not confirmed_violations and not manual_phase.confirmed_at_validation(rnd, broken):
        raise PublishNeedsConfirmation(rnd, pairing_bridge.violation_words(rnd.tournament, broken))
    reason = ""
    if broken:
        # Kept in the history as codes and pairing numbers: the same words whoever reads it, in any language.
        who = getattr(user, "get_username", lambda: "")() or "?"
        reason = f"published with {len(broken)} broken absolute criteria, confirmed by {who}: " + \
            "; ".join(f"{v.criterion} {'-'.join(map(str, v.players))}" for v in broken)
    return _take_step(rnd, "publish", reason=_clip(reason), user=user)


def _clip(reason: str) -> str:
    # simple_history keeps the change reason in a 100-character column.
    return reason if len(reason) <= 100 else reason[:99] + "…"


@transaction.atomic
def round_complete(*, round: Round, expected_version: int | None = None) -> Round:
    rnd = _lock_round(round, expected_version)
    _refuse_unless(rnd, "complete", _("Round %(round)s is %(status)s: only a published round can be completed."))
    missing = list(rnd.games.filter(result="").values_list("board", flat=True))
    if missing:
        raise DomainError(ngettext("Round %(round)s cannot be completed: no result on board %(boards)s.",
                                   "Round %(round)s cannot be completed: no result on boards %(boards)s.",
                                   len(missing)) % {"round": rnd.number, "boards": ", ".join(map(str, missing))})
    return _take_step(rnd, "complete")


@transaction.atomic
def round_reopen(*, round: Round, expected_version: int | None = None) -> Round:
    """Back to published; only while the next round is not paired (a correction needs no reopening:
    game_record_result takes a reason in a completed round)."""
    rnd = _lock_round(round, expected_version)
    _refuse_unless(rnd, "reopen", _("Round %(round)s is not completed."))
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise DomainError(_("Round %(round)s cannot be reopened: round %(next)s is already paired.")
                          % {"round": rnd.number, "next": rnd.number + 1})
    if ratings.is_finished(rnd.tournament) and rnd.number >= ratings.last_round(rnd.tournament):
        # The last round of a finished tournament is the record: reopened, its results would change with no
        # reason kept, and the tournament would take a later rating list on as if it were still under way.
        raise DomainError(_("Round %(round)s is the last round of %(tournament)s, which is finished: it stays "
                            "completed. To change a result, correct it on the round's page with a reason (kept in "
                            "the game's history).") % {"round": rnd.number, "tournament": rnd.tournament})
    return _take_step(rnd, "reopen")


def _entered_results(rnd: Round) -> list[int]:
    """Boards with a result the arbiter entered: the pairing's own byes, excused and not-played boards
    (a withdrawal) are not results anyone typed."""
    automatic = {Result.BYE.value, Result.EXCUSED.value, Result.NOT_PLAYED.value, ""}
    boards = rnd.games.exclude(result__in=automatic).values_list("board", flat=True)
    with_sheet = rnd.games.filter(sheet__isnull=False).values_list("board", flat=True)
    return sorted(set(boards) | set(with_sheet))


@transaction.atomic
def round_unpublish(*, round: Round, expected_version: int | None) -> Round:
    """Take a published round back to draft (a late withdrawal or entry): only while no result is in.
    It can then be changed by hand, or deleted and paired again."""
    rnd = _lock_round(round, expected_version)
    _refuse_unless(rnd, "unpublish", _("Round %(number)s is %(status)s: only a published round can go back to "
                                       "draft."))
    entered = _entered_results(rnd)
    if entered:
        raise DomainError(_("Round %(number)s cannot go back to draft: board(s) %(boards)s already have a "
                            "result or a game sheet. Clear them first, or correct the results instead.")
                          % {"number": rnd.number, "boards": ", ".join(map(str, entered))})
    return _take_step(rnd, "unpublish", reason="taken back to draft")


@transaction.atomic
def round_delete_draft(*, round: Round, expected_version: int | None = None) -> None:
    rnd = _lock_round(round, expected_version)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is published: only a draft round can be deleted and re-paired.")
                          % {"round": rnd.number})
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise DomainError(_("Round %(round)s is not the last round.") % {"round": rnd.number})
    rnd.delete()


@transaction.atomic
def round_pair_again(*, round: Round, expected_version: int | None = None) -> Round:
    """A draft round deleted and paired again on today's entries (after a late withdrawal or entry)."""
    rnd = _lock_round(round, expected_version)
    tournament, number, date = rnd.tournament, rnd.number, rnd.date
    round_delete_draft(round=rnd)
    return round_pair(tournament=tournament, date=date, expected_number=number)


# --- Results ---------------------------------------------------------------------------------


def parse_result(value: str | Result) -> Result:
    if isinstance(value, Result):
        return value
    text = value.strip()
    for r in Result:
        if text.lower() == r.value.lower():
            return r
    raise DomainError(_("Unknown result “%(value)s”: expected one of %(expected)s.")
                      % {"value": value, "expected": ", ".join(r.value for r in Result)})


@transaction.atomic
def game_record_result(
    *, game: Game, result: str | Result | None, expected_version: int | None = None, reason: str = "",
    user: object = None, confirmed: Collection[str] = (),
) -> Game:
    """Record (or clear, with None) a game's result in a published round, or correct it in a completed one.

    A correction in a completed round is for the tournament's arbiters and needs a reason; the reason
    (given or not) is kept in the game's history. A later round paired on the old result stands
    (selectors.correction_warnings says so). With expected_version (the version the arbiter's form was
    loaded with), a save made on stale data is refused rather than overwriting what another arbiter
    saved in between. A postponed game's result is entered at any time and is no correction (no reason).

    In the conformance mode a correction of the previous round asks a confirmation and one of an
    older round takes the tournament out of the mode (tournaments.rounds.corrections); requested byes
    and a postponed game that is not a draw have their own warnings. `confirmed` holds the codes the arbiter
    confirmed; every warning of the change is asked at once.
    """
    from tournaments.rounds import corrections

    # The round first, then the game: the order every writer of a round takes, so none can deadlock, and
    # no state change (complete, take back) slips in between the check below and the save.
    locks.lock_tournament_of_game(game.pk)  # the tournament first (tournaments/locks.py), then the round
    round_id = Game.objects.filter(pk=game.pk).values_list("round_id", flat=True).first()
    if round_id is None:
        raise StaleEditError(_("This game no longer exists: its round was deleted; reload the page."))
    list(Round.objects.select_for_update().filter(pk=round_id).values_list("pk", flat=True))
    locked = Game.objects.select_for_update(of=("self",)).select_related(
        "round__tournament", "white__player", "black__player").get(pk=game.pk)
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(_("Board %(board)s of round %(round)s was changed by someone else since you opened it "
                               "(now %(result)s): check it, and enter your result again if it still stands.")
                             % {"board": locked.board, "round": locked.round.number,
                                "result": result_label(locked.result) if locked.result else _("no result")})
    rnd = locked.round
    reason = (reason or "").strip()
    new = parse_result(result) if result not in (None, "") else None
    completing_postponed = locked.result == Result.POSTPONED.value and new is not None and not new.is_postponed
    if rnd.status == RoundStatus.COMPLETED and not completing_postponed:
        if user is not None and not arbitrates(user, rnd.tournament):
            raise DomainError(_("Round %(number)s, board %(board)s: only an arbiter of %(tournament)s can correct "
                                "a result.") % {"number": rnd.number, "board": locked.board,
                                                 "tournament": rnd.tournament})
        if not reason:
            raise DomainError(_("Round %(number)s is completed: give the reason for correcting the result of "
                                "board %(board)s (it is kept in the history).")
                              % {"number": rnd.number, "board": locked.board})
    if rnd.status == RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is a draft: publish it before entering results.")
                          % {"round": rnd.number})
    if new is not None:
        allowed = SINGLE_PLAYER_RESULTS + [Result.NOT_PLAYED] if locked.is_bye else TWO_PLAYER_RESULTS
        if new not in allowed:
            template = (_("Board %(board)s: “%(value)s” is not a result for a bye; expected one of %(expected)s.")
                        if locked.is_bye else
                        _("Board %(board)s: “%(value)s” is not a result for a game between two players; expected one "
                          "of %(expected)s."))
            raise DomainError(template % {"board": locked.board, "value": result_label(new),
                                          "expected": ", ".join(result_label(r) for r in allowed)})
    if new is None and rnd.status == RoundStatus.COMPLETED:
        raise DomainError(_("Round %(number)s is completed: board %(board)s needs a result; it cannot be "
                            "cleared.") % {"number": rnd.number, "board": locked.board})
    value = new.value if new else ""
    if value != locked.result:
        warnings = postponed.result_warnings(locked, new)
        if new is not None and new.is_requested_bye and locked.is_bye:
            warnings += requested_byes.bye_warnings(locked.white, rnd.number, new, game_id=locked.pk)
        # A postponed game's real result completes the round; it corrects nothing.
        breaches = [] if completing_postponed else corrections.warnings_for(locked, value)
        events.require(warnings + breaches, confirmed=confirmed)
        locked.result = value
        locked.version += 1
        if reason:
            locked._change_reason = _clip(reason)  # type: ignore[attr-defined]
        if user is not None:
            locked._history_user = user  # type: ignore[attr-defined]
        locked.save(update_fields=["result", "version"])
        events.record_all(rnd.tournament, warnings, user=user, round_number=rnd.number)
        corrections.record(locked, breaches, user=user)
    return locked


@transaction.atomic
def results_record(*, round: Round, results: Iterable[tuple[int, str | Result | None]], reason: str = "",
                   user: object = None, confirmed: Collection[str] = ()) -> list[Game]:
    """Several boards at once (board number, result): all are saved or none."""
    games = {g.board: g for g in round.games.all()}
    saved = []
    for board, result in results:
        if board not in games:
            raise DomainError(_no_such_board() % {"round": round.number, "board": board})
        saved.append(game_record_result(game=games[board], result=result, reason=reason, user=user,
                                        confirmed=confirmed))
    return saved
