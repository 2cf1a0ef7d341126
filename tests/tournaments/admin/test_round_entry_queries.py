"""Saving one result on the round page costs the same queries whatever the number of boards (the
arbiter's save on a 100-board round held a server worker for most of a second, a query per board)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.test_permissions import change_url, scrape_form
from tournaments.models import System
from tournaments.rounds import services


def _queries_to_save_one_result(make_tournament, arbiter, players: int, slug: str) -> int:  # type: ignore[no-untyped-def]
    t = make_tournament(players, system=System.SWISS, slug=slug, rounds_total=5)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    client = Client()
    client.force_login(arbiter)
    url = change_url(rnd)
    game = rnd.games.order_by("board").first()
    form = scrape_form(client, url)
    index = next(k.split("-")[1] for k, v in form.items() if k.endswith("-id") and v == str(game.pk))
    form[f"games-{index}-result"] = "2-0"
    form["_continue"] = "1"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, form)
    assert response.status_code == 302, response.content[:500]
    game.refresh_from_db()
    assert game.result == "2-0"
    return len(queries)


@pytest.mark.django_db
def test_one_save_does_not_query_per_board(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    small = _queries_to_save_one_result(make_tournament, arbiter, 8, "small")
    large = _queries_to_save_one_result(make_tournament, arbiter, 40, "large")
    assert large == small, (small, large)
