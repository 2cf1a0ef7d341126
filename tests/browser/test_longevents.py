"""The rating tie-break settings of a long event, used as an arbiter would: in French, on a 390-px phone,
by keyboard (VCL4THP Q208-Q216). Screenshots: artifacts/screenshots/longevents-*."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import PHONE, SCREENSHOTS, shot
from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME, SLUG

pytestmark = pytest.mark.browser


def test_rating_tiebreak_settings_in_french_on_a_phone(browser: Any, demo: str) -> None:
    from tournaments.models import EntryRating, Tournament

    t = Tournament.objects.get(slug=SLUG)
    # A league over two months, ranked on the average opponents' rating as last tie-break.
    Tournament.objects.filter(pk=t.pk).update(end_date=datetime.date(2027, 1, 20),
                                              tiebreaks=["sonneborn_berger", "wins", "average_rating"])
    context = browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    pg = context.new_page()
    pg.set_default_timeout(15000)
    pg.goto(f"{demo}/admin/login/")
    pg.fill("#id_username", ARBITER_USERNAME)
    pg.fill("#id_password", ARBITER_PASSWORD)
    with pg.expect_navigation():
        pg.click("input[type=submit]")
    pg.goto(f"{demo}/admin/tournaments/tournament/{t.pk}/change/")
    assert pg.locator("html").get_attribute("lang") == "fr"
    suggestion = pg.locator("#long-event-suggestion")
    assert "s’étendent sur 67 jours" in suggestion.inner_text()
    # By keyboard: every control named by its label.
    pg.get_by_label("dure plus de 30 jours").focus()
    pg.keyboard.press("Space")
    pg.get_by_label("joueurs sans classement dans les départages au classement").select_option("fixed")
    pg.get_by_label("classement de la ronde de chaque partie").focus()
    pg.keyboard.press("Space")
    pg.locator("#id_unrated_rating").scroll_into_view_if_needed()
    shot(pg, "longevents-settings-fr-phone-before")
    pg.locator("fieldset:has(#id_long_event)").screenshot(
        path=str(SCREENSHOTS / "longevents-fieldset-fr-phone-before.png"))
    # A fixed rating without the rating: refused, and nothing typed is lost.
    with pg.expect_navigation():
        pg.locator("input[name=_continue]").click()
    assert "Saisissez le classement attribué aux joueurs sans classement" in pg.locator("body").inner_text()
    assert pg.get_by_label("dure plus de 30 jours").is_checked()
    assert pg.get_by_label("classement de la ronde de chaque partie").is_checked()
    pg.get_by_label("classement donné aux joueurs sans classement").fill("1200")
    with pg.expect_navigation():
        pg.locator("input[name=_continue]").click()
    # Rounds are paired: how the rating tie-breaks count is a level-4 change, confirmed by keyboard.
    box = pg.locator("#dm-confirm input[type=checkbox]")
    assert box.count() == 1 and pg.get_by_label("classement donné aux joueurs sans classement").input_value() == "1200"
    box.focus()
    pg.keyboard.press("Space")
    with pg.expect_navigation():
        pg.locator("input[name=_continue]").click()
    body = pg.locator("body").inner_text()
    assert "déconseille les départages au classement" in body and "FMJD n’en disent rien" in body
    t.refresh_from_db()
    assert (t.long_event, t.unrated_method, t.unrated_rating, t.tiebreak_rating_per_round) == (
        True, "fixed", 1200, True)
    pg.locator("#id_unrated_method").scroll_into_view_if_needed()
    assert pg.locator("#long-event-rating-tiebreaks").is_visible()
    shot(pg, "longevents-settings-fr-phone")
    pg.locator("fieldset:has(#id_long_event)").screenshot(path=str(SCREENSHOTS / "longevents-fieldset-fr-phone.png"))
    assert_accessible(pg, "longevents: tournament settings (fr, phone)")
    # A later rating on an entry's page.
    entry = t.entries.order_by("pairing_number").first()
    pg.goto(f"{demo}/admin/tournaments/entry/{entry.pk}/change/")
    pg.locator("#id_later_ratings-0-from_round").fill("4")
    pg.locator("#id_later_ratings-0-rating").fill("1500")
    shot(pg, "longevents-entry-fr-phone")
    pg.locator("#later_ratings-group").screenshot(path=str(SCREENSHOTS / "longevents-entry-inline-fr-phone.png"))
    assert_accessible(pg, "longevents: an entry's later ratings (fr, phone)")
    with pg.expect_navigation():
        pg.locator("input[name=_continue]").click()
    assert EntryRating.objects.filter(entry=entry, from_round=4, rating=1500).exists()
    pg.goto(f"{demo}/t/{SLUG}/tiebreaks/")
    help_text = pg.locator("body").inner_text()
    assert "Un adversaire sans classement compte pour 1200" in help_text
    assert "Chaque adversaire compte avec le classement qu’il avait à la ronde où la partie a été jouée" in help_text
    context.close()
