"""The public pages of a team competition: the overview at /t/<slug>/ (team standings, every round's
matches), a round, a match followed live, the crosstable and the players by board, in Dutch; through the
page cache (304 on an unchanged ETag, a new ETag after a result); a draft round's line-ups hidden; the
tournament's individual pages still answer (the individual tables lead to the team ones)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.competitions.factory import roster
from tests.tournaments.competitions.outputs_data import league, match
from tournaments.competitions import lineups
from tournaments.models import Game, TeamCompetition, Tournament
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def score(response) -> str:  # type: ignore[no-untyped-def]
    found = re.search(r'id="match-score">(.*?)</span>\s*<span class="team">', response.content.decode(), flags=re.S)
    assert found, "no match score"
    return re.sub(r"<span class=\"vh\">.*?</span>", "", found.group(1)).strip()


def text(response) -> str:  # type: ignore[no-untyped-def]
    body = re.sub(r"<caption.*?</caption>|<abbr title=\"[^\"]*\">", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture
def comp() -> TeamCompetition:
    return league()


def test_the_overview_shows_the_team_standings_and_every_rounds_matches(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    page = text(client.get("/t/outputs/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert 'lang="nl"' in client.get("/t/outputs/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    table = page[page.index("Plaats"):page.index("Club 3 3 1 1 1 1 5 0 17 −2") + 26]
    assert "1 Club 1 3 1 2 0 4 8 0 16" in table
    assert "2 Club 2 3 1 1 1 3 6 0 15" in table
    assert "3 Club 4 3 1 0 2 2 5 0 7" in table
    assert "Ronde 2" in page and "Ronde 6" in page  # every round of the schedule, the unplayed ones too
    assert "Club 1 4–0 Club 4" in page
    assert "Club 4 2–0 (1/2) Club 1" in page  # the live score of a match under way
    assert 'id="live"' in client.get("/t/outputs/").content.decode()  # a round is being played


def test_a_match_page_in_dutch_follows_the_boards(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:team_match", args=["outputs", 4, 1])
    assert url == "/t/outputs/teams/round/4/match/1/"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="nl")
    page = text(response)
    assert score(response) == "2–0"
    assert "Bord" in page and "Uitslag" in page
    assert "1 Wit: Team4, P1 2–0 Zwart: Team1, P1" in page
    assert "2 Zwart: Team4, P2" in page and "Wit: Team1, P2" in page
    body = client.get(url).content.decode()
    assert 'id="live"' in body
    game = Game.objects.get(match_board__match=match(comp, 4, 1), match_board__number=1)
    assert reverse("tournaments:game", args=["outputs", game.pk]) in body


def test_the_round_crosstable_and_players_pages(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    round_page = text(client.get("/t/outputs/teams/round/2/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Ronde 2" in round_page and "Club 4 4–0" in round_page and "Club 1 2–2 Club 2" in round_page
    cross = text(client.get("/t/outputs/teams/crosstable/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Kruistabel" in cross
    # Club 4's line: Club 1 at home (being played) then away 0-4, Club 2 away 1-3, itself, Club 3 forfeited
    assert re.search(r"3 Club 4 [^:×]+: … [^:×]+: 0–4 [^:×]+: 1–3 × [^:×]+: 4F–0F 2 5", cross), cross
    players = text(client.get("/t/outputs/teams/players/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Team1, P2" in players and "2F" in players
    assert "83 %" in players and "38 %" in players


def test_an_unchanged_page_is_a_304_and_a_result_gives_a_new_etag(client: Client, comp, page_cache) -> None:  # type: ignore[no-untyped-def]
    for url in ("/t/outputs/", "/t/outputs/teams/round/4/match/1/", "/t/outputs/teams/crosstable/"):
        first = client.get(url)
        tag = first.headers["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    url = "/t/outputs/teams/round/4/match/1/"
    tag = client.get(url).headers["ETag"]
    game = Game.objects.get(match_board__match=match(comp, 4, 1), match_board__number=2)
    round_services.game_record_result(game=game, result="1-1")
    after = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and after.headers["ETag"] != tag
    assert score(after) == "3–1"


def test_a_draft_rounds_line_ups_are_nobodys_business(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    m = match(comp, 5, 1)
    lineups.lineup_set(match=m, side="home", entries=roster(m.home)[:2])
    assert client.get("/t/outputs/teams/round/5/").status_code == 404
    assert client.get("/t/outputs/teams/round/5/match/1/").status_code == 404
    assert client.get("/t/outputs/teams/round/5/match/1/sheet.pdf").status_code == 404
    overview = client.get("/t/outputs/").content.decode()
    assert "/t/outputs/teams/round/4/match/1/" in overview and "/t/outputs/teams/round/5/" not in overview
    assert "Club 3 to play Club 4" in text(client.get("/t/outputs/"))  # the fixture, not its line-ups
    players = client.get("/t/outputs/teams/players/").content.decode()
    assert "/t/outputs/teams/round/5/" not in players and ">5</td>" not in players


def test_a_private_competition_has_no_public_page(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    Tournament.objects.filter(pk=comp.tournament_id).update(public=False)
    for url in ("/t/outputs/", "/t/outputs/teams/round/1/", "/t/outputs/teams/round/1/match/1/",
                "/t/outputs/teams/crosstable/", "/t/outputs/teams/players/", "/t/outputs/teams/standings.pdf",
                "/t/outputs/teams/round/1/match/1/games.pdn"):
        assert client.get(url).status_code == 404, url


def test_the_individual_pages_keep_working(client: Client, comp) -> None:  # type: ignore[no-untyped-def]
    # the individual tables rank players of a Swiss or a round robin: a team competition's lead to its own
    assert client.get("/t/outputs/standings/").url == "/t/outputs/"
    assert client.get("/t/outputs/crosstable/").url == "/t/outputs/teams/crosstable/"
    assert client.get("/t/outputs/standings.pdf").url == "/t/outputs/teams/standings.pdf"
    assert client.get("/t/outputs/crosstable.pdf").url == "/t/outputs/teams/standings.pdf"
    assert client.get("/t/outputs/player/1/").url == "/t/outputs/teams/players/#player-1"
    game = Game.objects.filter(round__tournament=comp.tournament).first()
    for url in ("/t/outputs/round/1/", f"/t/outputs/game/{game.pk}/", "/t/outputs/games.pdn",
                "/t/outputs/round/1/games.pdn", "/t/outputs/round/1/pairings.pdf"):
        assert client.get(url).status_code == 200, url


def test_an_individual_tournament_keeps_its_own_page(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="solo")
    page = client.get(f"/t/{t.slug}/")
    assert page.status_code == 200 and "Team" not in text(page).split("Damier")[1][:40]
    assert client.get(f"/t/{t.slug}/standings/").status_code == 200
    assert client.get(f"/t/{t.slug}/teams/crosstable/").status_code == 404


@pytest.mark.parametrize("url", ["/t/{slug}/", "/t/{slug}/teams/round/1/", "/t/{slug}/teams/round/1/match/1/",
                                 "/t/{slug}/teams/crosstable/", "/t/{slug}/teams/players/"])
def test_a_pages_queries_do_not_grow_with_the_league(client: Client, url: str) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tournaments.competitions.factory import competition, line_up_round
    from tournaments.competitions import setup

    counts = []
    for teams, slug in ((4, "small"), (10, "big")):
        comp = competition(teams=teams, boards=8, reserves=0, slug=slug)
        Tournament.objects.filter(pk=comp.tournament_id).update(public=True)
        setup.schedule_make(competition=comp)
        line_up_round(comp, 1)
        lineups.round_publish(competition=comp, number=1)
        for game in Game.objects.filter(round__tournament=comp.tournament)[:5]:
            round_services.game_record_result(game=game, result="1-1")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url.format(slug=slug)).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts


def test_a_cups_page_shows_its_matches_and_a_bye(client: Client) -> None:
    from tests.tournaments.competitions.factory import competition, line_up_round
    from tournaments.competitions import setup
    from tournaments.models import CompetitionKind

    comp = competition(teams=3, boards=4, reserves=0, slug="cup", kind=CompetitionKind.CUP)
    Tournament.objects.filter(pk=comp.tournament_id).update(public=True)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    page = client.get("/t/cup/").content.decode()
    assert 'id="team-standings"' not in page and 'id="matches-1"' in page  # a knock-out has no table
    bye = comp.matches.get(away__isnull=True)
    assert client.get(f"/t/cup/teams/round/1/match/{bye.table}/").status_code == 200
    assert client.get(f"/t/cup/teams/round/1/match/{bye.table}/sheet.pdf").status_code == 404
    assert client.get(f"/t/cup/teams/round/1/match/{bye.table}/games.pdn").content == b""
    played = comp.matches.get(away__isnull=False)
    assert client.get(f"/t/cup/teams/round/1/match/{played.table}/").status_code == 200
