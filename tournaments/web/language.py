"""The language of a shared link: `?lang=nl` in the URL.

LocaleMiddleware takes the language from the reader's cookie or browser; a link shared by an arbiter in
Utrecht (`…/standings/?lang=nl`) must open in Dutch for everyone who follows it, and keep Dutch as the reader
moves on through the site. This middleware runs after LocaleMiddleware and before any view, so the public
page cache (keyed on the active language) stores and serves the page in the linked language.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

PARAM = "lang"


def linked_language(request: HttpRequest) -> str | None:
    code = request.GET.get(PARAM, "")
    return code if code in dict(settings.LANGUAGES) else None


class LanguageFromQueryMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = linked_language(request)
        if code is not None:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        response = self.get_response(request)
        if code is not None and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != code:
            # The reader keeps the linked language on the next pages (the same cookie the switch sets).
            # Set here, after the page cache has stored the response, so no cookie is ever stored with it.
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
                                path=settings.LANGUAGE_COOKIE_PATH, samesite="Lax")
        return response


def path_without_lang(request: HttpRequest) -> str:
    """The page's path and query without `lang`, for the language switch's `next` (else the old `lang`
    in the URL would win over the language just chosen)."""
    query = [(k, v) for k in request.GET if k != PARAM for v in request.GET.getlist(k)]
    return request.path + (f"?{urlencode(query)}" if query else "")


def context(request: HttpRequest) -> dict[str, str]:
    """Template context: `switch_next`, the `next` of the language switch."""
    return {"switch_next": path_without_lang(request)}
