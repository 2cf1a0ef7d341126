"""Every print of a round says when it starts (the round schedule: its date and start time) and the
tournament's time control: the pairings and "find your board" wall sheets, every score sheet and every
result slip, in the PDF's language; a time control holding reportlab markup prints as text."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.printing.test_pdf_wall import no_images, read
from tournaments.models import Round, System, Tournament
from tournaments.rounds import schedule, services

pytestmark = pytest.mark.django_db

SAT = datetime.date(2026, 11, 14)
CLOCK = "90 min + 30 s per move"
PRINTS = ("pairings_pdf", "boards_pdf", "scoresheets_pdf", "slips_pdf")


@pytest.fixture
def planned(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    """A six-player Swiss planned at 14:00 a day from Saturday 14 November 2026, round 1 published, and its
    arbiter's client (the score sheets and slips are his)."""
    t = make_tournament(6, system=System.SWISS, slug="sched", rounds_total=3, time_control=CLOCK,
                        venue="Salle des fêtes, Lille")
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    client = Client()
    client.force_login(arbiter)
    return t, rnd, client


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_every_print_of_a_round_says_when_it_starts_and_the_time_control(planned) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = planned
    for name in PRINTS:
        _reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        flat = _flat(text)
        assert "Saturday 14 November 2026, 14:00" in flat, (name, flat[:600])
        assert f"Time control: {CLOCK}" in flat, (name, flat[:600])
    _reader, sheets = read(client.get(reverse("tournaments:scoresheets_pdf", args=[t.slug, 1])))
    # on every score sheet, beside the venue (two copies of each of three boards)
    assert _flat(sheets).count("Salle des fêtes, Lille, Saturday 14 November 2026, 14:00") == 6


def test_a_round_moved_to_another_day_prints_its_own_day_at_the_planned_time(planned) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = planned
    Round.objects.filter(pk=rnd.pk).update(date=SAT + datetime.timedelta(days=1))
    _reader, text = read(client.get(reverse("tournaments:pairings_pdf", args=[t.slug, 1])))
    assert "Sunday 15 November 2026, 14:00" in _flat(text)
    assert "Saturday" not in text


def test_the_prints_are_in_the_pdf_language(planned) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = planned
    Tournament.objects.filter(pk=t.pk).update(pdf_language="fr")
    for name in PRINTS:
        _reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        assert "samedi 14 novembre 2026, 14:00" in _flat(text), name


def test_without_a_schedule_nor_a_time_control_nothing_is_invented(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="bare")
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    client = Client()
    client.force_login(arbiter)
    for name in PRINTS:
        _reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        assert "Time control" not in text and "14:00" not in text, name


def test_a_time_control_holding_markup_prints_as_text(planned) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = planned
    Tournament.objects.filter(pk=t.pk).update(time_control='<b>90</b> & <img src="/etc/hostname"/>')
    for name in PRINTS:
        reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        assert '<b>90</b> & <img src="/etc/hostname"/>' in _flat(text), name
        assert no_images(reader), name


@pytest.mark.parametrize("n", [6, 20])
def test_a_round_robins_schedule_pdf_gives_each_rounds_day_on_one_sheet(client: Client, make_tournament, n) -> None:  # type: ignore[no-untyped-def]
    """Every round's day and start time under its number, in words where the column holds them, else in the
    short date format: the start time is never cut; still one landscape sheet."""
    t = make_tournament(n, slug=f"rr{n}", numbering="lot", time_control=CLOCK)
    schedule.schedule_fill(tournament=t, first_date=SAT, start_times=[datetime.time(14)])
    reader, text = read(client.get(reverse("tournaments:schedule_pdf", args=[t.slug])))
    assert len(reader.pages) == 1, n
    flat = _flat(text)
    assert f"Time control: {CLOCK}" in flat
    assert "…" not in re.sub(r"Player\S*…", "", flat)  # names may be cut to a column, the days never
    assert flat.count(", 14:00") == n - 1
    assert "Saturday 14 November 2026, 14:00" in flat
    if n == 20:
        assert "11/18/2026, 14:00" in flat  # Wednesday's words do not fit the column
