"""Berger tables: equal to the published FIDE Handbook C.05 Annex 1 tables, board for board."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.roundrobin import berger_rounds, berger_schedule

# FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", as printed (white-black).
# "Where there is an odd number of players, the highest number counts as a bye."
PUBLISHED = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
    12: """
        1-12 2-11 3-10 4-9 5-8 6-7
        12-7 8-6 9-5 10-4 11-3 1-2
        2-12 3-1 4-11 5-10 6-9 7-8
        12-8 9-7 10-6 11-5 1-4 2-3
        3-12 4-2 5-1 6-11 7-10 8-9
        12-9 10-8 11-7 1-6 2-5 3-4
        4-12 5-3 6-2 7-1 8-11 9-10
        12-10 11-9 1-8 2-7 3-6 4-5
        5-12 6-4 7-3 8-2 9-1 10-11
        12-11 1-10 2-9 3-8 4-7 5-6
        6-12 7-5 8-4 9-3 10-2 11-1
    """,
    14: """
        1-14 2-13 3-12 4-11 5-10 6-9 7-8
        14-8 9-7 10-6 11-5 12-4 13-3 1-2
        2-14 3-1 4-13 5-12 6-11 7-10 8-9
        14-9 10-8 11-7 12-6 13-5 1-4 2-3
        3-14 4-2 5-1 6-13 7-12 8-11 9-10
        14-10 11-9 12-8 13-7 1-6 2-5 3-4
        4-14 5-3 6-2 7-1 8-13 9-12 10-11
        14-11 12-10 13-9 1-8 2-7 3-6 4-5
        5-14 6-4 7-3 8-2 9-1 10-13 11-12
        14-12 13-11 1-10 2-9 3-8 4-7 5-6
        6-14 7-5 8-4 9-3 10-2 11-1 12-13
        14-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-14 8-6 9-5 10-4 11-3 12-2 13-1
    """,
    16: """
        1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9
        16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2
        2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10
        16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3
        3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11
        16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4
        4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12
        16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5
        5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13
        16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6
        6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14
        16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7
        7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15
        16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8
        8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1
    """,
}


def parse(table: str) -> list[list[tuple[int, int]]]:
    return [[(int(w), int(b)) for w, b in (pair.split("-") for pair in line.split())]
            for line in table.strip().splitlines()]


def published(n_players: int) -> list[list[tuple[int, int | None]]]:
    """The printed table for n players; for an odd n the highest number's board becomes the bye, last."""
    size = n_players + n_players % 2
    rounds = parse(PUBLISHED[size])
    if n_players == size:
        return [list(r) for r in rounds]
    out: list[list[tuple[int, int | None]]] = []
    for rnd in rounds:
        boards: list[tuple[int, int | None]] = [(w, b) for w, b in rnd if size not in (w, b)]
        free = next(w if b == size else b for w, b in rnd if size in (w, b))
        out.append([*boards, (free, None)])
    return out


def test_published_tables_are_well_formed() -> None:
    # Guards the transcription itself: each printed table is a complete round robin.
    for size, text in PUBLISHED.items():
        rounds = parse(text)
        assert len(rounds) == size - 1
        pairs = Counter(frozenset(p) for rnd in rounds for p in rnd)
        assert set(pairs) == {frozenset(p) for p in combinations(range(1, size + 1), 2)}
        assert set(pairs.values()) == {1}


@pytest.mark.parametrize("n_players", range(3, 17))
def test_single_round_robin_equals_published_table(n_players: int) -> None:
    assert berger_schedule(n_players) == published(n_players)


def test_three_players_spelled_out() -> None:
    assert berger_schedule(3) == [[(2, 3), (1, None)], [(1, 2), (3, None)], [(3, 1), (2, None)]]


@pytest.mark.parametrize("n_players", range(3, 17))
def test_double_round_robin_repeats_with_colours_reversed(n_players: int) -> None:
    first = published(n_players)
    schedule = berger_schedule(n_players, double=True)
    assert schedule[: len(first)] == first
    reversed_cycle = [[(b, w) if b is not None else (w, None) for w, b in rnd] for rnd in first]
    assert schedule[len(first):] == reversed_cycle
    assert len(schedule) == berger_rounds(n_players, double=True) == 2 * len(first)


def test_two_players() -> None:
    assert berger_schedule(2) == [[(1, 2)]]
    assert berger_schedule(2, double=True) == [[(1, 2)], [(2, 1)]]


@pytest.mark.parametrize("n_players", [-1, 0, 1])
def test_too_few_players(n_players: int) -> None:
    with pytest.raises(ValueError):
        berger_schedule(n_players)


@given(st.integers(min_value=2, max_value=40), st.booleans())
def test_structure_for_any_field(n_players: int, double: bool) -> None:
    schedule = berger_schedule(n_players, double=double)
    assert len(schedule) == berger_rounds(n_players, double)
    cycles = 2 if double else 1
    meetings: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    whites: Counter[int] = Counter()
    for rnd in schedule:
        seen = [p for w, b in rnd for p in (w, b) if p is not None]
        assert sorted(seen) == list(range(1, n_players + 1))  # everyone once a round
        assert [b for _, b in rnd[:-1]].count(None) == 0  # the bye, if any, is the last board
        for w, b in rnd:
            if b is None:
                byes[w] += 1
            else:
                meetings[(w, b)] += 1
                whites[w] += 1
    for a, b in combinations(range(1, n_players + 1), 2):
        total = meetings[(a, b)] + meetings[(b, a)]
        assert total == cycles
        if double:
            assert meetings[(a, b)] == meetings[(b, a)] == 1  # one game with each colour
    assert all(byes[p] == (cycles if n_players % 2 else 0) for p in range(1, n_players + 1))
    # Berger colours: over a cycle, whites and blacks of any player differ by at most one game...
    if not double:
        games = n_players - 1
        assert all(abs(2 * whites[p] - games) <= 1 + (n_players % 2) for p in range(1, n_players + 1))
