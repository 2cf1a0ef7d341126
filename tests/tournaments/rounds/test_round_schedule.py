"""The round schedule, set once at set-up: filled in one step, the date a round takes when paired, kept by
an export, and answered to the tournament's arbiters only."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournaments.errors import DomainError
from tournaments.exchange.transfer import export_tournament, import_tournament
from tournaments.models import ScheduledRound, System, Tournament
from tournaments.rounds import schedule, services

pytestmark = pytest.mark.django_db

SAT = datetime.date(2026, 11, 14)


def test_filled_in_one_step_two_rounds_a_day(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=5)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(15), datetime.time(10)])
    rows = [(s.number, s.date, s.start_time) for s in t.schedule.all()]
    assert rows == [(1, SAT, datetime.time(10)), (2, SAT, datetime.time(15)),
                    (3, SAT + datetime.timedelta(1), datetime.time(10)),
                    (4, SAT + datetime.timedelta(1), datetime.time(15)),
                    (5, SAT + datetime.timedelta(2), datetime.time(10))]
    ScheduledRound.objects.filter(tournament=t, number=5).update(start_time=datetime.time(9, 30))
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])  # nothing to add
    assert t.schedule.get(number=5).start_time == datetime.time(9, 30)


def test_a_round_robin_is_planned_for_all_its_rounds(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, slug="rr")
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(13)], rest_days=1)
    assert [s.date for s in t.schedule.all()] == [SAT + datetime.timedelta(2 * i) for i in range(5)]


def test_a_swiss_without_its_number_of_rounds_is_refused(arbiter) -> None:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name="X", slug="x", system=System.ROUND_ROBIN, chief_arbiter=arbiter)
    with pytest.raises(DomainError, match="number of rounds is not known"):
        schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(13)])


def test_a_round_takes_its_planned_date_when_paired(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=5)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    rnd = services.round_pair(tournament=t)
    assert rnd.date == SAT and schedule.start_of(rnd) == (SAT, datetime.time(14))


def test_an_export_keeps_the_schedule(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=5)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    doc = export_tournament(t)
    assert len(doc["schedule"]) == 5
    doc["tournament"]["slug"] = "copy"
    copy = Tournament.objects.get(pk=import_tournament(doc).tournament.pk)
    assert [(s.number, s.date, s.start_time) for s in copy.schedule.all()] == [
        (s.number, s.date, s.start_time) for s in t.schedule.all()]


def test_the_control_room_plans_and_keeps_what_was_typed(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=3)
    room = reverse("admin:tournaments_tournament_control", args=[t.pk])
    assert "3 rounds have no date yet" in chief.get(room).content.decode()
    fill = reverse("admin:tournaments_tournament_schedule_fill", args=[t.pk])
    page = chief.post(fill, {"first_date": "2026-11-14", "start_times": "14:00, 25:99", "rest_days": "0"})
    body = page.content.decode()
    assert page.status_code == 200 and "“25:99” is not a time" in body and 'value="14:00, 25:99"' in body
    assert not t.schedule.exists()
    assert chief.post(fill, {"first_date": "2026-11-14", "start_times": "14h00", "rest_days": "1"}).status_code == 302
    assert [s.date for s in t.schedule.all()] == [SAT, SAT + datetime.timedelta(2), SAT + datetime.timedelta(4)]
    assert "no date yet" not in chief.get(room).content.decode()


def test_another_arbiter_cannot_plan_it(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model
    from django.test import Client

    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=3)
    other = Client()
    other.force_login(get_user_model().objects.create_user("other", is_staff=True))
    fill = reverse("admin:tournaments_tournament_schedule_fill", args=[t.pk])
    assert other.post(fill, {"first_date": "2026-11-14", "start_times": "14:00", "rest_days": "0"}).status_code in (
        403, 404)
    assert not t.schedule.exists()


def test_a_schedule_change_moves_the_public_version(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="sw", rounds_total=3)
    before = Tournament.objects.get(pk=t.pk).cache_version
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    assert Tournament.objects.get(pk=t.pk).cache_version > before
