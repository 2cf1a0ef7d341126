"""Requested byes: a round the player asked to sit out, worth 0 (Z), a draw (1, H) or a
win (2, F) as the arbiter grants it. The bye value is only ever a game score.

The checklist's warnings: a bye worth a win is a notice (level 2, the competition rules do not describe it:
keep it exceptional), recorded and written as a ### line; the second and every later bye worth a draw asks
for a confirmation (level 3); a player the regulations exclude from byes worth a draw cannot get one.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.locks import lock_tournament_of
from tournaments.models import Entry, Game
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


@transaction.atomic
def bye_request(*, entry: Entry, round_number: int, points: int, confirmed: Collection[str] = (),
                user: Any = None) -> Entry:
    """The player sits out round `round_number` (not paired yet), for 0, 1 or 2 points: the pairing gives
    him that bye. Once the round is paired, his board's result is changed on the round page instead."""
    lock_tournament_of(entry)  # the tournament first, as the pairing takes it: never a lock-order circle
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    tournament = entry.tournament
    if points not in REQUESTED_BYES:
        raise DomainError(_("A bye is worth 0, 1 or 2 points (a game's score), not %(points)s.") % {"points": points})
    if tournament.is_round_robin:
        raise DomainError(_("%(tournament)s is a round robin: its schedule has no requested byes.")
                          % {"tournament": tournament})
    last = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    total = tournament.rounds_total or 0
    if round_number <= last or (total and round_number > total):
        raise DomainError(_("%(player)s: a bye can be asked for a round not paired yet (%(first)s to %(last)s); "
                            "for a paired round change the result of his board.")
                          % {"player": entry.player, "first": last + 1, "last": total or "…"})
    if entry.gone_before(round_number):
        raise DomainError(_("%(player)s has left the tournament: he is not paired in round %(round)s anyway.")
                          % {"player": entry.player, "round": round_number})
    result = REQUESTED_BYES[points]
    warnings = bye_warnings(entry, round_number, result)
    events.require(warnings, confirmed=confirmed)
    excused = set(entry.excused_rounds or [])
    excused.add(round_number)
    entry.excused_rounds = sorted(excused)
    values = dict(entry.bye_points or {})
    values.pop(str(round_number), None)
    if points:
        values[str(round_number)] = points
    entry.bye_points = values
    entry._change_reason = f"requested bye in round {round_number}: {points} point(s)"  # type: ignore[attr-defined]
    entry.save(update_fields=["excused_rounds", "bye_points"])
    events.record_all(tournament, warnings, user=user, round_number=round_number)
    return entry


def bye_result(entry: Entry, round_number: int) -> Result:
    """The result of the board the pairing gives a player who asked to sit out `round_number`."""
    return REQUESTED_BYES.get(int((entry.bye_points or {}).get(str(round_number), 0)), Result.EXCUSED)
