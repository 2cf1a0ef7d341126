"""Live pages in a real browser: a result saved by the arbiter appears on the open round and standings
pages within seconds, without a reload, without moving focus, announced in a polite live region; the
updates can be paused; no animation under prefers-reduced-motion; the bar says when the round is over."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.waits import wait_until

pytestmark = pytest.mark.browser

SLUG = "damier-demo-2026"


@pytest.fixture(autouse=True)
def page_cache(settings: Any, tmp_path: Any) -> None:
    # The production path: pages from the cache, revalidated by the poll.
    settings.DAMIER_PAGE_CACHE = True
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                                   "LOCATION": str(tmp_path / "cache")}}


@pytest.fixture
def calm_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


def missing_games() -> list[Any]:
    from tournaments.models import Game

    return list(Game.objects.filter(round__tournament__slug=SLUG, round__number=9, result="").order_by("board"))


def save(game: Any, result: str) -> None:
    from tournaments.rounds import services

    services.game_record_result(game=game, result=result)


def result_cell(pg: Any, board: int) -> Any:
    return pg.locator("table.listing tbody tr").nth(board - 1).locator("td.result")


def test_a_saved_result_appears_without_reload_or_focus_change(demo: str, page: Any) -> None:
    game = missing_games()[0]
    page.goto(f"{demo}/t/{SLUG}/round/9/")
    assert page.get_by_text("Live: this page updates by itself").is_visible()
    assert result_cell(page, game.board).inner_text().split("\n")[0] == "–"  # then "no result yet" for readers
    page.evaluate("window.notReloaded = true")
    link = page.locator("table.listing tbody tr").nth(0).locator("td.name a").first
    link.focus()
    focused = link.inner_text()
    started = time.monotonic()
    save(game, "2-0")
    wait_until(page,
        f"document.querySelectorAll('table.listing tbody tr')[{game.board - 1}]"
        f".querySelector('td.result').innerText.trim() === '2-0'", timeout=15000)
    elapsed = time.monotonic() - started
    assert elapsed < 10, f"the result took {elapsed:.1f} s to appear"
    assert page.evaluate("window.notReloaded === true")
    assert page.evaluate("document.activeElement.innerText") == focused
    status = page.locator("#live [role=status]")
    assert "Updated at" in status.inner_text()
    assert page.locator("#live [role=status]").get_attribute("aria-live") == "polite"
    shot(page, "live-round-desktop")


def test_pause_and_resume(demo: str, page: Any) -> None:
    game = missing_games()[0]
    page.goto(f"{demo}/t/{SLUG}/round/9/")
    toggle = page.get_by_role("button", name="Pause updates")
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.get_by_role("button", name="Resume updates").is_visible()
    assert page.locator("#live [role=status]").inner_text() == "Updates paused."
    save(game, "1-1")
    page.wait_for_timeout(6000)
    assert result_cell(page, game.board).inner_text().split("\n")[0] == "–"  # then "no result yet" for readers
    page.get_by_role("button", name="Resume updates").click()
    wait_until(page,
        f"document.querySelectorAll('table.listing tbody tr')[{game.board - 1}]"
        f".querySelector('td.result').innerText.trim() === '1-1'", timeout=15000)


def test_standings_follow_and_no_animation_with_reduced_motion(demo: str, calm_page: Any) -> None:
    from tournaments import selectors
    from tournaments.models import Tournament

    pg = calm_page
    pg.goto(f"{demo}/t/{SLUG}/standings/")
    games = missing_games()
    for g in games:
        save(g, "2-0")
    t = Tournament.objects.get(slug=SLUG)
    leader = selectors.standings(t, public_only=True)[0]
    wait_until(pg, "document.querySelector('#live [role=status]').innerText.includes('Updated at')",
                         timeout=15000)
    first_row = pg.locator("table.listing tbody tr").first.inner_text()
    assert leader.player.name in first_row and str(leader.points) in first_row
    assert pg.evaluate("document.getAnimations().length") == 0


def test_the_bar_says_when_the_round_is_over(demo: str, browser: Any) -> None:
    from tournaments.models import Round
    from tournaments.rounds import services

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    pg = context.new_page()
    try:
        pg.goto(f"{demo}/t/{SLUG}/round/9/")
        shot(pg, "live-round-phone-fr")
        for g in missing_games():
            save(g, "1-1")
        services.round_complete(round=Round.objects.get(tournament__slug=SLUG, number=9))
        wait_until(pg, "document.querySelector('#live [role=status]').innerText.length > 0", timeout=15000)
        assert "ne se met plus à jour" in pg.locator("#live [role=status]").inner_text()
        assert pg.locator(".live-toggle").is_hidden()
    finally:
        context.close()
