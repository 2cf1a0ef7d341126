"""The FMJD rules of play for international draughts (Annexe I), as a flat API.

    >>> from rules import Board
    >>> board = Board()                      # initial position, White to move (2.8, 3.3)
    >>> board.push_notation("32-28")
    Move(path=(32, 28), captured=())
    >>> board.fen()
    'B:W28,31,33-50:B1-20'

Board(fen=None), Board.from_fen(fen), board.fen()      canonical FEN, see rules.fen
board.turn, board.set_turn(color)                      set_turn changes nothing else
board.piece_at(sq), board.set_piece(sq, piece | None), board.copy(), board.key()
board.legal_moves()                                    maximal captures if any (4.1, 4.13), else quiet moves
board.quiet_moves(color=None), board.capture_moves(color=None, maximal_only=False)
board.legal_routes(move)                               every path of a legal move (Woldouby: two)
board.push(move), board.pop(), board.move_stack        push raises IllegalMoveError
board.notation(move), board.parse_move(text), board.push_notation(text)
board.outcome() -> Outcome | None, board.is_game_over()
perft(board, depth)

Move is a frozen value: `path` (start, every landing square, end) and `captured` (sorted squares);
equality is (start, end, set of captured pieces), so two routes of one capture are one move.
Errors: RulesError (a ValueError) and its subclasses InvalidFenError, InvalidMoveError,
IllegalMoveError, AmbiguousMoveError.

Decisions where the text is silent are documented where they apply: counting of the draw rules in
rules.draws, completeness of king captures in Board.capture_moves, FEN output in rules.fen.
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
