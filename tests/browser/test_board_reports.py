"""Results from the boards, in French, in chromium: two players of board 1 report from a 390-px phone (White
with the game typed, Black with the result only), the other boards' reports already in (one disputed); the
arbiter confirms eight boards with the keys on the round page (a for the agreed result, 2 1 0 elsewhere) and
rules on the disputed board with its key; one Enter saves.

Every click and key press is counted and printed (run with -s). Screenshots go to
artifacts/screenshots/board-reports-*."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.test_arbiters_day import PASSWORD, focused, log_in
from tests.browser.test_arbiters_day import Arbiter as Counted
from tests.browser.test_desk_day import french

pytestmark = pytest.mark.browser

TYPED = "32-28 19-23 28x19 14x23"
# Boards 2-9 as reported before the arbiter sits down: (White's report, Black's report); None = no report.
SEEDED = {2: ("2-0", "1-1"), 3: ("2-0", "2-0"), 4: ("0-2", None), 5: ("1-1", "1-1"), 6: (None, None),
          7: ("2-0", "2-0"), 8: (None, "0-2"), 9: ("1-1", "1-1")}
# What the arbiter types from board 1 on: a where the players agree, the result key elsewhere, and his
# ruling on the disputed board 2 (a draw).
KEYS = ["a", "1", "a", "0", "a", "2", "a", "0", "a"]
EXPECTED = {1: "1-1", 2: "1-1", 3: "2-0", 4: "0-2", 5: "1-1", 6: "2-0", 7: "2-0", 8: "0-2", 9: "1-1"}


@pytest.fixture
def hall(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.boards import codes, reports
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("arbitre", password=PASSWORD, is_staff=True)
    t = Tournament.objects.create(name="Open de Lille", slug="lille", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=user, public=True, venue="Lille",
                                  start_date=datetime.date(2026, 11, 28))
    for i in range(18):
        player = Player.objects.create(surname=f"Joueur{i + 1:02d}", given_name="Test", rating=2400 - 20 * i,
                                       federation="FRA")
        roster.entry_add(tournament=t, player=player)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    codes.codes_issue(tournament=t)
    games = {g.board: g for g in rnd.games.select_related("white", "black")}
    for board, (white, black) in SEEDED.items():
        for entry, result in ((games[board].white, white), (games[board].black, black)):
            if result:
                reports.report_submit(code=codes.live_code(entry), sent=reports.Sent(result=result),
                                      address=f"10.0.0.{board}")
    return {"url": str(live_server.url), "t": t, "round": rnd, "games": games,
            "white1": codes.live_code(games[1].white).token, "black1": codes.live_code(games[1].black).token}


def report_from_phone(browser: Any, url: str, result: str, typed: str = "") -> tuple[int, int, Any]:
    """One player on his phone: opens his address (the QR code), taps a result, maybe types the game, sends."""
    context, page = french(browser, PHONE)
    player = Counted(page)
    page.goto(url)
    player.click(page.locator(f"input[name=result][value='{result}']"), navigates=False)
    if typed:
        player.click(page.locator("summary"), navigates=False)
        player.click(page.locator("#id_moves"), navigates=False)
        player.type(typed)
    player.click("button.dm-report-send")
    return player.clicks, player.keys, (context, page)


def test_two_players_report_and_the_arbiter_confirms_by_keys(hall: dict[str, Any], browser: Any) -> None:
    from tournaments.models import BoardReport, Game, ReportStatus

    base = hall["url"]
    counts: list[tuple[str, int, int]] = []

    # White of board 1 reports a draw with his game typed; the page is in French, and accessible.
    clicks, keys, (context, page) = report_from_phone(browser, f"{base}/t/lille/board/{hall['white1']}/", "1-1",
                                                      TYPED)
    counts.append(("White of board 1: 1-1 and the game typed", clicks, keys))
    stored = page.locator("#dm-report-stored").inner_text()
    assert "Reçu" in stored or "Received" in stored, stored
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert "Ronde 1, damier 1" in page.locator("#dm-report-board").inner_text() or \
        "board 1" in page.locator("#dm-report-board").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sideways on the phone
    shot(page, "board-reports-white-phone")
    assert_accessible(page, "board report, phone, sent")
    context.close()

    # Black of board 1 reports the same result, no game: the board is agreed.
    clicks, keys, (context, page) = report_from_phone(browser, f"{base}/t/lille/board/{hall['black1']}/", "1-1")
    counts.append(("Black of board 1: 1-1", clicks, keys))
    page.goto(f"{base}/t/lille/board/{hall['black1']}/")
    shot(page, "board-reports-black-phone")
    assert_accessible(page, "board report, phone, opened")
    context.close()
    assert BoardReport.objects.filter(game=hall["games"][1]).count() == 2
    assert Game.objects.get(pk=hall["games"][1].pk).result == ""  # a report is never the result by itself

    # The arbiter at his desk: the round page shows the reports; the cursor is on board 1.
    context, page = french(browser, DESKTOP)
    log_in(page, base)
    arbiter = Counted(page)
    page.goto(f"{base}/admin/tournaments/round/{hall['round'].pk}/change/")
    row1 = page.locator("#dm-reports-1").inner_text()
    assert "1-1" in row1 and TYPED not in row1
    assert page.locator("#dm-reports-2").count() == 1 and page.locator("#dm-board-2[data-dm-reported]").count() == 0
    shot(page, "board-reports-round-page")
    for index, key in enumerate(KEYS):
        assert focused(page) == f"games-{index}-result", (index, focused(page))
        arbiter.press(key)
    assert page.evaluate("document.activeElement.id") == "dm-save"
    arbiter.press("Enter", navigates=True)
    counts.append(("arbiter: 9 boards (8 confirmed, 1 ruled) and the save", *arbiter.count()))
    shot(page, "board-reports-saved")
    context.close()

    assert dict(Game.objects.filter(round=hall["round"]).values_list("board", "result")) == EXPECTED
    disputed = dict(BoardReport.objects.filter(game=hall["games"][2]).values_list("side", "status"))
    assert disputed == {"w": ReportStatus.OVERRULED, "b": ReportStatus.CONFIRMED}
    assert not BoardReport.objects.filter(status=ReportStatus.PENDING).exists()
    print("\nResults from the boards: clicks and keys")
    for name, c, k in counts:
        print(f"  {name:<58} {c:>2} clicks {k:>3} keys")
    assert counts[-1][1:] == (0, 10)  # no click: nine keys and Enter
