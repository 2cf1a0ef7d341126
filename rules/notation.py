"""Move notation: art. 8.2 (`32-28`, `28x19`) with the PDN 3.0 rule for ambiguous captures.

A capture is written with its start and end squares unless another legal capture shares both: then
it is written with one square per captured piece, the square where the piece turns or, when it goes
straight on, the square right behind the captured piece (`47x38x24x13x36`, PDN 3.0 grammar).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules.types import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Move

if TYPE_CHECKING:
    from rules.board import Board

_MOVE_RE = re.compile(r"\d+(?:\s*[-xX:]\s*\d+)+")
_STRENGTH_RE = re.compile(r"\(?[!?]+\)?$")


def _coords(square: int) -> tuple[int, int]:
    """(row, column) on the 10x10 board, row 0 at Black's base (art. 2.6)."""
    row, pos = divmod(square - 1, 5)
    return row, 2 * pos + (1 if row % 2 == 0 else 0)


def _square_at(row: int, col: int) -> int:
    return row * 5 + col // 2 + 1


def traversed(route: tuple[int, ...]) -> list[int]:
    """Every square the moving piece passes over or stops on, in order, along a route of landings."""
    out = [route[0]]
    for a, b in zip(route, route[1:], strict=False):
        (r0, c0), (r1, c1) = _coords(a), _coords(b)
        dr = (r1 > r0) - (r1 < r0)
        dc = (c1 > c0) - (c1 < c0)
        r, c = r0, c0
        while (r, c) != (r1, c1):
            r, c = r + dr, c + dc
            out.append(_square_at(r, c))
    return out


def _is_subsequence(short: list[int], long: list[int]) -> bool:
    it = iter(long)
    return all(sq in it for sq in short)


def move_notation(board: Board, move: Move) -> str:
    table = board._legal_table()
    routes = table.get(move)
    if routes is None:
        raise IllegalMoveError(f"{move} is not a legal move in {board.fen()}")
    if not move.captured:
        return f"{move.start}-{move.end}"
    if not any(m.start == move.start and m.end == move.end and m != move for m in table):
        return f"{move.start}x{move.end}"
    route = move.path if move.path in routes else routes[0]
    return "x".join(str(sq) for sq in route)


def read_squares(text: str) -> list[int]:
    """The squares of a move text such as `32-28`, `28x19`, `47x38x24x13x36!`.

    Raises InvalidMoveError when the text is unreadable or names a square outside 1-50.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text, got {type(text).__name__}")
    cleaned = _STRENGTH_RE.sub("", text.strip()).strip()
    if not _MOVE_RE.fullmatch(cleaned):
        raise InvalidMoveError(f"cannot read move {text!r}: expected squares separated by '-' or 'x'")
    squares = [int(part) for part in re.split(r"\s*[-xX:]\s*", cleaned)]
    for sq in squares:
        if not 1 <= sq <= 50:
            raise InvalidMoveError(f"move {text!r}: square {sq} is outside 1-50")
    return squares


def parse_move(board: Board, text: str) -> Move:
    squares = read_squares(text)
    table = board._legal_table()
    start, end = squares[0], squares[-1]
    same_ends = [m for m in table if m.start == start and m.end == end]
    if len(squares) == 2:
        candidates = same_ends
    else:
        wanted = tuple(squares)
        candidates = [m for m in same_ends if wanted in table[m]]
        if not candidates:
            # Older files sometimes give other intermediate squares; accept any that lie on the route.
            candidates = [m for m in same_ends
                          if any(_is_subsequence(squares, traversed(r)) for r in table[m])]
    if len(candidates) == 1:
        move = candidates[0]
        if len(squares) > 2 and tuple(squares) in table[move]:
            return Move(tuple(squares), move.captured)
        return move
    if len(candidates) > 1:
        forms = " or ".join(move_notation(board, m) if len(table) else m.long() for m in candidates)
        raise AmbiguousMoveError(f"move {text!r} is ambiguous in {board.fen()}: it can be {forms}")
    raise IllegalMoveError(f"move {text!r} is illegal in {board.fen()}: {_why_illegal(board, squares)}")


def _why_illegal(board: Board, squares: list[int]) -> str:
    start, end = squares[0], squares[-1]
    legal = board.legal_moves()
    piece = board.piece_at(start)
    if piece is None:
        return f"square {start} is empty"
    if piece.color is not board.turn:
        return f"square {start} holds a {piece.color} piece but {board.turn} is to move"
    if not legal:
        return f"{board.turn} has no legal move"
    listing = " ".join(board.notation(m) for m in legal)
    if legal[0].captured:
        most = len(legal[0].captured)
        own = [m for m in board.capture_moves() if m.start == start and m.end == end]
        if own:
            return (f"the capture of the most pieces is compulsory (art. 4.13): {most} piece(s) "
                    f"must be taken; legal moves: {listing}")
        return f"a capture is compulsory (art. 4.1); legal moves: {listing}"
    return f"no {'king' if piece.king else 'man'} move from {start} to {end}; legal moves: {listing}"
