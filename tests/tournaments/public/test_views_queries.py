"""A 200-player, 9-round Swiss page costs the same number of queries as a small one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.pages import build_swiss

pytestmark = pytest.mark.django_db

PAGES = ["standings", "crosstable", "standings_pdf", "crosstable_pdf"]


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.mark.parametrize("page", PAGES)
def test_query_count_does_not_grow_with_the_tournament(client: Client, page: str) -> None:
    small = build_swiss(12, 3, slug="small")
    big = build_swiss(200, 9, slug="big")
    assert big.entries.count() == 200 and big.rounds.count() == 9
    n_small = count_queries(client, reverse(f"tournaments:{page}", args=[small.slug]))
    n_big = count_queries(client, reverse(f"tournaments:{page}", args=[big.slug]))
    assert n_big == n_small
    # Tournament, rounds, entries with players, games with rounds (and the session-less request
    # touches nothing else): a fixed handful, whatever the size.
    assert n_big <= 6


def test_big_crosstable_is_complete(client: Client) -> None:
    big = build_swiss(200, 9, slug="big")
    html = client.get(reverse("tournaments:crosstable", args=[big.slug])).content.decode()
    assert html.count("<tr ") == 200
    assert "Joueur199" in html


def test_player_and_round_pages_cost_a_fixed_number_of_queries(client: Client) -> None:
    small = build_swiss(12, 3, slug="small")
    big = build_swiss(200, 9, slug="big")
    for name, args_small, args_big in [
        ("player", [small.slug, 5], [big.slug, 5]),
        ("round", [small.slug, 3], [big.slug, 9]),
    ]:
        assert count_queries(client, reverse(f"tournaments:{name}", args=args_small)) == count_queries(
            client, reverse(f"tournaments:{name}", args=args_big)), name
