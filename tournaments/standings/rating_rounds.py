"""Which rating a player counts at in the rating-based tie-breaks of a long event: pure, no ORM.

In an event over more than 30 days a player may hold several ratings, each from a round on (VCL4THP
Q212-Q213). FIDE C.07 Article 10 uses each player's FIRST rating unless the regulations say otherwise
(Q215, the default here); the arbiter may choose the round whose ratings count (Q216), or count each
opponent at the rating he held in the round the game was played (Q214). FMJD has no text on it.
An unrated player (no rating in the round that counts) gets the tournament's stand-in (unrated.py).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.standings.unrated import UnratedRule, stand_in

LONG_EVENT_DAYS = 30


@dataclass(frozen=True)
class LaterRating:
    from_round: int
    rating: int


@dataclass(frozen=True)
class TieBreakRatings:
    first: Mapping[int, int | None]  # player id -> his first rating (None: unrated)
    later: Mapping[int, Sequence[LaterRating]] = field(default_factory=dict)
    rule: UnratedRule = UnratedRule()
    round: int | None = None  # the round whose ratings count; None: the first ratings
    per_round: bool = False  # each game at the ratings of its own round (wins over `round`)
    _stand_ins: dict[int | None, int | None] = field(default_factory=dict, compare=False, repr=False)

    def held(self, pid: int, rnd: int | None) -> int | None:
        """The rating he held in round `rnd` (None: his first rating)."""
        rating = self.first.get(pid)
        if rnd is None:
            return rating
        for later in sorted(self.later.get(pid, ()), key=lambda r: r.from_round):
            if later.from_round <= rnd:
                rating = later.rating
        return rating

    def counted_round(self, game_round: int) -> int | None:
        if self.per_round:
            return game_round
        return self.round

    def rating(self, pid: int, game_round: int) -> int | None:
        """What an opponent met in `game_round` counts at; None: he is dropped."""
        rnd = self.counted_round(game_round)
        own = self.held(pid, rnd)
        if own is not None:
            return own
        if rnd not in self._stand_ins:
            self._stand_ins[rnd] = stand_in(self.rule, (self.held(p, rnd) for p in self.first))
        return self._stand_ins[rnd]

    def stand_in_of(self, rnd: int | None = None) -> int | None:
        """The stand-in for an unrated player in the ratings of round `rnd` (None: the first ratings)."""
        return stand_in(self.rule, (self.held(p, rnd) for p in self.first))


def span_days(dates: Iterable[datetime.date | None]) -> int:
    """Days from the earliest to the latest of the dates given (0 with fewer than two)."""
    known = [d for d in dates if d is not None]
    return (max(known) - min(known)).days if len(known) >= 2 else 0


def lasts_over_30_days(dates: Iterable[datetime.date | None]) -> bool:
    return span_days(dates) > LONG_EVENT_DAYS
