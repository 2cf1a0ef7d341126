"""A schedule row corrected on the tournament page after its round was paired: the round, which took its day
from the plan, follows the correction (else its prints and pages would give the old day); a round moved by
hand to another day keeps its day."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tournaments.models import Round, ScheduledRound, System
from tournaments.rounds import schedule, services

pytestmark = pytest.mark.django_db

SAT = datetime.date(2026, 11, 14)
NEXT_SAT = SAT + datetime.timedelta(days=7)


@pytest.fixture
def paired(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="follow", rounds_total=3)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    services.round_pair(tournament=t)
    return t


def test_a_paired_round_follows_its_corrected_row(paired) -> None:  # type: ignore[no-untyped-def]
    row = ScheduledRound.objects.get(tournament=paired, number=1)
    row.date = NEXT_SAT
    moved = schedule.schedule_save(tournament=paired, save=[row], delete=[])
    assert [r.number for r in moved] == [1]
    rnd = Round.objects.get(tournament=paired, number=1)
    assert rnd.date == NEXT_SAT and schedule.start_of(rnd) == (NEXT_SAT, datetime.time(14))


def test_a_round_moved_by_hand_keeps_its_day(paired) -> None:  # type: ignore[no-untyped-def]
    friday = SAT - datetime.timedelta(days=1)
    rnd = Round.objects.get(tournament=paired, number=1)
    rnd.date = friday
    rnd.save()
    row = ScheduledRound.objects.get(tournament=paired, number=1)
    row.date = NEXT_SAT
    assert schedule.schedule_save(tournament=paired, save=[row], delete=[]) == []
    assert Round.objects.get(pk=rnd.pk).date == friday
    schedule.schedule_save(tournament=paired, save=[], delete=[ScheduledRound.objects.get(pk=row.pk)])
    assert Round.objects.get(pk=rnd.pk).date == friday  # nor does deleting the row take it


def test_the_tournament_page_moves_the_paired_round_and_says_so(paired, chief) -> None:  # type: ignore[no-untyped-def]
    t = paired
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    form = chief.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list | dict)}
    entries = list(t.entries.order_by("pairing_number"))
    rows = list(t.schedule.all())
    data.update({"tiebreaks_0": "standard", "deputy_arbiters": [], "start_date": "2026-01-01",
                 "chief_arbiter": t.chief_arbiter_id, "forbidden_pairs-TOTAL_FORMS": 0,
                 "forbidden_pairs-INITIAL_FORMS": 0, "conformance_events-TOTAL_FORMS": 0,
                 "conformance_events-INITIAL_FORMS": 0, "entries-TOTAL_FORMS": len(entries),
                 "entries-INITIAL_FORMS": len(entries), "schedule-TOTAL_FORMS": len(rows),
                 "schedule-INITIAL_FORMS": len(rows)})
    for i, e in enumerate(entries):
        data.update({f"entries-{i}-id": e.pk, f"entries-{i}-tournament": t.pk})
    for i, s in enumerate(rows):
        data.update({f"schedule-{i}-id": s.pk, f"schedule-{i}-tournament": t.pk, f"schedule-{i}-number": s.number,
                     f"schedule-{i}-date": (NEXT_SAT if s.number == 1 else s.date).isoformat(),
                     f"schedule-{i}-start_time": "14:00"})
    page = chief.post(url, data, follow=True)
    body = re.sub(r"\s+", " ", page.content.decode())
    assert "Round 1, already paired, moves with the schedule to Saturday 21 November 2026." in body, body[:3000]
    assert Round.objects.get(tournament=t, number=1).date == NEXT_SAT
