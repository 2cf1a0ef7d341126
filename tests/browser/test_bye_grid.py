"""In a browser: three requested byes for round 4 set on the grid by keyboard, from the control room, counting
the arbiter's clicks and keys; the control room's "Out of round 4" line; the grid on a desktop and a 390-px
phone in French (screenshots)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import DESKTOP, phone_in_french, shot
from tests.browser.test_arbiters_day import Arbiter
from tests.browser.test_control_room import login

pytestmark = pytest.mark.browser


def focused_cell(page: Any) -> str:
    return str(page.evaluate("document.activeElement.getAttribute('aria-label') || ''"))


def test_three_requested_byes_for_round_4_by_keyboard(swiss8: dict[str, Any], browser: Any) -> None:
    from tournaments.models import Entry

    base, t = swiss8["url"], swiss8["tournament"]  # eight players, rounds 1 and 2 played, round 3 next
    by_number = {e.pairing_number: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    login(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    arbiter = Arbiter(page)

    arbiter.click("#dc-byes")  # the control room's link to the grid
    assert page.locator("h1").inner_text().startswith("Requested byes")
    # Rounds 1 and 2 are played: shown, not changed; the page opens on the first menu (player 1, round 3).
    assert page.locator("select.db-select").count() == 8 * 3
    assert focused_cell(page) == f"{by_number[1].player.full_name}, round 3"
    arbiter.press("ArrowRight", "ArrowDown", "ArrowDown")  # player 3, round 4
    assert focused_cell(page) == f"{by_number[3].player.full_name}, round 4"
    arbiter.press("1")  # a bye worth a draw
    arbiter.press("ArrowDown", "ArrowDown", "2")  # player 5: a bye worth a win
    arbiter.press("ArrowDown", "0")  # player 6: absent, 0
    assert page.locator("td.db-changed").count() == 3
    shot(page, "bye-grid-typed-desktop-en")
    arbiter.click("#db-save")  # one save for the whole grid: back in the control room

    assert page.url.endswith(f"/admin/tournaments/tournament/{t.pk}/control/")
    assert "Requested byes saved (3 changes)" in page.locator(".messagelist").inner_text()
    out = {e.pairing_number: (e.excused_rounds, e.bye_points) for e in Entry.objects.filter(tournament=t)}
    assert out[3] == ([4], {"4": 1}) and out[5] == ([4], {"4": 2}) and out[6] == ([4], {})
    assert sum(1 for rounds, _points in out.values() if rounds) == 3
    print(f"\nthree requested byes for round 4: {arbiter.clicks} clicks and {arbiter.keys} keys "
          "(before: about 8 clicks per player and round on the entry action's page, about 24)")
    assert (arbiter.clicks, arbiter.keys) == (2, 9)
    context.close()

    # The control room says who is out of round 4 once round 3 is paired and played (here: before round 4).
    from tests.tournaments.play import play_swiss_round

    play_swiss_round(t)
    fr = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = fr.new_page()
    page.set_default_timeout(15000)
    login(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    line = page.locator("#dc-out").inner_text()
    names = [by_number[n].player.surname for n in (3, 5, 6)]
    assert line.startswith(f"Absents de la ronde 4 : {names[0]} (+1), {names[1]} (+2), {names[2]} (0)") or \
        line.startswith(f"Out of round 4: {names[0]} (+1), {names[1]} (+2), {names[2]} (0)"), line
    shot(page, "bye-grid-control-room-out-of-round-4-desktop-fr")
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/byes/")
    page.keyboard.press("ArrowDown")  # the first menu of round 4, focused on opening: a mark, not saved
    page.keyboard.press("1")
    shot(page, "bye-grid-desktop-fr")
    fr.close()

    context, phone = phone_in_french(browser, base)
    phone.goto(f"{base}/admin/tournaments/tournament/{t.pk}/byes/")
    assert phone.locator("select.db-select").count() == 8 * 2  # rounds 4 and 5
    assert not phone.locator("th.db-past").first.is_visible()  # rounds 1-3 cannot change: hidden here
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width}px"
    shot(phone, "bye-grid-phone-fr")
    context.close()


def test_the_grid_is_accessible_on_a_desktop_and_a_phone(swiss8: dict[str, Any], browser: Any) -> None:
    from tests.browser.axe import assert_accessible, require_axe

    require_axe()
    base, t = swiss8["url"], swiss8["tournament"]
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    login(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/byes/")
    assert_accessible(page, "admin bye grid 1280px fr")
    context.close()
    context, phone = phone_in_french(browser, base)
    phone.goto(f"{base}/admin/tournaments/tournament/{t.pk}/byes/")
    assert_accessible(phone, "admin bye grid 390px fr")
    context.close()
