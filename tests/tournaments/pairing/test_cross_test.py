"""A few tournaments of bench/cross_test.py each way: bbpPairings v6 generates and Damier checks,
Damier generates and bbpPairings checks; tie-breaks against TieBreakServer when it is installed.

bbpPairings is not a dependency: DAMIER_BBPPAIRINGS names a binary built outside the repository
(default /tmp/bbp/bbpPairings.exe); DAMIER_TIEBREAKSERVER a Python with the `gacrux` package
(default /tmp/tbsenv/bin/python). Without bbpPairings the test is skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
BBP = os.environ.get("DAMIER_BBPPAIRINGS", "/tmp/bbp/bbpPairings.exe")
TBS = os.environ.get("DAMIER_TIEBREAKSERVER", "/tmp/tbsenv/bin/python")


def _cross_test():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("cross_test", REPO / "bench" / "cross_test.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not Path(BBP).is_file(), reason="no bbpPairings binary (DAMIER_BBPPAIRINGS)")
@pytest.mark.parametrize("convention", ["fide_c07", "fmjd"])
def test_a_few_tournaments_each_way(convention: str) -> None:
    ct = _cross_test()
    opts = argparse.Namespace(bbp=BBP, tbs=TBS if Path(TBS).is_file() else None, max_players=18, keep=None,
                              convention=convention)
    records = [ct.run_one((direction, k, opts)) for k in range(3) for direction in (1, 2)]
    assert not [r for r in records if "crash" in r]
    checked = [r for r in records if "skipped" not in r]
    assert {r["dir"] for r in checked} == {1, 2}
    for r in checked:
        assert r["rounds"] >= 5
        # every pairing difference is one the classification explains (the E.5 numbering reading)
        assert all(d["why"] == "e5_numbering" for d in r["pairing_diffs"]), r
        assert all(d["why"] != "unexplained" for d in r.get("tb_diffs", [])), r
    if opts.tbs:
        assert any(r.get("tb") == "compared" and r["tb_values"] > 0 for r in checked)
        if convention == "fide_c07":
            # one convention on both sides: the values agree exactly, unplayed rounds and all
            assert [d for r in checked for d in r.get("tb_diffs", [])] == []
            assert sum(r.get("tb_values_unplayed", 0) for r in checked) > 0
    text = ct.summary(records, 1.0)
    assert "direction 1 (bbpPairings generates, Damier checks)" in text and "tournaments/s" in text


@pytest.mark.skipif(not Path(BBP).is_file(), reason="no bbpPairings binary (DAMIER_BBPPAIRINGS)")
def test_a_round_damier_cannot_pair_is_one_bbppairings_cannot_pair_either() -> None:
    """Tournament 5400 (8 players) runs out of legal pairings in round 4: bbpPairings, given the same three
    rounds and the same absentees, finds no pairing either, and the three rounds are checked as usual."""
    ct = _cross_test()
    opts = argparse.Namespace(bbp=BBP, tbs=None, max_players=100, keep=None)
    record = ct.run_one((2, 5400, opts))
    assert record["no_pairing_round"] == 4 and record["no_pairing"] == "agreed", record
    assert record["rounds"] == 3 and record["pairing_diffs"] == [] and "skipped" not in record
    assert "bbpPairings found none either in 1" in ct.summary([record], 1.0)
