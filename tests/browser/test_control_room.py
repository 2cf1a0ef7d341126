"""In a browser: one round cycle (pair, publish, results, complete) run from the control
room, counting the arbiter's clicks; screenshots on desktop and on a 390-px phone, in English and French."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def swiss8(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open de Bordeaux", slug="bordeaux", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=user, public=True, start_date=datetime.date(2026, 5, 1))
    # Entered in the CSV file's order, the strongest last: numbered by rating when round 1 is paired.
    names = ["Dupont", "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand"]
    for i, name in enumerate(names):
        p = Player.objects.create(surname=name, given_name="Jean", rating=1800 + 60 * i, federation="FRA")
        roster.entry_add(tournament=t, player=p)
    return {"url": str(live_server.url), "tournament": t}


def login(page: Any, base: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", "pw-chief-123")
    with page.expect_navigation():
        page.click("input[type=submit]")


class Clicks:
    """Every click the arbiter makes, counted where it is made."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def click(self, selector: str) -> None:
        self.count += 1
        with self.page.expect_navigation():
            self.page.click(selector)


def test_one_round_cycle_from_the_control_room(swiss8: dict[str, Any], browser: Any) -> None:
    from tournaments.models import Entry, Round
    from tournaments.rounds import services

    base, t = swiss8["url"], swiss8["tournament"]
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    login(page, base)
    clicks = Clicks(page)

    # From the admin's home page, the tournament's control room is one click away.
    shot(page, "admin-index-control-rooms-desktop-en")
    clicks.click(f"a.damier-control-link:has-text('{t.name}')")
    assert page.url.endswith(f"/admin/tournaments/tournament/{t.pk}/control/")
    assert page.locator("#dc-next").inner_text() == "Pair round 1"
    assert "numbered by rating" in page.locator(".dc-next").inner_text()
    shot(page, "control-room-before-round-1-desktop-en")

    clicks.click("#dc-next")  # pair round 1
    assert page.locator("#dc-next").inner_text() == "Publish round 1"
    assert Entry.objects.get(tournament=t, pairing_number=1).player.surname == "Durand"  # 2220, the best
    assert page.locator("table.dc-boards tbody tr").count() == 4
    shot(page, "control-room-draft-desktop-en")

    clicks.click("#dc-next")  # publish: lands on the round page, where the results are typed
    rnd = Round.objects.get(tournament=t, number=1)
    assert f"/admin/tournaments/round/{rnd.pk}/change/" in page.url
    assert "Round 1 is published" in page.locator(".messagelist").inner_text()
    # The results themselves are typed on the round page (dayentry's page, with its own test); here they
    # are entered as that page would, and the arbiter goes back through the link in the message.
    for game in rnd.games.all():
        services.game_record_result(game=game, result="2-0")
    clicks.click(".messagelist a:has-text('control room')")
    assert page.locator("#dc-next").inner_text() == "Complete round 1"

    # By keyboard: the next-step button takes the focus with Tab and Enter presses it.
    page.locator("#dc-next").focus()
    shot(page, "control-room-complete-focused-desktop-en")
    outline = page.evaluate("getComputedStyle(document.querySelector('#dc-next')).outlineStyle")
    assert outline != "none"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    clicks.count += 1  # one key press instead of a click
    assert "Round 1 is completed. Next: pair round 2." in page.locator(".messagelist").inner_text()
    assert page.locator("#dc-next").inner_text() == "Pair round 2"
    shot(page, "control-room-after-round-1-desktop-en")

    # One round cycle: control room -> pair -> publish -> (results) -> back -> complete.
    assert clicks.count == 5, clicks.count
    print(f"\nclicks from the admin's home page to round 2's pair button: {clicks.count} "
          f"(1 to open the control room, 1 pair, 1 publish, 1 back from the round page, 1 complete)")

    # The target size on the phone, and nothing wider than the screen.
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                locale="en-GB")
    ppage = phone.new_page()
    login(ppage, base)
    ppage.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    box = ppage.locator("#dc-next").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 300
    assert ppage.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shot(ppage, "control-room-after-round-1-phone-en")
    services.round_pair(tournament=t)
    ppage.reload()
    assert ppage.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shot(ppage, "control-room-draft-phone-en")
    phone.close()

    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        fr = browser.new_context(viewport=viewport, locale="fr-FR", device_scale_factor=2 if viewport is PHONE
                                 else 1, is_mobile=viewport is PHONE)
        fpage = fr.new_page()
        login(fpage, base)
        fpage.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
        assert fpage.locator("#dc-next").inner_text() == "Publier la ronde 2"
        assert "Prochaine étape" in fpage.content()
        shot(fpage, f"control-room-draft-{name}-fr")
        fr.close()
    context.close()


def test_the_confirmations_and_the_schedule_on_a_phone(swiss8: dict[str, Any], browser: Any) -> None:
    from tournaments.models import Entry, ForbiddenPair, Player, Round, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    base, t = swiss8["url"], swiss8["tournament"]
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                locale="fr-FR")
    page = phone.new_page()
    page.set_default_timeout(15000)
    login(page, base)
    # A forbidden pair added after the draft was paired: publishing lists it and asks.
    rnd = services.round_pair(tournament=t)
    board1 = rnd.games.get(board=1)
    ForbiddenPair.objects.create(tournament=t, first=board1.white, second=board1.black, reason="même club")
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    with page.expect_navigation():
        page.click("#dc-next")
    assert page.locator(".dc-violations-list li").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shot(page, "control-room-confirm-violations-phone-fr")
    with page.expect_navigation():
        page.click("#dc-confirm")
    assert Round.objects.get(pk=rnd.pk).status == "published"

    # A round robin: numbers drawn by lot, then its whole schedule, to print before round 1.
    rr = Tournament.objects.create(name="Fermé de Lyon", slug="lyon", system=System.ROUND_ROBIN,
                                   chief_arbiter=t.chief_arbiter, public=True)
    for i in range(6):
        roster.entry_add(tournament=rr, player=Player.objects.create(surname=f"Joueur{i}", rating=2000 + i))
    page.goto(f"{base}/admin/tournaments/tournament/{rr.pk}/control/")
    with page.expect_navigation():
        page.click("#dc-next")  # draw by lot
    assert Tournament.objects.get(pk=rr.pk).numbering == "lot"
    shot(page, "control-room-after-draw-phone-fr")
    with page.expect_navigation():
        page.click("a:has-text('Imprimer le calendrier de toutes les rondes')")
    assert page.locator(".dc-schedule table").count() == 5
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    first = Entry.objects.get(tournament=rr, pairing_number=1).player.full_name
    assert first in page.locator(".dc-schedule").inner_text()
    shot(page, "schedule-round-robin-phone-fr")
    phone.close()
