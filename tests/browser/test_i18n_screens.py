"""Dutch and Russian readers in the browser: the language follows the browser, the switch works by keyboard,
and the main pages (standings, a round, the irregular game, the admin round page) are shot on desktop and phone
in both languages for a person to look at (artifacts/screenshots/i18n-*)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot
from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME, SLUG

pytestmark = pytest.mark.browser

WORDS = {"nl": ("Stand", "Ronde", "Notatiebiljet"), "ru": ("Положение", "Тур", "Бланк записи")}


def _login(pg: Any, base: str) -> None:
    pg.goto(f"{base}/admin/login/")
    pg.fill("#id_username", ARBITER_USERNAME)
    pg.fill("#id_password", ARBITER_PASSWORD)
    pg.click("input[type=submit]")


@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_pages_in_dutch_and_russian(browser: Any, demo: str, lang: str) -> None:
    from tournaments.models import GameSheet, Tournament

    t = Tournament.objects.get(slug=SLUG)
    game = GameSheet.objects.get(game__round__tournament=t, status="irregular").game
    last_round = t.rounds.order_by("number").last()
    pages = {
        "standings": f"/t/{SLUG}/standings/",
        "round": f"/t/{SLUG}/round/{last_round.number}/",
        "game": f"/t/{SLUG}/game/{game.pk}/",
        "admin-round": f"/admin/tournaments/round/{last_round.pk}/change/",
        "admin-sheet": f"/admin/tournaments/game/{game.pk}/sheet/",
    }
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        extra = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if size == "phone" else {}
        context = browser.new_context(viewport=viewport, locale={"nl": "nl-NL", "ru": "ru-RU"}[lang], **extra)
        pg = context.new_page()
        pg.set_default_timeout(15000)
        _login(pg, demo)
        for name, path in pages.items():
            pg.goto(demo + path)
            assert pg.locator("html").get_attribute("lang") == lang, (name, size)
            body = pg.locator("body").inner_text()
            assert any(word.lower() in body.lower() for word in WORDS[lang]), (name, body[:200])
            shot(pg, f"i18n-{lang}-{name}-{size}")
        context.close()


def test_switch_by_keyboard_and_shared_link(page: Any, demo: str) -> None:
    page.goto(f"{demo}/t/{SLUG}/standings/?lang=ru")
    assert page.locator("html").get_attribute("lang") == "ru"
    button = page.get_by_role("button", name="Nederlands")
    button.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert "lang=" not in page.url
    page.goto(f"{demo}/t/{SLUG}/crosstable/")
    assert page.locator("html").get_attribute("lang") == "nl"


def test_admin_refusals_on_a_phone_in_dutch_and_russian(browser: Any, demo: str) -> None:
    """A refused sheet (Dutch) and a refused CSV file (Russian), as an arbiter meets them on a 390-px phone:
    the error message in the reader's language, the words typed kept in the form."""
    from tournaments.models import GameSheet, Tournament

    t = Tournament.objects.get(slug=SLUG)
    game = GameSheet.objects.get(game__round__tournament=t, status="irregular").game
    expected = {
        "nl": "Niets opgeslagen: geplakte tekst: geen PDN-bestand: geen tag en geen zet gevonden",
        "ru": "Из players.csv ничего не импортировано: 1 ошибочная строка, см. ниже.",
    }
    for lang in ("nl", "ru"):
        context = browser.new_context(viewport=PHONE, locale={"nl": "nl-NL", "ru": "ru-RU"}[lang], is_mobile=True,
                                      has_touch=True, device_scale_factor=2)
        pg = context.new_page()
        pg.set_default_timeout(15000)
        _login(pg, demo)
        if lang == "nl":
            pg.goto(f"{demo}/admin/tournaments/game/{game.pk}/sheet/")
            pg.fill("textarea[name=text]", "Dit is geen partij.")
            with pg.expect_navigation():
                pg.locator("form[enctype='multipart/form-data'] input[type=submit]").click()
        else:
            pg.goto(f"{demo}/admin/tournaments/player/import-csv/")
            pg.set_input_files("input[type=file]", files=[{
                "name": "players.csv", "mimeType": "text/csv",
                "buffer": "surname,rating,federation\nИванов,2300,RUS\nПетров,много,RUSSIA\n".encode()}])
            with pg.expect_navigation():
                pg.locator("input[type=submit]").click()
        message = pg.locator(".messagelist li.error").first
        assert expected[lang] in message.inner_text()
        assert pg.locator("html").get_attribute("lang") == lang
        # Nothing wider than the phone: a long message wraps instead of pushing the page sideways.
        assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(pg, f"i18n-{lang}-admin-error-phone")
        context.close()
