"""An open of 1,000 players through the arbiter's pages: the round page of its 500 boards and the tournament
page of its 1,000 entries post more fields than Django's default limit (1,000), which answered 400 and lost
what was typed. Both are saved as a browser sends them."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_permissions import scrape_form
from tournaments.models import Entry, Player, Tournament
from tournaments.rounds import services

pytestmark = pytest.mark.django_db
PLAYERS = 1000


@pytest.fixture
def open_1000(arbiter: Any) -> tuple[Tournament, Client]:
    t = Tournament.objects.create(name="Open", slug="open", chief_arbiter=arbiter, public=True, rounds_total=9,
                                  system="swiss")
    players = Player.objects.bulk_create(Player(surname=f"Player{i:04d}", given_name="Test", rating=2400 - i,
                                                fmjd_id=500000 + i) for i in range(PLAYERS))
    Entry.objects.bulk_create(Entry(tournament=t, player=p, pairing_number=i) for i, p in enumerate(players, 1))
    client = Client()
    client.force_login(arbiter)
    return t, client


def _count(data: dict[str, Any]) -> int:
    return sum(len(v) if isinstance(v, list) else 1 for v in data.values())


def test_the_limit_is_sized_for_an_open_of_1000_players() -> None:
    assert settings.DATA_UPLOAD_MAX_NUMBER_FIELDS >= 5 * 500 + 4 * 1000 + 200


def test_a_500_board_round_is_entered_through_the_round_page(open_1000: tuple[Tournament, Client]) -> None:
    t, client = open_1000
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    boards = rnd.games.count()
    assert boards == 500
    results = ["2-0", "1-1", "0-2"]
    typed = {f"games-{i}-result": results[i % 3] for i in range(boards)}
    data = scrape_form(client, url, **typed, _continue="1")
    assert _count(data) > 2500  # five fields a board
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:500]
    saved = dict(rnd.games.values_list("board", "result"))
    assert sorted(set(saved.values())) == ["0-2", "1-1", "2-0"] and "" not in saved.values()


def test_the_tournament_page_of_1000_players_is_saved(open_1000: tuple[Tournament, Client]) -> None:
    t, client = open_1000
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    data = scrape_form(client, url, name="Open of the thousand", _continue="1")
    assert _count(data) > 4000  # four fields an entry
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:500]
    assert Tournament.objects.get(pk=t.pk).name == "Open of the thousand"
    assert t.entries.count() == PLAYERS
