"""A round's results as a new user enters them: log in as the demo arbiter, enter the last round's results in the
admin, and see the standings change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import shot

pytestmark = pytest.mark.browser


def points_of(page: Any, base: str) -> dict[str, int]:
    page.goto(f"{base}/t/damier-demo-2026/standings/")
    rows = page.locator("table tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td, th")  # the player's name is the row's header
        texts = [cells.nth(j).inner_text().strip() for j in range(cells.count())]
        name = rows.nth(i).locator("a").first.inner_text().strip()
        out[name] = int(texts[3])
    return out


def test_arbiter_enters_the_last_round_and_the_standings_change(demo: str, page: Any) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME
    from tournaments.models import Round

    before = points_of(page, demo)
    page.goto(f"{demo}/admin/")
    page.fill("#id_username", ARBITER_USERNAME)
    page.fill("#id_password", ARBITER_PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    assert "Tournaments, rounds and results" in page.content()

    rnd = Round.objects.get(tournament__slug="damier-demo-2026", number=9)
    page.goto(f"{demo}/admin/tournaments/round/{rnd.pk}/change/")
    empty = [g.board for g in rnd.games.order_by("board") if not g.result]
    assert empty, "the demo leaves results of the last round for the arbiter"
    games = list(rnd.games.order_by("board"))
    for index, game in enumerate(games):
        if not game.result:
            page.select_option(f"select[name=games-{index}-result]", "2-0")
    shot(page, "admin-round-entry")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    page.wait_for_selector(".messagelist")
    assert "was changed successfully" in page.locator(".messagelist").inner_text()
    assert sorted(rnd.games.filter(result="2-0", board__in=empty).values_list("board", flat=True)) == empty

    after = points_of(page, demo)
    winners = {g.white.player.full_name for g in rnd.games.select_related("white__player") if g.board in empty}
    for name in winners:
        assert after[name] == before[name] + 2, name
    shot(page, "standings-after-entry")
