"""Random playouts for the property tests: a start position and a list of choices, one per ply."""

from __future__ import annotations

from hypothesis import strategies as st

from rules import Board


def playouts(starts: list[str]) -> st.SearchStrategy[tuple[str, list[int]]]:
    return st.tuples(st.sampled_from(starts), st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))


def play(start: str, choices: list[int]) -> Board:
    """The position after following `choices` (each taken modulo the number of legal moves)."""
    board = Board(start)
    for choice in choices:
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board
