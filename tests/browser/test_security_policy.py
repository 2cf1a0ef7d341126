"""The Content-Security-Policy in a real browser: no public or admin page of the demo has anything refused
(a script, a style, an image, a fetch), and the pages' scripts still run (the game viewer steps, the
schedule's Print button prints)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

SLUG = "damier-demo-2026"
WATCH = """
window.__refused = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__refused.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber);
});
"""


def _refused(page: Any) -> list[str]:
    return list(page.evaluate("window.__refused || []"))


def test_no_page_of_the_demo_has_anything_refused(demo: str, page: Any) -> None:
    from tests.browser.test_public_site import sheet_game_id
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME
    from tournaments.models import Round, Tournament

    t = Tournament.objects.get(slug=SLUG)
    game = sheet_game_id()
    rnd = Round.objects.get(tournament=t, number=9)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH)
    seen: dict[str, list[str]] = {}
    for path in ("/", f"/t/{SLUG}/", f"/t/{SLUG}/standings/", f"/t/{SLUG}/crosstable/", f"/t/{SLUG}/round/9/",
                 f"/t/{SLUG}/player/1/", f"/t/{SLUG}/tiebreaks/"):
        response = page.goto(demo + path)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")
        seen[path] = _refused(page)
    # The viewer's script runs: a key steps back one move.
    page.goto(f"{demo}/t/{SLUG}/game/{game}/")
    page.locator("#first").click()
    assert page.locator("#ply-label").inner_text().startswith("Half-move 0 of ")
    seen["game"] = _refused(page)

    page.goto(f"{demo}/admin/")
    page.fill("#id_username", ARBITER_USERNAME)
    page.fill("#id_password", ARBITER_PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    seen["login"] = _refused(page)
    for path in ("/admin/", f"/admin/tournaments/tournament/{t.pk}/change/",
                 f"/admin/tournaments/round/{rnd.pk}/change/", "/admin/tournaments/player/add/",
                 f"/admin/tournaments/tournament/{t.pk}/schedule/", "/admin/tournaments/tournament/"):
        page.goto(demo + path)
        page.wait_for_load_state("load")
        seen[path] = _refused(page)
    # The schedule's Print button, whose handler is in admin-a11y.js.
    page.goto(f"{demo}/admin/tournaments/tournament/{t.pk}/schedule/")
    # (Ends with a value: Playwright calls an expression that evaluates to a function.)
    page.evaluate("window.__printed = 0; window.print = function () { window.__printed += 1; }; 0")
    page.focus("[data-dm-print]")
    page.keyboard.press("Enter")
    assert page.evaluate("window.__printed") == 1
    assert {k: v for k, v in seen.items() if v} == {} and console == []
