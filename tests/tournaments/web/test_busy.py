"""A lost race (tournaments.web.busy) on a form that was posted: nothing is saved and nothing typed is lost."""

from __future__ import annotations

import html
import re
from typing import Any
from unittest import mock

import psycopg.errors
import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_permissions import scrape_form
from tournaments.admin.tournaments import TournamentAdmin
from tournaments.models import System

pytestmark = pytest.mark.django_db


def _deadlock(*args: Any, **kwargs: Any) -> None:
    exc = OperationalError("deadlock detected")
    exc.__cause__ = psycopg.errors.DeadlockDetected("deadlock detected")
    raise exc


def _hidden_inputs(page: str) -> dict[str, list[str]]:
    """The hidden fields of the page's form that tries again."""
    form = page[page.index('id="busy-retry"'):]
    found: dict[str, list[str]] = {}
    for tag in re.findall(r"<input[^>]*>", form[:form.index("</form>")]):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and 'type="hidden"' in tag:
            found.setdefault(html.unescape(name[1]), []).append(html.unescape(value[1] if value else ""))
    return found


def test_a_lost_race_on_a_posted_form_keeps_what_was_typed(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="busy", rounds_total=3)
    chief = Client(enforce_csrf_checks=True)
    chief.force_login(arbiter)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    typed = '<script>alert(1)</script> "Hall" & \'Co\''
    data = scrape_form(chief, url, venue=typed)
    data["csrfmiddlewaretoken"] = chief.cookies["csrftoken"].value
    with mock.patch.object(TournamentAdmin, "save_model", _deadlock):
        response = chief.post(url, data)
    page = response.content.decode()
    assert response.status_code == 503
    assert "another arbiter was pairing or saving this tournament" in html.unescape(page)
    assert "<script>alert(1)</script>" not in page  # the typed text is escaped in the page
    kept = _hidden_inputs(page)
    assert kept["venue"] == [typed]
    assert kept["name"] == [t.name]
    assert len(kept["csrfmiddlewaretoken"]) == 1  # one token, the page's own
    t.refresh_from_db()
    assert t.venue == ""
    # 'Try again' posts what was typed once more: this time it is saved.
    again = {k: v if len(v) > 1 else v[0] for k, v in kept.items()}
    response = chief.post(url, again)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert t.venue == typed
