"""Replaying damaged sheets never crashes: every mutated corpus game gives a report, and quickly."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pdn import read_games
from rules.replay import replay_game
from tests.hang_guard import no_hang
from tests.rules.test_pdn_fuzz import mutated


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_sheets_always_give_a_report(text: str) -> None:
    with no_hang():
        for game in read_games(text, source="fuzz"):
            report = replay_game(game)
            assert 0 <= report.plies <= report.sheet_plies == len(game.moves)
            assert report.verdict
            assert not report.legal or report.plies == report.sheet_plies
            report.to_json()
            report.text()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from("-x"), st.integers(0, 60)), max_size=30),
       st.sampled_from(["", '[FEN "W:WK46,31,32:BK5,19,20"]\n', '[FEN "B:W28,38:B23,12,13"]\n']))
def test_random_move_lists_always_give_a_report(moves: list[tuple[int, str, int]], setup: str) -> None:
    text = setup + " ".join(f"{a}{sep}{b}" for a, sep, b in moves) + " *"
    for game in read_games(text):
        report = replay_game(game)
        assert report.plies <= len(game.moves)
        if report.legal:
            assert not [i for i in report.issues if i.severity == "error" and i.ply is not None]
