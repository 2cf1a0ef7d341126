"""The cup's decisions on the arbiter's screen: a 4-team, 4-board cup played through the services, each
drawn semi-final decided from the page (one by board count, one by lots, the seed shown and the same
team on every reading), a stale step refused with the page kept, and the final made from the page."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.competitions.factory import competition, line_up_round
from tournaments.competitions import lineups, setup
from tournaments.models import Game, Match, Round, TeamCompetition, Tournament
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db

# Home White on boards 1 and 3. 4-4, board count 1 against 4: the home team goes through.
BY_BOARD_COUNT = ["2-0", "1-1", "1-1", "2-0"]
ALL_DRAWN = ["1-1", "1-1", "1-1", "1-1"]  # no step before lots separates the teams
HOME_WINS = ["2-0", "0-2", "1-1", "1-1"]


@pytest.fixture
def cup_comp(arbiter: Any) -> TeamCompetition:
    comp = competition(teams=4, boards=4, slug="coupe", kind="cup",
                       cup_tie=["board_count", "eliminate_lowest", "lots"])
    comp.tournament.chief_arbiter = arbiter
    comp.tournament.save()
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    return comp


def play(comp: TeamCompetition, number: int, results: dict[int, list[str]]) -> Round:
    line_up_round(comp, number)
    rnd = lineups.round_publish(competition=comp, number=number)
    for table, codes in results.items():
        match = Match.objects.get(competition=comp, round_number=number, table=table)
        for board, code in zip(match.boards.order_by("number"), codes, strict=True):
            round_services.game_record_result(game=Game.objects.get(pk=board.game_id), result=code)
    return rnd


def page(comp: TeamCompetition, number: int = 1) -> str:
    return reverse("admin:tournaments_tournament_team_cup", args=[comp.tournament_id, number])


def match_of(comp: TeamCompetition, table: int, number: int = 1) -> Match:
    return Match.objects.select_related("home", "away", "winner").get(competition=comp, round_number=number,
                                                                      table=table)


def step(match: Match, action: str, version: int | None = None) -> dict[str, Any]:
    return {"match": match.pk, "action": action, "version": match.version if version is None else version}


def section(body: str, table: int) -> str:
    found = re.search(rf'id="dm-cup-{table}".*?</section>', body, re.S)
    assert found is not None
    return found.group(0)


def test_the_semi_finals_are_decided_on_the_page_and_the_final_is_made_from_it(chief: Client,
                                                                              cup_comp: TeamCompetition) -> None:
    rnd = play(cup_comp, 1, {1: BY_BOARD_COUNT, 2: ALL_DRAWN})
    first, second = match_of(cup_comp, 1), match_of(cup_comp, 2)
    # The round's results page and its line-up screen lead here.
    for screen in (reverse("admin:tournaments_round_change", args=[rnd.pk]),
                   reverse("admin:tournaments_tournament_team_round", args=[cup_comp.tournament_id, 1])):
        assert f'href="{page(cup_comp)}"' in chief.get(screen).content.decode()
    body = chief.get(page(cup_comp)).content.decode()
    one, two = section(body, 1), section(body, 2)
    assert "<strong>4–4</strong>" in one and f"{first.home} goes through — board count" in one
    assert 'value="decide"' in one and 'value="lots"' not in one
    assert "lots decide" in two and 'value="lots"' in two and 'value="decide"' not in two
    assert "Make round 2" not in body  # not every match is decided

    # A stale step (the page read before the match changed) is refused in words; nothing is recorded.
    response = chief.post(page(cup_comp), step(first, "decide", version=first.version - 1))
    assert response.status_code == 400
    text = response.content.decode()
    assert "changed by someone else" in text and 'value="decide"' in section(text, 1)
    assert match_of(cup_comp, 1).winner_id is None

    without = {k: v for k, v in step(first, "decide").items() if k != "version"}
    response = chief.post(page(cup_comp), without)
    assert response.status_code == 400 and "carries no version" in response.content.decode()
    assert match_of(cup_comp, 1).winner_id is None
    response = chief.post(page(cup_comp), step(first, "decide"))
    assert response.status_code == 302
    first = match_of(cup_comp, 1)
    assert (first.winner_id, first.decided_by) == (first.home_id, "board_count")
    body = chief.get(response["Location"]).content.decode()
    assert f"Goes through: <strong>{first.home}</strong> — board count" in section(body, 1)

    chief.post(page(cup_comp), step(second, "lots"))
    second = match_of(cup_comp, 2)
    assert second.decided_by == "lots" and second.lots_seed is not None
    assert random.Random(second.lots_seed).choice(sorted((second.home.name, second.away.name))) == second.winner.name
    for _reading in range(2):  # the same team and seed on every reading
        two = section(chief.get(page(cup_comp)).content.decode(), 2)
        assert f"Goes through: <strong>{second.winner}</strong> — lots" in two
        assert f"Seed of the draw: {second.lots_seed}" in two
    # Lots are never drawn twice: a second press (a stale page) changes nothing.
    response = chief.post(page(cup_comp), step(second, "lots", version=second.version))
    assert response.status_code == 400 and "never made twice" in response.content.decode()
    assert match_of(cup_comp, 2).lots_seed == second.lots_seed

    body = chief.get(page(cup_comp)).content.decode()
    assert "Make round 2" in body and "must be completed first" in body
    response = chief.post(page(cup_comp), {"action": "next", "version": TeamCompetition.objects.get(
        pk=cup_comp.pk).version})
    assert response.status_code == 400 and "not completed yet" in response.content.decode()
    round_services.round_complete(round=rnd)
    response = chief.post(page(cup_comp), {"action": "next", "version": TeamCompetition.objects.get(
        pk=cup_comp.pk).version})
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_tournament_team_round", args=[cup_comp.tournament_id, 2])
    final = match_of(cup_comp, 1, number=2)
    assert (final.home_id, final.away_id) == (first.winner_id, second.winner_id)

    # The final, played and decided by the round's step; the page says who won the cup.
    play(cup_comp, 2, {1: HOME_WINS})
    response = chief.post(page(cup_comp, 2), {"action": "round", "version": TeamCompetition.objects.get(
        pk=cup_comp.pk).version})
    assert response.status_code == 302
    body = chief.get(page(cup_comp, 2)).content.decode()
    assert f"The cup is won by {final.home}." in body
    # The public match and round pages say who went through, and why.
    Tournament.objects.filter(pk=cup_comp.tournament_id).update(public=True)
    public = Client().get(reverse("tournaments:team_match", args=[cup_comp.tournament.slug, 1, 1])).content.decode()
    assert f"{first.winner} goes through — board count" in public
    public = Client().get(reverse("tournaments:team_round", args=[cup_comp.tournament.slug, 1])).content.decode()
    assert f"{second.winner} goes through — lots" in public


def test_the_round_step_decides_what_the_rule_decides_and_names_what_the_rest_need(
        chief: Client, cup_comp: TeamCompetition) -> None:
    play(cup_comp, 1, {1: BY_BOARD_COUNT, 2: ALL_DRAWN})
    version = TeamCompetition.objects.get(pk=cup_comp.pk).version
    stale = chief.post(page(cup_comp), {"action": "round", "version": version - 1})
    assert stale.status_code == 400 and match_of(cup_comp, 1).winner_id is None
    response = chief.post(page(cup_comp), {"action": "round", "version": version}, follow=True)
    body = response.content.decode()
    assert "draw lots" in body
    assert match_of(cup_comp, 1).decided_by == "board_count" and match_of(cup_comp, 2).winner_id is None


def test_a_barrage_is_made_from_the_page_at_the_competitions_time_control(chief: Client,
                                                                          cup_comp: TeamCompetition) -> None:
    TeamCompetition.objects.filter(pk=cup_comp.pk).update(cup_tie=["board_count", "barrage", "lots"],
                                                           barrage_time_control="15 min + 5 s")
    play(cup_comp, 1, {1: ALL_DRAWN, 2: HOME_WINS})
    match = match_of(cup_comp, 1)
    one = section(chief.get(page(cup_comp)).content.decode(), 1)
    assert 'value="barrage"' in one and "at 15 min + 5 s" in one
    response = chief.post(page(cup_comp), step(match, "barrage"), follow=True)
    assert "to play at 15 min + 5 s" in response.content.decode()
    barrage = Match.objects.get(barrage_of=match)
    assert barrage.boards.filter(game__isnull=False).count() == 4
    one = section(response.content.decode(), 1)
    assert "Barrage (match 3)" in one and "0 of 4 boards finished" in one and "being played" in one


def test_a_league_has_no_cup_page(chief: Client) -> None:
    comp = competition(teams=2, boards=1, slug="lg")
    setup.schedule_make(competition=comp)
    assert chief.get(page(comp)).status_code in (403, 404)
