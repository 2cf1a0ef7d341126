"""The rating-change preview: the facts that need no rule (rated games, score, average rating of the rated
opponents, from the entries' kept ratings), and "not available" for FMJD, KNDB and FFJD, whose texts were
not found complete (tournaments/federation/README.md):
- FMJD Annex 9: art. 1.1-1.3 read; art. 3 (expected result, development factor 3.2.3) and art. 4 not found;
- KNDB: no regulation found ("Par", "Rlim" only in a third party's script);
- FFJD note of 26 Nov 2005: Pa = N-1+(Y-X)N/Z, (P-Pa)K, Z = 500, K 5/10/15/20, with N, X, Y, P undefined.
A second table plugs in: a system defined here, a TEST-ONLY FIXTURE, never shipped."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from tournaments.federation import rating_systems, rows
from tournaments.federation.preview import preview_rows
from tournaments.federation.rating_systems import (
    COMPLETE,
    FFJD,
    FMJD,
    FMJD_RATING,
    KNDB,
    NOT_AVAILABLE,
    GameFact,
    PlayerFacts,
    RatingSystem,
    preview,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _by_place(t: Tournament, system: RatingSystem,
              event_type: str | None = None) -> dict[int, rating_systems.PreviewRow]:
    return {row.place: shown for row, shown in preview_rows(rows.read_report(t), system, event_type)}


def test_round_robin_facts_and_not_available(round_robin10: Tournament) -> None:
    fmjd = _by_place(round_robin10, FMJD)
    # player 1 (2390) beat everyone: 9 games, 18 points; opponents 2380 … 2300, average 2340
    assert (fmjd[1].games, fmjd[1].score, fmjd[1].rated_opponents, fmjd[1].average_opponent) == (9, 18, 9, 2340)
    # player 5: the other nine, (23450 - 2350) / 9 = 2344.4 -> 2344
    assert (fmjd[5].games, fmjd[5].score, fmjd[5].average_opponent) == (9, 10, 2344)
    assert (fmjd[10].score, fmjd[10].average_opponent) == (0, 2350)
    assert fmjd[1].status == NOT_AVAILABLE and fmjd[1].expected is None and fmjd[1].change is None
    assert fmjd[1].reasons == ("fmjd-art3-expected", "fmjd-art3-development", "fmjd-art4-games")
    # KNDB and FFJD read the kept national ratings (2000 - 10 i here): player 1's opponents average 1940
    kndb = _by_place(round_robin10, KNDB)
    assert (kndb[1].average_opponent, kndb[5].average_opponent) == (1940, 1944)
    assert kndb[1].reasons == ("kndb-text-not-found",) and kndb[1].change is None
    ffjd = _by_place(round_robin10, FFJD)
    assert ffjd[1].reasons == ("ffjd-symbols-undefined", "ffjd-2006-changes-unknown") and ffjd[1].expected is None


def test_swiss_facts_leave_out_what_is_not_rated(swiss30: Tournament) -> None:
    fmjd = _by_place(swiss30, FMJD)
    facts = {p: (r.games, r.score, r.rated_opponents, r.average_opponent) for p, r in fmjd.items()}
    # round 1 corrected for the rating report to 1-1 counts as corrected: 1+2+2+2+2; (2240+2300+2360+2320+2380)/5
    assert facts[1] == (5, 9, 5, 2320)
    # the forfeit won in round 1 is not a game: 4 games, (2260+2340+2380+2320)/4
    assert facts[2] == (4, 6, 4, 2325)
    # the double forfeit in round 1 is left out: (2330+2230+2260+2310)/4 = 2282.5, rounded half up
    assert facts[4] == (4, 8, 4, 2283)
    # the arbiter's ruling 1-0 in round 2 is a game played, sent as ruled
    assert facts[5] == (5, 7, 5, 2318)
    # the draw marked "not rated" (1-1U) is left out: (2350+2160+2240+2280)/4 = 2257.5
    assert facts[6] == (4, 6, 4, 2258)
    # the requested bye (round 2) is no game: (2130+2320+2180+2330)/4
    assert facts[15] == (4, 4, 4, 2240)
    # withdrew after round 3, double forfeit in round 1: two games, (2130+2270)/2
    assert facts[25] == (2, 2, 2, 2200)
    # the pairing's bye (round 2) is no game
    assert fmjd[29].games == 4
    # no national ratings in this Swiss: KNDB has the games and no rated opponent
    kndb = _by_place(swiss30, KNDB)
    assert (kndb[1].games, kndb[1].rated_opponents, kndb[1].average_opponent) == (5, 0, None)


def test_a_second_table_plugs_in(swiss30: Tournament) -> None:
    # TEST-ONLY FIXTURE: not any federation's rule. Expected one point per game (2-point scale), factor 10.
    fixture = RatingSystem(
        code="test-only", name="Test fixture (not a federation's rule)", source="this test", rating=FMJD_RATING,
        status=COMPLETE, expected=lambda own, opponents: Fraction(len(opponents)),
        development={"open": Fraction(10)}, change=lambda score, expected, k: (score - expected) * k,
    )
    shown = _by_place(swiss30, fixture, "open")
    assert (shown[1].status, shown[1].expected, shown[1].change) == (COMPLETE, 5, 40)  # (9 - 5) x 10
    assert (shown[25].expected, shown[25].change) == (2, 0)  # (2 - 2) x 10
    assert _by_place(swiss30, fixture)[1].reasons == ("event-type-needed",)
    assert "test-only" not in rating_systems.SYSTEMS


def test_preview_is_pure_and_needs_a_rated_player() -> None:
    def half(own: int, opponents: Sequence[int]) -> Fraction:
        return Fraction(len(opponents))

    system = RatingSystem("x", "x", "x", FMJD_RATING, COMPLETE, expected=half, development={"a": Fraction(1)},
                          change=lambda s, e, k: (s - e) * k)
    facts = PlayerFacts(None, (GameFact(1, 2000, 2, True), GameFact(2, None, 1, True), GameFact(3, 2100, 2, False)))
    row = preview(system, facts, "a")
    assert (row.games, row.score, row.rated_opponents, row.average_opponent) == (2, 3, 1, 2000)
    assert row.reasons == ("player-unrated",)
    rated = preview(system, PlayerFacts(2000, facts.games), "a")
    # the game against the unrated opponent is rated but does not count by default: 2 points, expected 1
    assert (rated.expected, rated.change) == (1, 1)
    assert preview(FMJD, facts).status == NOT_AVAILABLE
