"""The manual as an arbiter reaches it: from the round page by keyboard to the pairing chapter, read on a
390-px phone, checked with axe-core (desktop and phone, light and dark). Screenshots go to
artifacts/screenshots (manual-*.png)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.waits import wait_until

pytestmark = pytest.mark.browser


def log_in(pg: Any, base: str) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME

    pg.goto(base + "/admin/login/")
    pg.fill("#id_username", ARBITER_USERNAME)
    pg.fill("#id_password", ARBITER_PASSWORD)
    with pg.expect_navigation():
        pg.click("input[type=submit]")


def round_url(base: str) -> str:
    from tournaments.management.commands.load_demo import SLUG
    from tournaments.models import Round

    return f"{base}/admin/tournaments/round/{Round.objects.get(tournament__slug=SLUG, number=9).pk}/change/"


def test_from_the_round_page_by_keyboard_to_the_results_chapter(demo: str, page: Any) -> None:
    """Round 9 takes results: its Manual link opens the results chapter (a draft's opens the pairing one)."""
    log_in(page, demo)
    page.goto(round_url(demo))
    # The page opens on the first board without a result; back to the top, as an arbiter who clicked
    # elsewhere, then Tab until the Manual link has the focus, as a keyboard user would.
    page.evaluate("document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex')")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('dm-manual-link')"):
            break
    else:
        pytest.fail("the Manual link is not among the first Tab stops of the round page")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/admin/manual/results/")
    assert page.locator("h1").inner_text() == "Entering results"
    # The chapter's own contents lead to its sections, and the pager to the next chapter.
    page.locator(".dm-manual-toc a").first.click()
    assert "#" in page.url
    shot(page, "manual-results-desktop")
    assert page.locator("a[rel=next]").inner_text().startswith("Next: ")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["1280px", "390px"])
def test_the_manual_passes_axe(demo: str, browser: Any, viewport: str, scheme: str) -> None:
    axe.require_axe()
    small = viewport == "390px"
    ctx = browser.new_context(viewport=PHONE if small else DESKTOP, color_scheme=scheme, is_mobile=small,
                              has_touch=small, device_scale_factor=2 if small else 1, locale="en-GB")
    try:
        pg = ctx.new_page()
        log_in(pg, demo)
        failures = []
        for name, path in (("contents", "/admin/manual/"), ("results", "/admin/manual/results/"),
                           ("conformance", "/admin/manual/conformance/")):
            pg.goto(demo + path)
            result = axe.check(pg, f"manual {name} {viewport} {scheme}")
            if result.failing():
                failures.append(result.describe(result.failing()))
            shot(pg, f"manual-{name}-{viewport}-{scheme}")
        assert not failures, "\n".join(failures)
        if small:
            # Nothing wider than the phone but the tables and examples, which scroll in their own focusable box.
            too_wide = pg.evaluate("""[...document.querySelectorAll('.dm-manual *')]
                .filter(e => !e.closest('.dm-manual-table, .dm-manual-code')
                             && e.getBoundingClientRect().right > 392)
                .map(e => e.tagName + '.' + e.className).slice(0, 5)""")
            assert not too_wide, too_wide
            box = pg.locator(".dm-manual-table").first
            box.focus()
            assert pg.evaluate("document.activeElement.classList.contains('dm-manual-table')")
            # The conformance chapter's example of the TRF's ### lines is wider than a phone: the arrow keys scroll it.
            code = pg.locator(".dm-manual-code").first
            code.focus()
            assert pg.evaluate("document.activeElement.classList.contains('dm-manual-code')")
            assert code.evaluate("e => e.scrollWidth > e.clientWidth")
            pg.keyboard.press("ArrowRight")
            wait_until(pg, "document.activeElement.scrollLeft > 0")
    finally:
        ctx.close()
