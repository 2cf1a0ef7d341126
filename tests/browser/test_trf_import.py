"""The TRF import page as an arbiter uses it, in French on a 390-px phone and by keyboard: choose the file,
review it (nothing written), tick the round that breaks the rules, import; no serious axe finding."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import PHONE, shot
from tests.tournaments.exchange.test_trf_review import REMATCH

pytestmark = pytest.mark.browser


def test_import_a_trf_file_on_a_french_phone(demo: str, browser: Any, tmp_path: Path) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME
    from tournaments.models import ConformanceEvent, Tournament

    src = tmp_path / "open.trf"
    src.write_text(REMATCH, encoding="utf-8")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{demo}/admin/")
        page.fill("#id_username", ARBITER_USERNAME)
        page.fill("#id_password", ARBITER_PASSWORD)
        with page.expect_navigation():
            page.click("input[type=submit]")
        page.goto(f"{demo}/admin/tournaments/tournament/")
        with page.expect_navigation():
            page.get_by_role("link", name="Importer depuis un fichier TRF").click()
        page.get_by_label("Fichier TRF").set_input_files(str(src))
        page.get_by_label("Identifiant (slug)").fill("open-trf")
        page.get_by_role("button", name="Examiner le fichier").focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert "Examen (rien n’est encore enregistré)" in page.content()
        assert "La ronde 3 enfreint les règles d’appariement" in page.content()
        assert not Tournament.objects.filter(slug="open-trf").exists()
        shot(page, "trf-import-review-fr-phone")
        axe.assert_accessible(page, "trf import review fr phone")
        # round 1 keeps the rules but is not the engine's pairing; round 3 breaks them: each asks its own box
        boxes = page.locator("#trf-confirm input[type=checkbox]")
        assert boxes.count() == 2  # one box per round, each under its warning (the one warning screen)
        for i in range(2):
            box = boxes.nth(i)
            box.focus()
            page.keyboard.press("Space")
            assert box.is_checked()
        page.get_by_role("button", name="Importer", exact=True).focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        t = Tournament.objects.get(slug="open-trf")
        assert ConformanceEvent.objects.filter(tournament=t, code="import-broke-rules").count() == 1
        assert ConformanceEvent.objects.filter(tournament=t, code="import-not-engine-pairing").count() == 1
        assert "Rematch Open importé" in page.content()
        shot(page, "trf-import-done-fr-phone")
    finally:
        context.close()
