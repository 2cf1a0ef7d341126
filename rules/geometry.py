"""Board geometry (art. 2.3-2.6) as bit positions with ghost squares.

Squares 1-50 are numbered row by row from Black's side (art. 2.6).  Each pair of rows takes 11 bits:
the ten playable squares plus one unused "ghost" bit.  With that padding every diagonal step is the
same shift everywhere on the board (5 or 6 bits), and a step off the left or right edge lands on a
ghost bit that no piece ever occupies, so edges need no special case in the hot loops.
"""

from __future__ import annotations

from typing import Final

#: Directions as bit offsets: towards square 1 (Black's base) is "up".
UP_LEFT: Final = -6
UP_RIGHT: Final = -5
DOWN_LEFT: Final = 5
DOWN_RIGHT: Final = 6
#: Index d and 3 - d are opposite directions; the order matters for that trick.
DIRECTIONS: Final[tuple[int, int, int, int]] = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)


def bit_index(square: int) -> int:
    """Bit position of a square 1-50."""
    return square - 1 + (square - 1) // 10


def row_col(square: int) -> tuple[int, int]:
    """(row, column) of a square 1-50 on the 10x10 grid, row 0 at Black's base and column 0 at the left
    from White's side (art. 2.6): square 1 is the second cell of the top row (art. 2.1, a dark square at
    the player's left), so even rows start on column 1 and odd rows on column 0."""
    row, pos = divmod(square - 1, 5)
    return row, 2 * pos + (1 if row % 2 == 0 else 0)


def square_at(row: int, col: int) -> int:
    """The square 1-50 at (row, column) of a dark cell; the inverse of row_col."""
    return row * 5 + col // 2 + 1


SQUARES: Final = range(1, 51)
INDEX_OF: Final[dict[int, int]] = {sq: bit_index(sq) for sq in SQUARES}
SQUARE_OF: Final[dict[int, int]] = {idx: sq for sq, idx in INDEX_OF.items()}
#: Square number of a single-bit mask.
SQUARE_OF_BIT: Final[dict[int, int]] = {1 << idx: sq for idx, sq in SQUARE_OF.items()}
BIT_OF: Final[dict[int, int]] = {sq: 1 << idx for sq, idx in INDEX_OF.items()}

VALID: Final = sum(BIT_OF.values())
#: Rows where men are promoted (art. 3.5): White on 1-5, Black on 46-50.
WHITE_PROMOTION: Final = sum(BIT_OF[sq] for sq in range(1, 6))
BLACK_PROMOTION: Final = sum(BIT_OF[sq] for sq in range(46, 51))


def _step(index: int, offset: int) -> int:
    """Neighbouring bit index in a direction, or -1 off the board."""
    target = index + offset
    return target if target in SQUARE_OF else -1


def _ray(index: int, offset: int) -> tuple[tuple[int, int], ...]:
    """(bit mask, bit index) of every square from `index` (excluded) to the edge of the board."""
    out: list[tuple[int, int]] = []
    cur = _step(index, offset)
    while cur >= 0:
        out.append((1 << cur, cur))
        cur = _step(cur, offset)
    return tuple(out)


#: RAYS[index][d]: the squares along direction DIRECTIONS[d], nearest first.
RAYS: Final[dict[int, tuple[tuple[tuple[int, int], ...], ...]]] = {
    idx: tuple(_ray(idx, off) for off in DIRECTIONS) for idx in SQUARE_OF
}

#: JUMPS[index]: for each direction where a man can jump, (bit jumped over, landing bit, landing index).
JUMPS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {
    idx: tuple((ray[0][0], ray[1][0], ray[1][1]) for ray in RAYS[idx] if len(ray) >= 2)
    for idx in SQUARE_OF
}


def squares_of(mask: int) -> list[int]:
    """Square numbers (ascending) of the bits set in a mask."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(SQUARE_OF_BIT[low])
        mask ^= low
    return out
