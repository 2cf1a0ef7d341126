"""A team round in chromium, in Dutch: the arbiter types a round of a 10-team, 8-board league (5 matches,
40 boards) by keyboard on the round page, on a desktop and on a 390-px phone, and the line-ups on the
line-up screen. Keys and clicks are counted from the page's load (after signing in) and printed; the
stored results and the match scores are checked against values written here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE
from tests.browser.test_round_entry import focused, tab_to

pytestmark = pytest.mark.browser

PASSWORD = "pw-chief-123"
SHOTS = Path("/tmp/shots-teamentry")
# One key per board, match by match (the home team White on boards 1, 3, 5, 7).
KEYS = {
    1: ["2", "1", "0", "2", "1", "1", "2", "0"],
    2: ["1"] * 8,
    3: ["2", "0"] * 4,
    4: ["0", "2"] * 4,
    5: ["+", "-", "=", "1", "2", "0", "1", "1"],
}
STORED = {"2": "2-0", "1": "1-1", "0": "0-2", "+": "2F-0F", "-": "0F-2F", "=": "0F-0F"}
# home – away board points, worked out by hand from KEYS: match 1: home 2+1+0+0+1+1+2+2, away 0+1+2+2+1+1+0+0;
# match 3: every board to the home team (White wins on odd boards, Black on even ones, where home is Black);
# match 5: 2F-0F (home White present), 0F-2F (away White absent: home), 0F-0F (nobody), 1, 2, 2 (Black = home), 1, 1
SCORES = {1: (9, 7), 2: (8, 8), 3: (16, 0), 4: (0, 16), 5: (11, 3)}
# Keys: one per board, then Enter; the page opens on board 1. Nothing to click.
KEY_BUDGET = 40 + 1
CLICK_BUDGET = 0


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _league(publish: bool) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tests.tournaments.competitions import factory
    from tournaments.competitions import lineups, setup

    user = get_user_model().objects.create_user("chief", password=PASSWORD, is_staff=True)
    comp = factory.competition(teams=10, boards=8, reserves=1, slug="kndb")
    comp.tournament.chief_arbiter = user
    comp.tournament.public = True
    comp.tournament.save()
    setup.schedule_make(competition=comp)
    rnd = None
    if publish:
        factory.line_up_round(comp, 1)
        rnd = lineups.round_publish(competition=comp, number=1)
    return {"competition": comp, "round": rnd}


@pytest.fixture
def league(transactional_db: None, live_server: Any) -> Iterator[dict[str, Any]]:
    """A 10-team, 8-board league, round 1's line-ups given and the round published."""
    yield {"url": str(live_server.url), **_league(publish=True)}


@pytest.fixture
def league_draft(transactional_db: None, live_server: Any) -> Iterator[dict[str, Any]]:
    """The same league before any line-up."""
    yield {"url": str(live_server.url), **_league(publish=False)}


def dutch(browser: Any, viewport: dict[str, int], phone: bool) -> tuple[Any, Any]:
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if phone else {}
    context = browser.new_context(viewport=viewport, locale="nl-NL", **extra)
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")


def count_clicks(page: Any) -> None:
    """Every click the arbiter makes on the page from now on (a pointer press), counted by the page."""
    page.evaluate("window.dmClicks = 0; document.addEventListener('pointerdown', () => { window.dmClicks++; },"
                  " true)")


def enter_round(page: Any) -> dict[str, int]:
    """From the page's load: one key per board, Tab only when a key did not move on, Enter to save."""
    counts = {"tab_to_first": tab_to(page, "games-0-result"), "result_keys": 0, "tabs_between": 0}
    count_clicks(page)
    index = 0
    for table in sorted(KEYS):
        for key in KEYS[table]:
            assert focused(page) == f"games-{index}-result"
            page.keyboard.press(key)
            counts["result_keys"] += 1
            index += 1
            following = f"games-{index}-result" if index < 40 else "_save"
            counts["tabs_between"] += tab_to(page, following)
    scores = {t: page.locator(f"#dm-score-{t}").inner_text() for t in KEYS}
    counts["clicks"] = int(page.evaluate("window.dmClicks"))
    shot_name = page.context.dm_name  # type: ignore[attr-defined]
    shot(page, f"{shot_name}-typed")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    counts["save"] = 1
    counts["keys"] = counts["tab_to_first"] + counts["result_keys"] + counts["tabs_between"] + counts["save"]
    assert scores == {t: f"{h} – {a}" for t, (h, a) in SCORES.items()}, scores  # live, before the save
    return counts


def check_stored(league: dict[str, Any]) -> None:
    from tournaments.competitions import selectors
    from tournaments.models import Game

    comp, rnd = league["competition"], league["round"]
    stored = dict(Game.objects.filter(round=rnd).values_list("board", "result"))
    expected = {(table - 1) * 8 + n: STORED[key] for table, keys in KEYS.items()
                for n, key in enumerate(keys, start=1)}
    assert stored == expected
    states = {s.match.table: s.score for s in selectors.match_states(comp, 1)}
    assert {t: (s.home_board_points, s.away_board_points) for t, s in states.items() if s} == SCORES
    # match points 2/1/0: the home teams of matches 1, 3, 5 win, match 2 is drawn, match 4's away team wins
    assert {t: (s.home_match_points, s.away_match_points) for t, s in states.items() if s} == {
        1: (2, 0), 2: (1, 1), 3: (2, 0), 4: (0, 2), 5: (2, 0)}


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_team_round_of_40_boards_by_keyboard_in_dutch(league: dict[str, Any], browser: Any, device: str) -> None:
    context, page = dutch(browser, DESKTOP if device == "desktop" else PHONE, device == "phone")
    context.dm_name = f"round-{device}"
    try:
        base, rnd = league["url"], league["round"]
        log_in(page, base)
        page.goto(f"{base}/admin/tournaments/round/{rnd.pk}/change/")
        assert page.locator("html").get_attribute("lang") == "nl"
        heads = page.locator("tr.dm-match-head")
        assert heads.count() == 5
        assert heads.first.inner_text().startswith("Club 1 – Club 10")
        assert page.locator("#dm-board-9 th.dm-board").inner_text().startswith("1")  # match 2's board 1
        assert_accessible(page, f"team round page {device} nl")
        shot(page, f"round-{device}-open")
        counts = enter_round(page)
        print(f"\nteam round, 5 matches x 8 boards by keyboard ({device}, nl): {counts}")
        assert counts["result_keys"] == 40 and counts["tabs_between"] == 0, counts  # one key per board
        assert counts["keys"] <= KEY_BUDGET and counts["clicks"] <= CLICK_BUDGET, counts
        check_stored(league)
        assert "De uitslagen opslaan" in page.content()  # the page came back in Dutch
        assert [page.locator(f"#dm-score-{t}").inner_text() for t in KEYS] == [
            f"{h} – {a}" for h, a in SCORES.values()]  # as stored
        shot(page, f"round-{device}-saved")
        assert_accessible(page, f"team round page saved {device} nl")
    finally:
        context.close()


def test_the_line_up_screen_by_keyboard(league_draft: dict[str, Any], browser: Any) -> None:
    """Match 1 typed by keys (a place number per board, one name start), Enter saves, the cursor is on match
    2; a wrong box comes back with what was typed and the cursor on it."""
    from tests.tournaments.competitions.factory import roster
    from tournaments.models import Match

    comp = league_draft["competition"]
    base = league_draft["url"]
    for device, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context, page = dutch(browser, viewport, device == "phone")
        try:
            log_in(page, base)
            page.goto(f"{base}/admin/tournaments/tournament/{comp.tournament.pk}/team-round/1/")
            table = 1 if device == "desktop" else 2
            match = Match.objects.get(competition=comp, round_number=1, table=table)
            assert focused(page) == f"m{match.pk}-home-1"
            if device == "desktop":
                assert_accessible(page, "team line-up screen desktop nl")
            count_clicks(page)
            keys = 0
            home = ["1", "2", "p3", "4", "5", "6", "7", "9"]  # the reserve (place 9) on board 8
            away = ["1", "2", "3", "4", "5", "6", "7", ""]  # board 8 left unfilled
            boxes = [*home, *away]
            for index, typed in enumerate(boxes):
                if typed:
                    page.keyboard.type(typed)
                    keys += len(typed)
                if index + 1 < len(boxes):  # Tab to the next box; Enter from the last one saves
                    page.keyboard.press("Tab")
                    keys += 1
            shot(page, f"lineup-{device}-typed")
            clicks = int(page.evaluate("window.dmClicks"))
            with page.expect_navigation():
                page.keyboard.press("Enter")
            keys += 1
            print(f"\nline-up screen, one match of 2 x 8 boards by keyboard ({device}, nl): {keys} keys, "
                  f"{clicks} clicks")
            # what is typed (14 one-digit places and "p3"; one box left empty), a Tab between two boxes, Enter
            assert clicks == 0 and keys == 14 + 2 + 15 + 1, keys
            match.refresh_from_db()
            boards = list(match.boards.order_by("number"))
            home_roster, away_roster = roster(match.home), roster(match.away)
            assert [b.home_entry_id for b in boards] == [home_roster[i].pk for i in (0, 1, 2, 3, 4, 5, 6, 8)]
            assert [b.away_entry_id for b in boards] == [e.pk for e in away_roster[:7]] + [None]
            following = Match.objects.get(competition=comp, round_number=1, table=table + 1)
            assert focused(page) == f"m{following.pk}-home-1", focused(page)
            # a place the roster does not have: nothing saved, the boxes as typed, the cursor on the wrong one
            page.keyboard.type("99")
            with page.expect_navigation():
                page.keyboard.press("Enter")
            assert focused(page) == f"m{following.pk}-home-1"
            assert page.locator(f"#id_m{following.pk}-home-1").input_value() == "99"
            assert "plaats 99" in page.locator(f"#dm-name-m{following.pk}-home-1").inner_text()  # in Dutch
            shot(page, f"lineup-{device}-refused")
            if device == "phone":
                assert_accessible(page, "team line-up screen refused phone nl")
        finally:
            context.close()


def test_the_captains_page_on_a_phone(league_draft: dict[str, Any], browser: Any) -> None:
    """The away captain of match 1 types his line-up on his phone (no account); the page is accessible and
    the line-up is the arbiter's at once."""
    from tests.tournaments.competitions.factory import roster
    from tournaments.competitions import captains
    from tournaments.models import Match

    comp, base = league_draft["competition"], league_draft["url"]
    match = Match.objects.select_related("away").get(competition=comp, round_number=1, table=1)
    team = captains.token_issue(team=match.away)
    context, page = dutch(browser, PHONE, True)
    try:
        page.goto(f"{base}/t/{comp.tournament.slug}/team/{team.captain_token}/lineup/")
        assert focused(page) == "board-1"
        assert_accessible(page, "captain's line-up page phone nl")
        for typed in ["2", "1", "3", "4", "5", "6", "7"]:
            page.keyboard.type(typed)
            page.keyboard.press("Tab")
        page.keyboard.type("9")
        assert page.locator("#dm-name-8").inner_text() == "Team10, P9"  # named as it is typed
        shot(page, "captain-phone-typed")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.locator("#dm-captain-saved").is_visible()
        shot(page, "captain-phone-saved")
        away = roster(match.away)
        assert [b.away_entry_id for b in match.boards.order_by("number")] == [
            away[1].pk, away[0].pk, *[e.pk for e in away[2:7]], away[8].pk]
    finally:
        context.close()
