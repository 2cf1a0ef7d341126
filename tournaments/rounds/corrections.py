"""Corrections within the checklist, on top of the corrections every completed round allows
(services.game_record_result).

Counting from the last paired round L: a result of round L is entered freely; one of round L-1 (the previous
round) is corrected with a confirmation (level 3, PREVIOUS_ROUND_CORRECTED), round L checked again and the
difference kept in the event; one of an older round either takes the tournament out of the mode (level 4,
OLD_ROUND_CORRECTED) or is a correction for the rating report only (C.04.2 4.3): Game.rating_result, which
pairing, standings and the public pages ignore, written in the TRF as a ### line (RATING_CORRECTION, level 3).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import lock_tournament_of_game
from tournaments.models import Game, Round, RoundStatus
from tournaments.permissions import arbitrates
from tournaments.results import TWO_PLAYER_RESULTS, Result


def rounds_after(game: Game) -> int:
    """How many rounds were paired after the game's round (0: its round is the current one)."""
    return max(0, events.round_under_way(game.round.tournament) - game.round.number)


def warnings_for(game: Game, new: str) -> list[Warning]:
    """What correcting `game` (as stored) to `new` asks of the arbiter; nothing in the current round."""
    if new == game.result or not game.result:
        return []  # a first result, even late, is no correction
    after = rounds_after(game)
    values = {"round": game.round.number, "board": game.board, "old": game.result or "-", "new": new or "-",
              "next": game.round.number + 1}
    if after == 1:
        return [Warning(Code.PREVIOUS_ROUND_CORRECTED, values)]
    if after >= 2:
        return [Warning(Code.OLD_ROUND_CORRECTED, values)]
    return []


def rating_warnings(game: Game, new: str) -> list[Warning]:
    return [Warning(Code.RATING_CORRECTION, {"round": game.round.number, "board": game.board,
                                             "old": game.result or "-", "new": new or "-"})]


def record(game: Game, warnings: list[Warning], *, user: Any = None) -> list[Any]:
    """Keep the confirmed corrections; a previous-round one says what the check of the next round finds now."""
    from tournaments.rounds.pairing_bridge import check_round

    kept = []
    for w in warnings:
        values = dict(w.values)
        if w.code is Code.PREVIOUS_ROUND_CORRECTED and not game.round.tournament.is_round_robin:
            try:
                report = check_round(game.round.tournament, game.round.number + 1)
            except DomainError:
                values["recheck"] = "not-possible"
            else:
                values["broken"] = [f"{v.criterion} {'-'.join(map(str, v.players))}"
                                    for v in report.violations] or ["-"]
                values["differs"] = "yes" if report.differs else "no"
        kept.append(events.record(game.round.tournament, w.code, values=values, user=user))
    return kept


@transaction.atomic
def game_record_rating_result(*, game: Game, result: str, expected_version: int | None = None,
                              confirmed: Collection[str] = (), user: Any = None) -> Game:
    """A correction for the rating report only: the result the rating report should have, kept beside the
    result that paired and ranked (which stays). Only for a round with a later round already paired (C.04.2
    4.3); needs its confirmation (level 3) and is kept as an event (a ### line of the TRF)."""
    lock_tournament_of_game(game.pk)  # the tournament first (tournaments/locks.py)
    locked = (Game.objects.select_for_update(of=("self",)).select_related("round__tournament")
              .filter(pk=game.pk).first())
    if locked is None:
        raise StaleEditError(_("This game no longer exists: its round was deleted; reload the page."))
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(_("Board %(board)s of round %(round)s was changed by someone else since you opened "
                               "it; reload the page.") % {"board": locked.board, "round": locked.round.number})
    rnd: Round = locked.round
    if user is not None and not arbitrates(user, rnd.tournament):
        raise DomainError(_("Only an arbiter of %(tournament)s can correct a result.") % {"tournament": rnd.tournament})
    if rnd.status != RoundStatus.COMPLETED or rounds_after(locked) < 1:
        raise DomainError(_("Round %(round)s, board %(board)s: a correction for the rating report only is for a "
                            "round a later round was paired on; correct the result itself here.")
                          % {"round": rnd.number, "board": locked.board})
    new = _parse(result)
    if locked.is_bye or new not in TWO_PLAYER_RESULTS:
        raise DomainError(_("Round %(round)s, board %(board)s: a correction for the rating report is a result "
                            "between two players.") % {"round": rnd.number, "board": locked.board})
    value = "" if new.value == locked.result else new.value
    if value == locked.rating_result:
        return locked
    warnings = rating_warnings(locked, value or locked.result)
    events.require(warnings, confirmed=confirmed)
    locked.rating_result = value
    locked.version += 1
    if user is not None:
        locked._history_user = user  # type: ignore[attr-defined]
    locked._change_reason = f"rating report only: {value or 'as played'}"  # type: ignore[attr-defined]
    locked.save(update_fields=["rating_result", "version"])
    for w in warnings:
        events.record(rnd.tournament, w.code, values=w.values, user=user)
    return locked


def _parse(value: str) -> Result:
    # services.parse_result's reading, without importing the services (they import this module).
    for r in Result:
        if value.strip().lower() == r.value.lower():
            return r
    raise DomainError(_("Unknown result “%(value)s”: expected one of %(expected)s.")
                      % {"value": value, "expected": ", ".join(r.value for r in Result)})
