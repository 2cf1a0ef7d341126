"""The drawn endings of art. 6 and the material that triggers 6.3 and 6.4.

Counting conventions (decisions where the text is silent, kept in one place):

* 6.2 "25 coups successifs": read as 25 moves by each player (50 plies) in which only kings moved and
  nothing was captured, as the current FMJD text states it ("25 successive moves by each player").
* 6.3 / 6.4 count from the position where the material first arises (the position reached by the
  move that created it, or the starting position of the Board); the draw is reached when each player
  has played 16 (6.3) or 5 (6.4) more moves, i.e. after 32 or 10 plies, unless a win came first.
* A promotion inside the same category (king + two men -> two kings + man) does not restart a count:
  the material category, not the exact material, "arises".
* 16 -> 5 transition: when a capture turns a 6.3 ending into a 6.4 ending, the 5-move count starts
  at that capture, but the 16-move count keeps running and whichever limit comes first applies.  So a
  capture on the 14th move does not buy five more moves: the game ends at the 16th (article 6.3).
"""

from __future__ import annotations

from typing import Final

#: Plies (moves of either side) for each counting rule.
KINGS_ONLY_PLIES: Final = 50
SIXTEEN_MOVE_PLIES: Final = 32
FIVE_MOVE_PLIES: Final = 10

NONE: Final = 0
SIXTEEN: Final = 1  # art. 6.3 material
FIVE: Final = 2  # art. 6.4 material


def _side(own: int, kings: int) -> tuple[int, int]:
    """(men, kings) counts of one side."""
    k = (own & kings).bit_count()
    return own.bit_count() - k, k


def category(white: int, black: int, kings: int) -> int:
    """Which counting rule the material falls under: SIXTEEN (6.3), FIVE (6.4) or NONE.

    Both articles put a set of pieces with at least one king against a lone king: three pieces
    (3 kings, 2 kings + 1 man, 1 king + 2 men) for 6.3; two or one (2 kings, king + man, king) for 6.4.
    """
    if white & (white - 1) and black & (black - 1):
        # Both sides have two pieces or more, so neither has a lone king: the common case, decided
        # without counting because the board asks this after every move.
        return NONE
    w_men, w_kings = _side(white, kings)
    b_men, b_kings = _side(black, kings)
    for (men, kgs), (o_men, o_kings) in (((w_men, w_kings), (b_men, b_kings)),
                                         ((b_men, b_kings), (w_men, w_kings))):
        if o_men == 0 and o_kings == 1 and kgs >= 1:
            total = men + kgs
            if total == 3:
                return SIXTEEN
            if total <= 2:
                return FIVE
    return NONE
