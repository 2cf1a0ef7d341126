"""Every public page of the demo tournament in a real browser: what a visitor reads, stepping through a
game with buttons and keys, the language switch, and screenshots at desktop and phone widths."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.screens import shot

pytestmark = pytest.mark.browser

SLUG = "damier-demo-2026"


def sheet_game_id() -> int:
    from tournaments.models import GameSheet, SheetStatus

    sheet = (GameSheet.objects.filter(game__round__tournament__slug=SLUG, status=SheetStatus.VERIFIED)
             .order_by("game__round__number", "game__board").first())
    assert sheet is not None, "the demo has verified sheets"
    return int(sheet.game_id)


def irregular_game_id() -> int:
    from tournaments.models import GameSheet, SheetStatus

    sheet = GameSheet.objects.filter(game__round__tournament__slug=SLUG, status=SheetStatus.IRREGULAR).first()
    assert sheet is not None, "the demo has an irregular sheet"
    return int(sheet.game_id)


def test_every_public_page_of_the_demo(demo: str, page: Any) -> None:
    from tournaments import selectors
    from tournaments.models import Tournament

    t = Tournament.objects.get(slug=SLUG)
    leader = selectors.standings(t, public_only=True)[0]

    page.goto(demo + "/")
    with page.expect_navigation():
        page.get_by_role("link", name="Damier Demo Round Robin 2026").click()
    assert page.locator("h1").inner_text() == "Damier Demo Round Robin 2026"
    body = page.locator("main").inner_text()
    assert "Salle des fêtes, Montréal" in body and "80 min + 1 min/move" in body and "Demo Arbiter" in body
    assert re.search(r"Round 9\s.*in progress", body)

    with page.expect_navigation():
        page.get_by_role("link", name="Standings", exact=True).click()
    # the demo's round 9 has 3 results missing: not "after round 9"
    assert "Standings – round 9 in progress (3 results missing)" in page.locator("h1").inner_text()
    first = page.locator("table.listing tbody tr").first.locator("td, th")
    assert first.nth(0).inner_text() == "1"
    assert leader.player.name in first.nth(1).inner_text()
    assert first.nth(3).inner_text() == str(leader.points)
    assert page.locator("table.listing tbody tr").count() == 10
    assert page.get_by_text("Коваленко, Андрій").count() == 1
    page.select_option("select[name=round]", "3")
    assert "?round=" not in page.url  # choosing does not reload; the button applies it
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"\?round=3$"))
    assert "Standings after round 3" in page.locator("h1").inner_text()

    with page.expect_navigation():
        page.get_by_role("link", name="Crosstable", exact=True).click()
    rows = page.locator("table.listing tbody tr")
    assert rows.count() == 10
    cells = rows.first.locator("td, th")
    assert cells.nth(4).inner_text() == "X"  # the leader against himself

    with page.expect_navigation():
        page.get_by_role("link", name="R9", exact=True).click()
    assert page.locator("h1").inner_text().startswith("Round 9")
    assert page.locator("table.listing tbody tr").count() == 5
    assert "results still to come" in page.locator("main").inner_text()

    with page.expect_navigation():
        page.locator("table.listing tbody tr").first.locator("td.name a").first.click()
    assert page.locator("h1").count() == 1
    assert "Performance" in page.locator("dl.facts").inner_text()
    assert page.locator("table.listing tbody tr").count() == 9


def test_step_through_a_game_with_buttons_and_keys(demo: str, page: Any) -> None:
    game_id = sheet_game_id()
    page.goto(f"{demo}/t/{SLUG}/game/{game_id}/")
    label = page.locator("#ply-label")
    total = int(label.inner_text().split()[-1])
    assert total > 40 and label.inner_text() == f"Half-move {total} of {total}"
    assert "Verified" in page.locator("#sheet-status").inner_text()
    page.locator("#first").click()
    assert label.inner_text() == f"Half-move 0 of {total}"
    assert page.locator("g.p.w").count() == 20 and page.locator("g.p.b").count() == 20
    page.locator("#next").click()
    assert label.inner_text() == f"Half-move 1 of {total}"
    first_move = page.locator("#moves a[data-ply='1']")
    assert "cur" in (first_move.get_attribute("class") or "")
    start, end = (int(x) for x in re.split(r"[-x]", first_move.inner_text()))
    assert page.locator(f"g.p[data-sq='{start}']").get_attribute("class") == "p e"
    assert page.locator(f"g.p[data-sq='{end}']").get_attribute("class") == "p w"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert label.inner_text() == f"Half-move 3 of {total}"
    page.keyboard.press("ArrowLeft")
    assert label.inner_text() == f"Half-move 2 of {total}"
    page.keyboard.press("End")
    assert label.inner_text() == f"Half-move {total} of {total}"
    page.locator("#moves a[data-ply='10']").click()
    assert label.inner_text() == f"Half-move 10 of {total}"
    assert page.url.endswith("?ply=10")
    # The same position drawn by the server for ?ply=10 (a reload) matches what the script showed.
    shown = [page.locator(f"g.p[data-sq='{sq}']").get_attribute("class") for sq in range(1, 51)]
    page.reload()
    assert [page.locator(f"g.p[data-sq='{sq}']").get_attribute("class") for sq in range(1, 51)] == shown


def test_language_switch_to_french(demo: str, page: Any) -> None:
    page.goto(f"{demo}/t/{SLUG}/standings/")
    page.get_by_role("button", name="Français").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Classement – ronde 9 en cours (3 résultats manquants)" in page.locator("h1").inner_text()
    assert page.get_by_role("link", name="Tableau", exact=True).count() == 1
    page.get_by_role("button", name="English").click()
    page.wait_for_load_state()
    assert "Standings – round 9 in progress (3 results missing)" in page.locator("h1").inner_text()


def test_screenshots_desktop_and_phone(demo: str, page: Any, phone: Any) -> None:
    game_id = sheet_game_id()
    pages = {
        "standings": f"/t/{SLUG}/standings/",
        "crosstable": f"/t/{SLUG}/crosstable/",
        "game": f"/t/{SLUG}/game/{game_id}/?ply=30",
        "game-irregular": f"/t/{SLUG}/game/{irregular_game_id()}/?ply=13",
        "round": f"/t/{SLUG}/round/9/",
        "player": f"/t/{SLUG}/player/1/",
        "tournament": f"/t/{SLUG}/",
    }
    for width, pg in (("desktop", page), ("phone", phone)):
        for name, url in pages.items():
            pg.goto(demo + url)
            path = shot(pg, f"{name}-{width}")
            assert path.stat().st_size > 5000
            # Nothing may be wider than the screen except inside the scrolling table boxes.
            overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{name} at {width} width scrolls sideways by {overflow}px"


def test_swiss_crosstable_screenshots(demo: str, page: Any, phone: Any) -> None:
    from bench.pages import build_swiss

    t = build_swiss(24, 5, slug="swiss-open")
    for width, pg in (("desktop", page), ("phone", phone)):
        pg.goto(f"{demo}/t/{t.slug}/crosstable/")
        first = pg.locator("table.listing tbody tr").first.locator("td, th")
        assert re.fullmatch(r"\d+[wb](2|1|0|2F|0F)|\+\d bye", first.nth(4).inner_text())
        shot(pg, f"crosstable-swiss-{width}")
        overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
