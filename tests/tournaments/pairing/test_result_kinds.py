"""Every result an arbiter gives through points, standings, the engine's history and the
TRF, each kind on its own; the services refusing what cannot be."""

from __future__ import annotations

import pytest

from tournaments.pairing.model import PlayedRound, PointSystem, SwissPlayer
from tournaments.pairing.trf import parse_trf, request_from_trf, write_trf
from tournaments.results import SINGLE_PLAYER_RESULTS, TWO_PLAYER_RESULTS, Result
from tournaments.standings import StandingGame, StandingPlayer, compute_standings, crosstable_cells

# result -> (white's points, black's points, over the board, white's cell, black's cell, TRF white, TRF black)
GAMES = {
    Result.WHITE_WINS: (2, 0, True, "2", "0", "1", "0"),
    Result.DRAW: (1, 1, True, "1", "1", "=", "="),
    Result.BLACK_WINS: (0, 2, True, "0", "2", "0", "1"),
    Result.WHITE_RULED: (1, 0, True, "1", "0", "=", "0"),
    Result.BLACK_RULED: (0, 1, True, "0", "1", "0", "="),
    Result.BOTH_LOSE: (0, 0, True, "0", "0", "0", "0"),
    Result.WHITE_WINS_UNRATED: (2, 0, True, "2U", "0U", "W", "L"),
    Result.DRAW_UNRATED: (1, 1, True, "1U", "1U", "D", "D"),
    Result.BLACK_WINS_UNRATED: (0, 2, True, "0U", "2U", "L", "W"),
    Result.POSTPONED: (1, 1, True, "?", "?", "?", "?"),
    Result.WHITE_FORFEIT_WIN: (2, 0, False, "2F", "0F", "+", "-"),
    Result.BLACK_FORFEIT_WIN: (0, 2, False, "0F", "2F", "-", "+"),
    Result.DOUBLE_FORFEIT: (0, 0, False, "0F", "0F", "-", "-"),
}
# single-player result -> (points, TRF code)
SINGLES = {Result.BYE: (2, "U"), Result.EXCUSED: (0, "Z"), Result.EXCUSED_DRAW: (1, "H"),
           Result.EXCUSED_WIN: (2, "F")}


def test_every_result_is_classified() -> None:
    assert set(GAMES) | set(SINGLES) | {Result.NOT_PLAYED} == set(Result)
    assert set(SINGLES) == set(SINGLE_PLAYER_RESULTS)
    assert not set(SINGLES) & set(TWO_PLAYER_RESULTS)


def test_no_inconsistent_result_and_only_the_three_forfeits() -> None:
    """Checklist 181-184: no 2-2, 2-1 or 1F-0F; the forfeits are 2F-0F, 0F-2F, 0F-0F; nothing mixes a game
    played with a forfeit."""
    for result in Result:
        white, black = result.points()
        if not result.is_single_player:
            assert white + black <= 2, result
        if "F" in result.value:
            assert result.is_forfeit and result in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
                                                    Result.DOUBLE_FORFEIT)
            assert not result.is_played
    assert Result.BYE.points(bye_points=1) == (1, 0)  # the bye's value is a game score


@pytest.mark.parametrize("result", list(GAMES))
def test_a_game_through_points_standings_engine_and_trf(result: Result) -> None:
    white_pts, black_pts, played, white_cell, black_cell, trf_w, trf_b = GAMES[result]
    assert result.points() == (white_pts, black_pts)
    assert result.is_played is played
    assert (result.cell(True), result.cell(False)) == (white_cell, black_cell)
    # standings: the points, the games played over the board, the crosstable cells
    players = [StandingPlayer(1, 1, "A", 2000), StandingPlayer(2, 2, "B", 1900)]
    games = [StandingGame(1, 1, 2, result)]
    rows = {r.player.id: r for r in compute_standings(players, games, system="swiss", rounds_total=1,
                                                     tiebreaks=["solkoff", "wins"])}
    assert (rows[1].points, rows[2].points) == (white_pts, black_pts)
    assert rows[1].played == (1 if played else 0)
    assert rows[1].wins == (1 if white_pts == 2 else 0)
    cells = crosstable_cells(players, games, system="swiss", rounds_total=1)
    assert (cells[1][0].text, cells[2][0].text) == (white_cell, black_cell)
    # the engine: points, whether the game counts for colours and rematches
    ps = PointSystem()
    w = PlayedRound.from_result(result, as_white=True, opponent=2, points=ps)
    b = PlayedRound.from_result(result, as_white=False, opponent=1, points=ps)
    assert (w.points, b.points, w.played, b.played) == (white_pts, black_pts, played, played)
    assert w.rated is not result.is_unrated and w.postponed is result.is_postponed
    # the TRF: written with the codes other programs read, and read back to the same history
    trf = write_trf([SwissPlayer(1, 1, 2000, "A", (w,)), SwissPlayer(2, 2, 1900, "B", (b,))], total_rounds=3)
    lines = [x for x in trf.splitlines() if x.startswith("001")]
    assert lines[0].endswith(f"2 w {trf_w}") and lines[1].endswith(f"1 b {trf_b}")
    back = request_from_trf(parse_trf(trf))
    assert [p.history for p in back.players] == [(w,), (b,)]


@pytest.mark.parametrize("result", list(SINGLES))
def test_a_single_player_result_through_points_engine_and_trf(result: Result) -> None:
    points, code = SINGLES[result]
    row = compute_standings([StandingPlayer(1, 1, "A", 2000)], [StandingGame(1, 1, None, result)],
                            system="swiss", rounds_total=1, tiebreaks=[])[0]
    assert row.points == points and row.played == 0 and row.wins == 0
    entry = PlayedRound.from_result(result, as_white=True, opponent=None)
    assert entry.points == points and not entry.played
    assert entry.pab is (result is Result.BYE) and entry.requested is result.is_requested_bye
    trf = write_trf([SwissPlayer(1, 1, 2000, "A", (entry,))], total_rounds=3)
    assert trf.splitlines()[-1].endswith(f"0000 - {code}")
    # a last column of requested byes only announces the next round (as bbpPairings reads it): ask for round 2
    assert request_from_trf(parse_trf(trf), 2).players[0].history == (entry,)


def test_a_bye_worth_a_win_leaves_no_pairing_allocated_bye_a_draw_one_does() -> None:
    """As TRF's F and H are read (C.04.3 C2: no PAB after a win without playing)."""
    from tournaments.pairing.model import PairingRequest
    from tournaments.pairing.state import build_states

    def request(result: Result) -> PairingRequest:
        first = PlayedRound.from_result(result, as_white=True, opponent=None)
        players = (SwissPlayer(1, 1, 2000, "A", (first,)),
                   SwissPlayer(2, 2, 1900, "B", (PlayedRound(3, "w", 2),)),
                   SwissPlayer(3, 3, 1800, "C", (PlayedRound(2, "b", 0),)))
        return PairingRequest(players=players, round=2, total_rounds=3)

    assert not build_states(request(Result.EXCUSED_WIN))[1].bye_ok
    assert build_states(request(Result.EXCUSED_DRAW))[1].bye_ok
    assert build_states(request(Result.EXCUSED))[1].bye_ok
