"""Team tie-breaks worked by hand on a 4-team, 2-board league, and an FFJD-style 4-team cup.

Definitions (docs/research/team-competitions.md): MUTUAL is FIDE's direct encounter applied to teams;
SB_TEAMS is the Olympiad Sonneborn-Berger as described by olimpbase.org and ChessBase ("the match
points of the teams against which [a team] had played ... multiplied with the number of team points
[it] scored in the match against that team"); board count and the elimination of the lowest board are
olimpbase.org's knock-out rules ("Note down the numbers of the boards each team won on ... The team
with the lowest total is deemed to be the winner"; "Eliminate the bottom board ...").
"""

from __future__ import annotations

import pytest

from tournaments.results import Result
from tournaments.teams.schedule import cup_bracket
from tournaments.teams.scoring import CupReason, Forfeit, Match, cup_winner, score_match, standings
from tournaments.teams.settings import Colours, Criterion, CupTie, TeamSettings, idf_settings

W, D, B = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS
MP, BP, MU, SB = Criterion.MATCH_POINTS, Criterion.BOARD_POINTS, Criterion.MUTUAL, Criterion.SB_TEAMS

# 2 boards; the first-named team has White on board 1. Board points of the first-named team:
# P-Q 3-1, P-R 1-3, P-S 4-0, Q-R 4-0, Q-S 1-3, R-S 3-1.
LEAGUE = [
    Match("P", "Q", (W, D)),  # P: board 1 won (2) + draw (1) = 3
    Match("P", "R", (D, W)),  # board 2: R has White and wins; P 1, R 3
    Match("P", "S", (W, B)),  # board 2: P has Black and wins; P 4
    Match("Q", "R", (W, B)),  # Q 4
    Match("Q", "S", (D, W)),  # Q 1, S 3
    Match("R", "S", (W, D)),  # R 3, S 1
]
TEAMS = ["P", "Q", "R", "S"]
# By hand: match points P 4, Q 2, R 4, S 2; board points P 8, Q 6, R 6, S 4.
# Mutual: R beat P, S beat Q. SB_TEAMS: P 2*3 + 4*1 + 2*4 = 18; Q 4*1 + 4*4 + 2*1 = 22;
# R 4*3 + 2*0 + 2*3 = 18; S 4*0 + 2*3 + 4*1 = 10.


def _order(order: tuple[Criterion, ...], boards: int = 2) -> list[tuple[str, int]]:
    rows = standings(TEAMS, LEAGUE, TeamSettings(boards=boards, order=order))
    return [(r.team, r.rank) for r in rows]


def test_match_points_then_board_points() -> None:
    assert _order((MP, BP)) == [("P", 1), ("R", 2), ("Q", 3), ("S", 4)]


def test_mutual_match_ranks_before_board_points() -> None:
    assert _order((MP, MU, BP)) == [("R", 1), ("P", 2), ("S", 3), ("Q", 4)]


def test_sonneborn_berger_for_teams_values() -> None:
    rows = standings(TEAMS, LEAGUE, TeamSettings(boards=2, order=(MP, SB, BP)))
    assert {r.team: r.values[SB] for r in rows} == {"P": 18, "Q": 22, "R": 18, "S": 10}
    assert [(r.team, r.rank) for r in rows] == [("P", 1), ("R", 2), ("Q", 3), ("S", 4)]


def test_teams_equal_on_every_criterion_share_the_rank() -> None:
    rows = standings(TEAMS, LEAGUE, TeamSettings(boards=2, order=(MP, SB)))
    assert [(r.team, r.rank, r.shared) for r in rows] == [
        ("P", 1, True), ("R", 1, True), ("Q", 3, False), ("S", 4, False)]


def test_idf_ranks_on_board_points_only() -> None:
    rows = standings(TEAMS, LEAGUE, idf_settings(2))
    assert [(r.team, r.board_points, r.rank) for r in rows] == [("P", 8, 1), ("Q", 6, 2), ("R", 6, 2), ("S", 4, 4)]


def test_other_match_point_values() -> None:
    rows = standings(TEAMS, LEAGUE, TeamSettings(boards=2, match_win=3, match_draw=1, match_loss=0))
    assert {r.team: r.match_points for r in rows} == {"P": 6, "Q": 3, "R": 6, "S": 3}


def test_colours_follow_the_setting() -> None:
    odd = TeamSettings(boards=4)
    even = TeamSettings(boards=4, colours=Colours.FIRST_WHITE_ON_EVEN)
    assert [odd.first_is_white(b) for b in (1, 2, 3, 4)] == [True, False, True, False]
    assert [even.first_is_white(b) for b in (1, 2, 3, 4)] == [False, True, False, True]
    # The same codes score the other way round when the colours are the other way round.
    assert score_match(Match("P", "Q", (W, W, W, W)), odd).home_board_points == 4
    assert score_match(Match("P", "Q", (W, W, W, W)), odd).away_board_points == 4
    assert score_match(Match("P", "Q", (W, D, W, D)), even).home_board_points == 2


def test_whole_match_forfeits() -> None:
    s = TeamSettings(boards=4, forfeit_deduction=2)
    away = score_match(Match("P", "Q", forfeit=Forfeit.AWAY), s)
    assert (away.home_board_points, away.away_board_points, away.home_match_points, away.away_match_points) == (
        8, 0, 2, -2)
    both = score_match(Match("P", "Q", forfeit=Forfeit.BOTH), s)
    assert (both.home_board_points, both.away_board_points, both.home_match_points, both.away_match_points,
            both.winner) == (0, 0, -2, -2, None)
    with pytest.raises(ValueError, match="no board results"):
        score_match(Match("P", "Q", (W, W, W, W), forfeit=Forfeit.HOME), s)


def test_bad_input_is_named() -> None:
    s = TeamSettings(boards=2)
    with pytest.raises(ValueError, match="3 board results for a 2-board match"):
        score_match(Match("P", "Q", (W, W, W)), s)
    with pytest.raises(ValueError, match="board 2"):
        score_match(Match("P", "Q", (W, Result.BYE)), s)
    with pytest.raises(ValueError, match="board 1"):
        score_match(Match("P", "Q", (Result.NOT_PLAYED, W)), s)
    with pytest.raises(ValueError, match="'Z' is not a team"):
        standings(TEAMS, [Match("P", "Z", (W, W))], s)
    with pytest.raises(ValueError, match="lots"):
        TeamSettings(boards=2, cup_tie=(CupTie.LOTS, CupTie.BOARD_COUNT))
    with pytest.raises(ValueError, match="twice"):
        TeamSettings(boards=2, order=(MP, MP))


# --- An FFJD-style Coupe de France: teams of 4 (art. 1: "des clubs ne disposant pas de quatre joueurs"),
# knock-out ("élimination directe et successive"). The tie rule here is the board count, then the
# elimination of the lowest board, then lots: a setting, as the FFJD text's own rule was not found.
CUP = TeamSettings(boards=4, cup_tie=(CupTie.BOARD_COUNT, CupTie.ELIMINATE_LOWEST, CupTie.LOTS))


def test_a_four_team_cup_with_a_drawn_semi_final() -> None:
    seeds = ["Drancy", "Compiègne", "Rouen", "Anthy"]
    semis = cup_bracket(seeds)
    assert semis == [("Drancy", "Anthy"), ("Compiègne", "Rouen")]
    # Drancy 6-2: boards 1 and 2 won (Drancy White on 1, Black on 2), 3 and 4 drawn.
    first = cup_winner(Match("Drancy", "Anthy", (W, B, D, D)), CUP, lots_seed=7)
    assert (first.winner, first.reason) == ("Drancy", CupReason.BOARD_POINTS)
    # 4-4: Compiègne wins board 1 (White), Rouen wins board 2 (White on 2), 3 and 4 drawn.
    # Board count: Compiègne 1, Rouen 2; the lower sum goes through.
    second = cup_winner(Match("Compiègne", "Rouen", (W, W, D, D)), CUP, lots_seed=7)
    assert (second.winner, second.reason) == ("Compiègne", CupReason.BOARD_COUNT)
    final = cup_winner(Match("Drancy", "Compiègne", (W, B, D, D)), CUP, lots_seed=7)
    assert (final.winner, final.reason) == ("Drancy", CupReason.BOARD_POINTS)


def test_equal_board_count_goes_to_the_elimination_of_the_lowest_board() -> None:
    # First-named team wins boards 1 and 4 (count 5), the other boards 2 and 3 (count 5).
    # Without board 4: 2 against 4, so the second team goes through.
    decision = cup_winner(Match("X", "Y", (W, W, B, B)), CUP, lots_seed=1)
    assert (decision.winner, decision.reason) == ("Y", CupReason.ELIMINATE_LOWEST)


def test_all_boards_drawn_goes_to_lots_repeatably() -> None:
    drawn = Match("X", "Y", (D, D, D, D))
    first = cup_winner(drawn, CUP, lots_seed=2026)
    assert first.reason is CupReason.LOTS
    assert {cup_winner(drawn, CUP, lots_seed=2026).winner for _ in range(5)} == {first.winner}
    winners = {cup_winner(drawn, CUP, lots_seed=seed).winner for seed in range(40)}
    assert winners == {"X", "Y"}
    with pytest.raises(ValueError, match="seed"):
        cup_winner(drawn, CUP)


def test_a_barrage_decides_when_played() -> None:
    rule = TeamSettings(boards=4, cup_tie=(CupTie.BARRAGE, CupTie.LOTS))
    drawn = Match("X", "Y", (D, D, D, D))
    assert cup_winner(drawn, rule, lots_seed=3).reason is CupReason.UNDECIDED
    barrage = Match("Y", "X", (W, D, D, D))
    decision = cup_winner(drawn, rule, lots_seed=3, barrage=barrage)
    assert (decision.winner, decision.reason) == ("Y", CupReason.BARRAGE)
    with pytest.raises(ValueError, match="barrage"):
        cup_winner(drawn, rule, lots_seed=3, barrage=Match("X", "Z", (W, D, D, D)))


def test_a_forfeited_cup_match() -> None:
    decision = cup_winner(Match("X", "Y", forfeit=Forfeit.HOME), CUP)
    assert (decision.winner, decision.reason) == ("Y", CupReason.FORFEIT)


def test_a_match_forfeited_by_both_teams_is_lost_by_both() -> None:
    s = TeamSettings(boards=2, forfeit_deduction=2)
    rows = standings(["P", "Q"], [Match("P", "Q", forfeit=Forfeit.BOTH)], s)
    assert [(r.team, r.played, r.won, r.drawn, r.lost, r.match_points, r.deductions, r.rank) for r in rows] == [
        ("P", 1, 0, 0, 1, -2, 2, 1), ("Q", 1, 0, 0, 1, -2, 2, 1)]
