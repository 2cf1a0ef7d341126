"""A 4-board knock-out cup in the FFJD's Coupe de France style ("compétition par équipes de club […] suivant
le système d'élimination directe et successive", teams of four: docs/research/team-competitions.md 2a),
played through the services: results by the round services, each drawn match decided by the competition's
rule (the Coupe's own rule was not found, so the steps are settings), the final made from the winners."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tournaments.competitions import cup, lineups, setup
from tournaments.competitions.selectors import match_states, settings_of
from tournaments.competitions.words import reason_words
from tournaments.errors import DomainError
from tournaments.models import Game, Match, MatchForfeit, Round, RoundStatus
from tournaments.rounds import services as round_services
from tournaments.teams import scoring

pytestmark = pytest.mark.django_db

STEPS = ["board_count", "eliminate_lowest", "lots"]


def _cup(steps: list[str], teams: int = 4, **rules):  # type: ignore[no-untyped-def]
    comp = competition(teams=teams, boards=4, slug="coupe", kind="cup", cup_tie=steps, **rules)
    setup.schedule_make(competition=comp)
    return comp


def _play(comp, number: int, results: dict[int, list[str]]) -> Round:  # type: ignore[no-untyped-def]
    """Line up, publish, and enter each match's four board results (White first, as on the result keys)."""
    line_up_round(comp, number)
    rnd = lineups.round_publish(competition=comp, number=number)
    _enter(comp, number, results)
    return rnd


def _enter(comp, number: int, results: dict[int, list[str]]) -> None:  # type: ignore[no-untyped-def]
    for table, codes in results.items():
        match = Match.objects.get(competition=comp, round_number=number, table=table)
        for board, code in zip(match.boards.order_by("number"), codes, strict=True):
            round_services.game_record_result(game=Game.objects.get(pk=board.game_id), result=code)


def _match(comp, number: int, table: int) -> Match:  # type: ignore[no-untyped-def]
    return Match.objects.select_related("home", "away", "winner").get(
        competition=comp, round_number=number, table=table)


# Home White on boards 1 and 3. Match 1 (1 v 4): the home team wins board 1 (2-0), boards 2 and 3 are drawn,
# the away team wins board 4 (White on board 4 is the away team: 2-0): 4-4; board count 1 against 4.
DRAWN_BY_BOARD_COUNT = ["2-0", "1-1", "1-1", "2-0"]
ALL_DRAWN = ["1-1", "1-1", "1-1", "1-1"]
HOME_WINS = ["2-0", "0-2", "1-1", "1-1"]  # 6-2 for the home team


def test_a_drawn_semi_final_goes_through_by_board_count_and_the_final_is_made_from_the_winners() -> None:
    comp = _cup(STEPS)
    assert [(m.home.seed, m.away.seed) for m in (_match(comp, 1, 1), _match(comp, 1, 2))] == [(1, 4), (2, 3)]
    rnd = _play(comp, 1, {1: DRAWN_BY_BOARD_COUNT, 2: ["0-2", "2-0", "0-2", "1-1"]})
    state = next(s for s in match_states(comp, 1) if s.match.table == 1)
    assert (state.score.home_board_points, state.score.away_board_points) == (4, 4)
    with pytest.raises(DomainError, match="not decided yet"):
        cup.next_round_make(competition=comp)
    assert cup.round_decide(competition=comp, number=1) == []
    first, second = _match(comp, 1, 1), _match(comp, 1, 2)
    assert (first.winner.seed, first.decided_by) == (1, "board_count")
    # match 2 (2 v 3): board 1 home White loses (0-2), board 2 away White wins (2-0), board 3 home White
    # loses (0-2), board 4 drawn: 1-7, team 3 goes through on board points
    assert (second.winner.seed, second.decided_by) == (3, "board_points")
    assert reason_words(first.decided_by).startswith("board count")
    with pytest.raises(DomainError, match="not completed"):
        cup.next_round_make(competition=comp)
    round_services.round_complete(round=rnd)
    final = cup.next_round_make(competition=comp)
    assert [(m.round_number, m.table, m.home_id, m.away_id) for m in final] == [
        (2, 1, first.winner_id, second.winner_id)]
    with pytest.raises(DomainError, match="already made"):
        cup.match_decide(match=first)  # the bracket stands once the next round is made from it
    rnd2 = _play(comp, 2, {1: HOME_WINS})
    cup.round_decide(competition=comp, number=2)
    round_services.round_complete(round=rnd2)
    champion = _match(comp, 2, 1)
    assert (champion.winner_id, champion.decided_by) == (first.winner_id, "board_points")
    with pytest.raises(DomainError, match="The cup is over"):
        cup.next_round_make(competition=comp)


def test_lots_decide_when_board_count_and_elimination_fail_and_the_seed_repeats_the_draw() -> None:
    comp = _cup(STEPS)
    _play(comp, 1, {1: ALL_DRAWN, 2: HOME_WINS})
    waiting = cup.round_decide(competition=comp, number=1)
    assert [(m.table, "draw lots" in why) for m, why in waiting] == [(1, True)]
    match = _match(comp, 1, 1)
    assert match.winner_id is None and match.lots_seed is None
    before = match.version
    with pytest.raises(DomainError, match="changed by someone else"):
        cup.lots_draw(match=match, expected_version=before - 1)
    cup.lots_draw(match=match, expected_version=before)
    match = _match(comp, 1, 1)
    assert match.decided_by == "lots" and match.lots_seed is not None and match.version == before + 1
    # The draw repeated from the recorded seed, by the pure engine, names the same team; and by hand.
    scored = next(s.scored for s in match_states(comp, 1) if s.match.pk == match.pk)
    again = scoring.cup_winner(scored, settings_of(comp), lots_seed=match.lots_seed)
    assert (again.winner, again.reason) == (match.winner.name, scoring.CupReason.LOTS)
    assert random.Random(match.lots_seed).choice(sorted((match.home.name, match.away.name))) == match.winner.name
    with pytest.raises(DomainError, match="never made twice"):
        cup.lots_draw(match=match)
    with pytest.raises(DomainError, match="without lots"):
        cup.lots_draw(match=_match(comp, 1, 2))


def test_a_drawn_match_goes_to_a_barrage_with_the_line_ups_and_colours_swapped() -> None:
    comp = _cup(["board_count", "barrage", "lots"])
    rnd = _play(comp, 1, {1: ALL_DRAWN, 2: HOME_WINS})
    match = _match(comp, 1, 1)
    with pytest.raises(DomainError, match="names no time control"):
        cup.barrage_make(match=match)
    comp.barrage_time_control = "15 min + 5 s"
    comp.save(update_fields=["barrage_time_control"])
    waiting = dict((m.table, why) for m, why in cup.round_decide(competition=comp, number=1))
    assert "barrage" in waiting[1] and 2 not in waiting
    round_services.round_complete(round=Round.objects.get(pk=rnd.pk))  # every game of the round is in
    barrage = cup.barrage_make(match=match)
    assert (barrage.round_number, barrage.table, barrage.home_id, barrage.away_id) == (1, 3, match.away_id,
                                                                                        match.home_id)
    home, away = roster(match.home), roster(match.away)
    games = {b.number: b.game for b in barrage.boards.select_related("game")}
    # Board 1 was the home player's White; in the barrage the same two players meet with colours swapped.
    first = match.boards.get(number=1).game
    assert (first.white_id, first.black_id) == (home[0].pk, away[0].pk)
    assert (games[1].white_id, games[1].black_id) == (away[0].pk, home[0].pk)
    assert (games[2].white_id, games[2].black_id) == (home[1].pk, away[1].pk)
    assert sorted(g.board for g in games.values()) == [9, 10, 11, 12]
    rnd = Round.objects.get(pk=rnd.pk)
    assert rnd.status == RoundStatus.PUBLISHED  # reopened: the barrage's games are to be played
    with pytest.raises(DomainError, match="already has its barrage"):
        cup.barrage_make(match=match)
    with pytest.raises(DomainError, match="barrage of .* is not finished"):
        cup.match_decide(match=match)
    _enter(comp, 1, {3: ["2-0", "1-1", "1-1", "1-1"]})  # the barrage's home (the match's away team) wins
    cup.match_decide(match=match)
    match = _match(comp, 1, 1)
    assert (match.winner_id, match.decided_by) == (barrage.home_id, "barrage")
    round_services.round_complete(round=rnd)
    final = cup.next_round_make(competition=comp)
    assert final[0].home_id == barrage.home_id  # the barrage itself never enters the bracket
    assert Match.objects.filter(competition=comp, round_number=2).count() == 1


def test_no_barrage_before_the_match_is_played() -> None:
    comp = _cup(["barrage", "lots"], barrage_time_control="15 min + 5 s")
    match = _match(comp, 1, 1)
    with pytest.raises(DomainError, match="not finished"):
        cup.barrage_make(match=match)


def test_a_whole_match_forfeit_goes_through_and_a_bye_sends_the_home_team_on() -> None:
    comp = _cup(STEPS, teams=3)
    bye, played = _match(comp, 1, 1), _match(comp, 1, 2)
    assert bye.away_id is None
    lineups.match_forfeit_set(match=played, forfeit=MatchForfeit.HOME)
    rnd = lineups.round_publish(competition=comp, number=1)
    assert not Game.objects.filter(round=rnd).exists()
    assert cup.round_decide(competition=comp, number=1) == []
    bye, played = _match(comp, 1, 1), _match(comp, 1, 2)
    assert (bye.winner_id, bye.decided_by) == (bye.home_id, "bye")
    assert (played.winner_id, played.decided_by) == (played.away_id, "forfeit")
    round_services.round_complete(round=rnd)
    final = cup.next_round_make(competition=comp)[0]
    assert (final.home_id, final.away_id) == (bye.home_id, played.away_id)


def test_a_league_match_is_not_decided_as_a_cup_match() -> None:
    comp = competition(teams=2, boards=1, slug="lg")
    setup.schedule_make(competition=comp)
    with pytest.raises(DomainError, match="is a league"):
        cup.match_decide(match=Match.objects.get(competition=comp))
