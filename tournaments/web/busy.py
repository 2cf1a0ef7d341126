"""Two arbiters at the same moment: a database that gives up on one of them is a message, never a 500.

Every writer takes the tournament's row first, so PostgreSQL should never find a deadlock; should it find
one anyway (or a serialization failure, or a lock it could not get in time), it has rolled back the whole
request (ATOMIC_REQUESTS) and nothing is half-saved. The arbiter is told so and sent back to the page he was
on, to try again: retrying is the answer, as the other arbiter's work is done by then. A posted form comes
back as a page holding what was typed (its fields, hidden), whose button sends it again: a form never throws
away what was typed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

# PostgreSQL's SQLSTATEs for a transaction that lost to another one and may simply be run again.
RETRY_STATES = frozenset({"40P01", "40001", "55P03"})  # deadlock, serialization failure, lock not available


def is_retry_error(exc: BaseException) -> bool:
    """The database rolled this transaction back because of another one: trying again is the answer."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) in RETRY_STATES or getattr(cause, "pgcode", None) in RETRY_STATES


def busy_words() -> str:
    return _("Nothing was saved: another arbiter was pairing or saving this tournament at the same moment. "
             "Try again.")


class BusyDatabaseMiddleware:
    """Turns a lost race (deadlock, serialization failure) into the page again with a message."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_retry_error(exception):
            return None
        if request.method in ("GET", "HEAD"):
            response = HttpResponse(busy_words(), status=503, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = "1"
            return response
        fields = [(name, value) for name, values in request.POST.lists() if name != "csrfmiddlewaretoken"
                  for value in values]
        response = render(request, "admin/busy.html", {
            "title": _("Nothing was saved"), "words": busy_words(), "fields": fields,
            "files": bool(request.FILES), "action": request.get_full_path()}, status=503)
        response["Retry-After"] = "1"
        return response
