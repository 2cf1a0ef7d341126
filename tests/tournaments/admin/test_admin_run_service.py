"""The admin's one way of calling a service: a refusal becomes a message and nothing is written, a success is
said, a page's own question (a confirmation) reaches the page."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import RequestFactory

from tournaments.admin.base import run_service
from tournaments.conformance.events import NeedsConfirmation
from tournaments.errors import DomainError
from tournaments.models import Tournament


def a_request():  # type: ignore[no-untyped-def]
    request = RequestFactory().post("/")
    SessionMiddleware(lambda r: None).process_request(request)
    request._messages = FallbackStorage(request)
    return request


def said(request) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(m.level_tag, str(m)) for m in get_messages(request)]


def test_a_refusal_is_one_error_message_worded_by_the_page_and_nothing_is_written(make_tournament) -> None:
    t = make_tournament(2)
    request = a_request()

    def rename_then_refuse() -> None:
        Tournament.objects.filter(pk=t.pk).update(name="half-written")
        raise DomainError("round 2 is a draft")

    ran = run_service(request, rename_then_refuse, "done", refused="Nothing was done: %(why)s")
    assert not ran and ran.value is None
    assert said(request) == [("error", "Nothing was done: round 2 is a draft")]
    assert Tournament.objects.get(pk=t.pk).name == t.name, "the transaction is rolled back"


def test_a_success_is_said_from_the_calls_value_and_the_value_returned(db) -> None:
    request = a_request()
    ran = run_service(request, lambda: 3, lambda n: f"{n} sheets stored")
    assert ran and ran.value == 3
    assert said(request) == [("success", "3 sheets stored")]
    quiet = a_request()
    assert run_service(quiet, lambda: None).ok and said(quiet) == []


def test_a_question_named_in_passes_reaches_the_page_unsaid(db) -> None:
    request = a_request()

    class Question(DomainError):
        pass

    def ask() -> None:
        raise Question("tick the box")

    with pytest.raises(Question):
        run_service(request, ask, "done", passes=(Question, NeedsConfirmation))
    assert said(request) == []
    assert not run_service(request, ask, "done")  # not named: a refusal like any other
    assert said(request) == [("error", "tick the box")]
