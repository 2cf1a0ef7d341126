"""The team competition's public pages in Dutch on a desktop (1280 px) and a 390-px phone: axe passes on
each, nothing scrolls sideways on the phone but a wide table inside its box; screenshots of the team
standings, a match followed live, and the match sheet PDF rendered to PNG, in /tmp/shots-teamout/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-teamout")
PAGES = [("standings", "/t/outputs/"), ("round", "/t/outputs/teams/round/4/"),
         ("match", "/t/outputs/teams/round/4/match/1/"), ("crosstable", "/t/outputs/teams/crosstable/"),
         ("players", "/t/outputs/teams/players/")]


@pytest.fixture
def league(transactional_db: None, live_server: Any) -> str:
    from tests.tournaments.competitions.outputs_data import league as build

    build()
    return str(live_server.url)


def _context(browser: Any, viewport: dict[str, int], phone: bool) -> Any:
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}
    return browser.new_context(viewport=viewport, locale="nl-NL", **extra)


@pytest.mark.parametrize("size", ["1280", "390"])
def test_team_pages_in_dutch_are_accessible_and_fit(browser: Any, league: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = size == "390"
    context = _context(browser, PHONE if phone else DESKTOP, phone)
    pg = context.new_page()
    try:
        for name, path in PAGES:
            pg.goto(league + path)
            assert pg.locator("html").get_attribute("lang") == "nl"
            assert_accessible(pg, f"team {name} {size}px nl")
            if phone:
                overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"{name} scrolls sideways by {overflow}px"
            pg.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
        pg.goto(league + "/t/outputs/teams/round/4/match/1/")
        # Words the catalogue already holds (the new ones arrive with the merged translations).
        assert "Kruistabel" in pg.locator("nav.tabs").inner_text()
        assert "Wit" in pg.locator("#board-1").inner_text() and "Zwart" in pg.locator("#board-1").inner_text()
    finally:
        context.close()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is missing")
def test_the_match_sheet_rendered(league: str, tmp_path: Path) -> None:
    from django.test import Client

    SHOTS.mkdir(parents=True, exist_ok=True)
    pdf = Client().get("/t/outputs/teams/round/4/match/1/sheet.pdf", HTTP_ACCEPT_LANGUAGE="nl").content
    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "110", str(source), str(SHOTS / "match-sheet")], check=True, timeout=60)
    pdf = Client().get("/t/outputs/teams/standings.pdf", HTTP_ACCEPT_LANGUAGE="nl").content
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "90", "-singlefile", str(source), str(SHOTS / "standings-pdf")],
                   check=True, timeout=60)
    assert sorted(p.name for p in SHOTS.glob("match-sheet*.png")) == ["match-sheet-1.png", "match-sheet-2.png"]
