"""A whole day of a 15-player Swiss in chromium, as an arbiter does it — players
from a CSV file, round 1 numbered by rating, results typed by keyboard with one wrong value, round 2
taken back and paired again, a forbidden pair confirmed at publication, a round-1 result corrected
after round 2 was paired. Only clicks and key presses drive the pages; the database is only read.

It counts the clicks and key presses of one round cycle (pair, publish, results, complete) and prints
them (run with -s)."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser

PASSWORD = "pw-arbiter-2026"
# The file's order is not the rating order: the 2430 player is on the second line.
CSV = """surname,given_name,federation,rating,club
Lefebvre,Anne,FRA,1980,Lille
Baliakin,Pavel,RUS,2430,Moscou
Moreau,Luc,FRA,1850,Paris
Girard,Julie,FRA,2010,Lyon
Roux,Marc,FRA,1700,Lyon
Fontaine,Elise,FRA,2105,Nice
Mercier,Paul,BEL,1920,Liège
Blanc,Sophie,FRA,1790,Paris
Guerin,Hugo,FRA,2200,Marseille
Boyer,Lea,FRA,1650,Nantes
Garnier,Eric,FRA,2050,Rennes
Chevalier,Ines,FRA,1880,Lille
Francois,Yann,FRA,1760,Brest
Legrand,Noe,NED,2310,Utrecht
Gauthier,Rose,FRA,1600,Tours
"""


class Arbiter:
    """The browser page with a count of every click and key press the arbiter makes."""

    def __init__(self, page: Any) -> None:
        self.page, self.clicks, self.keys = page, 0, 0

    def click(self, target: Any, navigates: bool = True) -> None:
        locator = self.page.locator(target) if isinstance(target, str) else target
        self.clicks += 1
        if navigates:
            with self.page.expect_navigation():
                locator.click()
        else:
            locator.click()

    def press(self, *keys: str, navigates: bool = False) -> None:
        for key in keys:
            self.keys += 1
            if navigates:
                with self.page.expect_navigation():
                    self.page.keyboard.press(key)
            else:
                self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        self.keys += len(text)
        self.page.keyboard.type(text)

    def count(self) -> tuple[int, int]:
        return self.clicks, self.keys


def focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement ? (document.activeElement.name || document.activeElement.id"
                             " || '') : ''"))


def messages(page: Any) -> str:
    return str(page.locator(".messagelist").inner_text()) if page.locator(".messagelist").count() else ""


def results(tournament: Any, number: int) -> dict[int, str]:
    from tournaments.models import Game

    return dict(Game.objects.filter(round__tournament=tournament, round__number=number)
                .order_by("board").values_list("board", "result"))


@pytest.fixture
def day(transactional_db: None, live_server: Any) -> dict[str, Any]:
    """An empty Swiss and its chief arbiter (staff, not superuser), nothing else."""
    from django.contrib.auth import get_user_model

    from tournaments.models import System, Tournament

    user = get_user_model().objects.create_user("arbitre", password=PASSWORD, is_staff=True)
    t = Tournament.objects.create(name="Open de Nantes", slug="nantes", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=user, public=True, start_date=datetime.date(2026, 11, 23))
    return {"url": str(live_server.url), "tournament": t}


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "arbitre")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")


def public_standings(page: Any, base: str) -> list[str]:
    page.goto(f"{base}/t/nantes/standings/")
    return [re.sub(r"\s+", " ", row) for row in page.locator("table tbody tr").all_inner_texts()]


def test_an_arbiters_day_on_a_swiss(day: dict[str, Any], browser: Any) -> None:
    from tournaments.models import Entry, ForbiddenPair, Round

    base, t = day["url"], day["tournament"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, base)

    # -- The players, from a CSV file, on the admin's import page, entered in the tournament at once.
    page.goto(f"{base}/admin/tournaments/player/")
    with page.expect_navigation():
        page.get_by_role("link", name=re.compile("Import from CSV", re.I)).click()
    page.set_input_files("input[type=file]", files=[{"name": "nantes.csv", "mimeType": "text/csv",
                                                     "buffer": CSV.encode()}])
    page.select_option("select[name=tournament]", label=t.name)
    with page.expect_navigation():
        page.click("input[type=submit]")
    assert "15 player lines imported from nantes.csv" in messages(page)
    assert t.entries.count() == 15

    # -- The control room, from the admin's home page.
    page.goto(f"{base}/admin/")
    with page.expect_navigation():
        page.click(f"a.damier-control-link:has-text('{t.name}')")
    assert page.locator("#dc-next").inner_text() == "Pair round 1"
    assert page.locator(".dc-order li").first.inner_text() == "Baliakin, Pavel (2430)"
    shot(page, "day-control-before-round-1-desktop-en")

    # ===== One round cycle, counted: pair, publish, the results, complete. =====
    arbiter = Arbiter(page)
    arbiter.click("#dc-next")  # pair round 1
    first = Entry.objects.get(tournament=t, pairing_number=1).player
    assert (first.surname, first.rating) == ("Baliakin", 2430), "numbered by rating, by itself"
    assert "numbered by rating" in messages(page)
    assert page.locator("table.dc-boards tbody tr").count() == 8  # 7 games and the bye
    assert page.locator("#dc-next").inner_text() == "Publish round 1"
    arbiter.click("#dc-next")  # publish: lands on the round page
    rnd1 = Round.objects.get(tournament=t, number=1)
    assert rnd1.status == "published" and f"/admin/tournaments/round/{rnd1.pk}/change/" in page.url
    shot(page, "day-round-1-published-desktop-en")
    # The bye is in by itself; the "7 results missing" link puts the cursor on the first empty board.
    assert results(t, 1)[8] == "bye"
    arbiter.click(page.get_by_role("link", name="7 results missing"), navigates=False)
    assert focused(page) == "games-0-result"
    keys = ["2", "1", "0", "2", "1", "0"]  # boards 1-6, one key each: the cursor moves on by itself
    for index, key in enumerate(keys):
        assert focused(page) == f"games-{index}-result"
        arbiter.press(key)
    # Board 7 from a slip, with a wrong value: a bye on a game between two players.
    slip = page.get_by_label("Or paste a result slip")
    arbiter.click(slip, navigates=False)
    arbiter.type("7 bye")
    arbiter.click(page.get_by_role("button", name="Save the results"))
    wrong_cycle = (arbiter.clicks, arbiter.keys)
    assert set(results(t, 1).values()) == {"", "bye"}, "nothing half-saved"
    assert "the slip says “bye”" in page.locator("#dm-board-7").inner_text()
    assert page.locator("select[name=games-6-result]").get_attribute("aria-invalid") == "true"
    kept = [page.locator(f"select[name=games-{i}-result]").input_value() for i in range(6)]
    assert kept == ["2-0", "1-1", "0-2", "2-0", "1-1", "0-2"], kept  # what was typed survives
    shot(page, "day-round-1-wrong-value-desktop-en")
    # The arbiter follows the error's link to board 7, presses 1 (the refused slip item leaves the box,
    # the cursor goes on to the save button, the bye being skipped) and Enter.
    arbiter.click(page.locator(".dm-error-summary a", has_text="Board 7"), navigates=False)
    assert focused(page) == "games-6-result"
    arbiter.press("1")
    assert slip.input_value() == "", "the refused item is not read again"
    assert page.evaluate("document.activeElement.id") == "dm-save"
    arbiter.press("Enter", navigates=True)
    assert list(results(t, 1).values()) == ["2-0", "1-1", "0-2", "2-0", "1-1", "0-2", "1-1", "bye"]
    assert "All 8 results are in" in page.locator(".dm-round-head").inner_text()
    shot(page, "day-round-1-all-in-desktop-en")
    # The next step is offered where the last result was typed, as a button of a good size.
    box = page.locator("#dm-complete-button").bounding_box()
    assert box["height"] >= 32 and box["width"] >= 100, box
    arbiter.click("#dm-complete-button")
    assert Round.objects.get(pk=rnd1.pk).status == "completed"
    assert "Round 1 is completed. Next: pair round 2." in messages(page)
    cycle = {"clicks": arbiter.clicks, "keys": arbiter.keys}

    print(f"\none round cycle of 8 boards (7 games and a bye) with one wrong value: {cycle} (clicks: pair, "
          f"publish, '7 results missing', slip box, save, the error's link, complete); {wrong_cycle} up to the "
          f"refused save")
    assert cycle == {"clicks": 7, "keys": 6 + 5 + 1 + 1}, cycle

    # ===== Round 2: paired, published, taken back, paired again. =====
    # Round 2's cycle is counted too, without a mistake: pair and publish now, the rest once it is final.
    clean = Arbiter(page)
    assert page.locator("#dc-next").inner_text() == "Pair round 2"
    clean.click("#dc-next")
    clean.click("#dc-next")  # publish round 2
    rnd2 = Round.objects.get(tournament=t, number=2)
    assert rnd2.status == "published"
    with page.expect_navigation():
        page.locator(".dm-round-head").get_by_role("link", name="Control room").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Take round 2 back to draft").click()
    assert page.locator("h1").inner_text() == "Take round 2 back to draft?"
    assert "Round 2 goes back to draft" in page.locator(".dc-confirm").inner_text()
    shot(page, "day-take-back-round-2-desktop-en")
    with page.expect_navigation():
        page.click("#dc-confirm")
    assert Round.objects.get(pk=rnd2.pk).status == "draft"
    assert "Round 2 is a draft again" in messages(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Pair round 2 again").click()
    assert "was deleted and paired again" in messages(page)
    rnd2 = Round.objects.get(tournament=t, number=2)
    assert rnd2.status == "draft"

    # ===== A forbidden pair, added on the tournament page between two players of board 1. =====
    board1 = rnd2.games.select_related("white__player", "black__player").get(board=1)
    with page.expect_navigation():
        page.get_by_role("link", name="Players, forbidden pairs and settings").click()
    group = page.locator("#forbidden_pairs-group")
    group.locator(".add-row a").click()
    group.locator("select[name='forbidden_pairs-0-first']").select_option(label=str(board1.white))
    group.locator("select[name='forbidden_pairs-0-second']").select_option(label=str(board1.black))
    group.locator("input[name='forbidden_pairs-0-reason']").fill("brother and sister")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    # Round 1 is paired: a forbidden pair now is level 4 (the tournament leaves the conformance mode).
    assert ForbiddenPair.objects.filter(tournament=t).count() == 0
    box = page.locator("#dm-confirm input[type=checkbox]")
    assert box.count() == 1
    box.check()
    with page.expect_navigation():
        page.click("input[name=_continue]")
    assert ForbiddenPair.objects.filter(tournament=t).count() == 1, messages(page)
    with page.expect_navigation():
        page.click("a.damier-control-tool")
    assert page.locator(".dc-violations li").count() == 1
    assert page.locator("#dc-next").inner_text() == "Publish round 2"
    with page.expect_navigation():
        page.click("#dc-next")
    violations = page.locator(".dc-violations-list li").all_inner_texts()
    assert len(violations) == 1 and board1.white.player.surname in violations[0], violations
    assert board1.black.player.surname in violations[0], violations
    shot(page, "day-publish-forbidden-pair-desktop-en")
    assert Round.objects.get(pk=rnd2.pk).status == "draft", "not published before the confirmation"
    with page.expect_navigation():
        page.click("#dc-confirm")
    assert Round.objects.get(pk=rnd2.pk).status == "published"
    record = Round.history.filter(id=rnd2.pk).latest("history_date")  # type: ignore[attr-defined]
    assert "confirmed by arbitre" in record.history_change_reason
    assert record.history_user.username == "arbitre"

    # Round 2's results, on the round page where the publication landed: the link, one key a board, Enter.
    assert f"/admin/tournaments/round/{rnd2.pk}/change/" in page.url
    clean.click(page.get_by_role("link", name="7 results missing"), navigates=False)
    for _board in range(7):
        clean.press("1")
    assert page.evaluate("document.activeElement.id") == "dm-save"
    clean.press("Enter", navigates=True)
    assert "" not in results(t, 2).values()
    clean.click("#dm-complete-button")
    assert Round.objects.get(pk=rnd2.pk).status == "completed"
    print(f"one round cycle of 8 boards without a mistake (round 2): clicks {clean.clicks} (pair, publish, "
          f"'7 results missing', complete), keys {clean.keys} (7 results, Enter to save)")
    assert (clean.clicks, clean.keys) == (4, 8)

    # ===== A round-1 result corrected after round 2 was paired: board 1, 2-0 becomes 0-2. =====
    standings_page = context.new_page()
    before = public_standings(standings_page, base)
    assert page.locator("#dc-next").inner_text() == "Pair round 3"  # completing landed in the control room
    with page.expect_navigation():
        page.locator("table.dc-rounds").get_by_role("link", name="Round 1").click()
    page.locator("select[name=games-0-result]").focus()
    page.keyboard.press("0")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(t, 1)[1] == "2-0", "no reason, no correction"
    reason = page.get_by_label("Reason for the correction")
    assert reason.get_attribute("aria-invalid") == "true"
    assert page.locator("select[name=games-0-result]").input_value() == "0-2"  # kept
    reason.fill("Slip signed by both players says 0-2")
    with page.expect_navigation():
        reason.press("Enter")
    # Round 2 is paired after it: the correction of the previous round asks a confirmation (level 3).
    assert results(t, 1)[1] == "2-0"
    page.locator("#dm-confirm input[type=checkbox]").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save the results").click()
    assert results(t, 1)[1] == "0-2"
    text = messages(page)
    assert "Round 2 was paired when board 1 of round 1 read 2-0 (now 0-2)" in text, text
    shot(page, "day-correction-desktop-en")
    from tournaments.models import Game

    game = Game.objects.get(round=rnd1, board=1)
    record = Game.history.filter(id=game.pk).latest("history_date")  # type: ignore[attr-defined]
    assert record.history_change_reason == "Slip signed by both players says 0-2"
    assert record.history_user.username == "arbitre"
    # The round's "History" link unfolds the history below the table: the reason is there, with the player.
    page.locator(".dm-round-head").get_by_role("link", name="History").click()
    history = page.locator("#dm-history")
    history.wait_for(state="visible")
    line = history.locator("tr", has_text="Slip signed by both players says 0-2")
    assert line.count() == 1 and "arbitre" in line.inner_text(), history.inner_text()
    shot(page, "day-correction-history-desktop-en")
    after = public_standings(standings_page, base)
    assert after != before, "the public standings follow the correction at once"
    context.close()

    # ===== The control room and the round page on a phone, and in French. =====
    for lang in ("en-GB", "fr-FR"):
        for name, viewport, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
            ctx = browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile, locale=lang,
                                      device_scale_factor=2 if mobile else 1)
            pg = ctx.new_page()
            log_in(pg, base)
            pg.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
            shot(pg, f"day-control-{name}-{lang[:2]}")
            assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            pg.goto(f"{base}/admin/tournaments/round/{rnd2.pk}/change/")
            shot(pg, f"day-round-2-{name}-{lang[:2]}")
            assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            heading = pg.locator("h1").inner_text()
            assert heading == ("Open de Nantes – round 2" if lang == "en-GB" else "Open de Nantes – ronde 2")
            if lang == "fr-FR":  # no English left on the French round page's details
                details = pg.locator("#round_form fieldset").first.inner_text()
                assert "with a sheet" not in details and "Tournament" not in details, details
            ctx.close()
