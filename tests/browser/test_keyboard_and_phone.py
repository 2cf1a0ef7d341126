"""The game viewer as its readers meet it: a keyboard-only walk through a game (what a screen reader would hear at each
step, compared with the server's own words), the 'After round' menu by keyboard, the tables on a 390-px
phone, and the screenshots of the crosstable, the game viewer and the round page in every variant."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.test_public_site import SLUG, irregular_game_id, sheet_game_id

pytestmark = pytest.mark.browser


def tab_to(pg: Any, selector: str, limit: int = 80) -> int:
    """Press Tab until the element matching `selector` has the focus; the number of presses."""
    for presses in range(1, limit + 1):
        pg.keyboard.press("Tab")
        if pg.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return presses
    raise AssertionError(f"{selector} not reached in {limit} Tab presses")


def spoken(pg: Any) -> dict[str, Any]:
    return pg.evaluate("""() => ({
        said: document.getElementById('move-now').textContent,
        board: document.querySelector('#board svg').getAttribute('aria-label'),
        position: document.getElementById('position-text').textContent,
        current: Array.from(document.querySelectorAll('#moves a[aria-current=step]')).map(a => a.dataset.ply),
    })""")


def test_keyboard_only_through_a_game_hears_every_move(demo: str, page: Any) -> None:
    from tournaments.models import Game
    from tournaments.public import viewer
    from tournaments.public.sheet_views import public_sheet

    game_id = irregular_game_id()
    line = public_sheet(Game.objects.get(pk=game_id).sheet)["line"]  # the line the page shows
    total = len(line.plies)
    page.goto(f"{demo}/t/{SLUG}/game/{game_id}/")

    # The skip link comes first and lands on the content: no 100 stops through the menus.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "content"
    presses = tab_to(page, "#first")
    assert presses <= 6, f"{presses} Tab presses from the content to the game's controls"
    assert page.evaluate("document.activeElement.textContent").strip() == "« Start"
    page.keyboard.press("Enter")
    assert spoken(page) == {"said": "Starting position", "board": "Board, Starting position",
                            "position": viewer.position_text(line, 0), "current": []}

    tab_to(page, "#next")
    for n in range(1, total + 1):
        page.keyboard.press("Enter" if n == 1 else "ArrowRight")
        now = spoken(page)
        said = viewer.announcement(line, n)
        if line.plies[n - 1].note:
            said += ": " + line.plies[n - 1].note  # the sheet's own words follow, marked lang="en" in French
        assert now == {"said": said, "board": f"Board, {said}", "position": viewer.position_text(line, n),
                       "current": [str(n)]}, n
    assert any("captured" in viewer.announcement(line, n) for n in range(1, total + 1))
    page.keyboard.press("ArrowRight")  # past the end: nothing moves
    assert spoken(page)["current"] == [str(total)]
    page.keyboard.press("Home")
    assert spoken(page)["said"] == "Starting position"
    page.keyboard.press("End")
    assert page.url.endswith(f"?ply={total}")

    # The position in words opens from the keyboard.
    tab_to(page, "details.position summary")
    page.keyboard.press("Enter")
    assert page.locator("#position-text").is_visible()
    assert page.locator("#position-text").inner_text().startswith("White: men ")


def test_after_round_menu_by_keyboard_does_not_reload(demo: str, page: Any) -> None:
    page.goto(f"{demo}/t/{SLUG}/standings/")
    tab_to(page, "#after-round")
    url = page.url
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert page.url == url and page.evaluate("document.activeElement.id") == "after-round"
    page.keyboard.press("Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("?round=2") and "Standings after round 2" in page.locator("h1").inner_text()


def scroller_state(pg: Any, table: str) -> dict[str, Any]:
    return pg.evaluate("""(id) => {
        const box = document.getElementById(id).parentElement;
        return {wide: box.scrollWidth > box.clientWidth, tabindex: box.getAttribute('tabindex'),
                hint: !document.getElementById(id + '-hint').hidden, overflow: box.dataset.overflow,
                label: box.getAttribute('aria-labelledby'), described: box.getAttribute('aria-describedby')};
    }""", table)


def test_phone_crosstable_scrolls_announced_with_the_names_in_view(demo: str, phone: Any) -> None:
    phone.goto(f"{demo}/t/{SLUG}/crosstable/")
    state = scroller_state(phone, "crosstable")
    assert state == {"wide": True, "tabindex": "0", "hint": True, "overflow": "right",
                     "label": "crosstable-caption", "described": "crosstable-hint"}
    assert phone.get_by_role("region", name="Crosstable").count() == 1
    # Keyboard: the region takes the focus and the arrow keys scroll it.
    phone.locator(".scroll[data-scroll]").focus()
    for _ in range(8):
        phone.keyboard.press("ArrowRight")
    phone.wait_for_timeout(300)
    assert phone.evaluate("document.querySelector('.scroll').scrollLeft") > 100
    assert scroller_state(phone, "crosstable")["overflow"] in ("left", "left right")
    # The name and the points stay in view and nothing prints through them.
    name = phone.locator("tbody tr").first.locator("th.name")
    box = name.bounding_box()
    hit = phone.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('th, td').className",
                         [box["x"] + box["width"] / 2, box["y"] + 6])
    assert "name" in hit
    assert phone.evaluate("getComputedStyle(document.querySelector('tbody th.name')).backgroundColor") \
        not in ("rgba(0, 0, 0, 0)", "transparent")
    pts = phone.locator("tbody tr").first.locator("td.pts").bounding_box()
    assert pts["x"] + pts["width"] <= PHONE["width"]
    shot(phone, "a11y-crosstable-phone-scrolled")


def test_phone_standings_reach_wins_and_mutual_result(demo: str, phone: Any) -> None:
    from tournaments.models import Tournament

    Tournament.objects.filter(slug=SLUG).update(tiebreaks=["sonneborn_berger", "wins", "mutual_result"])
    phone.goto(f"{demo}/t/{SLUG}/standings/")
    assert scroller_state(phone, "standings")["hint"]
    phone.locator(".scroll[data-scroll]").focus()
    for _ in range(15):
        phone.keyboard.press("ArrowRight")
    phone.wait_for_timeout(300)
    for header in ("Wins", "Mutual result"):
        th = phone.get_by_role("columnheader", name=header).bounding_box()
        assert th is not None and 0 <= th["x"] and th["x"] + th["width"] <= PHONE["width"] + 1, header
    # Each cell is announced with its player: the name is the row's header.
    assert phone.locator("tbody tr").first.get_by_role("rowheader").count() == 1


def test_phone_targets_are_at_least_24_px(demo: str, phone: Any) -> None:
    phone.goto(f"{demo}/t/{SLUG}/round/9/")
    dashes = phone.get_by_role("link", name="no result yet")
    assert dashes.count() >= 1
    for i in range(dashes.count()):
        box = dashes.nth(i).bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
    phone.goto(f"{demo}/t/{SLUG}/game/{sheet_game_id()}/")
    for name in ("Start", "Previous", "Next", "End"):
        box = phone.get_by_role("link", name=name).bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, (name, box)
    small = phone.evaluate("""() => Array.from(document.querySelectorAll('#moves a')).filter(a => {
        const r = a.getBoundingClientRect(); return r.width < 24 || r.height < 24; }).length""")
    assert small == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_screenshots_crosstable_game_round(demo: str, browser: Any, language: str, scheme: str) -> None:
    game = sheet_game_id()
    for width, viewport in (("1280", DESKTOP), ("390", PHONE)):
        mobile = viewport is PHONE
        ctx = browser.new_context(viewport=viewport, locale="fr-FR" if language == "fr" else "en-GB",
                                  color_scheme=scheme, is_mobile=mobile, has_touch=mobile,
                                  device_scale_factor=2 if mobile else 1)
        pg = ctx.new_page()
        suffix = f"{width}-{language}-{scheme}"
        pg.goto(f"{demo}/t/{SLUG}/crosstable/")
        pg.evaluate("document.querySelector('.scroll').scrollLeft = 160")
        pg.wait_for_timeout(150)
        shot(pg, f"a11y-crosstable-{suffix}")
        pg.goto(f"{demo}/t/{SLUG}/game/{game}/?ply=29")
        assert pg.locator("#move-now").inner_text().startswith("Coup 15" if language == "fr" else "Move 15")
        shot(pg, f"a11y-game-{suffix}")
        pg.goto(f"{demo}/t/{SLUG}/round/9/")
        shot(pg, f"a11y-round-{suffix}")
        assert pg.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        ctx.close()
