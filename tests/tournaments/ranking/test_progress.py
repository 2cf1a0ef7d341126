"""True labels: 'after round N' only for a complete round N; the home page status
follows the rounds (upcoming, round N in progress, finished), not the dates."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.play import play_round
from tournaments.models import Tournament
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def half_played(t: Tournament) -> None:
    """Round 1 complete, round 2 published with one result of two."""
    play_round(t)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    services.game_record_result(game=rnd.games.order_by("board").first(), result="2-0")


def test_standings_and_crosstable_say_in_progress_with_missing_results(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    half_played(t)
    for name, title in (("standings", "Standings"), ("crosstable", "Crosstable")):
        page = text_of(client.get(reverse(f"tournaments:{name}", args=[t.slug])))
        assert f"{title} – round 2 in progress (1 result missing)" in page, name
        assert "after round 2" not in page
        # the round asked for explicitly, complete: "after"
        page = text_of(client.get(reverse(f"tournaments:{name}", args=[t.slug]) + "?round=1"))
        assert f"{title} after round 1" in page


def test_all_results_in_but_not_completed_is_still_in_progress(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    play_round(t, complete=False)
    page = text_of(client.get(reverse("tournaments:standings", args=[t.slug])))
    assert "round 1 in progress (all results in, not yet completed)" in page
    services.round_complete(round=t.rounds.get())
    assert "Standings after round 1" in text_of(client.get(reverse("tournaments:standings", args=[t.slug])))


def test_french_heading(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    half_played(t)
    page = text_of(client.get(reverse("tournaments:standings", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "ronde 2 en cours (1 résultat manquant)" in page


def test_admin_standings_page_says_in_progress(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    half_played(t)
    client = Client()
    client.force_login(arbiter)
    page = text_of(client.get(reverse("admin:tournaments_tournament_standings", args=[t.pk])))
    assert "Standings – round 2 in progress (1 result missing)" in page


def test_home_page_status_follows_the_rounds(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    today = timezone.localdate()
    past = today - datetime.timedelta(days=40)
    future = today + datetime.timedelta(days=40)
    # dates that lie: a finished tournament dated in the future, an unplayed one dated in the past
    done = make_tournament(4, slug="done")
    Tournament.objects.filter(pk=done.pk).update(start_date=future)
    for _ in range(3):
        play_round(done)
    running = make_tournament(4, slug="running")
    half_played(running)
    between = make_tournament(4, slug="between")
    play_round(between)
    waiting = make_tournament(4, slug="waiting")
    Tournament.objects.filter(pk=waiting.pk).update(start_date=past, end_date=past)
    page = text_of(client.get(reverse("tournaments:list")))
    assert re.search(r"Test done .*? finished", page)
    assert re.search(r"Test running .*? round 2 in progress", page)
    assert re.search(r"Test between .*? in progress, after round 1", page)
    assert re.search(r"Test waiting .*? upcoming", page)
