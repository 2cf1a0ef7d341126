"""Fixtures for the Django side: small tournaments built through the services."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Player, System, Tournament
from tournaments.players import roster
from tournaments.rounds import services


@pytest.fixture
def make_players(db: None) -> Callable[[int], list[Player]]:
    def make(n: int, start_rating: int = 2400) -> list[Player]:
        return [
            Player.objects.create(surname=f"Player{i:02d}", given_name="Test", rating=start_rating - 10 * i,
                                  federation="NED", fmjd_id=90000 + i + Player.objects.count() * 1000)
            for i in range(1, n + 1)
        ]

    return make


@pytest.fixture
def arbiter(db: None):  # type: ignore[no-untyped-def]
    return get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)


@pytest.fixture
def chief(arbiter):  # type: ignore[no-untyped-def]
    """The chief arbiter's logged-in client."""
    from django.test import Client

    client = Client()
    client.force_login(arbiter)
    return client


@pytest.fixture
def make_tournament(db: None, make_players, arbiter):  # type: ignore[no-untyped-def]
    def make(n: int = 4, system: str = System.ROUND_ROBIN, slug: str = "t", **kwargs: object) -> Tournament:
        t = Tournament.objects.create(name=f"Test {slug}", slug=slug, system=system, chief_arbiter=arbiter,
                                      start_date=datetime.date(2026, 1, 1), public=True, **kwargs)
        for p in make_players(n):
            roster.entry_add(tournament=t, player=p)
        return t

    return make


@pytest.fixture
def swiss9(make_tournament):  # type: ignore[no-untyped-def]
    """A nine-player, five-round Swiss, not yet paired."""
    return make_tournament(9, system=System.SWISS, slug="swiss9", rounds_total=5)


@pytest.fixture
def published_round(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    """A 4-player tournament with round 1 published, and the arbiter's logged-in client."""
    from django.test import Client

    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    client = Client()
    client.force_login(arbiter)
    return t, rnd, client


@pytest.fixture
def page_cache(settings, tmp_path):  # type: ignore[no-untyped-def]
    """The public page cache switched on: files in this test's folder, or the Redis server named by
    DAMIER_CACHE_URL (CI runs the cache tests against one), emptied before and after."""
    import os

    from django.core.cache import cache, caches

    settings.DAMIER_PAGE_CACHE = True
    if not os.environ.get("DAMIER_CACHE_URL"):
        # the two layers of production: the shared cache, and each process's memory of the pages it served
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                       "LOCATION": str(tmp_path / "cache")},
                           "pages-local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                           "LOCATION": str(tmp_path)}}
    def clear() -> None:
        cache.clear()
        if "pages-local" in settings.CACHES:  # a test may set CACHES of its own (the Redis one)
            caches["pages-local"].clear()

    clear()
    yield
    clear()
