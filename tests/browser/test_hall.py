"""The hall: a hall screen at 1920x1080 and 1280x720 with the clocks started, its panels turning as the
test moves the page's clock (Playwright's page.clock: no sleeping), the round clock ticking; a 390-px phone
in French finding its board on the round page by typing a name without its accents. Screenshots of both
screen sizes (artifacts/screenshots/hall-*.png); axe on the screen and the round page."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import PHONE, shot

pytestmark = pytest.mark.browser

NAMES = [("Émond", "Zoé"), ("Lefèvre", "Jean-Baptiste"), ("Van den Heuvel-Schoonhoven", "Maarten"),
         ("Sørensen", "Ivar"), ("Шварцман", "Александр"), ("Ndiaye", "Ousmane"), ("Georgiev", "Georgi"),
         ("Kouadio", "Yao"), ("Baliakine", "Pavel"), ("Groeneveld", "Anna")]


@pytest.fixture
def hall(transactional_db: None, live_server: Any) -> dict[str, Any]:
    """A 30-player open, round 1 published and its clocks started; screen A shows boards 1-10."""
    from django.contrib.auth import get_user_model

    from tournaments.hall import screen_services
    from tournaments.models import HallScreen, Player, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open international de Paris", slug="paris", system=System.SWISS,
                                  rounds_total=7, chief_arbiter=user, public=True, venue="Paris",
                                  start_date=datetime.date(2026, 11, 28))
    for i in range(30):
        surname, given = NAMES[i] if i < len(NAMES) else (f"Joueur{i:02d}", "Test")
        roster.entry_add(tournament=t, player=Player.objects.create(
            surname=surname, given_name=given, rating=2400 - 10 * i, federation="FRA"))
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    rnd = screen_services.clocks_start(round=rnd, expected_version=rnd.version, user=user)
    screen = screen_services.screen_save(screen=HallScreen(
        tournament=t, name="A", shows=["pairings", "find", "message", "clock"], boards_from=1, boards_to=10,
        lines_per_page=6, seconds_per_page=10, message="Ronde 2 à 15 h 00 · Round 2 at 15:00"),
        expected_version=None)
    return {"url": str(live_server.url), "tournament": t, "round": rnd, "screen": screen}


def _showing(pg: Any) -> str:
    return str(pg.get_attribute("body", "data-showing"))


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")[:2]
    return int(hours) * 60 + int(minutes)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_a_hall_screen_turns_its_panels_and_its_clock_ticks(browser: Any, hall: dict[str, Any], size) -> None:  # type: ignore[no-untyped-def]
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    screen = hall["screen"]
    pg.clock.install(time=datetime.datetime.now(datetime.UTC))
    pg.goto(f"{hall['url']}/t/paris/hall/{screen.token}/")
    # The first answer to the screen's own poll is in (it sets the tag it asks with from then on).
    pg.wait_for_selector("body[data-version]", state="attached")
    assert _showing(pg) == "pairings-1"
    assert pg.locator(".hall-clock").inner_text().startswith("Round 1 – started ")
    assert pg.locator(".site, .live, footer").count() == 0  # no chrome of the site
    assert pg.locator(".hall-qr svg").count() == 1
    assert_accessible(pg, f"hall screen {width}x{height}")
    # Every page of the screen's boards fits without scrolling, the type as large as the rule says.
    assert pg.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    row_px = pg.evaluate("parseFloat(getComputedStyle(document.querySelector('table.rows td')).fontSize)")
    assert row_px >= 0.0272 * height, row_px
    shot(pg, f"hall-{width}x{height}-pairings")

    # 10 boards, 6 a page: two pairings panels; 30 players, 12 a panel: three find panels; then the message
    # and the clock, and round again. Each move of the page's clock by 10 s turns one panel.
    seen = [_showing(pg)]
    for _ in range(7):
        pg.clock.run_for(10_000)
        seen.append(_showing(pg))
        if seen[-1] == "find-1":
            shot(pg, f"hall-{width}x{height}-find")
        if seen[-1] == "clock-1":
            shot(pg, f"hall-{width}x{height}-clock")
    assert seen == ["pairings-1", "pairings-2", "find-1", "find-2", "find-3", "message-1", "clock-1",
                    "pairings-1"]
    # The find panels list the players by their folded names: Émond among the Es, Шварцман as "shvartsman".
    names = pg.locator("section[data-kind=find] td.name").all_inner_texts()
    assert names.index("Émond, Zoé") < names.index("Georgiev, Georgi")
    assert names.index("Шварцман, Александр") < names.index("Sørensen, Ivar")

    before = pg.locator(".hall-clock .elapsed").inner_text()
    pg.clock.run_for(120_000)
    after = pg.locator(".hall-clock .elapsed").inner_text()
    assert _minutes(after) - _minutes(before) in (2, 3), (before, after)
    big = pg.locator(".big-clock .elapsed").inner_text()
    assert re.fullmatch(r"\d+:\d\d:\d\d", big)
    context.close()


def test_a_phone_in_french_finds_its_board_by_name(browser: Any, hall: dict[str, Any]) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    rnd = hall["round"]
    pg.goto(f"{hall['url']}/t/paris/round/1/")
    assert pg.locator("html").get_attribute("lang") == "fr"
    assert pg.locator("#clock-started").count() == 1
    game = next(g for g in rnd.games.select_related("white__player", "black__player")
                if g.black_id and "Émond" in (g.white.player.surname, g.black.player.surname))
    pg.locator("#find-board").fill("emond zoe")  # typed without accents
    rows = pg.locator("#pairings tbody tr:visible")
    assert rows.count() == 1
    assert rows.first.get_attribute("id") == f"board-{game.board}"
    assert "found" in (rows.first.get_attribute("class") or "")
    pg.locator("#find-board").press("Enter")
    assert pg.evaluate("(id) => { const r = document.getElementById(id).getBoundingClientRect();"
                       " return r.top >= 0 && r.bottom <= window.innerHeight; }", f"board-{game.board}")
    shot(pg, "hall-phone-find-board-fr")
    assert_accessible(pg, "round page, find my board (fr)")
    # The player's own page starts with his board, in French where the words exist.
    white = game.white.player.surname == "Émond"
    number = (game.white if white else game.black).pairing_number
    pg.goto(f"{hall['url']}/t/paris/player/{number}/")
    line = pg.locator("#now-playing").inner_text()
    assert line.startswith("Ronde 1") or line.startswith("Round 1"), line
    assert str(game.board) in line and ("Blancs" if white else "Noirs") in line
    # Cyrillic typed on a phone finds the Cyrillic name.
    pg.goto(f"{hall['url']}/t/paris/round/1/")
    pg.locator("#find-board").fill("шварц")
    assert pg.locator("#pairings tbody tr:visible").count() == 1
    context.close()
