"""The round schedule: each round's planned date and start time, set once at set-up.

The arbiter fills it in one step (the first round's date and time, one or two rounds a day) and corrects
any row on the tournament page. A round takes its planned date when it is paired; the pages and prints
read the start time from here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.locks import locked_tournament
from tournaments.models import Round, ScheduledRound, Tournament

MAX_ROUNDS_A_DAY = 3


def planned(tournament: Tournament) -> dict[int, ScheduledRound]:
    """The schedule by round number."""
    return {s.number: s for s in tournament.schedule.all()}


def start_of(round: Round) -> tuple[datetime.date | None, datetime.time | None]:
    """When a round starts: its own date (moved or not), the planned start time."""
    row = ScheduledRound.objects.filter(tournament_id=round.tournament_id, number=round.number).first()
    return (round.date or (row.date if row else None)), (row.start_time if row else None)


@dataclass(frozen=True)
class Start:
    """When one round starts, as the pages show it."""

    number: int
    date: datetime.date | None
    time: datetime.time | None


def timetable(tournament: Tournament, rounds: Iterable[Round]) -> list[Start]:
    """Every round planned or paired, in order: a paired round's own date (it may have been moved to
    another day) before the planned one, the planned start time. `rounds` are the rounds the reader may
    see (the public ones for the public), so a draft's moved date stays with its arbiters."""
    plan = planned(tournament)
    own = {r.number: r.date for r in rounds}
    numbers = sorted(set(plan) | {n for n, day in own.items() if day})
    return [Start(n, own.get(n) or (plan[n].date if n in plan else None), plan[n].start_time if n in plan else None)
            for n in numbers]


@transaction.atomic
def schedule_fill(*, tournament: Tournament, first_date: datetime.date, start_times: list[datetime.time],
                  rest_days: int = 0) -> list[ScheduledRound]:
    """Plan every round not planned yet: from `first_date`, one round at each of `start_times` a day (one
    or more), then the next day (plus `rest_days`). Rows already planned are kept as they are."""
    tournament = locked_tournament(tournament)
    if not 1 <= len(start_times) <= MAX_ROUNDS_A_DAY:
        raise DomainError(_("Give one to %(n)s start times a day.") % {"n": MAX_ROUNDS_A_DAY})
    if rest_days < 0:
        raise DomainError(_("The days between playing days cannot be fewer than 0."))
    total = selectors.rounds_total(tournament)
    if total <= 0:
        raise DomainError(_("%(tournament)s: the number of rounds is not known yet (a Swiss needs its number of "
                            "rounds, a round robin its players).") % {"tournament": tournament})
    have = planned(tournament)
    times = sorted(start_times)
    made = []
    for number in range(1, total + 1):
        day, slot = divmod(number - 1, len(times))
        if number in have:
            continue
        made.append(ScheduledRound(tournament=tournament, number=number,
                                   date=first_date + datetime.timedelta(days=day * (1 + rest_days)),
                                   start_time=times[slot]))
    ScheduledRound.objects.bulk_create(made)
    return made


@transaction.atomic
def schedule_save(*, tournament: Tournament, save: list[ScheduledRound],
                  delete: list[ScheduledRound]) -> list[Round]:
    """The schedule's rows as corrected on the tournament page. A round already paired on its row's planned
    day follows the row to its new day (it took that day from the plan, nobody typed it); a round moved by
    hand to another day keeps its day, and so does a paired round whose row is deleted. Returns the rounds
    that followed."""
    tournament = locked_tournament(tournament)
    stored = {s.pk: (s.number, s.date) for s in ScheduledRound.objects.filter(tournament=tournament)}
    for row in delete:
        if row.pk in stored:
            row.delete()
    moved: list[Round] = []
    for row in save:
        row.tournament = tournament
        before = stored.get(row.pk) if row.pk is not None else None
        row.save()
        if before is None or before[0] != row.number or before[1] == row.date:
            continue
        for rnd in Round.objects.filter(tournament=tournament, number=row.number, date=before[1]):
            rnd.date = row.date
            rnd.save()  # the date alone: Round.save keeps the state the services wrote
            moved.append(rnd)
    return moved
