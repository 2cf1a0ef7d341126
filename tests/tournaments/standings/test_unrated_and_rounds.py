"""Unrated players and ratings per round in the rating-based tie-breaks (VCL4THP Q208-Q216), pure side."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from tournaments.standings import compute_standings
from tournaments.standings.rating_rounds import LaterRating, TieBreakRatings, lasts_over_30_days, span_days
from tournaments.standings.unrated import AVERAGE, DROP, FIXED, LOWEST, UnratedRule, stand_in, uses_ratings

from .test_tiebreaks import GAMES, PLAYERS, A, B, C, E

# The five-player Swiss of test_tiebreaks: E is unrated; over the board A met B (r1), C (r2), E (r3);
# B met A (r1), E (r2) (D forfeited in r3); E met B (r2), A (r3). Rated field: 1500 1400 1300 1200.
FIRST = {p.id: p.rating for p in PLAYERS}


def aro(ratings: TieBreakRatings | None) -> dict[int, object]:
    rows = compute_standings(PLAYERS, GAMES, system="swiss", rounds_total=3, tiebreaks=["average_rating"],
                             ratings=ratings)
    return {r.player.id: r.tiebreaks["average_rating"] for r in rows}


@pytest.mark.parametrize(("rule", "a", "b"), [
    (UnratedRule(DROP), Fraction(1350), Fraction(1500)),  # today's rule: E left out
    (UnratedRule(FIXED, 1000), Fraction(3700, 3), Fraction(1250)),
    (UnratedRule(LOWEST), Fraction(1300), Fraction(1350)),  # E counts 1200
    (UnratedRule(AVERAGE), Fraction(1350), Fraction(1425)),  # E counts (1500+1400+1300+1200)/4 = 1350
])
def test_each_method_for_unrated_players(rule: UnratedRule, a: Fraction, b: Fraction) -> None:
    values = aro(TieBreakRatings(first=FIRST, rule=rule))
    assert (values[A], values[B]) == (a, b)
    assert values[C] == Fraction(1350)  # met rated players only: every method agrees


def test_no_settings_is_the_old_rule() -> None:
    assert aro(None) == aro(TieBreakRatings(first=FIRST))


def test_the_mean_is_rounded_halves_up_and_nobody_rated_gives_nothing() -> None:
    assert stand_in(UnratedRule(AVERAGE), [1500, 1401, None]) == 1451
    assert stand_in(UnratedRule(LOWEST), [None, None]) is None
    with pytest.raises(ValueError, match="needs the rating"):
        UnratedRule(FIXED)
    with pytest.raises(ValueError, match="unknown method"):
        UnratedRule("median")
    assert uses_ratings(["mutual_result", "average_rating"]) == ["average_rating"]


# Later ratings: B 1600 from round 2, E 1700 from round 3 (unrated before).
LATER = {B: [LaterRating(2, 1600)], E: [LaterRating(3, 1700)]}


def test_first_rating_by_default() -> None:
    values = aro(TieBreakRatings(first=FIRST, later=LATER))
    assert values[A] == Fraction(1350) and values[E] == Fraction(1450)  # later ratings ignored (C.07 Art. 10)


def test_the_ratings_of_a_chosen_round() -> None:
    values = aro(TieBreakRatings(first=FIRST, later=LATER, round=3))
    assert values[A] == Fraction(1600 + 1300 + 1700, 3)  # B, C, E as rated in round 3
    assert values[E] == Fraction(1550)
    assert aro(TieBreakRatings(first=FIRST, later=LATER, round=1)) == aro(None)


def test_per_round_each_opponent_at_the_rating_of_the_games_round() -> None:
    values = aro(TieBreakRatings(first=FIRST, later=LATER, per_round=True))
    assert values[A] == Fraction(1400 + 1300 + 1700, 3)  # B in round 1 (1400), C r2, E in round 3 (1700)
    assert values[E] == Fraction(1600 + 1500, 2)  # B in round 2 (1600), A in round 3
    # E is unrated in round 2: with the lowest rating, B counts him at round 2's lowest (1200)
    values = aro(TieBreakRatings(first=FIRST, later=LATER, per_round=True, rule=UnratedRule(LOWEST)))
    assert values[B] == Fraction(1500 + 1200, 2)


def test_thirty_days() -> None:
    d = datetime.date(2026, 1, 1)
    assert span_days([d, None, d + datetime.timedelta(days=30)]) == 30
    assert not lasts_over_30_days([d, d + datetime.timedelta(days=30)])
    assert lasts_over_30_days([d + datetime.timedelta(days=31), d, None])
    assert not lasts_over_30_days([d, None])
