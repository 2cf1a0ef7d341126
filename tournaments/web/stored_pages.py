"""Stored public pages answered before the layers a stored page does not need.

During a round the crowd reloads the same few pages; once a page is stored (tournaments.web.public_cache),
answering it is a version query and a cache read. Behind them, the session, authentication, CSRF, messages,
history and login-throttling middleware cost as much again for every reader, and none of them can change
what an anonymous reader is shown. This middleware sits before them (after the security headers and the
compression) and answers a stored page or a 304 itself, with the headers those layers would have added.

It only answers when the outcome is certain to be the one the full stack gives:
- a GET or HEAD with no session cookie: sessions are the only way to sign in, so the reader is anonymous
  (a signed-in arbiter may see drafts; his pages are never stored nor served from the store);
- a URL whose view is wrapped by `cached_public`, of a public tournament, already stored for this version,
  language and query (or unchanged since the reader's copy: a 304);
- not a shared link that switches the reader's language (`?lang=` different from the cookie), which sets
  the language cookie on the way out.
Anything else, a miss included, goes down the full stack as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation

from tournaments.web import kept_answers
from tournaments.web.language import linked_language
from tournaments.web.public_cache import look_up, page_cache_enabled, skip_health_check


class StoredPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        answer = self._stored(request)
        return answer if answer is not None else self.get_response(request)

    def _stored(self, request: HttpRequest) -> HttpResponse | None:
        if (request.method not in ("GET", "HEAD") or settings.SESSION_COOKIE_NAME in request.COOKIES
                or not page_cache_enabled()):
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        public = getattr(match.func, "damier_public", None)
        if public is None:
            return None
        linked = linked_language(request)
        if linked is not None and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != linked:
            return None
        # As LocaleMiddleware, then LanguageFromQueryMiddleware, would choose it (no i18n_patterns here).
        language = linked or translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        params, scope = public
        try:
            skip_health_check()
            found = look_up(request, match.kwargs.get("slug"), params, scope)
        except DatabaseError:
            # A connection the database dropped (a restart, an idle timeout): let it go, and let the
            # full stack answer on a new one.
            connection.close()
            return None
        if found is not None and found.answer is None:
            # A miss: the view renders it below; what was read here is not read twice.
            request.damier_lookup = found  # type: ignore[attr-defined]
        if found is None or found.answer is None:
            return None
        response = found.answer
        # What LocaleMiddleware, XFrameOptionsMiddleware and CommonMiddleware add on the way out (the
        # stored page already varies on Accept-Language).
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        if response.get("X-Frame-Options") is None:
            response.headers["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
        if not response.has_header("Content-Length"):
            response.headers["Content-Length"] = str(len(response.content))
        # An answer the full stack gives alike to the next reader asking in the same words, while the version
        # holds: config/wsgi.py gives it again before Django builds a request (tournaments/web/kept_answers.py).
        kept_answers.mark(response, scope, match.kwargs.get("slug"), found.stamp)
        return response
