"""Identical pairings to a reference Dutch implementation (caissify-pairings, which matched
bbpPairings on every tournament its authors tried). The reference lives in a throwaway virtualenv
(see tests/tournaments/pairing/reference.py); without it the test is skipped. The full measurement is
`bench/pairing.py --conformance N`."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.pairing import reference
from tournaments.verification.generator import GenSettings, generate

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def comparisons():  # type: ignore[no-untyped-def]
    if not reference.available():
        pytest.skip(f"reference Dutch implementation not installed at {reference.REFERENCE_PYTHON}")
    rng = random.Random(99)
    ts = [
        generate(GenSettings(players=rng.randint(9, 30), rounds=rng.randint(5, 9), seed=s, late_rate=0, excuse_rate=0))
        for s in range(30)
    ]
    return reference.compare(ts)


def test_rounds_paired_as_the_reference(comparisons) -> None:  # type: ignore[no-untyped-def]
    rounds = [c for row in comparisons for c in row]
    same = sum(c.same_pairs for c in rounds)
    assert same / len(rounds) >= 0.99, f"{same}/{len(rounds)} rounds identical"


def test_tournaments_paired_as_the_reference(comparisons) -> None:  # type: ignore[no-untyped-def]
    same = sum(all(c.same_pairs for c in row) for row in comparisons)
    assert same / len(comparisons) >= 0.95, f"{same}/{len(comparisons)} tournaments identical"
