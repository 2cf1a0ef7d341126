"""Game sheets as a new arbiter tries them: upload a round's PDN whose names are transliterated and one game
matches nobody, give that game to its board by hand, accept one verdict; the public game page shows the
moves before the ruling and the ruling after it. Screenshots at 1280 and 390 px, in English and French
(artifacts/screenshots/sheets-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser

SLUG = "damier-demo-2026"
# Latin spellings an arbiter receives for the demo's players: transliterated, accents dropped.
LATIN = {"Коваленко": "Kovalenko, Andrii", "Lefèvre": "Lefevre, Amelie", "Øvergaard": "Overgaard, Soren",
         "Nowicki": "Nowicki, Lukasz", "Bošković": "Boskovic, Ana", "Groeneveld": "Groeneveld, Josephine",
         "Mbemba": "Mbemba, Noel", "Silva": "Silva, Joao", "N'Diaye": "N'Diaye, Mamadou",
         "van der Berg": "van der Berg, Sjoerd"}
SHORT = "1. 32-28 19-23 2. 28x19 14x23"
IRREGULAR = "1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41"
VARIANTS = {"en-desktop": ("en-GB", DESKTOP), "en-phone": ("en-GB", PHONE), "fr-desktop": ("fr-FR", DESKTOP),
            "fr-phone": ("fr-FR", PHONE)}


def round_file(rnd: Any) -> tuple[str, int, int]:
    """The round's PDN as it arrives: Latin spellings; board 1's game irregular; the last board's game
    written with names nobody can match. Returns (text, irregular board, unmatched board)."""
    games = list(rnd.games.filter(black__isnull=False).select_related("white__player", "black__player")
                 .order_by("board"))
    parts = []
    for game in games:
        result = game.result or "1-1"
        white, black = LATIN[game.white.player.surname], LATIN[game.black.player.surname]
        if game == games[-1]:
            white, black = "Speler A.", "Speler B."
        moves = IRREGULAR if game == games[0] else SHORT
        parts.append(f'[Event "Demo"]\n[Round "{rnd.number}"]\n[White "{white}"]\n[Black "{black}"]\n'
                     f'[Result "{result}"]\n\n{moves} {result}\n')
    return "\n".join(parts), games[0].board, games[-1].board


def login(pg: Any, base: str) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME

    pg.goto(f"{base}/admin/login/")
    pg.fill("#id_username", ARBITER_USERNAME)
    pg.fill("#id_password", ARBITER_PASSWORD)
    with pg.expect_navigation():
        pg.click("input[type=submit]")


@pytest.fixture
def contexts(browser: Any) -> Iterator[dict[str, Any]]:
    made = {}
    for name, (locale, viewport) in VARIANTS.items():
        phone = viewport is PHONE
        made[name] = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=2 if phone else 1,
                                         is_mobile=phone, has_touch=phone, extra_http_headers={
                                             "Accept-Language": locale.split("-")[0]})
    pages = {name: ctx.new_page() for name, ctx in made.items()}
    for pg in pages.values():
        pg.set_default_timeout(20000)
    yield pages
    for ctx in made.values():
        ctx.close()


def upload(pg: Any, base: str, rnd: Any, text: str) -> None:
    pg.goto(f"{base}/admin/tournaments/round/{rnd.pk}/sheets/")
    pg.set_input_files("#id_file", files=[{"name": "ronde.pdn", "mimeType": "application/octet-stream",
                                          "buffer": text.encode("utf-8")}])
    with pg.expect_navigation():
        pg.click("input[type=submit][value]:not([name])")
    pg.wait_for_selector("#sheets-preview")


def test_round_upload_assignment_and_ruling(demo: str, contexts: dict[str, Any]) -> None:
    from tournaments.models import Game, GameSheet, Round
    from tournaments.rounds import deletion

    rnd = Round.objects.get(tournament__slug=SLUG, number=9)
    with deletion.allowed():  # the test's own set-up: the round's sheets have not come in yet
        GameSheet.objects.filter(game__round=rnd).delete()
    text, irregular_board, lost_board = round_file(rnd)
    for pg in contexts.values():
        login(pg, demo)
    en = contexts["en-desktop"]

    # The report, as the arbiter sees it in every variant: names read across alphabets, one game not matched.
    for name, pg in contexts.items():
        upload(pg, demo, rnd, text)
        body = pg.locator("#sheets-preview").inner_text()
        assert "not_verifiable" not in body and "unmatched" not in body
        shot(pg, f"sheets-upload-report-{name}")
    report = en.locator("#sheets-preview").inner_text()
    assert "“Kovalenko, Andrii” read as Коваленко, Андрій (a near spelling)" in report
    assert report.count("Not matched") == 1
    assert "Move 2, White: a move while a capture was compulsory (art. 5.4.6)" in report
    french = contexts["fr-desktop"].locator("#sheets-preview").inner_text()
    assert "Non rapprochée" in french and "Coup 2, Blancs" in french
    assert "“Kovalenko, Andrii” lu comme Коваленко, Андрій (graphie voisine)" in french
    assert "Blancs : “Speler A.” n’est pas un joueur de cette ronde" in french

    # The unmatched game is given to its board by hand, and everything is stored.
    lost = rnd.games.get(board=lost_board)
    select = en.locator("select[name^=assign-]")
    select.select_option(str(lost_board))
    assert en.get_by_label(select.evaluate("e => e.labels[0].textContent")).count() == 1  # the select is named
    with en.expect_navigation():
        en.click("input[name=confirm]")
    assert "sheet(s) stored for round 9" in en.locator(".messagelist").inner_text()
    assert GameSheet.objects.filter(game__round=rnd).count() == rnd.games.filter(black__isnull=False).count()
    assert GameSheet.objects.get(game=lost).report["assigned"] is True

    # The public page before the ruling: the moves, no verdict.
    game = Game.objects.get(round=rnd, board=irregular_board)
    public = f"{demo}/t/{SLUG}/game/{game.pk}/"
    for name, pg in contexts.items():
        pg.goto(public)
        status = pg.locator("#sheet-status").inner_text()
        assert "Irregular" not in status and "Irrégulier" not in status
        assert pg.locator("#moves").inner_text().count("37-32") == 1
        shot(pg, f"sheets-public-before-ruling-{name}")

    # The arbiter accepts the verdict on the game's sheet page.
    en.goto(f"{demo}/admin/tournaments/game/{game.pk}/sheet/")
    shot(en, "sheets-admin-sheet-page-en-desktop")
    with en.expect_navigation():
        en.click("input[name=rule]")
    assert "verdict accepted" in en.locator(".messagelist").inner_text()
    assert GameSheet.objects.get(game=game).ruling == "irregular"

    for name, pg in contexts.items():
        pg.goto(public)
        status = pg.locator("#sheet-status").inner_text()
        expected = "Irrégulier" if name.startswith("fr") else "Irregular"
        assert expected in status, status
        assert ("Coup 2, Blancs" if name.startswith("fr") else "Move 2, White") in status
        shot(pg, f"sheets-public-after-ruling-{name}")
