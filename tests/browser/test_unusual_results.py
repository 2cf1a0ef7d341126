"""The round page with the unusual results in chromium, on a 390-px phone in French: a 1-0
ruling and a requested bye worth a draw chosen from the menus, the warning ticked by keyboard, then saved."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.screens import PHONE, shot
from tests.browser.test_round_entry import PASSWORD, log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def swiss6(transactional_db: None, live_server: Any) -> Iterator[tuple[str, int, int]]:
    """A 6-player Swiss whose player 6 had a bye worth a draw in round 1 and asked for round 2 too."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Tournament
    from tournaments.players import roster
    from tournaments.players.requested_byes import bye_request
    from tournaments.rounds import services

    user = get_user_model().objects.create_user("chief", password=PASSWORD, is_staff=True)
    t = Tournament.objects.create(name="Open de Paris", slug="paris", system="swiss", rounds_total=5,
                                  chief_arbiter=user, public=True)
    for i in range(6):
        player = Player.objects.create(surname=f"Joueur{i + 1:02d}", given_name="Test", rating=2400 - 10 * i)
        roster.entry_add(tournament=t, player=player)
    sixth = t.entries.get(pairing_number=6)
    bye_request(entry=sixth, round_number=1, points=1)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    for game in rnd.games.filter(result=""):
        services.game_record_result(game=game, result="2-0" if game.black_id else "bye")
    services.round_complete(round=rnd)
    sixth.excused_rounds = [1, 2]
    sixth.save()
    rnd2 = services.round_pair(tournament=t)
    services.round_publish(round=rnd2)
    board = rnd2.games.get(white=sixth, black__isnull=True).board
    yield str(live_server.url), rnd2.pk, board


def test_a_ruling_and_a_second_bye_worth_a_draw_on_a_french_phone(swiss6: tuple[str, int, int],
                                                                    browser: Any) -> None:
    from tournaments.models import Game, Round

    base, pk, bye_board = swiss6
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR",
                                  device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/round/{pk}/change/")
    first = page.locator("select[name=games-0-result]")
    labels = first.locator("option").all_inner_texts()
    assert "1-0 (décision de l'arbitre)" in labels and "Ajournée (nulle en attendant)" in labels
    first.select_option("1-0")
    bye = page.locator(f"select[data-board='{bye_board}']")
    assert "Exemption demandée +1" in bye.locator("option").all_inner_texts()
    bye.select_option("excused-1")
    with page.expect_navigation():
        page.locator("#dm-save").click()
    # the second bye worth a draw: asked on the page, the values kept, nothing saved yet
    box = page.locator("#dm-confirm input[type=checkbox]")
    assert box.count() == 1 and "exemption demandée valant une nulle" in page.locator("#dm-confirm").inner_text()
    assert page.locator("select[name=games-0-result]").input_value() == "1-0"
    assert Game.objects.get(round_id=pk, board=1).result == ""
    shot(page, "admin-round-unusual-results-phone-fr")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "something runs off the edge"
    tick = box.bounding_box()
    assert tick["width"] >= 24 and tick["height"] >= 24
    box.focus()
    page.keyboard.press("Space")
    with page.expect_navigation():
        page.locator("#dm-save").click()
    assert Game.objects.get(round_id=pk, board=1).result == "1-0"
    assert Game.objects.get(round_id=pk, board=bye_board).result == "excused-1"
    assert list(Round.objects.get(pk=pk).tournament.conformance_events.values_list("code", flat=True)) == [
        "half-point-bye"]
    shot(page, "admin-round-unusual-results-saved-phone-fr")
    context.close()
