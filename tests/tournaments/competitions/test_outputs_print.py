"""The files of a team competition: the match sheet PDF (two copies, both line-ups on each, the QR code read
back to the match's page), the team standings PDF, a match's games as PDN with its board and teams, names
from users escaped in both."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from pypdf import PdfReader

from rules.pdn.reader import read_games
from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tests.tournaments.competitions.outputs_data import league, match
from tournaments.competitions import lineups, pdn, setup
from tournaments.models import Game, Player, Team, Tournament
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def test_the_match_sheet_is_two_copies_each_with_both_line_ups(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    comp = league()
    response = client.get("/t/outputs/teams/round/3/match/1/sheet.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    texts = [" ".join(t.split()) for t in pages(response.content)]
    assert len(texts) == 2
    m = match(comp, 3, 1)
    names = [e.player.full_name for e in roster(m.home)[:2] + roster(m.away)[:2]]
    for page, copy in zip(texts, ("Copy for the home team: Club 2", "Copy for the away team: Club 4"), strict=True):
        assert copy in page
        assert all(name in page for name in names)
        for words in ("Match sheet", "League outputs", "Round 3 – match 1", "Venue: Huizum",
                      "Time control: 90' + 30\"", "Clock home", "Clock away", "Match score", "Arbiter",
                      "Captain of the home team", "Captain of the away team", "Home team", "Away team"):
            assert words in page, words
    # the match is over: its results and score are on the sheet (board 2: 1-1)
    assert "2 – 0" in texts[0] and "1 – 1" in texts[0]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is missing")
def test_the_sheets_qr_code_leads_to_the_matchs_page(client: Client, settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    settings.DAMIER_SITE_URL = "https://damier.example.org"
    league()
    pdf = client.get("/t/outputs/teams/round/4/match/2/sheet.pdf").content
    (tmp_path / "in.pdf").write_bytes(pdf)
    for page in (1, 2):
        subprocess.run(["pdftoppm", "-png", "-r", "300", "-f", str(page), "-l", str(page), "-singlefile",
                        str(tmp_path / "in.pdf"), str(tmp_path / "out")], check=True, timeout=60)
        found = [r.text for r in zxingcpp.read_barcodes(image.open(tmp_path / "out.png"))]
        assert found == ["https://damier.example.org/t/outputs/teams/round/4/match/2/"]


def test_a_private_competitions_sheet_has_no_qr_code_and_is_for_its_arbiters(client: Client, arbiter) -> None:  # type: ignore[no-untyped-def]
    comp = league()
    Tournament.objects.filter(pk=comp.tournament_id).update(public=False, chief_arbiter=arbiter)
    assert client.get("/t/outputs/teams/round/1/match/1/sheet.pdf").status_code == 404
    client.force_login(arbiter)
    response = client.get("/t/outputs/teams/round/1/match/1/sheet.pdf")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "Live: scan" not in pages(response.content)[0]


def test_a_draft_rounds_sheet_is_printed_by_its_arbiters_only(client: Client, arbiter) -> None:  # type: ignore[no-untyped-def]
    comp = league()
    Tournament.objects.filter(pk=comp.tournament_id).update(chief_arbiter=arbiter)
    m = match(comp, 5, 2)
    for side, team in (("home", m.home), ("away", m.away)):
        m.refresh_from_db()
        lineups.lineup_set(match=m, side=side, entries=roster(team)[:2])
    url = "/t/outputs/teams/round/5/match/2/sheet.pdf"
    assert client.get(url).status_code == 404
    client.force_login(arbiter)
    response = client.get(url)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    text = pages(response.content)[1]
    assert roster(m.home)[0].player.full_name in text and roster(m.away)[1].player.full_name in text


def test_names_from_users_are_escaped_on_the_sheet_and_in_the_pdn(client: Client) -> None:
    comp = competition(teams=2, boards=10, reserves=0, slug="esc")
    Tournament.objects.filter(pk=comp.tournament_id).update(public=True)
    Team.objects.filter(competition=comp, seed=1).update(name='Broken <b "quoted" \\ club')
    Player.objects.filter(surname="Team1", given_name="P1").update(surname="<img src='/etc/hostname'/>")
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    m = comp.matches.get(round_number=1)
    for game in Game.objects.filter(match_board__match=m):
        round_services.game_record_result(game=game, result="1-1")
    response = client.get(f"/t/esc/teams/round/1/match/{m.table}/sheet.pdf")
    texts = [" ".join(t.split()) for t in pages(response.content)]
    assert len(texts) == 2  # ten boards still fit a page per copy
    assert 'Broken <b "quoted" \\ club' in texts[0] and "<img src='/etc/hostname'/>, P1" in texts[0]
    assert all(f" {n} " in t for t in texts for n in range(1, 11))
    text = client.get(f"/t/esc/teams/round/1/match/{m.table}/games.pdn").content.decode()
    assert '[WhiteTeam "Broken <b \\"quoted\\" \\\\ club"]' in text
    games = read_games(text)
    assert len(games) == 10
    first = games[0].headers
    assert (first["Board"], first["Round"], first["Event"], first["Result"]) == ("1", "1", "League esc", "1-1")
    assert first["White"].startswith("<img src='/etc/hostname'/>")


def test_a_matchs_pdn_has_its_games_in_board_order_with_the_teams() -> None:
    comp = league()
    m = match(comp, 3, 1)  # Club 2 - Club 4: board 1 Club 2 White 2-0, board 2 Club 4 White 1-1
    games = read_games(pdn.match_pdn(comp, m))
    assert [(g.headers["Board"], g.headers["WhiteTeam"], g.headers["BlackTeam"], g.headers["Result"],
             g.headers["Round"]) for g in games] == [("1", "Club 2", "Club 4", "2-0", "3"),
                                                     ("2", "Club 4", "Club 2", "1-1", "3")]
    assert games[0].headers["White"] == roster(m.home)[0].player.full_name
    # the board forfeit of round 1 was never played: not in the file
    assert len(read_games(pdn.match_pdn(comp, match(comp, 1, 1)))) == 1
    assert pdn.match_pdn(comp, match(comp, 2, 1)) == ""  # a match forfeited as a whole


def test_the_team_standings_pdf(client: Client) -> None:
    league()
    texts = [" ".join(t.split()) for t in pages(client.get("/t/outputs/teams/standings.pdf").content)]
    assert len(texts) == 1
    for line in ("1 Club 1 3 1 2 0 4 8 0 16", "2 Club 2 3 1 1 1 3 6 0 15", "4 Club 3 3 1 1 1 1 5 0 17 −2",
                 "Club 3: 2 match points deducted.",
                 "Ranked on: Match points, Board points, Mutual match, Sonneborn-Berger on match points."):
        assert line in texts[0], line
