"""The arbiter's side: a board's reports become the result only here, through the result services.

`reports_settle` marks a board's waiting reports once its result is recorded (however it was recorded:
the round page's keys, a slip, the button below): the same result, confirmed; another, overruled.
`round_confirm_agreed` is the one button: every board without a result whose two players agree and whose
moves (a game sent by either) confirm that result; agreed boards without a game wait for the arbiter's key.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments import locks
from tournaments.boards.reports import AGREED, states_of
from tournaments.errors import DomainError
from tournaments.models import BoardReport, Game, ReportStatus, Round, RoundStatus
from tournaments.rounds import services


def reports_settle(games: Iterable[Game]) -> int:
    """Mark the waiting reports of games whose result is recorded; returns how many were marked."""
    marked = 0
    for game in games:
        if not game.result:
            continue
        waiting = BoardReport.objects.filter(game_id=game.pk, status=ReportStatus.PENDING)
        marked += waiting.filter(result=game.result).update(status=ReportStatus.CONFIRMED)
        marked += waiting.exclude(result=game.result).update(status=ReportStatus.OVERRULED)
    return marked


def round_settle(round: Round) -> int:
    """The same for a whole round in two queries: a result recorded by another path (a game sheet's result
    accepted, an import) settles its reports when the round page is next read."""
    waiting = BoardReport.objects.filter(game__round=round, status=ReportStatus.PENDING).exclude(game__result="")
    marked = waiting.filter(result=F("game__result")).update(status=ReportStatus.CONFIRMED)
    return marked + waiting.exclude(result=F("game__result")).update(status=ReportStatus.OVERRULED)


@transaction.atomic
def round_confirm_agreed(*, round: Round, user: object = None) -> list[Game]:
    """Record the agreed result of every board whose moves confirm it; each one version-checked against
    the game as the states were read, so a result typed meanwhile is never overwritten."""
    # The order every writer of a round takes (tournaments/locks.py): the tournament, the round, its games.
    # Held to the end, so no report lands between the states read here and the results written.
    locks.lock_tournament_of_round(round.pk)
    status = Round.objects.select_for_update().filter(pk=round.pk).values_list("status", flat=True).first()
    if status != RoundStatus.PUBLISHED:
        raise DomainError(_("Round %(round)s is not published: nothing to confirm.") % {"round": round.number})
    games = list(Game.objects.select_for_update().filter(round=round, result="").order_by("board"))
    states = states_of(games)
    done = []
    for game in games:
        state = states[game.pk]
        if state.state != AGREED or not state.moves_confirm:
            continue
        done.append(services.game_record_result(game=game, result=state.result, expected_version=game.version,
                                                user=user, reason=_("agreed by both players, the moves confirm it")))
    reports_settle(done)
    return done
