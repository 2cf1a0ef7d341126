"""Content-Security-Policy and Permissions-Policy on every answer: public pages (rendered, stored, 304,
kept), the admin and its login, PDFs and PDN files; and no page relies on what the policy refuses (an
inline script or an inline event handler)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:json|ld\+json)\")[^>]*>",
                           re.IGNORECASE)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)


def _policies(response: Any) -> None:
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]


def _no_inline_code(html: str, where: str) -> None:
    assert not INLINE_SCRIPT.findall(html), f"{where}: an inline script"
    assert not HANDLER.findall(html), f"{where}: an inline event handler"


def test_public_pages_carry_the_policies_rendered_stored_and_304(published_round: Any, page_cache: None) -> None:
    t, rnd, _ = published_round
    anon = Client()
    for url in (reverse("tournaments:list"), reverse("tournaments:tournament", args=[t.slug]),
                reverse("tournaments:round", args=[t.slug, rnd.number]),
                reverse("tournaments:standings_pdf", args=[t.slug]), reverse("tournaments:games_pdn", args=[t.slug]),
                reverse("tournaments:round", args=[t.slug, 99])):
        first = anon.get(url)
        _policies(first)
        if first.status_code != 200:
            continue
        stored = anon.get(url)
        assert stored.get("X-Damier-Cache") == "hit"
        _policies(stored)
        _policies(anon.get(url, headers={"if-none-match": first["ETag"]}))
        if first["Content-Type"].startswith("text/html"):
            _no_inline_code(first.content.decode(), url)


def test_admin_pages_carry_the_policies_and_run_no_inline_code(published_round: Any) -> None:
    t, rnd, chief = published_round
    _policies(Client().get(reverse("admin:login")))
    for url in (reverse("admin:index"), reverse("admin:tournaments_tournament_change", args=[t.pk]),
                reverse("admin:tournaments_round_change", args=[rnd.pk]),
                reverse("admin:tournaments_tournament_changelist"), reverse("admin:tournaments_player_add"),
                reverse("admin:tournaments_tournament_add")):
        response = chief.get(url)
        assert response.status_code == 200, url
        _policies(response)
        _no_inline_code(response.content.decode(), url)


def test_no_template_carries_an_inline_script_or_handler() -> None:
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        _no_inline_code(path.read_text(encoding="utf-8"), str(path))


def test_an_empty_setting_sends_no_policy(settings: Any) -> None:
    settings.DAMIER_CSP = ""
    response = Client().get(reverse("admin:login"))
    assert "Content-Security-Policy" not in response and "Permissions-Policy" in response
