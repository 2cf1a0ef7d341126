"""FIDE C.07 (2024 edition) on small hand-built tournaments: each value worked out by hand in the comments,
from the rules quoted in tournaments/standings/fide_c07.py."""

from __future__ import annotations

import pytest

from tournaments.results import Result
from tournaments.standings import (
    FIDE_C07,
    FMJD,
    ROUND_ROBIN,
    SWISS,
    StandingGame,
    StandingPlayer,
    compute_standings,
)
from tournaments.standings.fide_c07 import Contribution, adjusted_score, cut, rounds_of
from tournaments.standings.records import encounters_by_player, totals
from tournaments.standings.tiebreaks import TieBreakContext

G = StandingGame
A, B, C, D, E = 1, 2, 3, 4, 5
PLAYERS = [StandingPlayer(pid, pid, "ABCDE"[pid - 1], 1500) for pid in (A, B, C, D, E)]

# A Swiss of four rounds with every kind of unplayed round (bye worth 2):
#   R1: A 2-0 B;  C 2F-0F D (16.2.2 for C, 16.2.4 for D);  E the pairing-allocated bye (16.2.1)
#   R2: A 1-1 C;  B 2-0 E;  D a zero-point bye he asked for (16.2.3)
#   R3: A 0-2 E;  B 1-1 D;  C a half-point bye he asked for (16.2.3)
#   R4: A 2-0 D;  C 0-2 E;  B no game (he left: 16.2.5, his last voluntary rounds)
# Points: A 2+1+0+2 = 5, B 0+2+1+0 = 3, C 2+1+1+0 = 4, D 0+0+1+0 = 1, E 2+0+2+2 = 6.
GAMES = [
    G(1, A, B, Result.WHITE_WINS), G(1, C, D, Result.WHITE_FORFEIT_WIN), G(1, E, None, Result.BYE),
    G(2, A, C, Result.DRAW), G(2, B, E, Result.WHITE_WINS), G(2, D, None, Result.EXCUSED),
    G(3, A, E, Result.BLACK_WINS), G(3, B, D, Result.DRAW), G(3, C, None, Result.EXCUSED_DRAW),
    G(4, A, D, Result.WHITE_WINS), G(4, C, E, Result.BLACK_WINS),
]

# 16.3 adjusted scores: B's round 4 (16.2.5) counts as a draw: 0+2+1+1 = 4; the others as they stand
# (C's half-point bye and D's zero-point bye come before a round they played).
ADJUSTED = {A: 5, B: 4, C: 4, D: 1, E: 6}

# Contributions (8.1, 16.4): over the board the opponent's adjusted score, else a dummy with his own score.
#   A: B 4, C 4, E 6, D 1                                   = 15
#   B: A 5, E 6, D 1, dummy 3 (VUR)                          = 15
#   C: dummy 4 (forfeit win, not a VUR), A 5, dummy 4 (VUR), E 6 = 19
#   D: dummy 1 (VUR), dummy 1 (VUR), B 4, A 5                 = 11
#   E: dummy 6 (the pairing-allocated bye, not a VUR), B 4, A 5, C 4 = 19
EXPECTED: dict[str, dict[int, object]] = {
    "solkoff": {A: 15, B: 15, C: 19, D: 11, E: 19},
    # Cut-1, the VUR first when it is not below the least value (16.5.1): A 15-1, B 15-3 (the VUR, not D's 1),
    # C 19-4 (the VUR), D 11-1 (a VUR), E 19-4
    "solkoff_short_truncated": {A: 14, B: 12, C: 15, D: 10, E: 15},
    # Median-1: the low cut as above, then the highest left: A 14-6, B 12-6, C 15-6, D 10-5, E 15-6
    "solkoff_median": {A: 8, B: 6, C: 9, D: 5, E: 9},
    # Cut-1, Cut-2, Cut-3: B [5 6 1 3v] -> 12, 11 (then 1), 6 (then 5); A [4 4 6 1] -> 14, 10, 6
    "solkoff_full_truncated": {A: (14, 10, 6), B: (12, 11, 6), C: (15, 11, 6), D: (10, 9, 5), E: (15, 11, 6)},
    # 9.1, each score times the points of the round:
    #   A 4*2 + 4*1 + 6*0 + 1*2 = 14; B 5*0 + 6*2 + 1*1 + 3*0 = 13; C 4*2 + 5*1 + 4*1 + 6*0 = 17;
    #   D 1*0 + 1*0 + 4*1 + 5*0 = 4; E 6*2 + 4*0 + 5*2 + 4*2 = 30
    "sonneborn_berger": {A: 14, B: 13, C: 17, D: 4, E: 30},
    # 7.1, rounds worth a win with or without playing: A R1 R4, B R2, C R1 (forfeit), D none, E R1 (bye) R3 R4
    "wins": {A: 2, B: 1, C: 1, D: 0, E: 3},
}


def _rows(convention: str, tiebreaks: list[str], games: list[StandingGame] = GAMES,
          players: list[StandingPlayer] = PLAYERS, system: str = SWISS, bye_points: int = 2) -> dict[int, object]:
    rows = compute_standings(players, games, system=system, rounds_total=4, tiebreaks=tiebreaks,
                             bye_points=bye_points, convention=convention)
    return {r.player.id: r for r in rows}


def _context() -> TieBreakContext:
    encounters = encounters_by_player([p.id for p in PLAYERS], GAMES, 2)
    return TieBreakContext(players={p.id: p for p in PLAYERS}, points=totals(encounters), encounters=encounters,
                           rounds=4, system=SWISS)


def test_points_are_the_same_in_both_conventions() -> None:
    rows = _rows(FIDE_C07, ["solkoff"])
    assert {pid: r.points for pid, r in rows.items()} == {A: 5, B: 3, C: 4, D: 1, E: 6}  # type: ignore[attr-defined]


def test_voluntary_unplayed_rounds_by_category() -> None:
    ctx = _context()
    voluntary = {pid: [r.voluntary for r in rounds_of(pid, ctx)] for pid in (A, B, C, D, E)}
    assert voluntary == {
        A: [False, False, False, False],
        B: [False, False, False, True],  # no game in round 4
        C: [False, False, True, False],  # forfeit win (16.2.2) no, half-point bye asked for (16.2.3) yes
        D: [True, True, False, False],  # forfeit loss (16.2.4), zero-point bye (16.2.3)
        E: [False, False, False, False],  # the pairing-allocated bye (16.2.1)
    }


def test_adjusted_score_counts_the_last_voluntary_rounds_as_draws() -> None:
    ctx = _context()
    assert {pid: adjusted_score(pid, ctx) for pid in (A, B, C, D, E)} == ADJUSTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_tiebreak_by_hand(name: str) -> None:
    rows = _rows(FIDE_C07, [name])
    assert {pid: r.tiebreaks[name] for pid, r in rows.items()} == EXPECTED[name]  # type: ignore[attr-defined]


def test_fmjd_reading_is_unchanged_by_the_option() -> None:
    # FMJD 4.2 a: a bye is an opponent scoring 0, a forfeit counts its paired opponent, an absence nothing:
    # B: A 5 + E 6 + D 1 = 12 (no round 4); C: D 1 + A 5 + bye 0 + E 6 = 12; E: bye 0 + B 3 + A 5 + C 4 = 12.
    rows = _rows(FMJD, ["solkoff", "wins"])
    assert {pid: r.tiebreaks["solkoff"] for pid, r in rows.items()} == {  # type: ignore[attr-defined]
        A: 3 + 4 + 6 + 1, B: 12, C: 12, D: 4 + 0 + 3 + 5, E: 12}
    assert rows[E].tiebreaks["wins"] == 2  # type: ignore[attr-defined]  # a bye is no win in FMJD's reading


def test_cut_exception_gives_way_to_a_lower_contribution() -> None:
    # Sonneborn-Berger-like values: the least significant value is the lowest score (2, worth 4 here); the
    # VUR's contribution (3) is lower than it, so 16.5.1 does not apply and the least significant goes.
    values = [Contribution(1, 2, 4, False), Contribution(2, 3, 3, True), Contribution(3, 5, 10, False)]
    assert cut(values, 1, 0) == 13
    # not lower (4 >= 4): the VUR goes first
    values[1] = Contribution(2, 4, 4, True)
    assert cut(values, 1, 0) == 14


def test_cut_never_removes_more_than_there_is() -> None:
    values = [Contribution(1, 3, 3, False)]
    assert cut(values, 1, 1) == 0
    assert cut([], 2, 0) == 0


def test_pairing_allocated_bye_worth_a_draw_is_not_a_win_nor_voluntary() -> None:
    # Same tournament with the bye worth 1: E has 5 points, the bye round's dummy is 5 and not a VUR.
    rows = _rows(FIDE_C07, ["wins", "solkoff"], bye_points=1)
    assert rows[E].points == 5  # type: ignore[attr-defined]
    assert rows[E].tiebreaks["wins"] == 2  # type: ignore[attr-defined]
    # E: dummy 5, B 4, A 5, C 4 = 18
    assert rows[E].tiebreaks["solkoff"] == 18  # type: ignore[attr-defined]


def test_round_robin_counts_forfeits_as_games_and_no_free_round() -> None:
    # Three players, a single round robin: R1 A 2-0 B, C free; R2 C 2F-0F A (A absent), B free; R3 B 1-1 C, A free.
    # Points (free round 0): A 2, B 1, C 3. Article 15.2: A's forfeit loss counts C (3) like a game.
    players = PLAYERS[:3]
    games = [G(1, A, B, Result.WHITE_WINS), G(1, C, None, Result.BYE), G(2, C, A, Result.WHITE_FORFEIT_WIN),
             G(2, B, None, Result.BYE), G(3, B, C, Result.DRAW), G(3, A, None, Result.BYE)]
    rows = compute_standings(players, games, system=ROUND_ROBIN, rounds_total=3, tiebreaks=["sonneborn_berger",
                             "wins"], bye_points=0, convention=FIDE_C07)
    by_id = {r.player.id: r for r in rows}
    # SB: A 2*1 (B) + 0*3 (C) = 2; B 0*2 + 1*3 = 3; C 2*2 (forfeit win over A) + 1*1 = 5
    assert {pid: r.tiebreaks["sonneborn_berger"] for pid, r in by_id.items()} == {A: 2, B: 3, C: 5}
    assert {pid: r.tiebreaks["wins"] for pid, r in by_id.items()} == {A: 1, B: 0, C: 1}


def test_unknown_convention_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break convention 'chess'"):
        compute_standings(PLAYERS, GAMES, system=SWISS, rounds_total=4, tiebreaks=[], convention="chess")


def test_standings_cut_at_a_round_count_that_round_only() -> None:
    # After round 2: B has played both rounds, so no dummy; his Solkoff is A's and E's adjusted scores after
    # round 2: A 2+1 = 3, E 2+0 = 2 -> 5. D: forfeit loss and zero bye, two dummies of his own 0 points -> 0.
    rows = compute_standings(PLAYERS, GAMES, system=SWISS, rounds_total=4, tiebreaks=["solkoff"], bye_points=2,
                             after_round=2, convention=FIDE_C07)
    by_id = {r.player.id: r for r in rows}
    assert by_id[B].tiebreaks["solkoff"] == 5
    assert by_id[D].tiebreaks["solkoff"] == 0


def test_an_arbiters_ruling_is_a_game_over_the_board() -> None:
    # A 1-0 B by the arbiter's ruling (A a draw's points, B none): they played, so each counts the other, not a
    # dummy: A's Buchholz is B's 0 (a dummy would give his own 1), B's is A's 1; neither has a win (7.1).
    rows = compute_standings(PLAYERS[:2], [G(1, A, B, Result.WHITE_RULED)], system=SWISS, rounds_total=1,
                             tiebreaks=["solkoff", "wins"], convention=FIDE_C07)
    by_id = {r.player.id: r for r in rows}
    assert (by_id[A].tiebreaks["solkoff"], by_id[B].tiebreaks["solkoff"]) == (0, 1)
    assert (by_id[A].tiebreaks["wins"], by_id[B].tiebreaks["wins"]) == (0, 0)
