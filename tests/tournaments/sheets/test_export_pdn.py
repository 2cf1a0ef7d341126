"""Export: the tournament's games as one canonical PDN, read back by the PDN reader."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from rules.pdn import read_games
from tests.tournaments.play import play_round
from tournaments.models import Game, Player, Round, RoundStatus
from tournaments.rounds import services
from tournaments.sheets import export_pdn, sheet_upload


@pytest.fixture
def tournament(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(4, venue="Utrecht")
    Player.objects.filter(surname="Player01").update(given_name="Joséphine", title="GMIF")
    play_round(t, {1: "2-0", 2: "1-1"})
    rnd2 = play_round(t, {1: "0F-2F"}, complete=False)
    services.game_record_result(game=rnd2.games.get(board=2), result=None)
    # Round 3 as a draft (made by hand: round 2 is still open), never public.
    draft = Round.objects.create(tournament=t, number=3, status=RoundStatus.DRAFT)
    entries = list(t.entries.order_by("pairing_number"))
    Game.objects.create(round=draft, board=1, white=entries[0], black=entries[1])
    Game.objects.create(round=draft, board=2, white=entries[2], black=entries[3])
    return t


@pytest.mark.django_db
def test_export_tags_moves_and_public_rounds(tournament) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.select_related("white__player", "black__player").get(round__number=1, board=1)
    sheet_upload(game=game, data="1. 32-28 19-23 2. 28x19 14x23 2-0\n")
    text = export_pdn(tournament)
    games = read_games(text)
    # Round 1: two games; round 2: board 1 a forfeit (left out), board 2 no result yet; round 3 a draft.
    assert [(g.headers["Round"], g.headers["Board"]) for g in games] == [("1", "1"), ("1", "2"), ("2", "2")]
    first = games[0].headers
    white = game.white.player
    assert first["Event"] == "Test t" and first["Site"] == "Utrecht" and first["Date"] == "2026.01.01"
    assert first["White"] == white.full_name and first["Result"] == "2-0" and first["GameType"] == "20"
    assert first["WhiteFMJDId"] == str(white.fmjd_id) and first["WhiteRating"] == str(white.rating)
    assert first["BlackFMJDId"] == str(game.black.player.fmjd_id)
    assert list(first)[:8] == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"]
    assert [m.text for m in games[0].moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert games[1].headers["Result"] == "1-1" and games[1].moves == []
    assert games[2].headers["Result"] == "*"
    assert "Joséphine" in text
    assert len(read_games(export_pdn(tournament, public_only=False))) == 5  # the draft round's two games
    one_round = read_games(export_pdn(tournament, round=tournament.rounds.get(number=1)))
    assert {g.headers["Round"] for g in one_round} == {"1"}


@pytest.mark.django_db
def test_export_command(tournament, capsys) -> None:  # type: ignore[no-untyped-def]
    call_command("export_pdn", "t", "--round", "1")
    out = capsys.readouterr().out
    assert out.count("[Event ") == 2 and '[Round "1"]' in out and '[Round "2"]' not in out
    call_command("export_pdn", "t", "--public")
    assert capsys.readouterr().out.count("[Event ") == 3
    with pytest.raises(CommandError, match="no round 9"):
        call_command("export_pdn", "t", "--round", "9")
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_pdn", "nope")


@pytest.mark.django_db
def test_public_pdn_urls_show_published_rounds_only(tournament, client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/t/t/games.pdn")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-pdn")
    assert response.content.count(b"[Event ") == 3
    assert client.get("/t/t/round/1/games.pdn").content.count(b"[Event ") == 2
    assert client.get("/t/t/round/3/games.pdn").status_code == 404  # a draft
    tournament.public = False
    tournament.save()
    assert client.get("/t/t/games.pdn").status_code == 404
