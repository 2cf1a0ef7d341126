"""A finished team competition's files: the federation report and the TRF give its games one by one (each
board is an individual game of its round); the JSON transfer, which does not carry the teams, rosters,
line-ups and matches, refuses it in words rather than writing a file that would import broken."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.competitions.factory import competition, line_up_round
from tournaments.competitions import lineups, setup
from tournaments.exchange import transfer
from tournaments.federation import rows
from tournaments.models import Entry, Game, MatchBoard, TeamCompetition
from tournaments.rounds import pairing_bridge
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> TeamCompetition:
    """Four teams of two boards, the three rounds played (White wins every board) and completed."""
    comp = competition(teams=4, boards=2, slug="done")
    setup.schedule_make(competition=comp)
    for number in (1, 2, 3):
        line_up_round(comp, number)
        rnd = lineups.round_publish(competition=comp, number=number)
        for game in Game.objects.filter(round=rnd):
            round_services.game_record_result(game=game, result="2-0")
        round_services.round_complete(round=rnd)
    comp.tournament.refresh_from_db()
    return comp


def test_the_federation_report_lists_every_board_as_an_individual_game(finished) -> None:  # type: ignore[no-untyped-def]
    report = rows.read_report(finished.tournament)
    played = Entry.objects.filter(tournament=finished.tournament, roster_places__reserve=False)
    by_name = {r.name: r for r in report.rows}
    assert {e.player.full_name for e in played} <= set(by_name)
    games = list(Game.objects.filter(round__tournament=finished.tournament))
    assert len(games) == 3 * 2 * 2  # 3 rounds, 2 matches, 2 boards
    cells = [c for r in report.rows for c in r.cells if c.kind == "game"]
    assert len(cells) == 2 * len(games)  # each game in both players' rows
    board = MatchBoard.objects.select_related("game__white__player", "game__black__player").filter(
        match__competition=finished, match__round_number=2).first()
    white = by_name[board.game.white.player.full_name]
    cell = next(c for c in white.cells if c.round == 2)
    assert (cell.colour, cell.points, cell.board) == ("w", 2, board.game.board)


def test_the_trf_export_gives_the_players_and_their_games(finished) -> None:  # type: ignore[no-untyped-def]
    text = pairing_bridge.export_trf(finished.tournament)
    players = [line for line in text.splitlines() if line.startswith("001")]
    assert len(players) == Entry.objects.filter(tournament=finished.tournament).count()
    white = Game.objects.filter(round__tournament=finished.tournament).select_related("white").first().white
    mine = next(line for line in players if line[4:8].strip() == str(white.pairing_number))
    assert " w 1" in mine


def test_the_json_transfer_refuses_a_team_competition_in_words(finished) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(transfer.TransferError, match="is a team competition: the JSON transfer does not carry"):
        transfer.export_tournament(finished.tournament)
    doc = {"format": transfer.FORMAT, "version": transfer.VERSION,
           "tournament": {"slug": "done", "name": "League done", "system": "team"}}
    with pytest.raises(transfer.TransferError, match="is a team competition"):
        transfer.import_tournament(doc)


def test_the_admin_json_export_of_a_team_competition_says_why_not(finished) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    page = client.post(reverse("admin:tournaments_tournament_changelist"),
                       {"action": "export_json", "_selected_action": [str(finished.tournament_id)]}, follow=True)
    assert page.status_code == 200
    assert "is a team competition" in page.content.decode()


def test_a_file_never_replaces_a_team_competition(finished, make_tournament) -> None:  # type: ignore[no-untyped-def]
    other = make_tournament(4, slug="plain")
    doc = transfer.loads(transfer.dumps(transfer.export_tournament(other)))
    doc["tournament"]["slug"] = "done"
    with pytest.raises(transfer.TransferError, match="is a team competition"):
        transfer.import_tournament(doc, replace=True)
    assert TeamCompetition.objects.filter(pk=finished.pk).exists()
