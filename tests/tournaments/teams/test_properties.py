"""Properties of match scores and standings over random leagues."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.results import Result
from tournaments.teams.schedule import round_robin
from tournaments.teams.scoring import Forfeit, Match, score_match, standings
from tournaments.teams.settings import Criterion, TeamSettings

# Results whose two scores add up to 2: a game played to a result, or one player's forfeit.
FULL = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
        Result.WHITE_WINS_UNRATED, Result.DRAW_UNRATED, Result.BLACK_WINS_UNRATED]
ORDERS = st.sampled_from([
    (Criterion.MATCH_POINTS, Criterion.BOARD_POINTS),
    (Criterion.MATCH_POINTS, Criterion.MUTUAL, Criterion.BOARD_POINTS),
    (Criterion.MATCH_POINTS, Criterion.SB_TEAMS, Criterion.WINS),
    (Criterion.BOARD_POINTS,),
])
SETTINGS = st.builds(
    TeamSettings, boards=st.integers(1, 10), order=ORDERS, forfeit_deduction=st.integers(0, 2),
    match_win=st.sampled_from([2, 3]))


@given(st.integers(1, 10).flatmap(lambda n: st.lists(st.sampled_from(FULL), min_size=n, max_size=n)))
def test_board_points_of_played_boards_add_up_to_two_per_board(codes: list[Result]) -> None:
    s = TeamSettings(boards=len(codes))
    score = score_match(Match("H", "A", tuple(codes)), s)
    assert score.home_board_points + score.away_board_points == 2 * len(codes)


@given(st.integers(1, 10).flatmap(
    lambda n: st.lists(st.sampled_from(FULL + [Result.DOUBLE_FORFEIT, Result.BOTH_LOSE]), min_size=n, max_size=n)))
def test_match_points_are_symmetric(codes: list[Result]) -> None:
    """Swapping the teams and every board's colours gives each team the same score."""
    s = TeamSettings(boards=len(codes))
    swap = {Result.WHITE_WINS: Result.BLACK_WINS, Result.BLACK_WINS: Result.WHITE_WINS,
            Result.WHITE_FORFEIT_WIN: Result.BLACK_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN: Result.WHITE_FORFEIT_WIN,
            Result.WHITE_WINS_UNRATED: Result.BLACK_WINS_UNRATED,
            Result.BLACK_WINS_UNRATED: Result.WHITE_WINS_UNRATED}
    there = score_match(Match("H", "A", tuple(codes)), s)
    # The other team named first has White on the odd boards, so the colours of every board turn round.
    back = score_match(Match("A", "H", tuple(swap.get(c, c) for c in codes)), s)
    assert (there.home_board_points, there.away_board_points) == (back.away_board_points, back.home_board_points)
    assert (there.home_match_points, there.away_match_points) == (back.away_match_points, back.home_match_points)
    assert there.winner == back.winner
    assert sorted((there.home_match_points, there.away_match_points)) in (
        [s.match_loss, s.match_win], [s.match_draw, s.match_draw])


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), SETTINGS, st.integers(0, 2**32 - 1))
def test_the_ranking_is_total_and_deterministic(n: int, s: TeamSettings, seed: int) -> None:
    rng = random.Random(seed)
    teams = [f"T{i}" for i in range(n)]
    matches: list[Match] = []
    for f in round_robin(teams):
        if f.away is None:
            continue
        if rng.random() < 0.1:
            matches.append(Match(f.home, f.away, forfeit=rng.choice([Forfeit.HOME, Forfeit.AWAY, Forfeit.BOTH])))
        else:
            matches.append(Match(f.home, f.away, tuple(rng.choice(FULL) for _ in range(s.boards))))
    rows = standings(teams, matches, s)
    assert sorted(r.team for r in rows) == sorted(teams)
    shuffled = matches[:]
    rng.shuffle(shuffled)
    assert standings(teams, shuffled, s) == rows
    keys = [tuple(r.values[c] for c in s.order) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for row, key in zip(rows, keys, strict=True):
        assert row.rank == 1 + sum(1 for other in keys if other > key)
        assert row.shared == (keys.count(key) > 1)
        assert row.played == row.won + row.drawn + row.lost
