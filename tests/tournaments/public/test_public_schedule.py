"""The round schedule on the public pages: the tournament page's table (round, day, start time; the time
control once), each round page's "Round 1 · Saturday 14 November 2026, 14:00", a round robin's schedule
page, in the reader's language; a cached page follows a change of the schedule."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.public.test_views import text_of
from tournaments.models import Round, ScheduledRound, System
from tournaments.rounds import schedule, services

pytestmark = pytest.mark.django_db

SAT = datetime.date(2026, 11, 14)
CLOCK = "90 min + 30 s per move"


@pytest.fixture
def planned(make_tournament):  # type: ignore[no-untyped-def]
    """A Swiss of three rounds, two a day (10:00 and 15:00) from Saturday 14 November 2026, round 1
    published, round 2 paired but a draft."""
    t = make_tournament(6, system=System.SWISS, slug="sched", rounds_total=3, time_control=CLOCK)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(10), datetime.time(15)])
    services.round_publish(round=services.round_pair(tournament=t))
    services.round_complete(round=_fill(t.rounds.get(number=1)))
    services.round_pair(tournament=t)  # a draft: not public
    return t


def _fill(rnd: Round) -> Round:
    for g in rnd.games.filter(black__isnull=False):
        services.game_record_result(game=g, result="1-1")
    return rnd


def test_the_tournament_page_shows_every_round_with_its_day_and_start(client: Client, planned) -> None:  # type: ignore[no-untyped-def]
    page = client.get(reverse("tournaments:tournament", args=[planned.slug]))
    html, text = page.content.decode(), text_of(page)
    table = text_of_table(html)
    assert "Round 1 completed Saturday 14 November 2026 10:00" in table
    assert "Round 2 Saturday 14 November 2026 15:00" in table  # the draft is not linked
    assert "Round 3 Sunday 15 November 2026 10:00" in table
    assert reverse("tournaments:round", args=[planned.slug, 2]) not in html
    assert text.count(CLOCK) == 1  # the time control once


def text_of_table(html: str) -> str:
    table = re.search(r'<table class="listing timetable".*?</table>', html, flags=re.S)
    assert table, "no schedule table"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<caption.*?</caption>", "", table.group(0))))


def test_the_tournament_page_in_french(client: Client, planned) -> None:  # type: ignore[no-untyped-def]
    html = client.get(reverse("tournaments:tournament", args=[planned.slug]), HTTP_ACCEPT_LANGUAGE="fr").content
    table = text_of_table(html.decode())
    assert "samedi 14 novembre 2026 15:00" in table and "dimanche 15 novembre 2026 10:00" in table


def test_the_round_page_says_when_the_round_starts(client: Client, planned) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:round", args=[planned.slug, 1])
    assert "Round 1 · Saturday 14 November 2026, 10:00" in text_of(client.get(url))
    assert "Ronde 1 · samedi 14 novembre 2026, 10:00" in text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))


def test_a_round_played_on_another_day_shows_its_own_day(client: Client, planned) -> None:  # type: ignore[no-untyped-def]
    Round.objects.filter(tournament=planned, number=1).update(date=SAT - datetime.timedelta(days=1))
    url = reverse("tournaments:round", args=[planned.slug, 1])
    assert "Round 1 · Friday 13 November 2026, 10:00" in text_of(client.get(url))
    table = text_of_table(client.get(reverse("tournaments:tournament", args=[planned.slug])).content.decode())
    assert "Round 1 completed Friday 13 November 2026 10:00" in table


def test_without_a_schedule_the_pages_say_nothing_of_it(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="bare")
    page = text_of(client.get(reverse("tournaments:tournament", args=[t.slug])))
    assert "No round has been published yet." in page
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    assert "Round 1 ·" not in text_of(client.get(reverse("tournaments:round", args=[t.slug, 1])))


def test_a_round_robins_schedule_page_gives_each_rounds_day(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr", numbering="lot")
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    text = text_of(client.get(reverse("tournaments:schedule", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Ronde 3 · lundi 16 novembre 2026, 14:00" in text


def test_a_cached_page_follows_a_change_of_the_schedule(client: Client, planned, page_cache) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:tournament", args=[planned.slug])
    assert "Sunday 15 November 2026 10:00" in text_of_table(client.get(url).content.decode())
    assert "dimanche 15 novembre 2026" in text_of_table(client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    row = ScheduledRound.objects.get(tournament=planned, number=3)
    row.start_time = datetime.time(9, 30)
    row.save()
    assert "Sunday 15 November 2026 09:30" in text_of_table(client.get(url).content.decode())
    assert "dimanche 15 novembre 2026 09:30" in text_of_table(
        client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode())


def test_a_round_paired_from_the_control_room_needs_no_date_typed(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    """The arbiter pairs from the control room and types no date: the round has its planned day, which the
    round's page shows in its date field, to be changed only for a round played on another day."""
    t = make_tournament(6, system=System.SWISS, slug="desk", rounds_total=3)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)], rest_days=1)
    services.round_publish(round=services.round_pair(tournament=t))
    services.round_complete(round=_fill(t.rounds.get(number=1)))
    step = reverse("admin:tournaments_tournament_step", args=[t.pk])
    assert chief.post(step, {"step": "pair", "round": 2, "version": 0}).status_code == 302
    rnd = t.rounds.get(number=2)
    assert rnd.date == SAT + datetime.timedelta(days=2)
    page = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert re.search(r'name="date"[^>]*value="2026-11-16"|value="2026-11-16"[^>]*name="date"', page), page[:200]
