"""The crowd's stored pages answered again before Django builds a request.

StoredPageMiddleware answers a stored public page without sessions, auth or the view, but only after Django
has built a request, sent its signals and run the layers above it (security headers, static files,
compression). On the 2-core server that was 0.5 ms of CPU per reader, as much as gunicorn's own work
(a 96 KB page answered by a bare WSGI app: 0.42 ms). The tournament's version query, the one thing a
stored page needs to stay fresh, is a third of it.

So the answer the full stack gave (status, headers, body) is kept, and given again to the next request
that asks the same thing in the same words, once the version query shows nothing changed since. Nothing
is re-implemented: what is given is exactly what Django gave, so it cannot drift from it as the
middleware changes.

- Only answers StoredPageMiddleware gave are kept (a stored page or a 304 for a reader with no session);
  it marks them. A rendered page, a signed-in user's, an error, a page that sets a cookie never is.
- "The same words": every request input that Django or a layer above StoredPageMiddleware reads (KEY and
  the language cookie; a test checks the layers are the ones it was written for). Browsers of one kind
  send these alike, so a crowd's reloads match; any other request goes through Django as before, and so
  does every request with a session cookie.
- Fresh: before each answer the version is read again, as StoredPageMiddleware does; when it moved, the
  request goes through Django, and what it answers is kept instead. Last-Modified, which appears once
  the save is 2 s old, must be present or absent as it was.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.http.cookie import parse_cookie

from tournaments.web import public_cache

# What Django and the layers above StoredPageMiddleware read of a request (tests/tournaments/
# test_kept_answers.py lists those layers): the host (ALLOWED_HOSTS), the scheme and the proxy's
# (SecurityMiddleware's redirect to HTTPS), the path and query, the language (Accept-Language, ?lang=, and
# the language cookie, which __call__ adds to the key), compression, and the conditional headers. The
# method is not in it: only GETs are kept or answered.
KEY = ("HTTP_HOST", "HTTP_X_FORWARDED_HOST", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme",
       "HTTP_X_FORWARDED_PROTO", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "HTTP_ACCEPT_LANGUAGE",
       "HTTP_ACCEPT_ENCODING", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE")

# About a dozen pages of a tournament in progress, in a few languages and encodings; at most this many
# answers per process (the largest, a 200-player crosstable, is 165 KB).
SIZE = 128

StartResponse = Callable[..., Any]


@dataclass(frozen=True)
class Mark:
    """What StoredPageMiddleware's answer was made from: the page's scope and tournament, and its version."""

    scope: str  # "tournament" or "site"
    slug: str | None
    version: str


@dataclass(frozen=True)
class _Kept:
    mark: Mark
    last_modified: bool
    status: str
    headers: list[tuple[str, str]]
    body: bytes


def mark(response: HttpResponse, scope: str, slug: str | None, stamp: public_cache.Stamp) -> None:
    response.damier_kept = Mark(scope, slug, stamp.version)  # type: ignore[attr-defined]


class KeptAnswers:
    """WSGI middleware around Django's application (config/wsgi.py)."""

    def __init__(self, app: WSGIHandler, size: int = SIZE) -> None:
        self.app = app
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        if settings.SESSION_COOKIE_NAME in cookies:
            return self.app(environ, start_response)  # perhaps signed in: Django decides, always
        # Of the cookies, only the language one matters above the view: a reader's other cookies (CSRF, a
        # proxy's) would otherwise make every phone's request a key of its own.
        key = (*(environ.get(name) for name in KEY), cookies.get(settings.LANGUAGE_COOKIE_NAME))
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and self._unchanged(environ, kept):
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        seen: dict[str, Any] = {}

        def recording(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            seen["status"], seen["headers"] = status, list(headers)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        response = self.app(environ, recording)
        made_from = getattr(response, "damier_kept", None)
        if (isinstance(made_from, Mark) and isinstance(response, HttpResponse) and "status" in seen
                and not any(name.lower() == "set-cookie" for name, _ in seen["headers"])):
            answer = _Kept(made_from, any(name == "Last-Modified" for name, _ in seen["headers"]),
                           seen["status"], seen["headers"], response.content)
            with self._lock:
                self._kept[key] = answer
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return response

    def forget(self) -> None:
        """Drop every kept answer (the tests start each from none)."""
        with self._lock:
            self._kept.clear()

    def _unchanged(self, environ: dict[str, Any], kept: _Kept) -> bool:
        """The version read again, within the request signals Django sends (they close a connection past its
        age, as for any request)."""
        signals.request_started.send(sender=self.__class__, environ=environ)
        try:
            public_cache.skip_health_check()
            stamp = (public_cache.site_stamp() if kept.mark.scope == "site"
                     else public_cache.tournament_stamp(kept.mark.slug or ""))
        except DatabaseError:
            connection.close()  # Django answers on a new connection
            stamp = None
        finally:
            signals.request_finished.send(sender=self.__class__)
        return (stamp is not None and stamp.version == kept.mark.version
                and (public_cache.last_modified(stamp) is not None) == kept.last_modified)
