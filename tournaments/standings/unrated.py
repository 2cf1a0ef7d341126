"""How an unrated player counts in the rating-based tie-breaks: pure data, no ORM.

FIDE C.07 Article 10 drops unrated opponents unless the tournament's regulations give them a rating; the
checklist (VCL4THP Q208-Q209) asks for at least one, better several, ways to give one. FMJD's competition
rules have no text on unrated players in tie-breaks, so the arbiter chooses, before round 1, one of:
drop them (the default), a fixed rating he types, the lowest rating in
the field, or the mean of the rated players (rounded to the nearest whole number, halves up, so the
figure written in a report is the one used).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

DROP = "drop"
FIXED = "fixed"
LOWEST = "lowest"
AVERAGE = "average"
METHODS = (DROP, FIXED, LOWEST, AVERAGE)

# The registry's tie-breaks computed from ratings (tiebreaks.py); a new one joins here.
RATING_TIEBREAKS = frozenset({"average_rating"})


@dataclass(frozen=True)
class UnratedRule:
    method: str = DROP
    fixed: int | None = None  # FIXED only

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method for unrated players {self.method!r}; known: {', '.join(METHODS)}")
        if self.method == FIXED and (self.fixed is None or self.fixed < 0):
            raise ValueError("a fixed rating for unrated players needs the rating")


def stand_in(rule: UnratedRule, field: Iterable[int | None]) -> int | None:
    """The rating an unrated player counts at, from the ratings of the whole field (None: dropped)."""
    if rule.method == DROP:
        return None
    if rule.method == FIXED:
        return rule.fixed
    rated = [r for r in field if r is not None]
    if not rated:
        return None  # nobody is rated: there is nothing to take the lowest or the mean of
    if rule.method == LOWEST:
        return min(rated)
    return (2 * sum(rated) + len(rated)) // (2 * len(rated))  # the mean, halves rounded up


def uses_ratings(tiebreaks: Iterable[str]) -> list[str]:
    """The rating-based tie-breaks of a list, in its order."""
    return [name for name in tiebreaks if name in RATING_TIEBREAKS]
