"""In the browser: a played entry's page in French on a phone says why its fields are fixed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import PHONE, shot

pytestmark = pytest.mark.browser


def test_a_played_entry_says_why_it_is_fixed_on_a_phone_in_french(demo: str, browser: Any) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME
    from tournaments.models import Entry

    context = browser.new_context(viewport=PHONE, locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{demo}/admin/")
    page.fill("#id_username", ARBITER_USERNAME)
    page.fill("#id_password", ARBITER_PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    entry = Entry.objects.filter(tournament__slug="damier-demo-2026").order_by("pairing_number").first()
    page.goto(f"{demo}/admin/tournaments/entry/{entry.pk}/change/")
    body = page.content()
    assert "figés dès que la ronde 1 est appariée" in body  # the pairing number's reason
    assert "reste dans son tournoi" in body
    for name in ("tournament", "player", "pairing_number"):
        assert page.locator(f"#id_{name}").is_disabled(), name
    shot(page, "harden-entry-fixed-phone-fr")
    context.close()
