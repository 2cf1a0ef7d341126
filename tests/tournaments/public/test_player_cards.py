"""The player pages of one version share one computation of the standings (tournaments/public/per_version.py)."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.pages import build_swiss
from tournaments import selectors
from tournaments.models import Game, Tournament
from tournaments.public import per_version
from tournaments.results import Result


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = selectors.compute_standings

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "compute_standings", counted)
    return calls


def _page(client: Client, t: Tournament, number: int) -> str:
    response = client.get(reverse("tournaments:player", args=[t.slug, number]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_standings_are_computed_once_for_all_the_player_pages_of_a_version(monkeypatch) -> None:
    t = build_swiss(40, 3, slug="cards")
    calls = _counting(monkeypatch)
    client = Client()
    for number in range(1, 11):
        _page(client, t, number)
    assert len(calls) == 1
    # A result changes: the version moves, and the next page shows the new points at once.
    game = Game.objects.filter(round__tournament=t, round__number=3, white__pairing_number=1).first() \
        or Game.objects.filter(round__tournament=t, round__number=3, black__pairing_number=1).get()
    white = game.white.pairing_number == 1
    before = selectors.player_card(t, 1).standing.row.points
    game.result = (Result.BLACK_WINS if white else Result.WHITE_WINS).value
    game.save()
    after = selectors.player_card(t, 1).standing.row.points
    assert after != before
    calls.clear()
    body = _page(client, t, 1)
    assert len(calls) == 1
    assert per_version.player_cards(Tournament.objects.get(pk=t.pk))[1].standing.row.points == after
    assert f"<dd>{after}</dd>" in body


@pytest.mark.django_db
def test_every_kept_card_is_the_card_computed_alone() -> None:
    t = build_swiss(21, 3, slug="odd")  # an odd field: a bye each round
    cards = per_version.player_cards(Tournament.objects.get(pk=t.pk))
    assert sorted(cards) == list(range(1, 22))
    for number, card in cards.items():
        assert card == selectors.player_card(t, number)
    assert selectors.player_cards(t) == cards


@pytest.mark.django_db
def test_a_player_page_after_the_first_costs_three_queries_whatever_the_field() -> None:
    client = Client()
    counts = []
    for players in (12, 200):
        t = build_swiss(players, 3, slug=f"f{players}")
        _page(client, t, 1)
        with CaptureQueriesContext(connection) as queries:
            _page(client, t, 2)
        counts.append(len(queries.captured_queries))
    # the tournament, its rounds, the open round's games or none: never the entries and games again
    assert counts[0] == counts[1] <= 3, counts


def test_a_crowd_asking_for_a_new_version_computes_it_once() -> None:
    per_version.forget()
    tournament: Any = SimpleNamespace(pk=1, cache_version=7, cache_changed_at=None)
    computed: list[int] = []

    def compute() -> dict[int, int]:
        computed.append(1)
        time.sleep(0.05)
        return {1: 1}

    answers: list[Any] = []
    threads = [threading.Thread(target=lambda: answers.append(per_version.kept("x", tournament, compute)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert computed == [1] and answers == [{1: 1}] * 8
    tournament.cache_version = 8  # a new version is computed anew
    assert per_version.kept("x", tournament, compute) == {1: 1} and len(computed) == 2
    per_version.forget()


def test_only_the_last_versions_are_kept() -> None:
    per_version.forget()
    for version in range(per_version.KEEP + 3):
        per_version.kept("x", SimpleNamespace(pk=1, cache_version=version, cache_changed_at=None), lambda: {1: 1})
    assert len(per_version._kept) == per_version.KEEP
    per_version.forget()
