"""The FIDE performance rating of a player over his rated games (FIDE Rating Regulations, table 8.1(a))."""

from __future__ import annotations

from fractions import Fraction

# FIDE Rating Regulations, table 8.1(a): fractional score p (two decimals) -> rating difference dp,
# for p from 0.50 to 1.00; below 0.50, dp(p) = -dp(1 - p). p = 1.00 and 0.00 give +-800 as in the
# FIDE title regulations (1.48). Index i holds dp for p = 0.50 + i / 100.
_DP_TABLE: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175,
    184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444,
    470, 501, 538, 589, 677, 800,
)


def rating_difference(p: Fraction) -> int:
    """dp for a fractional score p in [0, 1], p rounded to two decimals (half up) as FIDE does."""
    if not 0 <= p <= 1:
        raise ValueError(f"a fractional score is between 0 and 1, not {p}")
    hundredths = int(p * 100 + Fraction(1, 2))
    return _DP_TABLE[hundredths - 50] if hundredths >= 50 else -_DP_TABLE[50 - hundredths]


def performance_rating(games: list[tuple[int, int]]) -> int | None:
    """FIDE-style performance: average opponent rating + dp(p), rounded to the nearest integer.

    `games` are (opponent rating, points scored on the 2/1/0 scale); the caller passes only games
    played over the board against rated opponents. None when there is none.
    """
    if not games:
        return None
    average = Fraction(sum(r for r, _ in games), len(games))
    p = Fraction(sum(points for _, points in games), 2 * len(games))
    return int(average + rating_difference(p) + Fraction(1, 2))
