"""The conformance mode in a browser, on a 390-px phone in French: after round 2 of an 8-player Swiss the arbiter
changes the number of rounds; the level-4 warning shows with what he typed kept, he confirms by keyboard, the
re-check is said, the event is on the tournament's page and in its history, the public pages carry the mark
and the TRF export its ### lines. Screenshots in artifacts/screenshots (conformance-*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import phone_in_french, shot

pytestmark = pytest.mark.browser


def test_rounds_changed_after_round_2_on_a_french_phone(swiss8: dict[str, Any], browser: Any,
                                                        tmp_path: Path) -> None:
    from tournaments.models import ConformanceEvent

    base, t = swiss8["url"], swiss8["tournament"]
    context, page = phone_in_french(browser, base, timeout=15000)

    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/change/")
    page.fill("#id_rounds_total", "7")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    # The warning: level 4 in words, its consequence, one named checkbox; the typed value kept; nothing saved.
    box = page.locator("#dm-confirm")
    assert "Niveau 4" in box.inner_text() and "mode de conformité" in box.inner_text()
    assert "Le nombre de rondes" in box.inner_text() or "5" in box.inner_text()
    assert page.input_value("#id_rounds_total") == "7"
    assert not ConformanceEvent.objects.exists()
    checkbox = page.get_by_label("Je confirme, et le tournoi quitte définitivement le mode de conformité")
    assert checkbox.count() == 1
    shot(page, "conformance-confirm-rounds-phone-fr")
    if axe.AXE_JS.exists():
        axe.assert_accessible(page, "conformance confirmation (phone, fr)")

    checkbox.focus()
    page.keyboard.press("Space")  # by keyboard
    assert checkbox.is_checked()
    with page.expect_navigation():
        page.click("input[name=_continue]")
    messages = page.locator(".messagelist").inner_text()
    assert "Enregistré" in messages and "Nouvelle vérification" in messages, messages
    mark = "Ce tournoi a quitté le mode de conformité"
    assert mark in page.locator("#dm-left-mode").inner_text()
    assert page.input_value("#id_rounds_total") == "7"
    event = ConformanceEvent.objects.get()
    assert (event.code, event.values["old"], event.values["new"], event.round_number) == ("rounds-changed", 5, 7, 2)
    shot(page, "conformance-after-confirm-phone-fr")
    if axe.AXE_JS.exists():
        axe.assert_accessible(page, "tournament page with the mark and the events (phone, fr)")

    # The event in the tournament's history.
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/history/")
    assert page.locator("#dm-events tbody tr").count() == 1 and "7" in page.locator("#dm-events").inner_text()
    shot(page, "conformance-history-phone-fr")

    # The public pages carry the mark.
    for path in (f"/t/{t.slug}/", f"/t/{t.slug}/standings/"):
        page.goto(base + path)
        assert mark in page.locator("#left-mode").inner_text(), path
    shot(page, "conformance-public-standings-phone-fr")
    if axe.AXE_JS.exists():
        axe.assert_accessible(page, "public standings with the mark (phone, fr)")

    # The TRF export, as the arbiter downloads it from the tournaments list.
    page.goto(f"{base}/admin/tournaments/tournament/")
    page.check(f"input[name=_selected_action][value='{t.pk}']")
    page.select_option("select[name=action]", "export_trf")
    with page.expect_download() as download:
        page.click("button[name=index]")
    trf = Path(download.value.path()).read_text(encoding="utf-8")
    assert "### conformance mode left @ Round 2" in trf
    assert any(line.startswith("### rounds-changed @ Round 2:") and "new=7 old=5" in line
               for line in trf.splitlines()), trf

    # A correction of round 1, the round before the last paired one: a level-3 confirmation, values kept.
    from tournaments.models import Round

    first = Round.objects.get(tournament=t, number=1)
    page.goto(f"{base}/admin/tournaments/round/{first.pk}/change/")
    played = page.input_value("#id_games-0-result")
    page.select_option("#id_games-0-result", "1-1" if played != "1-1" else "2-0")
    page.fill("#id_correction_reason", "feuille mal lue")
    with page.expect_navigation():
        page.click("#dm-save")
    assert "Niveau 3" in page.locator("#dm-confirm").inner_text()
    assert page.input_value("#id_correction_reason") == "feuille mal lue"
    assert page.get_by_label("Corriger pour le rapport de classement seulement").count() == 1
    shot(page, "conformance-correction-previous-round-phone-fr")
    if axe.AXE_JS.exists():
        axe.assert_accessible(page, "round page asking to confirm a correction (phone, fr)")
    page.get_by_label("Je confirme", exact=True).check()
    with page.expect_navigation():
        page.click("#dm-save")
    assert ConformanceEvent.objects.filter(code="previous-round-corrected").count() == 1
    context.close()
