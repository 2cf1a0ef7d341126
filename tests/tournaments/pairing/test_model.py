"""History entries from the shared result codes, and the arbiter's explanation."""

from __future__ import annotations

from tournaments.pairing import PlayedRound, PointSystem, explain, pair_dutch
from tournaments.results import Result

from .helpers import bye, game, player, request


def test_history_from_result_codes() -> None:
    ps = PointSystem()
    assert PlayedRound.from_result(Result.WHITE_WINS, as_white=True, opponent=4) == PlayedRound(4, "w", 2)
    assert PlayedRound.from_result(Result.WHITE_WINS, as_white=False, opponent=4) == PlayedRound(4, "b", 0)
    assert PlayedRound.from_result(Result.DRAW, as_white=False, opponent=4).points == 1
    forfeit = PlayedRound.from_result(Result.BLACK_FORFEIT_WIN, as_white=False, opponent=4)
    assert (forfeit.points, forfeit.played) == (2, False)
    assert PlayedRound.from_result(Result.BYE, as_white=True, opponent=None) == PlayedRound(
        None, None, 2, played=False, pab=True
    )
    assert PlayedRound.from_result(Result.EXCUSED, as_white=True, opponent=None).points == ps.excused
    three = PointSystem(win=3, draw=1, bye=3, forfeit_win=3)
    assert PlayedRound.from_result(Result.WHITE_WINS, as_white=True, opponent=2, points=three).points == 3


def test_explanation_names_brackets_floaters_and_unmet_criteria() -> None:
    req = request(
        player(1, game(2, "w", 2), game(3, "b", 2)),
        player(2, game(1, "b", 0), game(4, "w", 2)),
        player(3, game(4, "w", 2), game(1, "w", 0)),
        player(4, game(3, "b", 0), game(2, "b", 0)),
        player(5, bye(), game(6, "b", 1)),
    )
    res = pair_dutch(req)
    text = explain(req)
    assert text == res.explanation.as_text()
    assert "score group 4" in text and "Pairing-allocated bye" in text
    assert any(b.downfloaters for b in res.explanation.brackets)
    assert "float down" in text
