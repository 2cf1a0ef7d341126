"""The arbiter's round page in chromium, by keyboard and on a phone.

`enter_by_keyboard` is how an arbiter enters a round: from the page's load, Tab to the first result,
one key per board, and Tab only when the key did not move on by itself, then Enter to save. It counts
every key press; pointed at the page before this work (main), the same function gave the "before"
figures of the report.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser

PASSWORD = "pw-chief-123"
KEYS = ["2", "1", "0", "+", "-", "=", "2", "1"]
EXPECTED = ["2-0", "1-1", "0-2", "2F-0F", "0F-2F", "0F-0F", "2-0", "1-1"]


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement ? (document.activeElement.name || document.activeElement.id"
                             " || document.activeElement.tagName) : ''"))


def tab_to(page: Any, name: str, limit: int = 120) -> int:
    """Tab until the element named `name` (or a submit button, for '_save') has focus; the presses."""
    presses = 0
    while focused(page) != name and not (name == "_save" and page.evaluate(
            "document.activeElement && document.activeElement.type === 'submit'")):
        page.keyboard.press("Tab")
        presses += 1
        assert presses <= limit, f"{name} not reached in {limit} Tab presses (focus on {focused(page)})"
    return presses


def enter_by_keyboard(page: Any, keys: list[str]) -> dict[str, int]:
    """Enter one result per board by keyboard from the page's load and save; count the presses."""
    counts = {"tab_to_first": tab_to(page, "games-0-result"), "result_keys": 0, "tabs_between": 0}
    counts.update(enter_from_first(page, keys))
    counts["total"] = sum(counts.values())
    return counts


def enter_from_first(page: Any, keys: list[str]) -> dict[str, int]:
    """From the first board's menu: one key per board (Tab when the key does not move on), Enter to save."""
    counts = {"result_keys": 0, "tabs_between": 0}
    for index, key in enumerate(keys):
        assert focused(page) == f"games-{index}-result"
        page.keyboard.press(key)
        counts["result_keys"] += 1
        following = f"games-{index + 1}-result" if index + 1 < len(keys) else "_save"
        counts["tabs_between"] += tab_to(page, following)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    counts["save"] = 1
    return counts


@pytest.fixture
def open16(transactional_db: None, live_server: Any) -> Iterator[tuple[str, int]]:
    """A 16-player round robin, round 1 (8 boards) published, and its chief arbiter with a password."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("chief", password=PASSWORD, is_staff=True)
    t = Tournament.objects.create(name="Open 16", slug="open16", system="round_robin", chief_arbiter=user,
                                  public=True)
    for i in range(16):
        player = Player.objects.create(surname=f"Joueur{i + 1:02d}", given_name="Test", rating=2400 - 10 * i)
        roster.entry_add(tournament=t, player=player)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    yield str(live_server.url), rnd.pk


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")


def results(pk: int) -> list[str]:
    from tournaments.models import Game

    return list(Game.objects.filter(round_id=pk).order_by("board").values_list("result", flat=True))


def test_eight_results_by_keyboard_one_key_each(open16: tuple[str, int], page: Any) -> None:
    base, pk = open16
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    label = page.locator("select[name=games-0-result]").get_attribute("aria-label")
    assert label == "Board 1: Joueur01, Test – Joueur16, Test, result"
    counts = enter_by_keyboard(page, KEYS)
    print(f"\nround page, 8 results by keyboard: {counts}")
    assert counts["result_keys"] == 8 and counts["tabs_between"] == 0, counts  # one key per result
    assert results(pk) == EXPECTED
    assert "was changed successfully" in page.locator(".messagelist").inner_text()
    assert "All 8 results are in" in page.locator(".dm-round-head").inner_text()


def test_the_skip_link_and_the_missing_link_lead_to_the_first_result(open16: tuple[str, int], page: Any) -> None:
    """Tab, Enter (skip to the content), Tab, Enter ("8 results missing"): the first board's menu, for an
    arbiter who left the first board (the page opens on it) and starts again from the top."""
    base, pk = open16
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    # back to the top of the page, as an arbiter who clicked elsewhere: Tab starts from the body
    page.evaluate("document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex')")
    route = ["Tab", "Enter", "Tab", "Enter"]
    for key in route:
        page.keyboard.press(key)
    assert focused(page) == "games-0-result"
    counts = {"to_first": len(route), **enter_from_first(page, KEYS)}
    counts["total"] = sum(counts.values())
    print(f"\nround page, 8 results by keyboard through the skip link: {counts}")
    assert counts["total"] == len(route) + len(KEYS) + 1 and results(pk) == EXPECTED


def test_the_slip_box_and_a_wrong_value_that_keeps_the_others(open16: tuple[str, int], page: Any) -> None:
    base, pk = open16
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    page.get_by_role("link", name="8 results missing").click()
    assert focused(page) == "games-0-result"
    for key in KEYS[:6]:
        page.keyboard.press(key)  # boards 1-6 by key
    page.get_by_label("Or paste a result slip").fill("7 2-0; 8 bye")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(pk) == [""] * 8, "nothing saved"
    row = page.locator("#dm-board-8")
    assert "Board 8: the slip says “bye”, which is not a result for a game between two players." in row.inner_text()
    assert page.locator("select[name=games-7-result]").get_attribute("aria-invalid") == "true"
    kept = [page.locator(f"select[name=games-{i}-result]").input_value() for i in range(8)]
    assert kept == EXPECTED[:7] + [""], kept  # the six keys and the slip's good item survive
    assert page.get_by_label("Or paste a result slip").input_value() == "8 bye"
    shot(page, "admin-round-entry-error")
    page.get_by_label("Or paste a result slip").fill("8 1-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(pk) == EXPECTED


# WCAG: the contrast of a text against the first opaque background behind it.
CONTRAST = """(el) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = ([r, g, b]) => {
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let node = el, bg = null;
  while (node && node.nodeType === 1) { const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) { bg = c.slice(0, 3); break; } node = node.parentElement; }
  bg = bg || [255, 255, 255];
  const a = lum(rgb(getComputedStyle(el).color).slice(0, 3)), b = lum(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en-GB", "fr-FR"])
def test_round_page_on_desktop_and_phone(open16: tuple[str, int], browser: Any, scheme: str, lang: str) -> None:
    from tournaments.models import Game, GameSheet, Round
    from tournaments.rounds import services

    base, pk = open16
    games = list(Game.objects.filter(round_id=pk).order_by("board"))
    for game, result in zip(games[:3], ("2-0", "1-1", "0-2"), strict=True):
        services.game_record_result(game=game, result=result)
    GameSheet.objects.create(game=games[0], text="", status="verified", sheet_result="2-0")
    GameSheet.objects.create(game=games[1], text="", status="mismatch", sheet_result="2-0", needs_look=True)
    assert Round.objects.get(pk=pk).status == "published"
    for name, viewport, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
        context = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile, locale=lang,
                                      color_scheme=scheme, device_scale_factor=2 if mobile else 1)
        page = context.new_page()
        log_in(page, base)
        page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
        shot(page, f"admin-round-{name}-{lang[:2]}-{scheme}")
        width = viewport["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "something runs off the edge"
        first = page.locator("select[name=games-0-result]").bounding_box()
        assert first["x"] + first["width"] <= width and first["y"] < viewport["height"], first
        for selector in ("select.dm-result", ".dm-round-head a", ".dm-fold > summary", "#dm-save"):
            for box in (page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())):
                assert box["width"] >= 24 and box["height"] >= 24, (selector, box)
        for selector in (".dm-sheet", ".dm-badge", ".dm-keys", ".dm-round-head a"):
            for i in range(page.locator(selector).count()):
                ratio = page.locator(selector).nth(i).evaluate(CONTRAST)
                assert ratio >= 4.5, (selector, i, ratio, scheme)
        sheet_texts = page.locator("td .dm-sheet").all_inner_texts()
        assert any("verified" in t.lower() or "vérifié" in t.lower() for t in sheet_texts)
        assert any(("mismatch" in t or "discordant" in t) and "2-0" in t for t in sheet_texts), sheet_texts
        context.close()


def test_a_correction_in_a_completed_round_by_keyboard(open16: tuple[str, int], page: Any) -> None:
    """Round 1 completed and round 2 paired: board 1 corrected with a key and a reason; the page says that
    round 2 was paired on the old result."""
    from tournaments.models import Game, Round
    from tournaments.rounds import services

    base, pk = open16
    for game in Game.objects.filter(round_id=pk):
        services.game_record_result(game=game, result="1-1")
    rnd = services.round_complete(round=Round.objects.get(pk=pk))
    services.round_pair(tournament=rnd.tournament)
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    assert "Completed" in page.locator(".dm-round-head").inner_text()
    page.locator("select[name=games-0-result]").focus()
    page.keyboard.press("2")
    assert focused(page) == "games-1-result"
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(pk)[0] == "1-1", "no reason, no correction"
    reason = page.get_by_label("Reason for the correction")
    assert reason.get_attribute("aria-invalid") == "true"
    assert page.locator("select[name=games-0-result]").input_value() == "2-0"  # what was typed is kept
    reason.fill("White's slip was read as a draw")
    shot(page, "admin-round-correction")
    with page.expect_navigation():
        reason.press("Enter")
    # Round 2 is paired: correcting round 1 asks the conformance mode's confirmation (level 3) first.
    assert results(pk)[0] == "1-1"
    box = page.locator("#dm-confirm input[type=checkbox]")
    assert box.count() == 1 and page.get_by_label("Reason for the correction").input_value()
    box.focus()
    page.keyboard.press("Space")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(pk)[0] == "2-0"
    text = page.locator(".messagelist").inner_text()
    assert "Round 2 is already paired; a round robin follows the Berger tables" in text
    record = Game.history.filter(round_id=pk, board=1).latest("history_date")  # type: ignore[attr-defined]
    assert record.history_change_reason == "White's slip was read as a draw"
    shot(page, "admin-round-corrected")
