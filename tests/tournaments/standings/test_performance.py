"""The FIDE performance rating (FIDE Rating Regulations, table 8.1(a))."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.standings.performance import performance_rating, rating_difference


@pytest.mark.parametrize(("p", "dp"), [
    (Fraction(1), 800), (Fraction(99, 100), 677), (Fraction(3, 4), 193), (Fraction(1, 2), 0),
    (Fraction(51, 100), 7), (Fraction(1, 4), -193), (Fraction(0), -800), (Fraction(2, 3), 125),
    (Fraction(5, 8), 95),  # 0.625 rounds to 0.63
])
def test_fide_table(p: Fraction, dp: int) -> None:
    assert rating_difference(p) == dp


def test_performance_rating() -> None:
    assert performance_rating([]) is None
    # 2 wins and a draw against 2300, 2200, 2100: p = 5/6 = 0.83 -> +273 over an average of 2200.
    assert performance_rating([(2300, 2), (2200, 2), (2100, 1)]) == 2200 + 273
    assert performance_rating([(2000, 0), (2001, 0)]) == 2001 - 800  # 2000.5 rounds half up
    with pytest.raises(ValueError):
        rating_difference(Fraction(3, 2))
