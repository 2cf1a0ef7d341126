"""Schedules: the Berger round robin with home and away, a fixed table checked, the cup bracket."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.teams.schedule import LRAJD_8_TEAMS, bracket_order, cup_bracket, fixed_table, round_robin

TEN = list("ABCDEFGHIJ")


def test_single_round_robin_of_ten_teams() -> None:
    fixtures = round_robin(TEN)
    assert max(f.round for f in fixtures) == 9
    assert Counter(f.round for f in fixtures) == {r: 5 for r in range(1, 10)}
    assert {frozenset((f.home, f.away)) for f in fixtures} == {frozenset(p) for p in combinations(TEN, 2)}
    homes = Counter(f.home for f in fixtures)
    assert sorted(homes.values()) == [4] * 5 + [5] * 5  # Berger: home and away as even as nine rounds allow
    # Round 1 of FIDE's Berger table for 10: 1-10, 2-9, 3-8, 4-7, 5-6 (White, i.e. home, first).
    assert [(f.home, f.away) for f in fixtures if f.round == 1] == [
        ("A", "J"), ("B", "I"), ("C", "H"), ("D", "G"), ("E", "F")]


def test_double_round_robin_plays_each_pair_home_and_away() -> None:
    fixtures = round_robin(TEN, double=True)
    assert max(f.round for f in fixtures) == 18
    assert Counter((f.home, f.away) for f in fixtures) == {(a, b): 1 for a in TEN for b in TEN if a != b}


def test_an_odd_number_of_teams_leaves_one_team_free_each_round() -> None:
    fixtures = round_robin(list("ABCDE"))
    free = [f.home for f in fixtures if f.away is None]
    assert sorted(free) == list("ABCDE")


def test_a_fixed_table_is_taken_as_given_and_checked() -> None:
    table = [[(1, 4), (2, 3)], [(4, 2), (3, 1)], [(1, 2), (3, 4)]]
    fixtures = fixed_table(list("WXYZ"), table)
    assert [(f.round, f.home, f.away) for f in fixtures] == [
        (1, "W", "Z"), (1, "X", "Y"), (2, "Z", "X"), (2, "Y", "W"), (3, "W", "X"), (3, "Y", "Z")]
    with pytest.raises(ValueError, match="round 1: team number 1 plays twice"):
        fixed_table(list("WXYZ"), [[(1, 2), (1, 3)]])
    with pytest.raises(ValueError, match="outside 1..4"):
        fixed_table(list("WXYZ"), [[(1, 5)]])
    with pytest.raises(ValueError, match="a second time"):
        fixed_table(list("WXYZ"), [[(1, 2)], [(1, 2)]])


def test_bracket_order_and_byes_by_seed() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    # Six teams in a bracket of eight: seeds 1 and 2 have the byes.
    assert cup_bracket(list("abcdef")) == [("a", None), ("d", "e"), ("b", None), ("c", "f")]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)
    with pytest.raises(ValueError, match="twice"):
        cup_bracket(["a", "a", "b"])


def test_the_published_8_team_table_is_a_round_robin() -> None:
    # Rhône-Alpes interclubs, art. 3, round 1 as printed: "1-5 4-7 6-2 8-3".
    fixtures = fixed_table(list("abcdefgh"), LRAJD_8_TEAMS)
    assert [(f.home, f.away) for f in fixtures if f.round == 1] == [("a", "e"), ("d", "g"), ("f", "b"), ("h", "c")]
    assert max(f.round for f in fixtures) == 7
    assert Counter(frozenset((f.home, f.away)) for f in fixtures) == {
        frozenset(p): 1 for p in combinations("abcdefgh", 2)}
    firsts = Counter(f.home for f in fixtures)
    assert sorted(firsts.values()) == [3, 3, 3, 3, 4, 4, 4, 4]
