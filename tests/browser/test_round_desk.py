"""The round page at the arbiter's desk: a correction in one save, and a Swiss draft read as a pairing check.

The correction is counted as an arbiter makes it, by keyboard (Tab to the board, one key, Tab to the reason,
the reason, Tab to the box, Space, Tab to the save, Enter) and by mouse (the menu, the reason, the box, the
button); the counts are printed for the report. Screenshots in French on a desktop go to artifacts/screenshots.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.test_round_entry import tab_to

pytestmark = pytest.mark.browser

PASSWORD = "pw-chief-123"
REASON = "slip misread"


def _log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")


def _completed_round_2(swiss8: dict[str, Any]) -> tuple[Any, Any, str]:
    """Round 2 completed and round 3 paired: a correction of round 2 asks its level-3 confirmation."""
    from tournaments.rounds import services

    t = swiss8["tournament"]
    services.round_pair(tournament=t)
    rnd = t.rounds.get(number=2)
    game = rnd.games.exclude(black=None).order_by("board").first()
    return rnd, game, "0" if game.result != "0-2" else "2"


def test_a_correction_by_keyboard_is_one_save(swiss8: dict[str, Any], page: Any) -> None:
    rnd, game, key = _completed_round_2(swiss8)
    base = swiss8["url"]
    _log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{rnd.pk}/change/")
    index = list(rnd.games.order_by("board").values_list("pk", flat=True)).index(game.pk)
    counts = {"tabs_to_board": tab_to(page, f"games-{index}-result"), "result_key": 1}
    page.keyboard.press(key)
    counts["tabs_to_reason"] = tab_to(page, "correction_reason")
    page.keyboard.type(REASON)
    counts["reason_chars"] = len(REASON)
    counts["tabs_to_box"] = tab_to(page, "confirmed")
    assert page.evaluate("document.activeElement.value") == "previous-round-corrected"
    page.keyboard.press("Space")
    counts["space"] = 1
    counts["tabs_to_save"] = tab_to(page, "_save")
    assert page.evaluate("document.activeElement.id") == "dm-save"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    counts["enter"] = 1
    counts["submits"] = 1
    print(f"\ncorrection by keyboard: {counts}")
    game.refresh_from_db()
    assert game.result == ("0-2" if key == "0" else "2-0")
    assert "Please correct" not in page.content()


def test_a_correction_by_mouse_is_one_save_and_a_refusal_keeps_what_was_typed(swiss8: dict[str, Any],
                                                                              browser: Any) -> None:
    rnd, game, key = _completed_round_2(swiss8)
    new = "0-2" if key == "0" else "2-0"
    base = swiss8["url"]
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    _log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{rnd.pk}/change/")
    index = list(rnd.games.order_by("board").values_list("pk", flat=True)).index(game.pk)
    menu = page.locator(f"select[name=games-{index}-result]")
    # The box is there before anything is typed, in the words of a correction, not of a breach.
    assert page.locator("#dm-correction input[name=confirmed][value=previous-round-corrected]").count() == 1
    shot(page, "admin-round-correction-desktop-fr")
    assert_accessible(page, "admin round correction")
    # The refusal first: the box left empty, nothing saved, what was typed kept.
    menu.select_option(new)
    page.locator("#id_correction_reason").fill(REASON)
    with page.expect_navigation():
        page.locator("#dm-save").click()
    game.refresh_from_db()
    assert game.result != new
    assert menu.input_value() == new and page.locator("#id_correction_reason").input_value() == REASON
    shot(page, "admin-round-correction-refused-desktop-fr")
    # The arbiter's one save: the menu (a click to open it, one to choose), the reason (a click, then typing),
    # the box, the button.
    page.goto(f"{base}/admin/tournaments/round/{rnd.pk}/change/")
    clicks = 0
    menu.click()
    menu.select_option(new)
    clicks += 2
    page.locator("#id_correction_reason").click()
    page.keyboard.type(REASON)
    clicks += 1
    page.locator("#dm-correction input[value=previous-round-corrected]").click()
    clicks += 1
    with page.expect_navigation():
        page.locator("#dm-save").click()
    clicks += 1
    print(f"\ncorrection by mouse: {clicks} clicks, {len(REASON)} characters of reason, 1 submit")
    game.refresh_from_db()
    assert game.result == new
    context.close()


def test_the_swiss_draft_shows_the_pairing_check(swiss8: dict[str, Any], browser: Any) -> None:
    from tests.tournaments.play import play_swiss_round
    from tournaments.models import Player
    from tournaments.players import roster
    from tournaments.rounds import draft_check, services

    # Nine players and a draw in round 1: a bye each round and mixed score groups make floats to show.
    t = swiss8["tournament"]
    t.pk, t.slug, t.name = None, "bordeaux-b", "Open de Bordeaux B"
    t.save()
    for i in range(9):
        player = Player.objects.create(surname=f"Joueur{i + 1}", given_name="B", rating=2000 - 37 * i)
        roster.entry_add(tournament=t, player=player)
    first = services.round_pair(tournament=t)
    services.round_publish(round=first)
    for game in first.games.exclude(black=None):
        services.game_record_result(game=game, result="1-1" if game.board == 2 else "2-0")
    services.round_complete(round=first)
    play_swiss_round(t)
    rnd = services.round_pair(tournament=t)
    checks = draft_check.draft_boards(rnd)
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    _log_in(page, swiss8["url"])
    page.goto(f"{swiss8['url']}/admin/tournaments/round/{rnd.pk}/change/")
    assert page.locator("th.dm-check").count() == 4
    assert any(side.floats for c in checks.values() for side in (c.white, c.black) if side), "no float to show"
    for board, check in checks.items():
        cells = page.locator(f"#dm-board-{board} td.dm-check").all_inner_texts()
        assert cells[1] == str(check.group), (board, cells)
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    shot(page, "admin-round-swiss-draft-desktop-fr")
    assert_accessible(page, "admin round swiss draft")
    context.close()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR",
                                  device_scale_factor=2)
    page = context.new_page()
    _log_in(page, swiss8["url"])
    page.goto(f"{swiss8['url']}/admin/tournaments/round/{rnd.pk}/change/")
    shot(page, "admin-round-swiss-draft-phone-fr")
    assert_accessible(page, "admin round swiss draft phone")
    # The check scrolls inside its box on a phone; the page itself never runs past the edge.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator(".dm-check-scroll").evaluate("e => getComputedStyle(e).overflowX") == "auto"
    context.close()
    context.close()
