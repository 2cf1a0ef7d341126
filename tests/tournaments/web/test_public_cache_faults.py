"""The public pages' cache where it can go wrong: a cache that does not answer (the site loses speed, not
pages), a page's tag answered for another page, and the tournament list's date going backwards."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from django.core.cache.backends.base import BaseCache
from django.test import Client
from django.urls import reverse
from django.utils.http import parse_http_date

from tournaments.models import Tournament
from tournaments.rounds import services
from tournaments.web import public_cache

pytestmark = pytest.mark.django_db


class BrokenCache(BaseCache):
    """A cache server that is down: every call raises, as Django's Redis backend does then."""

    calls = 0

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        type(self).calls += 1
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    get = set = add = delete = has_key = get_many = set_many = delete_many = incr = touch = clear = _fail


@pytest.fixture
def broken_cache(settings: Any) -> Any:
    settings.DAMIER_PAGE_CACHE = True
    settings.CACHES = {"default": {"BACKEND": f"{__name__}.BrokenCache"}}
    BrokenCache.calls = 0
    _reset()
    yield
    _reset()


def _reset() -> None:
    """Each test starts with the cache taken for answering (its failure not yet seen)."""
    shared = getattr(public_cache, "shared", None)
    if shared is not None:
        shared._down_until = None


PAGES = ["tournaments:list", "tournaments:tournament", "tournaments:standings", "tournaments:crosstable",
         "tournaments:round", "tournaments:player", "tournaments:games_pdn", "tournaments:standings_pdf"]


def _url(name: str, t: Tournament) -> str:
    if name == "tournaments:list":
        return reverse(name)
    if name in ("tournaments:round", "tournaments:player"):
        return reverse(name, args=[t.slug, 1])
    return reverse(name, args=[t.slug])


def test_a_cache_that_does_not_answer_is_a_miss_logged_once(
        published_round: Any, broken_cache: None, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    t, rnd, _ = published_round
    anon = Client(raise_request_exception=False)
    with caplog.at_level(logging.WARNING, logger="tournaments.web.public_cache"):
        for name in PAGES:
            response = anon.get(_url(name, t))
            assert response.status_code == 200, name
            # Marked for revalidation, and a 304 once the page is known to exist.
            assert response["ETag"]
            assert anon.get(_url(name, t), headers={"if-none-match": response["ETag"]}).status_code == 304
        # A saved result shows at once: nothing was kept anywhere.
        before = anon.get(_url("tournaments:standings", t))
        services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
        after = anon.get(_url("tournaments:standings", t), headers={"if-none-match": before["ETag"]})
        assert after.status_code == 200 and after.content != before.content
    failures = [r for r in caplog.records if "does not answer" in r.getMessage()]
    assert len(failures) == 1 and failures[0].levelno == logging.ERROR
    # Left alone while it is down: one call failed, the rest did not ask it.
    assert BrokenCache.calls == 1
    # Once the pause is over it is asked again, and a cache that answers again is said so.
    monkeypatch.setattr(public_cache.shared, "_down_until", time.monotonic() - 1)
    assert anon.get(_url("tournaments:standings", t)).status_code == 200
    assert BrokenCache.calls == 2


def test_a_cache_back_again_is_used_and_said(published_round: Any, page_cache: None,
                                             caplog: pytest.LogCaptureFixture) -> None:
    t, _, _ = published_round
    public_cache.shared._down_until = time.monotonic() - 1  # it failed, and the pause is over
    with caplog.at_level(logging.WARNING, logger="tournaments.web.public_cache"):
        first = Client().get(_url("tournaments:standings", t))
    assert first["X-Damier-Cache"] == "miss" and public_cache.shared._down_until is None
    assert any("answers again" in r.getMessage() for r in caplog.records)
    assert Client().get(_url("tournaments:standings", t))["X-Damier-Cache"] == "hit"


def _next_second() -> None:
    """HTTP dates are whole seconds: the changes a test compares by them must be in different seconds."""
    time.sleep(1.05 - time.time() % 1)


@pytest.mark.parametrize("cache_on", [True, False])
def test_a_tag_is_the_pages_own(published_round: Any, page_cache: None, settings: Any, cache_on: bool) -> None:
    """Another page's tag, or a missing page asked with one, never gets a 304."""
    settings.DAMIER_PAGE_CACHE = cache_on
    t, _, _ = published_round
    anon = Client()
    standings = anon.get(_url("tournaments:standings", t))
    crosstable = anon.get(_url("tournaments:crosstable", t))
    assert standings["ETag"] != crosstable["ETag"]
    tag = {"if-none-match": standings["ETag"]}
    assert anon.get(_url("tournaments:crosstable", t), headers=tag).status_code == 200
    assert anon.get(reverse("tournaments:round", args=[t.slug, 99]), headers=tag).status_code == 404
    assert anon.get(reverse("tournaments:player", args=[t.slug, 99]), headers=tag).status_code == 404
    assert anon.get(_url("tournaments:standings", t) + "?round=1", headers=tag).status_code == 200
    assert anon.get(_url("tournaments:standings", t), headers=tag).status_code == 304


def test_a_missing_page_asked_if_modified_since_is_a_404(published_round: Any, page_cache: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    t, _, _ = published_round
    monkeypatch.setattr(public_cache.time, "time", lambda: time.time_ns() / 1e9 + 10)
    anon = Client()
    since = {"if-modified-since": anon.get(_url("tournaments:standings", t))["Last-Modified"]}
    assert anon.get(_url("tournaments:standings", t), headers=since).status_code == 304
    assert anon.get(reverse("tournaments:round", args=[t.slug, 99]), headers=since).status_code == 404


def test_the_lists_date_never_goes_backwards(make_tournament: Any, page_cache: None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Deleting the tournament changed last must not bring Last-Modified back to an older date, which a
    reader's If-Modified-Since would then answer with 304 for a list that lost a line."""
    monkeypatch.setattr(public_cache.time, "time", lambda: time.time_ns() / 1e9 + 3600)
    make_tournament(4, slug="older")
    _next_second()
    newer = make_tournament(4, slug="newer")
    anon = Client()
    before = anon.get(reverse("tournaments:list"))
    assert before.status_code == 200 and b"newer" in before.content
    since = {"if-modified-since": before["Last-Modified"]}
    assert anon.get(reverse("tournaments:list"), headers=since).status_code == 304
    _next_second()
    newer.delete()
    after = anon.get(reverse("tournaments:list"), headers=since)
    assert after.status_code == 200 and b"/t/newer/" not in after.content
    assert parse_http_date(after["Last-Modified"]) >= parse_http_date(before["Last-Modified"])
