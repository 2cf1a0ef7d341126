"""Check-in before a round, in French, in chromium: 40 players, two check in from their phones with the code
shown in the hall, the arbiter marks 35 by keyboard on the check-in screen (one key a player, the search by
name once), three stay away; the control room says "37 of 40 present"; pairing round 1 asks what the three get
and the answer "not paired, 0 points" is recorded.

Every click and key press the arbiter makes is counted and printed (run with -s). Screenshots go to
artifacts/screenshots/checkin-*."""

from __future__ import annotations

import datetime
import time
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import PHONE, phone_in_french, shot
from tests.browser.test_arbiters_day import PASSWORD, log_in
from tests.browser.test_arbiters_day import Arbiter as Desk
from tests.browser.test_desk_day import french

pytestmark = pytest.mark.browser

SURNAMES = ["Baliakine", "Groeneveld", "van den Heuvel", "Guérin", "Fontaine", "Garnier", "Girard", "Lefèvre",
            "Mercier", "Kouadio", "Moreau", "Blanc", "Sørensen", "Roux", "Boyer", "Dubois", "Lambert", "Faure",
            "André", "Mathieu", "Clément", "Gauthier", "Perrin", "Morel", "Chevalier", "Lemaire", "Noël",
            "Barbier", "Brunet", "Schmitt", "Leroy", "Caron", "Dupuis", "Huet", "Renard", "Picard", "Aubert",
            "Rolland", "Hoarau", "Bertrand"]
ABSENT = (7, 19, 33)  # pairing numbers that never check in
PHONES = (3, 25)  # pairing numbers that check in from their phones
BY_NAME = 13  # Sørensen: found by typing "soren" (the ø folded)


@pytest.fixture
def hall(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster

    user = get_user_model().objects.create_user("arbitre", password=PASSWORD, is_staff=True)
    t = Tournament.objects.create(name="Open de Nantes", slug="nantes", system=System.SWISS, rounds_total=7,
                                  chief_arbiter=user, public=True, checkin_enabled=True,
                                  start_date=datetime.date(2026, 11, 28))
    for i, surname in enumerate(SURNAMES):  # ratings in entry order: round 1's numbering keeps the numbers
        player = Player.objects.create(surname=surname, given_name="Alex", rating=2400 - 10 * i, federation="FRA")
        roster.entry_add(tournament=t, player=player)
    return {"url": str(live_server.url), "tournament": t}


def _settled(page: Any) -> None:
    """Until the screen has no request under way (its data-busy): the test server shares one SQLite connection
    between its threads, which two requests at once would break. Read from here, not by the page's timers."""
    end = time.monotonic() + 20
    while page.evaluate("document.getElementById('ck').getAttribute('data-busy') || '0'") != "0":
        assert time.monotonic() < end, "the check-in screen never settled"
        time.sleep(0.02)


def _marked(page: Any, arbiter: Desk, *keys: str) -> None:
    """Keys that mark a player, each after the screen settled from the one before."""
    for key in keys:
        arbiter.press(key)
        _settled(page)


def _count(page: Any) -> str:
    return str(page.locator("#ck-count").inner_text())


def test_forty_players_checked_in_and_a_round_paired_with_three_absent(hall: dict[str, Any], browser: Any) -> None:
    from tournaments.models import CheckIn, ConformanceEvent, Entry, Round

    base, t = hall["url"], hall["tournament"]
    counts: dict[str, tuple[int, int]] = {}
    context, page = french(browser)
    # The screen's own refresh every 5 s is held in this test (see _settled); it is what shows the phones'
    # check-ins without a key pressed, and the reload below does that here.
    page.add_init_script("window.setInterval = function () { return 0; };")
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")

    # ===== Open check-in from the control room: the code, large, to write on the hall's board.
    arbiter = Desk(page)
    arbiter.click("#dc-checkin a")
    arbiter.click("#ck-open")
    code = page.locator("#ck-code").inner_text().strip()
    assert len(code) == 5, code
    assert page.evaluate("document.activeElement.id") == "ck-search"
    counts["open check-in (from the control room)"] = arbiter.count()

    # ===== Two players check in from their phones with the code, on their own player pages.
    phone_context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                        locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    phone = phone_context.new_page()
    for number in PHONES:
        phone.goto(f"{base}/t/nantes/player/{number}/")
        phone.fill("#checkin-code", code.lower())
        if number == PHONES[0]:
            shot(phone, "checkin-player-page-phone-fr")
            assert_accessible(phone, "checkin player page (phone, fr)")
        with phone.expect_navigation():
            phone.locator("form.checkin button[type=submit]").click()
        said = phone.locator("#checkin-said").inner_text()
        assert "round 1" in said or "ronde 1" in said, said
    shot(phone, "checkin-player-answer-phone-fr")
    assert_accessible(phone, "checkin answer (phone, fr)")
    phone.goto(f"{base}/t/nantes/player/4/")
    phone.fill("#checkin-code", "ZZZZZ")
    with phone.expect_navigation():
        phone.locator("form.checkin button[type=submit]").click()
    assert phone.locator("#checkin-said").get_attribute("role") == "alert"
    phone_context.close()
    assert sorted(CheckIn.objects.values_list("entry__pairing_number", flat=True)) == list(PHONES)

    # ===== The arbiter: down the list, Space marks the highlighted player and moves on; ↓ passes one by.
    arbiter = Desk(page)
    page.reload()  # the screen as it stands (its own refresh would show the phones within 5 s)
    assert page.locator("#ck-count").inner_text().startswith("2 ")
    for number in range(1, 41):
        if number in ABSENT or number in PHONES or number == BY_NAME:
            arbiter.press("ArrowDown")
        else:
            _marked(page, arbiter, " ")
    # ...and one by name: accents and letters like ø folded; Enter marks him.
    arbiter.type("soren")
    assert page.locator("#ck-list li:not([hidden])").count() == 1
    _marked(page, arbiter, "Enter")
    assert _count(page).startswith("37 "), _count(page)
    counts["35 players marked by keyboard"] = arbiter.count()
    assert arbiter.count() == (0, 46), arbiter.count()  # 34 Spaces, 6 arrows, 5 letters and Enter
    assert CheckIn.objects.filter(round_number=1).count() == 37
    assert CheckIn.objects.filter(by="player").count() == 2
    shot(page, "checkin-screen-desktop-fr")
    assert_accessible(page, "checkin screen (desktop, fr)")

    # The same key again marks a player absent, and once more present: one key each way.
    arbiter = Desk(page)
    arbiter.type("1")
    _marked(page, arbiter, "Enter")
    assert _count(page).startswith("36 "), _count(page)
    arbiter.type("1")
    _marked(page, arbiter, "Enter")
    assert _count(page).startswith("37 "), _count(page)
    counts["a player marked absent and present again"] = arbiter.count()

    # ===== The same screen on a 390-px phone.
    phone_context, arbiter_phone = phone_in_french(browser, base, username="arbitre", password=PASSWORD)
    arbiter_phone.goto(f"{base}/admin/tournaments/tournament/{t.pk}/checkin/")
    assert arbiter_phone.locator("#ck-count").inner_text().startswith("37 ")
    assert arbiter_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(arbiter_phone, "checkin-screen-phone-fr")
    assert_accessible(arbiter_phone, "checkin screen (phone, fr)")
    phone_context.close()

    # ===== The control room: "37 of 40 present"; pairing asks what the three absentees get.
    arbiter = Desk(page)
    arbiter.click("#ck-control")
    assert "37" in page.locator("#dc-checkin").inner_text() and "40" in page.locator("#dc-checkin").inner_text()
    shot(page, "checkin-control-room-fr")
    arbiter.click("#dc-next")  # pair round 1
    assert not Round.objects.filter(tournament=t).exists()
    asked = page.locator("#ck-absentees li").all_inner_texts()
    names = {n: str(Entry.objects.get(tournament=t, pairing_number=n)) for n in ABSENT}
    assert asked == [names[n] for n in ABSENT], asked
    assert page.locator("#ck-not-paired").is_checked()
    shot(page, "checkin-question-desktop-fr")
    assert_accessible(page, "checkin question (desktop, fr)")
    print("\nThe question:", page.locator("#ck-q-title").inner_text(), "|", " / ".join(asked), "|",
          page.locator("label[for=ck-not-paired]").inner_text(), "|",
          page.locator("label[for=ck-paired]").inner_text())
    arbiter.click("#ck-pair")
    rnd = Round.objects.get(tournament=t, number=1)
    excused = set(rnd.games.filter(result="excused").values_list("white__pairing_number", flat=True))
    assert excused == set(ABSENT)
    assert rnd.games.filter(black__isnull=False).count() == 18 and rnd.games.count() == 22  # 37: a bye
    event = ConformanceEvent.objects.get(tournament=t, code="checkin-absent-not-paired")
    assert event.values == {"round": 1, "players": list(ABSENT)}
    t.refresh_from_db()
    assert t.checkin_round is None
    counts["pair round 1, the question answered"] = arbiter.count()
    assert arbiter.count() == (3, 0), arbiter.count()
    shot(page, "checkin-paired-fr")
    context.close()

    print("\nCheck-in, clicks and keys per step:")
    for step, (clicks, keys) in counts.items():
        print(f"  {step}: {clicks} clicks, {keys} keys")
