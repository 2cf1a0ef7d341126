"""Who meets whom, round by round: a league's round robin, a fixed table given as data, a cup bracket.

The round robin reuses FIDE's Berger tables (`tournaments.pairing.roundrobin`): the player with White
in the table is the home team of the fixture. A fixed table is the federation's own (e.g. a
published table for 8 teams), given by the caller as pairing numbers, and is checked, never invented.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.roundrobin import berger_schedule


@dataclass(frozen=True)
class Fixture:
    round: int  # from 1
    home: str
    away: str | None  # None: the home team is free this round (an odd number of teams)


def round_robin(teams: Sequence[str], double: bool = False) -> list[Fixture]:
    """Every team meets every other once (or twice, home and away swapped, when `double`).
    `teams` are in pairing-number order: the first is number 1 of the Berger table."""
    _check_names(teams)
    fixtures: list[Fixture] = []
    for number, boards in enumerate(berger_schedule(len(teams), double=double), start=1):
        for white, black in boards:
            fixtures.append(Fixture(number, teams[white - 1], None if black is None else teams[black - 1]))
    return fixtures


# The 8-team table of the Ligue Rhône-Alpes de jeu de dames' interclub rapid championship (its
# regulations, art. 3: "Pour 8 équipes les appariements sont les suivants"), first-named team first.
# A regional league's table: the national interclubs' own table was not found.
LRAJD_8_TEAMS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 5), (4, 7), (6, 2), (8, 3)),
    ((2, 1), (3, 6), (5, 4), (7, 8)),
    ((1, 6), (2, 7), (3, 5), (8, 4)),
    ((4, 1), (3, 2), (5, 8), (6, 7)),
    ((1, 7), (2, 8), (4, 3), (5, 6)),
    ((8, 1), (7, 3), (6, 4), (5, 2)),
    ((1, 3), (8, 6), (7, 5), (2, 4)),
)


def fixed_table(teams: Sequence[str], table: Sequence[Sequence[tuple[int, int]]]) -> list[Fixture]:
    """A published table: rounds -> (home number, away number), numbers from 1. Each round must use
    each number at most once, and no pair may meet twice with the same home team."""
    _check_names(teams)
    n = len(teams)
    seen: set[tuple[int, int]] = set()
    fixtures: list[Fixture] = []
    for number, pairs in enumerate(table, start=1):
        used: set[int] = set()
        for home, away in pairs:
            for side in (home, away):
                if not 1 <= side <= n:
                    raise ValueError(f"round {number}: team number {side} is outside 1..{n}")
                if side in used:
                    raise ValueError(f"round {number}: team number {side} plays twice")
                used.add(side)
            if home == away:
                raise ValueError(f"round {number}: team number {home} cannot play itself")
            if (home, away) in seen:
                raise ValueError(f"round {number}: {home} receives {away} a second time")
            seen.add((home, away))
            fixtures.append(Fixture(number, teams[home - 1], teams[away - 1]))
    return fixtures


def bracket_order(size: int) -> list[int]:
    """Seed numbers in the order of the bracket's lines, for a power of two: 1 and 2 can meet only in
    the final, 1-4 only from the semi-finals, and each first-round pair adds up to size + 1."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two of lines (2, 4, 8…), not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def cup_bracket(seeded: Sequence[str]) -> list[tuple[str, str | None]]:
    """The first round of a knock-out: `seeded` from seed 1 down. The bracket is filled to the next
    power of two; the missing seeds are byes (None), so the best seeds go through without playing."""
    _check_names(seeded)
    if len(seeded) < 2:
        raise ValueError("a cup needs at least 2 teams")
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    lines = [seeded[s - 1] if s <= len(seeded) else None for s in order]
    pairs: list[tuple[str, str | None]] = []
    for first, second in zip(lines[0::2], lines[1::2], strict=True):
        assert first is not None  # the better seed of a pair is always a team: seeds sum to size + 1
        pairs.append((first, second))
    return pairs


def _check_names(teams: Sequence[str]) -> None:
    if len(teams) < 2:
        raise ValueError(f"a competition needs at least 2 teams, not {len(teams)}")
    if len(set(teams)) != len(teams):
        raise ValueError("teams: a team is listed twice")
