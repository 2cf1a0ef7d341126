"""In the browser: the arbiter picks tie-breaks by name with the keyboard, on a
desktop and a 390-px phone, in English and French; the public help page, true headings and the
readable change log. Screenshots go to artifacts/screenshots/dayprints-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, SCREENSHOTS, shot

pytestmark = pytest.mark.browser
SLUG = "damier-demo-2026"


def context_page(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    phone = viewport == PHONE
    ctx = browser.new_context(viewport=viewport, locale="fr-FR" if lang == "fr" else "en-GB",
                              device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone,
                              extra_http_headers={"Accept-Language": lang})
    page = ctx.new_page()
    page.set_default_timeout(15000)
    return page


def login(page: Any, base: str) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME

    page.goto(f"{base}/admin/")
    page.fill("#id_username", ARBITER_USERNAME)
    page.fill("#id_password", ARBITER_PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")


def test_tie_breaks_by_keyboard_and_by_name(demo: str, browser: Any) -> None:
    from tournaments.models import Tournament

    page = context_page(browser, DESKTOP, "en")
    login(page, demo)
    page.goto(f"{demo}/admin/tournaments/tournament/add/")
    page.locator("#id_name").focus()
    page.keyboard.type("Keyboard Open")
    page.locator("#id_slug").fill("keyboard-open")
    # every menu is reached with Tab and has its own label
    preset = page.locator("#id_tiebreaks_0")
    preset.focus()
    assert page.evaluate("document.activeElement.id") == "id_tiebreaks_0"
    for i in range(1, 6):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == f"id_tiebreaks_{i}"
        label = page.locator(f"label[for=id_tiebreaks_{i}]").inner_text()
        assert label == f"Tie-break {i}"
    assert page.locator("label[for=id_tiebreaks_0]").count() >= 1
    # the help page is one link away; the form is plain HTML (no script needed to submit)
    assert page.locator("a[href='/tiebreaks/']").count() == 1
    preset.select_option("custom")
    page.locator("#id_tiebreaks_1").select_option("sonneborn_berger")
    page.locator("#id_tiebreaks_2").select_option("wins")
    shot(page, "dayprints-tournament-form-1280-en")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    assert Tournament.objects.get(slug="keyboard-open").tiebreaks == ["sonneborn_berger", "wins"]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("size", "viewport"), [("1280", DESKTOP), ("390", PHONE)])
def test_screens_in_both_languages_and_sizes(demo: str, browser: Any, lang: str, size: str,
                                             viewport: dict[str, int]) -> None:
    from tournaments.models import Round, Tournament

    page = context_page(browser, viewport, lang)
    page.goto(f"{demo}/t/{SLUG}/standings/")
    heading = page.locator("h1").inner_text()
    assert heading == ("Standings – round 9 in progress (3 results missing)" if lang == "en"
                       else "Classement – ronde 9 en cours (3 résultats manquants)")
    shot(page, f"dayprints-standings-{size}-{lang}")
    page.screenshot(path=str(SCREENSHOTS / f"dayprints-standings-top-{size}-{lang}.png"))
    with page.expect_navigation():
        page.locator("p.tb-help a").click()
    assert page.locator("h1").inner_text() == ("How ties are broken" if lang == "en"
                                               else "Comment les ex aequo sont départagés")
    shot(page, f"dayprints-tiebreak-help-{size}-{lang}")
    page.goto(f"{demo}/")
    shot(page, f"dayprints-home-{size}-{lang}")
    page.goto(f"{demo}/t/{SLUG}/round/9/")
    assert page.locator(f"a[href='/t/{SLUG}/round/9/boards.pdf']").count() == 1
    shot(page, f"dayprints-round-{size}-{lang}")
    login(page, demo)
    t = Tournament.objects.get(slug=SLUG)
    page.goto(f"{demo}/admin/tournaments/tournament/{t.pk}/change/")
    page.locator("#id_tiebreaks_0").scroll_into_view_if_needed()
    shot(page, f"dayprints-tournament-form-{size}-{lang}")
    # the control itself, as seen on the screen (the full-page shots of the admin are very tall)
    page.locator(".tiebreak-choice").screenshot(path=str(SCREENSHOTS / f"dayprints-tiebreak-control-{size}-{lang}.png"))
    box = page.locator(".tiebreak-choice select").first.bounding_box()
    assert box is not None and box["height"] >= 24 and box["x"] + box["width"] <= viewport["width"]
    page.goto(f"{demo}/admin/tournaments/tournament/{t.pk}/standings/")
    shot(page, f"dayprints-admin-standings-{size}-{lang}")
    rnd = Round.objects.get(tournament=t, number=9)
    page.goto(f"{demo}/admin/tournaments/round/{rnd.pk}/change/")
    shot(page, f"dayprints-round-history-{size}-{lang}")
    page.context.close()
