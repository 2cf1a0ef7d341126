"""StoredPageMiddleware: a stored public page is answered before sessions, auth and the rest, exactly as the
full stack would answer it, and only when nothing below could change the answer."""

from __future__ import annotations

import gzip
import threading
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, connection, connections
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from tournaments.rounds import services
from tournaments.web import public_cache, stored_pages
from tournaments.web.stored_pages import StoredPageMiddleware

pytestmark = pytest.mark.django_db

VARYING = {"Date", "Expires", "Last-Modified"}  # Last-Modified: once its second is 2 s old


@pytest.fixture(autouse=True)
def _page_cache(page_cache: None) -> None:
    """The page cache on, in a folder of this test's (or the Redis of DAMIER_CACHE_URL)."""


def _down_the_stack(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the middleware passed the request on")


def shortcut(request: HttpRequest) -> HttpResponse | None:
    """What the middleware answers by itself, or None when it hands the request to the full stack."""
    return StoredPageMiddleware(_down_the_stack)._stored(request)


def headers(response: Any) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k not in VARYING}


@pytest.mark.parametrize("encoding", ["", "gzip, deflate, br"])
@pytest.mark.parametrize("url_name", ["standings", "crosstable", "round", "crosstable_pdf", "games_pdn"])
def test_a_stored_page_is_answered_as_the_full_stack_answers_it(published_round: Any, url_name: str,
                                                                encoding: str) -> None:
    t, rnd, _ = published_round
    args = [t.slug, rnd.number] if url_name == "round" else [t.slug]
    url = reverse(f"tournaments:{url_name}", args=args)
    asked = {"accept-encoding": encoding} if encoding else {}
    rendered = Client().get(url, headers=asked)
    assert rendered["X-Damier-Cache"] == "miss"
    # A session cookie that signs nobody in takes the full stack: the reference answer.
    full = Client()
    full.cookies[settings.SESSION_COOKIE_NAME] = "no-such-session"
    reference = full.get(url, headers=asked)
    assert reference["X-Damier-Cache"] == "hit"
    direct = shortcut(RequestFactory().get(url, headers=asked))
    assert direct is not None and direct.content == reference.content
    through_client = Client().get(url, headers=asked)
    assert headers(through_client) == headers(reference)
    assert through_client.content == reference.content
    assert "Accept-Encoding" in through_client["Vary"]
    if encoding:
        # Compressed once when stored, not again for every reader; the same page as the render.
        assert through_client["Content-Encoding"] == "gzip" == rendered["Content-Encoding"]
        assert gzip.decompress(through_client.content) == gzip.decompress(rendered.content)
        assert int(through_client["Content-Length"]) == len(through_client.content)
    else:
        assert "Content-Encoding" not in through_client and through_client.content == rendered.content


def test_a_304_is_answered_too_and_a_save_is_seen_at_once(published_round: Any) -> None:
    t, rnd, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    etag = Client().get(url)["ETag"]
    answer = shortcut(RequestFactory().get(url, headers={"if-none-match": etag}))
    assert answer is not None and answer.status_code == 304 and answer["ETag"] == etag
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    # The version moved: not stored yet for it, so the full stack renders the new page.
    assert shortcut(RequestFactory().get(url, headers={"if-none-match": etag})) is None
    fresh = Client().get(url, headers={"if-none-match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_the_reader_language_picks_the_stored_page_of_that_language(published_round: Any) -> None:
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    Client().get(url, headers={"accept-language": "fr"})
    assert shortcut(RequestFactory().get(url, headers={"accept-language": "nl"})) is None  # not stored in Dutch
    french = shortcut(RequestFactory().get(url, headers={"accept-language": "fr"}))
    assert french is not None and french["Content-Language"] == "fr"
    cookie = RequestFactory().get(url)
    cookie.COOKIES[settings.LANGUAGE_COOKIE_NAME] = "fr"
    answered = shortcut(cookie)
    assert answered is not None and answered.content == french.content


def test_a_shared_link_that_switches_the_language_takes_the_full_stack(published_round: Any) -> None:
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug]) + "?lang=ru"
    first = Client().get(url)
    assert first.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert shortcut(RequestFactory().get(url)) is None  # the cookie must still be set
    kept = RequestFactory().get(url)
    kept.COOKIES[settings.LANGUAGE_COOKIE_NAME] = "ru"
    answered = shortcut(kept)
    assert answered is not None and answered["Content-Language"] == "ru"


def test_never_for_a_signed_in_arbiter_a_private_page_or_a_write(published_round: Any) -> None:
    t, rnd, arbiter_client = published_round
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    Client().get(url)
    with_session = RequestFactory().get(url)
    with_session.COOKIES[settings.SESSION_COOKIE_NAME] = arbiter_client.cookies[settings.SESSION_COOKIE_NAME].value
    assert shortcut(with_session) is None
    assert shortcut(RequestFactory().post(url)) is None
    assert shortcut(RequestFactory().get(reverse("tournaments:scoresheets_pdf", args=[t.slug, rnd.number]))) is None
    assert shortcut(RequestFactory().get("/admin/")) is None
    assert shortcut(RequestFactory().get("/no/such/page/")) is None
    t.public = False
    t.save()
    assert shortcut(RequestFactory().get(url)) is None


def test_a_dropped_database_connection_falls_back_to_the_full_stack(published_round: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut skips the health check's extra query; a dead connection must not become an error page."""
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    Client().get(url)

    def dropped(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(stored_pages, "look_up", dropped)
    closed: list[bool] = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(True))
    assert shortcut(RequestFactory().get(url)) is None and closed
    monkeypatch.undo()
    assert Client().get(url).status_code == 200


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_ended_still_answers_the_page(published_round: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    import psycopg

    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    assert Client().get(url).status_code == 200
    backend = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [backend])
    answer = Client().get(url)
    assert answer.status_code == 200 and answer["X-Damier-Cache"] in ("hit", "miss")
    assert connection.connection is not None and connection.connection.info.backend_pid != backend


# --- After a save, the crowd misses the same page at once: one request renders it ------------------------


def _page_key(url: str) -> str:
    translation.activate(settings.LANGUAGE_CODE)
    found = public_cache.look_up(RequestFactory().get(url), url.split("/")[2], ("round",), "tournament")
    assert found is not None and found.key is not None and found.answer is None
    return found.key


def _get_in_a_thread(url: str) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []

    def get() -> None:
        try:
            answers.append(Client().get(url))
        finally:
            connections.close_all()  # the thread's own connection, or PostgreSQL cannot drop the test database

    thread = threading.Thread(target=get)
    thread.start()
    return thread, answers


@pytest.mark.django_db(transaction=True)
def test_a_page_being_rendered_is_waited_for_not_rendered_again(published_round: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    t, _, _ = published_round
    monkeypatch.setattr(public_cache, "RENDER_WAIT", 60.0)
    url = reverse("tournaments:standings", args=[t.slug])
    key = _page_key(url)
    assert public_cache._claim_render(key) is True  # another request is rendering it
    assert public_cache._claim_render(key) is False
    thread, answers = _get_in_a_thread(url)
    thread.join(0.3)
    assert thread.is_alive()  # waiting, not rendering
    cache.set(key, (200, b"the other request's render", [("Content-Type", "text/html; charset=utf-8")], None))
    thread.join(30)
    assert not thread.is_alive() and answers[0].content == b"the other request's render"
    assert answers[0]["X-Damier-Cache"] == "hit" and answers[0]["ETag"]


@pytest.mark.django_db(transaction=True)
def test_a_render_that_ended_without_storing_is_not_waited_for(published_round: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    t, _, _ = published_round
    monkeypatch.setattr(public_cache, "RENDER_WAIT", 60.0)
    url = reverse("tournaments:standings", args=[t.slug])
    key = _page_key(url)
    assert public_cache._claim_render(key) is True
    thread, answers = _get_in_a_thread(url)
    thread.join(0.3)
    cache.delete(f"{key}:rendering")  # that render failed, or its version moved on
    thread.join(30)
    assert not thread.is_alive()
    assert answers[0].status_code == 200 and t.name.encode() in answers[0].content
    assert answers[0]["X-Damier-Cache"] == "miss"
