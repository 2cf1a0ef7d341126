"""KeptAnswers: a stored page asked again in the same words is given as the full stack gave it, before
Django builds a request, and only while the tournament's version holds."""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError, close_old_connections
from django.urls import reverse

from tournaments.rounds import services
from tournaments.web import kept_answers, public_cache
from tournaments.web.kept_answers import KeptAnswers

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _page_cache(page_cache: None) -> None:
    """The page cache on, in a folder of this test's (or the Redis of DAMIER_CACHE_URL)."""


class Counted:
    """Django's WSGI application, counting the requests it was given."""

    def __init__(self) -> None:
        self.django = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.django(environ, start_response)


@pytest.fixture(autouse=True)
def _request_signals_keep_the_connection() -> Iterator[None]:
    # As Django's test client does: the request signals would close the test's connection, whose
    # transaction holds the test's data.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def app() -> KeptAnswers:
    return KeptAnswers(Counted())  # type: ignore[arg-type]


def get(app: KeptAnswers, path: str, query: str = "", method: str = "GET",
        **headers: str) -> tuple[str, list[tuple[str, str]], bytes, bool]:
    """status, headers, body, and whether Django answered (else the kept answer did)."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SCRIPT_NAME": "",
               "SERVER_NAME": "testserver", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
               "HTTP_HOST": "testserver", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b""),
               "wsgi.errors": io.StringIO(), "wsgi.multithread": True, "wsgi.multiprocess": True,
               "wsgi.run_once": False, **{f"HTTP_{k.upper()}": v for k, v in headers.items()}}
    seen: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen["status"], seen["headers"] = status, response_headers

    before = app.app.calls  # type: ignore[attr-defined]
    result = app(environ, start_response)
    body = b"".join(result)
    if hasattr(result, "close"):
        result.close()
    return seen["status"], seen["headers"], body, app.app.calls > before  # type: ignore[attr-defined]


def header(headers: list[tuple[str, str]], name: str) -> str | None:
    return next((v for k, v in headers if k.lower() == name.lower()), None)


@pytest.mark.parametrize("asked", [{}, {"accept_encoding": "gzip, deflate, br"}, {"accept_language": "fr"},
                                   {"cookie": f"{settings.LANGUAGE_COOKIE_NAME}=nl"}])
@pytest.mark.parametrize("url_name", ["standings", "crosstable", "round", "crosstable_pdf", "games_pdn"])
def test_asked_again_in_the_same_words_the_full_stacks_answer_is_given_again(
        app: KeptAnswers, published_round: Any, url_name: str, asked: dict[str, str]) -> None:
    t, rnd, _ = published_round
    url = reverse(f"tournaments:{url_name}", args=[t.slug, rnd.number] if url_name == "round" else [t.slug])
    rendered = get(app, url, **asked)
    assert header(rendered[1], "X-Damier-Cache") == "miss" and rendered[3]
    stored = get(app, url, **asked)  # StoredPageMiddleware's answer, kept
    assert header(stored[1], "X-Damier-Cache") == "hit" and stored[3]
    again = get(app, url, **asked)
    assert not again[3], "Django was asked again"
    assert again[:3] == stored[:3]
    # The page the view rendered (compressed with a random filler against BREACH, so compared unpacked).
    unpack = gzip.decompress if header(again[1], "Content-Encoding") == "gzip" else bytes
    assert unpack(again[2]) == unpack(rendered[2])


def test_a_save_is_seen_at_once_and_its_page_kept_in_turn(app: KeptAnswers, published_round: Any) -> None:
    t, rnd, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    get(app, url)
    before = get(app, url)
    assert not get(app, url)[3]
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    after = get(app, url)
    assert after[3] and header(after[1], "ETag") != header(before[1], "ETag") and after[2] != before[2]
    get(app, url)
    assert get(app, url)[:3] == get(app, url)[:3] and not get(app, url)[3]


def test_a_304_is_kept_too_and_a_save_ends_it(app: KeptAnswers, published_round: Any) -> None:
    t, rnd, _ = published_round
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    etag = header(get(app, url)[1], "ETag") or ""
    get(app, url, if_none_match=etag)
    kept = get(app, url, if_none_match=etag)
    assert kept[0].startswith("304") and not kept[3] and header(kept[1], "ETag") == etag and kept[2] == b""
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="1-1")
    fresh = get(app, url, if_none_match=etag)
    assert fresh[0].startswith("200") and fresh[3]


def test_other_words_are_asked_of_django(app: KeptAnswers, published_round: Any) -> None:
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    get(app, url)
    get(app, url)
    assert get(app, url, accept_language="nl")[3]
    assert get(app, url, accept_encoding="gzip")[3]
    assert get(app, url, query="round=1")[3]
    assert get(app, url, method="HEAD")[3]
    assert get(app, url, cookie=f"{settings.LANGUAGE_COOKIE_NAME}=fr")[3]


def test_a_readers_other_cookies_do_not_matter(app: KeptAnswers, published_round: Any) -> None:
    """Only the language cookie changes a stored page; a CSRF cookie left by the login page must not make
    each phone's request a key of its own."""
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    get(app, url)
    plain = get(app, url)
    with_cookies = get(app, url, cookie="csrftoken=abc123; _pk_id=42")
    assert not with_cookies[3] and with_cookies[:3] == plain[:3]


def test_never_for_a_signed_in_arbiter_a_cookie_being_set_or_a_tournament_no_longer_public(
        app: KeptAnswers, published_round: Any) -> None:
    t, rnd, arbiter_client = published_round
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    session = f"{settings.SESSION_COOKIE_NAME}={arbiter_client.cookies[settings.SESSION_COOKIE_NAME].value}"
    for _ in range(3):
        assert get(app, url, cookie=session)[3]
    # A shared link that switches the reader's language sets the language cookie: the full stack each time.
    for _ in range(3):
        status, headers, _, by_django = get(app, url, query="lang=ru")
        assert by_django and "django_language=ru" in (header(headers, "Set-Cookie") or "")
    get(app, url)
    get(app, url)
    assert not get(app, url)[3]
    t.public = False
    t.save()
    status, _, _, by_django = get(app, url)
    assert by_django and status.startswith("404")


def test_last_modified_is_given_as_the_full_stack_would_give_it_now(app: KeptAnswers, published_round: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Last-Modified appears once the save is 2 s old: an answer kept without it is not given after that."""
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    monkeypatch.setattr(public_cache, "last_modified", lambda stamp: None)  # the save is not 2 s old yet
    get(app, url)
    young = get(app, url)
    assert header(young[1], "Last-Modified") is None and not get(app, url)[3]
    monkeypatch.setattr(public_cache, "last_modified", lambda stamp: 1_700_000_000)
    later = get(app, url)
    assert later[3] and header(later[1], "Last-Modified") == "Tue, 14 Nov 2023 22:13:20 GMT"
    assert not get(app, url)[3]


def test_a_dropped_database_connection_is_left_to_django(app: KeptAnswers, published_round: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    t, _, _ = published_round
    url = reverse("tournaments:standings", args=[t.slug])
    get(app, url)
    get(app, url)
    stamp = public_cache.tournament_stamp
    failures = [OperationalError("server closed the connection unexpectedly")]

    def dropped_once(slug: str) -> Any:
        if failures:
            raise failures.pop()
        return stamp(slug)

    monkeypatch.setattr(public_cache, "tournament_stamp", dropped_once)
    monkeypatch.setattr(kept_answers.connection, "close", lambda: None)  # the test's transaction stays
    status, _, _, by_django = get(app, url)
    assert by_django and status.startswith("200") and not failures


def test_at_most_size_answers_are_kept(published_round: Any) -> None:
    small = KeptAnswers(Counted(), size=2)  # type: ignore[arg-type]
    t, rnd, _ = published_round
    urls = [reverse("tournaments:standings", args=[t.slug]), reverse("tournaments:crosstable", args=[t.slug]),
            reverse("tournaments:round", args=[t.slug, rnd.number])]
    for url in urls:
        get(small, url)
        get(small, url)
    assert len(small._kept) == 2
    assert get(small, urls[0])[3] and not get(small, urls[2])[3]


def test_the_layers_above_stored_pages_are_the_ones_the_key_was_written_for() -> None:
    """kept_answers.KEY names what these layers read of a request. A layer added above StoredPageMiddleware
    may read something else (a header, the client's address): then KEY must be looked at again."""
    above = settings.MIDDLEWARE[:settings.MIDDLEWARE.index("tournaments.web.stored_pages.StoredPageMiddleware")]
    assert above == ["django.middleware.security.SecurityMiddleware",
                     "config.http.SecurityPolicyMiddleware",  # reads nothing of the request
                     "whitenoise.middleware.WhiteNoiseMiddleware",
                     "tournaments.web.compression.PublicGZipMiddleware"]
    assert settings.WSGI_APPLICATION == "config.wsgi.application"
    from config.wsgi import application

    assert isinstance(application, KeptAnswers)
