"""The change log reads like a record for an appeals committee: players by pairing
number and name, games by round and board, the arbiter by his name, when, and the reason kept."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from simple_history.utils import update_change_reason

from tests.tournaments.admin.test_admin import round_post_data
from tournaments import sheets
from tournaments.admin.base import change_log
from tournaments.models import Entry, Game, Round
from tournaments.players import roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " | ", html))


def test_round_page_names_players_boards_arbiter_and_reason(published_round, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    arbiter.first_name, arbiter.last_name = "Anna", "Chief"
    arbiter.save()
    game = rnd.games.select_related("white__player", "black__player").get(board=1)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    client.post(url, round_post_data(rnd, {1: "2-0"}))
    update_change_reason(Game.objects.get(pk=game.pk), "slip misread by the arbiter")
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n[Round "1"]\n'
            f'[Result "2-0"]\n\n1. 32-28 19-23 2-0\n')
    sheet = sheets.sheet_upload(game=game, data=text, source_name="b1.pdn", user=arbiter)
    assert sheet is not None
    page = text_of(client.get(url).content.decode())
    white = f"No. {game.white.pairing_number} {game.white.player.full_name}"
    black = f"No. {game.black.pairing_number} {game.black.player.full_name}"
    assert f"white: – → {white}" in page and f"black: – → {black}" in page
    assert "round 1, board 1" in page and "sheet of round 1, board 1" in page
    assert "sheet of game" not in page and not re.search(r"white: – → \d+;", page)
    assert "| Anna Chief |" in page  # the arbiter by name
    assert "slip misread by the arbiter" in page and "| reason |" in page
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", page)


def test_a_deleted_round_and_entry_are_still_named(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    game = rnd.games.select_related("white__player").get(board=1)
    name = game.white.player.full_name
    round_id = rnd.pk
    services.round_delete_draft(round=rnd)
    html = str(change_log([(Game, "board {obj.board}", Game.history.filter(round_id=round_id)),
                           (Round, "round {obj.number}", Round.history.filter(id=round_id))]))
    assert "round 1, board 1" in html and name in html and "deleted" in html


def test_entry_changes_name_the_player(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    entry = t.entries.select_related("player").get(pairing_number=2)
    services.round_pair(tournament=t)
    services.round_publish(round=t.rounds.get())
    roster.entry_withdraw(entry=entry, after_round=1)
    html = str(change_log([(Entry, "entry {obj.pairing_number}", Entry.history.filter(id=entry.pk))]))
    assert f"No. 2 {entry.player.full_name}" in html
    assert "status: Active → Withdrawn" in html and "withdrawn after round: – → 1" in html
