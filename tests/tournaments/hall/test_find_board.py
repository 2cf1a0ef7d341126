"""'Find my board': the round page's name search (the server's fallback, ?find=), its rows' folded names,
and the player page's first line while a round is published."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, System, Tournament
from tournaments.players import roster
from tournaments.public import find_board
from tournaments.rounds import services


@pytest.fixture
def folded_round(db):  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name="Open", slug="open", system=System.SWISS, rounds_total=5,
                                  start_date=datetime.date(2026, 1, 1), public=True)
    for surname, given, native in (("Dupont", "Jean", ""), ("Émond", "Zoé", ""), ("Shvartsman", "Aleksandr",
                                                                                  "Шварцман Александр"),
                                   ("Sørensen", "Ivar", ""), ("Baba", "Ndiaye", "")):
        roster.entry_add(tournament=t, player=Player.objects.create(surname=surname, given_name=given,
                                                                   native_name=native))
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    return t, rnd


def test_names_are_folded_both_ways(folded_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd = folded_round
    games = list(rnd.games.select_related("white__player", "black__player"))
    for query, surname in (("emond", "Émond"), ("ÉMOND zoe", "Émond"), ("шварц", "Shvartsman"),
                           ("shvarts", "Shvartsman"), ("sorensen", "Sørensen"), ("dup je", "Dupont")):
        found = find_board.find(games, query)
        assert [f.entry.player.surname for f in found] == [surname], query
    assert find_board.find(games, "nobody") == []


def test_the_round_page_without_script_finds_the_board(folded_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd = folded_round
    game = next(g for g in rnd.games.select_related("white__player", "black__player")
                if "Émond" in (g.white.player.surname, getattr(g.black and g.black.player, "surname", "")))
    url = reverse("tournaments:round", args=[t.slug, 1])
    html = Client().get(url, {"find": "emond"}).content.decode()
    french = Client().get(url, {"find": "ÉMOND", "lang": "fr"}).content.decode()
    assert 'value="emond"' in html
    if game.black_id:
        white = game.white.player.surname == "Émond"
        opponent = game.black if white else game.white
        assert f'href="#board-{game.board}"' in html
        assert (f"board {game.board}, {'White' if white else 'Black'}, against {opponent.pairing_number}. "
                f"{opponent.player.full_name}") in html
        assert f'<tr class="{"even" if (game.board - 1) % 2 == 0 else "odd"} found" id="board-{game.board}"' in html
        assert f'href="#board-{game.board}"' in french and ("Blancs" if white else "Noirs") in french
    assert 'data-names="' in html and "shvartsman aleksandr" in html and "шварцман александр" in html
    nothing = Client().get(url, {"find": "zzz"}).content.decode()
    assert "No player of this round has that name." in nothing


def test_a_find_is_answered_but_never_stored(folded_round, page_cache) -> None:  # type: ignore[no-untyped-def]
    t, rnd = folded_round
    url = reverse("tournaments:round", args=[t.slug, 1])
    client = Client()
    assert client.get(url).headers.get("X-Damier-Cache") == "miss"
    found = client.get(url, {"find": "dupont"})
    assert "X-Damier-Cache" not in found.headers and 'value="dupont"' in found.content.decode()
    assert 'value=""' in client.get(url).content.decode()  # the stored page has no search in it


def test_the_player_page_starts_with_his_board_while_the_round_is_published(folded_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd = folded_round
    game = rnd.games.exclude(black=None).select_related("white__player", "black__player").first()
    url = reverse("tournaments:player", args=[t.slug, game.white.pairing_number])
    html = Client().get(url).content.decode()
    line = (f"Round 1: board {game.board}, White, against {game.black.pairing_number}. "
            f"{game.black.player.full_name}")
    assert 'id="now-playing"' in html and line in html
    bye = rnd.games.filter(black=None).first()
    bye_html = Client().get(reverse("tournaments:player", args=[t.slug, bye.white.pairing_number])).content.decode()
    assert "Round 1: Bye (+2)" in bye_html
    for g in rnd.games.all():
        if not g.result:
            services.game_record_result(game=g, result="1-1")
    services.round_complete(round=rnd)
    assert 'id="now-playing"' not in Client().get(url).content.decode()  # no round under way: no line
