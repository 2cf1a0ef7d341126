"""Move notation: art. 8.2 (`32-28`, `28x19`) with the PDN 3.0 rule for ambiguous captures.

A capture is written with its start and end squares unless another legal capture shares both: then
it is written with one square per captured piece, the square where the piece turns or, when it goes
straight on, the square right behind the captured piece (`47x38x24x13x36`, PDN 3.0 grammar).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rules.geometry import row_col, square_at
from rules.numbers import number_or_none
from rules.types import InvalidMoveError, Move

#: The legal moves of a position, each with every route (landing squares) that realises it: what the
#: notation is written from and read against. rules.board builds it; this module never sees a board.
LegalRoutes = Mapping[Move, Sequence[tuple[int, ...]]]

_MOVE_RE = re.compile(r"[0-9]+(?:\s*[-xX:]\s*[0-9]+)+")
_STRENGTH_RE = re.compile(r"\(?[!?]+\)?$")


def traversed(route: tuple[int, ...]) -> list[int]:
    """Every square the moving piece passes over or stops on, in order, along a route of landings."""
    out = [route[0]]
    for a, b in zip(route, route[1:], strict=False):
        (r0, c0), (r1, c1) = row_col(a), row_col(b)
        dr = (r1 > r0) - (r1 < r0)
        dc = (c1 > c0) - (c1 < c0)
        r, c = r0, c0
        while (r, c) != (r1, c1):
            r, c = r + dr, c + dc
            out.append(square_at(r, c))
    return out


def _is_subsequence(short: list[int], long: list[int]) -> bool:
    it = iter(long)
    return all(sq in it for sq in short)


def move_notation(table: LegalRoutes, move: Move) -> str | None:
    """The text of a legal move (art. 8.2, PDN 3.0 long form when ambiguous); None when it is not legal."""
    routes = table.get(move)
    if routes is None:
        return None
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
    squares = []
    for part in re.split(r"\s*[-xX:]\s*", cleaned):
        sq = number_or_none(part, low=1, high=50)
        if sq is None:
            shown = str(int(part)) if len(part) <= 12 else part[:12] + "..."
            raise InvalidMoveError(f"move {text[:60]!r}: square {shown} is outside 1-50")
        squares.append(sq)
    return squares


def matching_moves(table: LegalRoutes, squares: list[int]) -> list[Move]:
    """The legal moves the squares of a move text can name: one (with the route written, when it gives
    one), several (ambiguous) or none (illegal)."""
    start, end = squares[0], squares[-1]
    same_ends = [m for m in table if m.start == start and m.end == end]
    if len(squares) == 2:
        return same_ends
    wanted = tuple(squares)
    candidates = [m for m in same_ends if wanted in table[m]]
    if not candidates:
        # Older files sometimes give other intermediate squares; accept any that lie on the route.
        candidates = [m for m in same_ends if any(_is_subsequence(squares, traversed(r)) for r in table[m])]
    if len(candidates) == 1 and wanted in table[candidates[0]]:
        return [Move(wanted, candidates[0].captured)]
    return candidates
