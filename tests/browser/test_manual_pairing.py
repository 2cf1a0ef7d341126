"""The manual pairing phase in a browser, in French on a 390-px phone: open round 2's manual pairing phase from the
control room, pair two players who met in round 1 (the rematch warning, confirmed by keyboard), validate
(the comparison with the engine, confirmed), and the TRF export carries the ### line. Screenshots:
artifacts/screenshots/manual-pairing-*."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import phone_in_french, shot

pytestmark = pytest.mark.browser


@pytest.fixture
def lyon(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_swiss_round
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open de Lyon", slug="lyon", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=user, public=True, start_date=datetime.date(2026, 5, 1))
    for i, name in enumerate(["Dupont", "Martin", "Bernard", "Thomas", "Petit", "Robert"]):
        p = Player.objects.create(surname=name, given_name="Jean", rating=2100 - 40 * i, federation="FRA")
        roster.entry_add(tournament=t, player=p)
    first = play_swiss_round(t)
    services.round_pair(tournament=t)
    return {"url": str(live_server.url), "tournament": t, "first": first}


def _axe(page: Any, name: str) -> None:
    if axe.AXE_JS.exists():  # installed by `npm ci` in tests/browser (.ci/run); the screens are checked by eye too
        axe.assert_accessible(page, name)


def test_a_rematch_paired_by_hand_is_confirmed_compared_and_written_to_the_trf(lyon: dict[str, Any],
                                                                               browser: Any) -> None:
    from tournaments.models import Round

    base, t, first = lyon["url"], lyon["tournament"], lyon["first"]
    context, page = phone_in_french(browser, base)

    # The control room offers the phase beside "Publish round 2".
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    edit = page.get_by_role("button", name="Modifier à la main l'appariement de la ronde 2")
    with page.expect_navigation():
        edit.click()
    rnd = Round.objects.get(tournament=t, number=2)
    assert page.url.endswith(f"/admin/tournaments/round/{rnd.pk}/pairing/")
    assert "Appariement en cours de modification manuelle" in page.locator("#mp-banner").inner_text()
    shot(page, "manual-pairing-open-390-fr")
    _axe(page, "manual pairing open 390px fr")

    # Round 1's first board again, colours reversed; the four others paired so that colours alternate.
    games = list(first.games.select_related("white", "black").order_by("board"))
    had_white = {g.white.pairing_number for g in games}
    a, b = games[0].white.pairing_number, games[0].black.pairing_number
    others = [n for n in range(1, 7) if n not in (a, b)]

    def board(x: int, y: int) -> tuple[int, int]:
        return (y, x) if x in had_white else (x, y)

    wanted = [board(a, b), board(others[0], others[3]), board(others[1], others[2])]
    pk = {e.pairing_number: str(e.pk) for e in t.entries.all()}
    for i, (w, bl) in enumerate(wanted, start=1):
        page.get_by_label(f"Damier {i}, Blancs").select_option(pk[w])
        page.get_by_label(f"Damier {i}, Noirs").select_option(pk[bl])
    with page.expect_navigation():
        page.click("#mp-save")
    warnings = page.locator("#dm-confirm")
    assert "se sont déjà rencontrés" in warnings.inner_text()
    assert "Niveau 3 : confirmation" in warnings.inner_text()
    # What was chosen is still chosen.
    assert page.get_by_label("Damier 1, Blancs").input_value() == pk[wanted[0][0]]
    shot(page, "manual-pairing-rematch-warning-390-fr")
    _axe(page, "manual pairing warning 390px fr")
    # By keyboard: each box ticked with Space, then the confirmation.
    for box in page.locator("#dm-confirm input[type=checkbox]").all():
        box.focus()
        page.keyboard.press("Space")
        assert box.is_checked()
    page.locator("#mp-confirm").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    saved = Round.objects.get(pk=rnd.pk).games.get(board=1)
    assert (saved.white.pairing_number, saved.black.pairing_number) == wanted[0]

    with page.expect_navigation():
        page.click("#mp-validate")
    table = page.locator("#mp-compare")
    assert "différent" in table.inner_text()
    headers = table.locator("thead").inner_text().lower()  # the admin's theme writes headers in capitals
    assert "appariement du moteur" in headers and "votre appariement" in headers
    shot(page, "manual-pairing-validate-390-fr")
    _axe(page, "manual pairing validation 390px fr")
    for box in page.locator("#dm-confirm input[type=checkbox]").all():
        box.check()
    with page.expect_navigation():
        page.click("#mp-validate-confirm")
    assert "/control/" in page.url
    assert "Il diffère de celui du moteur" in page.locator(".messagelist").inner_text()
    assert "Publier la ronde 2" in page.locator("#dc-next").inner_text()
    assert "confirmés à la validation" in page.locator(".dc-violations").inner_text()
    shot(page, "manual-pairing-validated-control-room-390-fr")

    # The TRF export (the tournament list's action) carries the ### lines.
    page.goto(f"{base}/admin/tournaments/tournament/")
    page.locator(f"input[name=_selected_action][value='{t.pk}']").check()
    page.select_option("select[name=action]", "export_trf")
    with page.expect_download() as download:
        page.locator("button[name=index]").click()
    text = open(download.value.path(), encoding="utf-8").read()
    assert f"### rematch @ Round 2: numbers={wanted[0][0]},{wanted[0][1]}" in text
    assert "### manual-pairing @ Round 2: engine=" in text
    context.close()


def test_a_round_the_engine_cannot_pair_is_paired_wholly_by_hand(transactional_db: None, live_server: Any,
                                                                  browser: Any) -> None:
    """Three players and four rounds: round 4 has no legal pairing; the control room leads to its creation
    empty (confirmed), the arbiter pairs it with the selects and validates it."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_round
    from tournaments.conformance import events
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster

    base = str(live_server.url)
    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Trio de Nîmes", slug="trio", system=System.SWISS, rounds_total=4,
                                  chief_arbiter=user, public=True, start_date=datetime.date(2026, 5, 1))
    for i, name in enumerate(["Blanc", "Noir", "Gris"]):
        roster.entry_add(tournament=t, player=Player.objects.create(surname=name, given_name="Anne",
                                                                      rating=1900 - 50 * i, federation="FRA"))
    for _ in range(3):
        play_round(t)
    context, page = phone_in_french(browser, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    with page.expect_navigation():
        page.click("#dc-next")  # "Apparier la ronde 4": the engine cannot
    assert page.url.endswith(f"/admin/tournaments/round/by-hand/{t.pk}/")
    assert "La ronde 4 ne peut pas être appariée" in page.locator(".messagelist").inner_text()
    shot(page, "manual-pairing-by-hand-create-390-fr")
    _axe(page, "manual pairing create by hand 390px fr")
    page.locator("#dm-confirm input[type=checkbox]").check()
    with page.expect_navigation():
        page.click("#mp-create")
    assert "Pas encore appariés" in page.locator("#mp-left-out").inner_text()
    pk = {e.pairing_number: str(e.pk) for e in t.entries.all()}
    page.get_by_label("Damier 1, Blancs").select_option(pk[1])
    page.get_by_label("Damier 1, Noirs").select_option(pk[2])
    page.get_by_label("Exempt").select_option(pk[3])
    with page.expect_navigation():
        page.click("#mp-save")
    assert "se sont déjà rencontrés" in page.locator("#dm-confirm").inner_text()
    for box in page.locator("#dm-confirm input[type=checkbox]").all():
        box.check()
    with page.expect_navigation():
        page.click("#mp-confirm")
    shot(page, "manual-pairing-by-hand-paired-390-fr")
    with page.expect_navigation():
        page.click("#mp-validate")
    assert "ne peut pas apparier cette ronde" in page.locator(".mp-note").first.inner_text()
    page.locator("#dm-confirm input[type=checkbox]").check()
    with page.expect_navigation():
        page.click("#mp-validate-confirm")
    assert "Publier la ronde 4" in page.locator("#dc-next").inner_text()
    assert "### manual-pairing @ Round 4: engine=none pairing=1-2,3-0 round=4" in events.trf_lines(t)
    context.close()


def test_the_pairing_page_on_a_desktop_in_english(lyon: dict[str, Any], browser: Any) -> None:
    from tests.browser.screens import DESKTOP
    from tournaments.models import Round
    from tournaments.rounds import manual_pairing

    base, t = lyon["url"], lyon["tournament"]
    rnd = manual_pairing.manual_edit_start(round=Round.objects.get(tournament=t, number=2))
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", "pw-chief-123")
    with page.expect_navigation():
        page.click("input[type=submit]")
    page.goto(f"{base}/admin/tournaments/round/{rnd.pk}/pairing/")
    assert page.get_by_role("button", name="Board 2: swap colours").is_visible()
    white, black = (page.get_by_label(f"Board 2, {c}").input_value() for c in ("White", "Black"))
    page.get_by_role("button", name="Board 2: swap colours").focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # The engine gave both their due colour: swapped, both get the other one, which asks for a confirmation;
    # the swap stays on the page meanwhile.
    assert "both players get the colour they are not due" in page.locator("#dm-confirm").inner_text()
    assert (page.get_by_label("Board 2, White").input_value(), page.get_by_label("Board 2, Black").input_value()) \
        == (black, white)
    shot(page, "manual-pairing-open-desktop-en")
    _axe(page, "manual pairing desktop en")
    context.close()
