"""The FMJD rules of play for international draughts (Annexe I), as a flat API.

    >>> from rules import Board
    >>> board = Board()
    >>> board.push_notation("32-28")
    Move(path=(32, 28), captured=())
"""

from rules.board import INITIAL_FEN, Board, PositionKey, perft
from rules.types import (
    BLACK,
    WHITE,
    AmbiguousMoveError,
    Color,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Move,
    Outcome,
    Piece,
    RulesError,
)

__all__ = [
    "BLACK",
    "INITIAL_FEN",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "Piece",
    "PositionKey",
    "RulesError",
    "perft",
]
