"""The tournament page's list of entries: the player's title, federation and the tournament rating beside
each name, and the same number of queries for 8 entries as for 40."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Player
from tournaments.rounds import services


def _queries(client, tournament) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    with CaptureQueriesContext(connection) as q:
        page = client.get(url).content.decode()
    return len(q.captured_queries), page


def test_the_entries_show_title_federation_and_rating(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr4")
    Player.objects.filter(pk=t.entries.get(pairing_number=1).player_id).update(federation="NED")
    t.entries.filter(pairing_number=1).update(rating=2389, title="GMI")
    _, page = _queries(chief, t)
    row = page[page.index('id="entries-0"'):page.index('id="entries-1"')]
    assert "GMI" in row and "NED" in row and "2389" in row


def test_the_list_costs_the_same_queries_whatever_its_length(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    small, large = make_tournament(8, slug="small"), make_tournament(40, slug="large")
    for t in (small, large):
        services.round_pair(tournament=t)  # paired: every row locked, each player read-only
    _queries(chief, large)  # once first: what Django caches per process (content types, permissions) is read
    n_small, _ = _queries(chief, small)
    n_large, page = _queries(chief, large)
    assert n_large == n_small, (n_small, n_large)
    assert '<select name="entries-0-player" disabled' in page  # the player, read-only: no search widget

