"""Numbers and ratings in a browser, on a 390-px phone in French: the pairing-numbers page (a rating notice,
an exchange asked and confirmed by keyboard), a round-robin round made by hand with its warnings, and the
tournament's rating settings. Screenshots of each screen; axe-core on each."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import PHONE, SCREENSHOTS, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def setup(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_round
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    swiss = Tournament.objects.create(name="Open de Bordeaux", slug="bordeaux", system=System.SWISS, rounds_total=5,
                                      chief_arbiter=user, start_date=datetime.date(2026, 5, 1))
    names = ["Dupont", "Martin", "Bernard", "Thomas", "Petit", "Robert"]
    for i, name in enumerate(names):
        rating = 2100 if i < 2 else 1900 - 40 * i
        p = Player.objects.create(surname=name, given_name="Jean", rating=rating, national_rating=rating - 25,
                                  federation="FRA", title="MF" if i == 5 else "")
        roster.entry_add(tournament=swiss, player=p)
    play_round(swiss)
    Player.objects.filter(surname="Robert").update(rating=1990)  # a new list since the entry
    rr = Tournament.objects.create(name="Fermé de Lyon", slug="lyon", system=System.ROUND_ROBIN, chief_arbiter=user,
                                   start_date=datetime.date(2026, 6, 1))
    for i in range(4):
        roster.entry_add(tournament=rr, player=Player.objects.create(surname=f"Joueur{i}", rating=2000 + i))
    play_round(rr)
    services.round_pair(tournament=rr)
    return {"url": str(live_server.url), "swiss": swiss, "rr": rr}


def login(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", "pw-chief-123")
    with page.expect_navigation():
        page.click("input[type=submit]")


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1


def test_numbers_and_round_robin_screens_on_a_phone_in_french(setup: dict[str, Any], browser: Any) -> None:
    from tournaments.models import ConformanceEvent, Entry

    base, swiss, rr = setup["url"], setup["swiss"], setup["rr"]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15000)
    login(page, base)

    # The pairing-numbers page: reached from the control room, the notice of a changed rating first.
    page.goto(f"{base}/admin/tournaments/tournament/{swiss.pk}/control/")
    with page.expect_navigation():
        page.click("a[href$='/numbers/']")
    assert "Avis : 1 classement a changé depuis l'inscription" in page.inner_text("#content")
    fits(page)
    axe.assert_accessible(page, "numbers phone fr")
    shot(page, "numbers-page-phone-fr")

    # An exchange by keyboard: two players of the same rating, then the confirmation on the same page.
    first, second = Entry.objects.filter(tournament=swiss).order_by("pairing_number")[:2]
    page.select_option("#id_first", str(first.pk))
    page.select_option("#id_second", str(second.pk))
    page.focus("#dn-exchange")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("#dm-confirm input[type=checkbox]").count() == 1
    assert page.locator("#id_first").input_value() == str(first.pk)  # the choice is kept
    fits(page)
    axe.assert_accessible(page, "numbers exchange asked phone fr")
    shot(page, "numbers-exchange-confirm-phone-fr")
    page.focus("#dm-confirm input[type=checkbox]")
    page.keyboard.press("Space")
    with page.expect_navigation():
        page.click("#dn-exchange")
    assert "ont échangé leurs numéros d'appariement" in page.inner_text("body")
    assert ConformanceEvent.objects.filter(tournament=swiss, code="numbers-exchanged").exists()
    shot(page, "numbers-exchanged-phone-fr")

    # A rating list compared with the entries: each difference ticked by default, applied as chosen.
    from tournaments.models import Player

    Player.objects.filter(surname="Dupont").update(fmjd_id=501)
    Player.objects.filter(surname="Petit").update(fmjd_id=502)
    page.set_input_files("#dn-list-file", files=[{"name": "fmjd-2026-06.csv", "mimeType": "text/csv",
                                                  "buffer": b"fmjd_id,rating\n501,2130\n502,1777\n"}])
    with page.expect_navigation():
        page.click("#dn-check-list")
    assert page.locator(".dn-list input[type=checkbox]").count() == 2
    fits(page)
    axe.assert_accessible(page, "numbers rating list phone fr")
    shot(page, "numbers-rating-list-phone-fr")
    page.locator(".dn-list input[type=checkbox]").nth(1).uncheck()
    with page.expect_navigation():
        page.click("#dn-apply-list")
    assert Player.objects.get(surname="Dupont").rating == 2130 and Player.objects.get(surname="Petit").rating != 1777

    # A round-robin round made by hand: round 1 again, so a rematch and the table's difference are asked.
    page.goto(f"{base}/admin/tournaments/tournament/{rr.pk}/control/")
    with page.expect_navigation():
        page.click("a:has-text('Faire la ronde 2 à la main')")
    fits(page)
    axe.assert_accessible(page, "rr hand phone fr")
    shot(page, "rr-hand-round-phone-fr")
    played = sorted((g.white.pairing_number, g.black.pairing_number)
                    for g in rr.rounds.get(number=1).games.select_related("white", "black"))
    for board, (white, black) in enumerate(played, start=1):
        page.select_option(f"#board-{board}-white", str(white))
        page.select_option(f"#board-{board}-black", str(black))
    with page.expect_navigation():
        page.click("#dn-hand-save")
    assert page.locator("#dm-confirm input[type=checkbox]").count() >= 2
    fits(page)
    axe.assert_accessible(page, "rr hand warnings phone fr")
    shot(page, "rr-hand-round-warnings-phone-fr")
    for box in page.locator("#dm-confirm input[type=checkbox]").all():
        box.check()
    with page.expect_navigation():
        page.click("#dn-hand-save")
    assert ConformanceEvent.objects.filter(tournament=rr, code="schedule-by-hand").exists()

    # The tournament's settings: the rating method, equal ratings and the double round robin's order.
    page.goto(f"{base}/admin/tournaments/tournament/{rr.pk}/change/")
    fieldset = page.locator("fieldset:has(#id_rating_method)")
    assert page.locator("label[for=id_rr_reverse_last_two]").count() == 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    fieldset.screenshot(path=str(SCREENSHOTS / "tournament-rating-settings-phone-fr.png"))
    context.close()
