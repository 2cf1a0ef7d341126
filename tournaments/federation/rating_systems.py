"""Rating systems as data, and the rating-change preview they give: pure Python, codes and values.

A system is one row of data (`RatingSystem`): where its text is, which kept rating it reads, and, only when
its text was found complete, the expected score, the development factor by event type, which games count
and how the change follows. A system whose text was not found complete has status NOT_AVAILABLE and the
reasons as codes; its preview still gives the facts that need no rule (games, score, the opponents' average
rating) and gives no expected score and no change. A national system is a second row, nothing more.

What was found for the three systems shipped here, article by article, is in
docs/research/federation-texts.md (3a, 3d, 4a, 4b) and tournaments/federation/README.md. No formula, table
or factor is written below that is not in a text quoted there; none of the three is complete, so none has one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

COMPLETE = "complete"
NOT_AVAILABLE = "not-available"

# Which kept rating of an entry a system reads.
FMJD_RATING = "fmjd"
NATIONAL_RATING = "national"


@dataclass(frozen=True)
class GameFact:
    """One game of a player as the rating report has it (Game.rating_result where the arbiter set one)."""

    round: int
    opponent_rating: int | None  # the opponent's kept rating in the system's list; None: unrated
    points: int  # the player's points on the 2-point scale (2 win, 1 draw, 0 loss)
    rated: bool  # played over the board and not marked "not rated" (no forfeit, no bye)


@dataclass(frozen=True)
class PlayerFacts:
    own_rating: int | None
    games: tuple[GameFact, ...]


@dataclass(frozen=True)
class RatingSystem:
    code: str
    name: str
    source: str  # the text the system is taken from, as a reference a reader can look up
    rating: str  # FMJD_RATING or NATIONAL_RATING
    status: str  # COMPLETE or NOT_AVAILABLE
    missing: tuple[str, ...] = ()  # NOT_AVAILABLE: what was not found, as codes (tournaments.federation.words)
    # COMPLETE only: expected points (2-point scale) of a player rated `own` against these opponents
    expected: Callable[[int, Sequence[int]], Fraction] | None = None
    # COMPLETE only: the development factor by event type code
    development: Mapping[str, Fraction] = field(default_factory=dict)
    # COMPLETE only: which of the rated games count (default: every rated game against a rated opponent)
    counts: Callable[[GameFact], bool] | None = None
    # COMPLETE only: the change from (score, expected, factor)
    change: Callable[[Fraction, Fraction, Fraction], Fraction] | None = None

    @property
    def complete(self) -> bool:
        return self.status == COMPLETE


@dataclass(frozen=True)
class PreviewRow:
    games: int  # rated games (Game.rating_result or, without one, the result)
    score: int  # points in them, 2-point scale
    rated_opponents: int  # of those games, against an opponent with a rating in the system's list
    average_opponent: int | None  # their average rating, rounded half up; None without a rated opponent
    status: str  # COMPLETE: expected and change are given; NOT_AVAILABLE: `reasons` say why
    reasons: tuple[str, ...] = ()
    expected: Fraction | None = None
    change: Fraction | None = None


def _rounded(value: Fraction) -> int:
    return int((Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(1), ROUND_HALF_UP))


def preview(system: RatingSystem, facts: PlayerFacts, event_type: str | None = None) -> PreviewRow:
    """The preview of one player under `system`: the facts always; the expected score and the change only
    when the system is complete, the player is rated and an event type with a factor is given."""
    rated = [g for g in facts.games if g.rated]
    against_rated = [g.opponent_rating for g in rated if g.opponent_rating is not None]
    average = _rounded(Fraction(sum(against_rated), len(against_rated))) if against_rated else None
    base = PreviewRow(games=len(rated), score=sum(g.points for g in rated), rated_opponents=len(against_rated),
                      average_opponent=average, status=NOT_AVAILABLE)
    if not system.complete:
        return _with(base, system.missing or ("text-not-found",))
    assert system.expected is not None and system.change is not None
    if facts.own_rating is None:
        return _with(base, ("player-unrated",))
    if event_type is None or event_type not in system.development:
        return _with(base, ("event-type-needed",))
    counts = system.counts or (lambda g: g.opponent_rating is not None)
    counted = [g for g in rated if counts(g)]
    if not counted:
        return _with(base, ("no-counted-game",))
    score = Fraction(sum(g.points for g in counted))
    expected = system.expected(facts.own_rating, [g.opponent_rating for g in counted if g.opponent_rating is not None])
    factor = system.development[event_type]
    return PreviewRow(base.games, base.score, base.rated_opponents, base.average_opponent, COMPLETE, (),
                      expected, system.change(score, expected, factor))


def _with(row: PreviewRow, reasons: tuple[str, ...]) -> PreviewRow:
    return PreviewRow(row.games, row.score, row.rated_opponents, row.average_opponent, NOT_AVAILABLE, reasons)


# --- The systems shipped: none is complete (docs/research/federation-texts.md) -----------------------------

FMJD = RatingSystem(
    code="fmjd",
    name="FMJD",
    source="FMJD Annex 9, Rating system and its application rules (English translation, revised after the "
           "General Assembly 2009): art. 1.1-1.3 read; art. 3 and 4 not found",
    rating=FMJD_RATING,
    status=NOT_AVAILABLE,
    # art. 1.2.2.2 names "the development factor … art. 3.2.3" and art. 1.3 "article 4 of this annex": neither
    # article was found, so neither the expected result, the factor, nor which games are reported is known.
    missing=("fmjd-art3-expected", "fmjd-art3-development", "fmjd-art4-games"),
)

KNDB = RatingSystem(
    code="kndb",
    name="KNDB",
    source="No KNDB rating regulation found; 'Par = 2' and the 'Rlim' cap are found only in a third-party "
           "script (clpippel/tiebreak), not in a KNDB text",
    rating=NATIONAL_RATING,
    status=NOT_AVAILABLE,
    missing=("kndb-text-not-found",),
)

FFJD = RatingSystem(
    code="ffjd",
    name="FFJD",
    source="FFJD, Note d'informations aux Présidents de Club, 26 November 2005 (citing L'Effort no. 287, "
           "345, 364-365, 371): Pa = N-1+(Y-X)N/Z, change (P-Pa)K, Z = 500, K = 5/10/15/20",
    rating=NATIONAL_RATING,
    status=NOT_AVAILABLE,
    # the note names the formula but not its symbols (N, X, Y, P); the regulation (L'Effort 287) and the
    # changes of January 2006 were not found.
    missing=("ffjd-symbols-undefined", "ffjd-2006-changes-unknown"),
)

SYSTEMS: dict[str, RatingSystem] = {s.code: s for s in (FMJD, KNDB, FFJD)}
