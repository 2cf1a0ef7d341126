"""Each tie-break on hand-computed examples (FMJD Annexes 4.2 a-e for the Solkoff family)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.results import Result
from tournaments.standings import TIEBREAKS, StandingGame, StandingPlayer, TieBreakContext, compute_standings
from tournaments.standings.records import Encounter, encounters_by_player, totals
from tournaments.standings.tiebreaks import solkoff_full_truncated

G = StandingGame
A, B, C, D, E = 1, 2, 3, 4, 5
NAMES = {A: "A", B: "B", C: "C", D: "D", E: "E"}

# A five-player Swiss, three rounds, one bye a round:
#   round 1: A 2-0 B, C 1-1 D, E bye
#   round 2: A 1-1 C, E 2-0 B, D bye
#   round 3: A 1-1 E, B 2F-0F D (D absent), C bye
# Points: A 2+1+1 = 4, B 0+0+2 = 2, C 1+1+2 = 4, D 1+2+0 = 3, E 2+2+1 = 5.
PLAYERS = [StandingPlayer(A, 1, "A", 1500), StandingPlayer(B, 2, "B", 1400), StandingPlayer(C, 3, "C", 1300),
           StandingPlayer(D, 4, "D", 1200), StandingPlayer(E, 5, "E", None)]
GAMES = [
    G(1, A, B, Result.WHITE_WINS), G(1, C, D, Result.DRAW), G(1, E, None, Result.BYE),
    G(2, A, C, Result.DRAW), G(2, E, B, Result.WHITE_WINS), G(2, D, None, Result.BYE),
    G(3, A, E, Result.DRAW), G(3, B, D, Result.WHITE_FORFEIT_WIN), G(3, C, None, Result.BYE),
]

# Opponents' scores, a bye counting as an opponent with 0 (FMJD 4.2 a):
#   A: B 2, C 4, E 5   C: D 3, A 4, bye 0   E: bye 0, B 2, A 4   D: C 4, bye 0, B 2   B: A 4, E 5, D 3
EXPECTED: dict[str, dict[int, object]] = {
    # a. sum of the opponents' scores
    "solkoff": {A: 11, B: 12, C: 7, D: 6, E: 6},
    # b. minus the highest and the lowest: A 11-5-2, B 12-5-3, C 7-4-0, D 6-4-0, E 6-4-0
    "solkoff_median": {A: 4, B: 4, C: 3, D: 2, E: 2},
    # c. minus the lowest
    "solkoff_short_truncated": {A: 9, B: 9, C: 7, D: 6, E: 6},
    # d. minus the lowest, then minus the two lowest
    "solkoff_full_truncated": {A: (9, 5), B: (9, 5), C: (7, 4), D: (6, 4), E: (6, 4)},
    # e. sum of the opponents' Solkoffs: A 12+7+6, B 11+6+6, C 6+11+0, D 7+0+12, E 0+12+11
    "solkoff_plus": {A: 25, B: 23, C: 17, D: 19, E: 23},
    # game points x opponent's score: A 2*2+1*4+1*5, B 0+0+2*3 (forfeit win over D), C 1*3+1*4,
    # D 1*4+0, E 2*2+1*4
    "sonneborn_berger": {A: 13, B: 6, C: 7, D: 4, E: 8},
    # wins over the board or by forfeit, not byes
    "wins": {A: 1, B: 1, C: 0, D: 0, E: 1},
    # opponents met over the board with a rating: A (1400+1300)/2 (E unrated), B 1500 (E unrated,
    # D forfeited), C (1200+1500)/2, D 1300 (B forfeited), E (1400+1500)/2
    "average_rating": {A: Fraction(1350), B: Fraction(1500), C: Fraction(1350), D: Fraction(1300),
                       E: Fraction(1450)},
}


def context(players: list[StandingPlayer], games: list[StandingGame], bye_points: int = 2) -> TieBreakContext:
    encounters = encounters_by_player([p.id for p in players], games, bye_points)
    return TieBreakContext(players={p.id: p for p in players}, points=totals(encounters),
                           encounters=encounters)


def test_points_of_the_example() -> None:
    assert dict(context(PLAYERS, GAMES).points) == {A: 4, B: 2, C: 4, D: 3, E: 5}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_value_of_the_example(name: str) -> None:
    ctx = context(PLAYERS, GAMES)
    function = TIEBREAKS[name].function
    assert {pid: function(pid, ctx, frozenset()) for pid in NAMES} == EXPECTED[name]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_standings_report_the_same_values(name: str) -> None:
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3, tiebreaks=[name])
    assert {r.player.id: r.tiebreaks[name] for r in rows} == EXPECTED[name]


@pytest.mark.parametrize(
    ("tiebreaks", "order"),
    [
        # A and C tie on 4 points; each of these puts A first.
        (["solkoff"], "E A C D B"),
        (["solkoff_median"], "E A C D B"),
        (["solkoff_short_truncated"], "E A C D B"),
        (["solkoff_full_truncated"], "E A C D B"),
        (["solkoff_plus"], "E A C D B"),
        (["sonneborn_berger"], "E A C D B"),
        (["wins"], "E A C D B"),
    ],
)
def test_each_tiebreak_separates_a_and_c(tiebreaks: list[str], order: str) -> None:
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3, tiebreaks=tiebreaks)
    assert " ".join(r.player.name for r in rows) == order
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert not any(r.shared_rank for r in rows)


def test_mutual_result_and_average_rating_leave_a_and_c_shared() -> None:
    # They drew each other (1 each) and faced the same mean rating (1350): rank 2 twice, then 4.
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3,
                             tiebreaks=["mutual_result", "average_rating"])
    assert [(r.player.name, r.rank, r.shared_rank) for r in rows] == [
        ("E", 1, False), ("A", 2, True), ("C", 2, True), ("D", 4, False), ("B", 5, False)]
    by_id = {r.player.id: r for r in rows}
    assert by_id[A].tiebreaks == {"mutual_result": 1, "average_rating": Fraction(1350)}
    assert by_id[E].tiebreaks["mutual_result"] is None  # alone on 5 points: does not apply


def test_full_truncated_direct() -> None:
    # P (id 1) met opponents scoring 1, 3, 5; Q (id 2) had a bye (0) and met two scoring 4:
    # short truncated 8 and 8; full truncated (8, 5) against (8, 4), so P is ahead on the second step.
    players = [StandingPlayer(i, i, str(i), None) for i in range(1, 9)]

    def met(opponent: int | None) -> Encounter:
        return Encounter(round=1, opponent=opponent, points=1, over_the_board=True, won=False, colour="white")

    points = {1: 3, 2: 3, 3: 1, 4: 3, 5: 5, 6: 4, 7: 4, 8: 0}
    encounters: dict[int, list[Encounter]] = {pid: [] for pid in points}
    encounters[1] = [met(3), met(4), met(5)]
    encounters[2] = [met(None), met(6), met(7)]
    ctx = TieBreakContext(players={p.id: p for p in players}, points=points, encounters=encounters)
    short, full = TIEBREAKS["solkoff_short_truncated"].function, solkoff_full_truncated
    assert short(1, ctx, frozenset()) == short(2, ctx, frozenset()) == 8
    assert full(1, ctx, frozenset()) == (8, 5)
    assert full(2, ctx, frozenset()) == (8, 4)
    assert full(1, ctx, frozenset()) > full(2, ctx, frozenset())
    # The median drops highest and lowest: P 3, Q 4 (here the median would rank Q first).
    median = TIEBREAKS["solkoff_median"].function
    assert (median(1, ctx, frozenset()), median(2, ctx, frozenset())) == (3, 4)
    # Fewer than three opponents leave nothing for the median; none leave nothing at all.
    encounters[8] = [met(3), met(5)]
    assert median(8, ctx, frozenset()) == 0
    assert short(8, ctx, frozenset()) == 5 and full(8, ctx, frozenset()) == (5,)
    encounters[8] = []
    assert (TIEBREAKS["solkoff"].function(8, ctx, frozenset()), short(8, ctx, frozenset()),
            full(8, ctx, frozenset())) == (0, 0, ())


def test_mutual_result_decides_between_two_who_met() -> None:
    # R (pairing number 1) and P (2) both end on 2 points; P beat R in round 1.
    p, q, r, s = 11, 12, 13, 14
    ps = [StandingPlayer(r, 1, "R", None), StandingPlayer(p, 2, "P", None),
          StandingPlayer(q, 3, "Q", None), StandingPlayer(s, 4, "S", None)]
    games = [G(1, p, r, Result.WHITE_WINS), G(1, q, s, Result.WHITE_WINS),
             G(2, q, p, Result.WHITE_WINS), G(2, r, s, Result.WHITE_WINS)]
    without = compute_standings(ps, games, system="swiss", rounds_total=2, tiebreaks=[])
    assert [(x.player.name, x.rank) for x in without] == [("Q", 1), ("R", 2), ("P", 2), ("S", 4)]
    rows = compute_standings(ps, games, system="swiss", rounds_total=2, tiebreaks=["mutual_result"])
    assert [(x.player.name, x.rank, x.tiebreaks["mutual_result"]) for x in rows] == [
        ("Q", 1, None), ("P", 2, 2), ("R", 3, 0), ("S", 4, None)]


def test_mutual_result_needs_every_pair_of_the_group_to_have_met() -> None:
    # X, Y, Z all on 2 points; X beat Y, but Z met neither: no mutual result for any of them.
    x, y, z, w = 1, 2, 3, 4
    ps = [StandingPlayer(i, i, n, None) for i, n in zip((x, y, z, w), "XYZW", strict=True)]
    games = [G(1, x, y, Result.WHITE_WINS), G(1, z, w, Result.WHITE_WINS),
             G(2, y, w, Result.WHITE_WINS), G(2, x, z, Result.DOUBLE_FORFEIT)]
    ctx = context(ps, games)
    assert ctx.points[x] == ctx.points[y] == ctx.points[z] == 2
    mutual = TIEBREAKS["mutual_result"].function
    # X-Z was a double forfeit: it counts as a meeting, so the group {X, Y, Z} lacks only Y-Z.
    assert [mutual(pid, ctx, frozenset({x, y, z})) for pid in (x, y, z)] == [None, None, None]
    assert [mutual(pid, ctx, frozenset({x, z})) for pid in (x, z)] == [0, 0]
    assert [mutual(pid, ctx, frozenset({x, y})) for pid in (x, y)] == [2, 0]
    rows = compute_standings(ps, games, system="swiss", rounds_total=2, tiebreaks=["mutual_result"])
    assert [(r.player.name, r.rank, r.shared_rank) for r in rows][:3] == [
        ("X", 1, True), ("Y", 1, True), ("Z", 1, True)]


def test_mutual_result_counts_both_games_of_a_double_round_robin() -> None:
    # Berger, 3 players, double, free rounds scoring 0. A-B: 2-0 then 1-1, so A 3, B 1 between
    # them; C lost to B, then beat A twice and B once: C 6, A 3, B 3. Mutual result: A before B.
    a, b, c = 1, 2, 3
    ps = [StandingPlayer(i, i, n, None) for i, n in zip((a, b, c), "ABC", strict=True)]
    games = [
        G(1, b, c, Result.WHITE_WINS), G(1, a, None, Result.BYE),
        G(2, a, b, Result.WHITE_WINS), G(2, c, None, Result.BYE),
        G(3, c, a, Result.WHITE_WINS), G(3, b, None, Result.BYE),
        G(4, c, b, Result.WHITE_WINS), G(4, a, None, Result.BYE),
        G(5, b, a, Result.DRAW), G(5, c, None, Result.BYE),
        G(6, a, c, Result.BLACK_WINS), G(6, b, None, Result.BYE),
    ]
    rows = compute_standings(ps, games, system="double_round_robin", rounds_total=6,
                             tiebreaks=["mutual_result"], bye_points=0)
    assert [(r.player.name, r.points, r.rank, r.tiebreaks["mutual_result"]) for r in rows] == [
        ("C", 6, 1, None), ("A", 3, 2, 3), ("B", 3, 3, 1)]


def test_mutual_result_is_applied_to_the_group_left_by_earlier_tiebreaks() -> None:
    # In the five-player example, wins first keeps A and C apart, so mutual result sees only
    # singletons; after average rating (equal for A and C) it sees the pair, who drew: 1 each.
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3,
                             tiebreaks=["wins", "mutual_result"])
    assert {r.player.name: r.tiebreaks["mutual_result"] for r in rows} == {
        "E": None, "A": None, "C": None, "D": None, "B": None}
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3,
                             tiebreaks=["average_rating", "mutual_result"])
    assert {r.player.name: r.tiebreaks["mutual_result"] for r in rows}["A"] == 1


def test_average_rating_is_none_without_rated_opponents_and_sorts_last() -> None:
    ps = [StandingPlayer(1, 1, "U", None), StandingPlayer(2, 2, "V", None),
          StandingPlayer(3, 3, "R", 1000), StandingPlayer(4, 4, "S", 1000)]
    games = [G(1, 1, 2, Result.DRAW), G(1, 3, 4, Result.DRAW)]
    rows = compute_standings(ps, games, system="swiss", rounds_total=1, tiebreaks=["average_rating"])
    assert [(r.player.name, r.rank, r.tiebreaks["average_rating"]) for r in rows] == [
        ("R", 1, Fraction(1000)), ("S", 1, Fraction(1000)), ("U", 3, None), ("V", 3, None)]
