"""Standings: the scoring of every result kind, ranking, shared ranks, cut-off rounds, crosstable cells."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.results import SINGLE_PLAYER_RESULTS, TWO_PLAYER_RESULTS, Result
from tournaments.standings import (
    TIEBREAKS,
    StandingGame,
    StandingPlayer,
    StandingRow,
    compute_standings,
    crosstable_cells,
)
from tournaments.standings.tiebreaks import sort_key

G = StandingGame


def players(*names: str, ratings: tuple[int | None, ...] | None = None) -> list[StandingPlayer]:
    # Ids deliberately differ from pairing numbers, so a mix-up of the two shows.
    ratings = ratings or (None,) * len(names)
    return [StandingPlayer(id=100 + i, pairing_number=i, name=n, rating=r)
            for i, (n, r) in enumerate(zip(names, ratings, strict=True), start=1)]


def by_name(rows: list[StandingRow]) -> dict[str, StandingRow]:
    return {r.player.name: r for r in rows}


def swiss(ps: list[StandingPlayer], games: list[StandingGame], **options: Any) -> dict[str, StandingRow]:
    options.setdefault("tiebreaks", [])
    return by_name(compute_standings(ps, games, system="swiss", rounds_total=3, **options))


@pytest.mark.parametrize(
    ("result", "white_points", "black_points"),
    [
        (Result.WHITE_WINS, 2, 0),  # 5.6.1 / 5.6.3
        (Result.DRAW, 1, 1),  # 5.6.2
        (Result.BLACK_WINS, 0, 2),
        (Result.WHITE_FORFEIT_WIN, 2, 0),  # 5.7
        (Result.BLACK_FORFEIT_WIN, 0, 2),
        (Result.DOUBLE_FORFEIT, 0, 0),  # 5.8
        (Result.NOT_PLAYED, 0, 0),
    ],
)
def test_two_player_result_scores(result: Result, white_points: int, black_points: int) -> None:
    ps = players("W", "B")
    rows = swiss(ps, [G(1, 101, 102, result)])
    assert (rows["W"].points, rows["B"].points) == (white_points, black_points)
    over_the_board = result in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
    assert rows["W"].played == rows["B"].played == (1 if over_the_board else 0)
    assert rows["W"].wins == (1 if white_points == 2 else 0)
    assert rows["B"].wins == (1 if black_points == 2 else 0)


@pytest.mark.parametrize(("bye_points", "expected"), [(2, 2), (1, 1), (0, 0)])
def test_bye_scores_the_tournament_bye_points_and_is_no_game(bye_points: int, expected: int) -> None:
    ps = players("A", "B", "C")
    games = [G(1, 101, 102, Result.DRAW), G(1, 103, None, Result.BYE)]
    rows = swiss(ps, games, bye_points=bye_points)
    assert rows["C"].points == expected
    assert rows["C"].played == 0 and rows["C"].wins == 0


def test_excused_round_scores_zero_whatever_the_bye_points() -> None:
    ps = players("A", "B", "C")
    games = [G(1, 101, 102, Result.DRAW), G(1, 103, None, Result.EXCUSED)]
    rows = swiss(ps, games, bye_points=2)
    assert rows["C"].points == 0 and rows["C"].played == 0


def test_mixed_tournament_hand_computed() -> None:
    # Every result kind in one Swiss, totals worked out by hand:
    # round 1: A 2-0 B, C 1-1 D, E 0-2 F, G bye (2); round 2: A 2F-0F C, B 0F-2F E, D 0F-0F F,
    # G excused (0); round 3: A-D not played. A 2+2, B 0+0, C 1+0, D 1+0, E 0+2, F 2+0, G 2+0.
    # Played over the board: one game each except G; wins count the forfeit wins (A, E).
    ps = players("A", "B", "C", "D", "E", "F", "G")
    a, b, c, d, e, f, g = range(101, 108)
    games = [
        G(1, a, b, Result.WHITE_WINS), G(1, c, d, Result.DRAW), G(1, e, f, Result.BLACK_WINS),
        G(1, g, None, Result.BYE),
        G(2, a, c, Result.WHITE_FORFEIT_WIN), G(2, b, e, Result.BLACK_FORFEIT_WIN),
        G(2, d, f, Result.DOUBLE_FORFEIT), G(2, g, None, Result.EXCUSED),
        G(3, a, d, Result.NOT_PLAYED),
    ]
    rows = swiss(ps, games)
    assert {n: r.points for n, r in rows.items()} == {"A": 4, "B": 0, "C": 1, "D": 1, "E": 2, "F": 2, "G": 2}
    assert {n: r.played for n, r in rows.items()} == {"A": 1, "B": 1, "C": 1, "D": 1, "E": 1, "F": 1, "G": 0}
    assert {n: r.wins for n, r in rows.items()} == {"A": 2, "B": 0, "C": 0, "D": 0, "E": 1, "F": 1, "G": 0}


def test_ranks_are_shared_when_nothing_separates_and_skip_after() -> None:
    # A beats B, C and D draw, E bye (2): A 2, E 2, C 1, D 1, B 0. No tie-break: two shared ranks.
    ps = players("A", "B", "C", "D", "E")
    games = [G(1, 101, 102, Result.WHITE_WINS), G(1, 103, 104, Result.DRAW), G(1, 105, None, Result.BYE)]
    rows = compute_standings(ps, games, system="swiss", rounds_total=1, tiebreaks=[])
    assert [(r.rank, r.player.name, r.shared_rank) for r in rows] == [
        (1, "A", True), (1, "E", True), (3, "C", True), (3, "D", True), (5, "B", False),
    ]


def test_tiebreak_order_decides_and_values_are_reported_in_that_order() -> None:
    # A and E tie on 2; E had the bye (Solkoff 0) and A beat B (Solkoff 0, B has 0) -> still tied;
    # wins: A 1, E 0 -> A first.
    ps = players("A", "B", "C", "D", "E")
    games = [G(1, 101, 102, Result.WHITE_WINS), G(1, 103, 104, Result.DRAW), G(1, 105, None, Result.BYE)]
    rows = compute_standings(ps, games, system="swiss", rounds_total=1, tiebreaks=["solkoff", "wins"])
    assert [(r.rank, r.player.name, r.shared_rank) for r in rows][:2] == [(1, "A", False), (2, "E", False)]
    assert list(rows[0].tiebreaks) == ["solkoff", "wins"]
    assert rows[0].tiebreaks == {"solkoff": 0, "wins": 1}
    assert rows[1].tiebreaks == {"solkoff": 0, "wins": 0}


def test_after_round_cuts_the_table() -> None:
    ps = players("A", "B")
    games = [G(1, 101, 102, Result.WHITE_WINS), G(2, 102, 101, Result.WHITE_WINS),
             G(3, 101, 102, Result.DRAW)]
    full = swiss(ps, games)
    assert (full["A"].points, full["B"].points) == (3, 3)
    after_one = swiss(ps, games, after_round=1)
    assert (after_one["A"].points, after_one["B"].points) == (2, 0)
    assert after_one["A"].rank == 1 and after_one["B"].rank == 2


def test_unknown_tiebreak_and_bad_games_are_refused() -> None:
    ps = players("A", "B")
    with pytest.raises(ValueError, match="unknown tie-break"):
        compute_standings(ps, [], system="swiss", rounds_total=1, tiebreaks=["coin_toss"])
    with pytest.raises(ValueError, match="not in the standings"):
        compute_standings(ps, [G(1, 101, 999, Result.DRAW)], system="swiss", rounds_total=1, tiebreaks=[])
    with pytest.raises(ValueError, match="more than one game"):
        compute_standings(ps, [G(1, 101, 102, Result.DRAW), G(1, 102, 101, Result.DRAW)],
                          system="swiss", rounds_total=1, tiebreaks=[])
    with pytest.raises(ValueError, match="unknown system"):
        compute_standings(ps, [], system="knockout", rounds_total=1, tiebreaks=[])


def test_registry_names_and_functions() -> None:
    assert list(TIEBREAKS) == [
        "solkoff", "solkoff_median", "solkoff_short_truncated", "solkoff_full_truncated", "solkoff_plus",
        "sonneborn_berger", "wins", "mutual_result", "average_rating", "ranking_order", "external",
    ]
    assert all(callable(entry.function) for entry in TIEBREAKS.values())


def test_empty_tournament() -> None:
    rows = compute_standings(players("A", "B"), [], system="round_robin", rounds_total=1,
                             tiebreaks=["solkoff"])
    assert [(r.rank, r.points, r.shared_rank) for r in rows] == [(1, 0, True), (1, 0, True)]


def test_crosstable_cells() -> None:
    ps = players("A", "B", "C")
    games = [G(1, 101, 102, Result.WHITE_FORFEIT_WIN), G(1, 103, None, Result.BYE),
             G(2, 103, 101, Result.DRAW), G(2, 102, None, Result.EXCUSED)]
    cells = crosstable_cells(ps, games, system="swiss", rounds_total=3, bye_points=2)
    assert list(cells) == [101, 102, 103]
    a, b, c = cells[101], cells[102], cells[103]
    assert [(x.round, x.opponent, x.colour, x.text, x.points) for x in a] == [
        (1, 102, "white", "2F", 2), (2, 103, "black", "1", 1)]
    assert [(x.opponent, x.colour, x.text, x.points) for x in b] == [
        (101, "black", "0F", 0), (None, None, "excused", 0)]
    assert [(x.opponent, x.text, x.points) for x in c] == [(None, "bye", 2), (101, "1", 1)]
    # Cells add up to the standings total.
    rows = swiss(ps, games)
    assert all(sum(x.points for x in cells[r.player.id]) == r.points for r in rows.values())


@st.composite
def random_swiss(draw: st.DrawFn) -> tuple[list[StandingPlayer], list[StandingGame]]:
    """Any field, any pairings (repeats allowed: the standings must not care), any results."""
    n = draw(st.integers(min_value=2, max_value=9))
    ps = [StandingPlayer(100 + i, i, f"P{i}", draw(st.one_of(st.none(), st.integers(1000, 2400))))
          for i in range(1, n + 1)]
    games: list[StandingGame] = []
    for rnd in range(1, draw(st.integers(min_value=1, max_value=6)) + 1):
        order = draw(st.permutations([p.id for p in ps]))
        for white, black in zip(order[::2], order[1::2], strict=False):
            games.append(G(rnd, white, black, draw(st.sampled_from(TWO_PLAYER_RESULTS))))
        if n % 2:
            games.append(G(rnd, order[-1], None, draw(st.sampled_from(SINGLE_PLAYER_RESULTS))))
    return ps, games


ORDERING_TIEBREAKS = [name for name in TIEBREAKS if name != "mutual_result"]


@settings(max_examples=150, deadline=None)
@given(random_swiss(), st.permutations(ORDERING_TIEBREAKS))
def test_invariants_on_random_tournaments(
    tournament: tuple[list[StandingPlayer], list[StandingGame]], order: list[str]
) -> None:
    ps, games = tournament
    order = order[:3]
    rows = compute_standings(ps, games, system="swiss", rounds_total=6, tiebreaks=order)
    assert sorted(r.player.id for r in rows) == sorted(p.id for p in ps)
    # Every point comes from a game: the total is what the results hand out.
    handed_out = sum(sum(g.result.points(2)) if g.black is not None else g.result.points(2)[0] for g in games)
    assert sum(r.points for r in rows) == handed_out
    # Ranks follow the keys (points, then the tie-breaks in order), ties share the rank.
    keys = [(r.points, *(sort_key(r.tiebreaks[name]) for name in order)) for r in rows]
    for i, row in enumerate(rows):
        assert row.rank == 1 + sum(1 for k in keys if k > keys[i])
        assert row.shared_rank == (keys.count(keys[i]) > 1)
    assert keys == sorted(keys, reverse=True)
    # The crosstable adds up to the same totals.
    cells = crosstable_cells(ps, games, system="swiss", rounds_total=6)
    assert all(sum(c.points for c in cells[r.player.id]) == r.points for r in rows)
    assert all(r.played == sum(1 for c in cells[r.player.id] if c.result is not None and c.result.is_played)
               for r in rows)
