"""The round page's cursor: where it stands when the page opens, and a click on a menu before the keys."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import test_round_entry as entry
from tests.browser.test_round_entry import focused, log_in, results

pytestmark = pytest.mark.browser
open16 = entry.open16  # the 16-player round robin, round 1 published


def value_of(page: Any, board: int) -> str:
    return str(page.locator(f"select[name=games-{board - 1}-result]").input_value())


def test_the_page_opens_on_the_first_board_without_a_result(open16: tuple[str, int], page: Any) -> None:
    from tournaments.models import Game

    base, pk = open16
    Game.objects.filter(round_id=pk, board__in=[1, 2]).update(result="1-1")
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    assert focused(page) == "games-2-result"  # board 3: boards 1 and 2 have their result
    page.keyboard.press("2")
    assert value_of(page, 3) == "2-0" and focused(page) == "games-3-result"


def test_a_click_on_a_menu_then_one_key_a_result(open16: tuple[str, int], page: Any) -> None:
    """The arbiter who clicks a board's menu first: the list stays closed, the key enters the result and
    the cursor moves on; Esc leaves nothing behind."""
    base, pk = open16
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    page.locator("select[name=games-2-result]").click()
    assert focused(page) == "games-2-result"
    page.keyboard.press("Escape")
    assert value_of(page, 3) == "", "Esc after a click leaves the board empty"
    page.keyboard.press("1")
    assert value_of(page, 3) == "1-1" and focused(page) == "games-3-result"
    page.locator("select[name=games-0-result]").click()
    page.keyboard.press("0")
    assert value_of(page, 1) == "0-2" and focused(page) == "games-1-result"
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(pk)[:3] == ["0-2", "", "1-1"]
