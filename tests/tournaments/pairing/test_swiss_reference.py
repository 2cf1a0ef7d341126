"""Every round of the bbpPairings v6 reference tournaments (../shared/swiss-reference), paired again
by the engine from the file cut before it: pairs, colours and bye identical (see reference_check.py).

Tournaments of up to 60 players (67) run in `make test`; the larger ones (89, up to 300 players) are `slow`
and run in `make test-slow`. The whole set: `bench/pairing.py --swiss-reference`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournaments.pairing import reference_check as rc

SMALL = 60


def _params(small: bool) -> list[object]:
    files = rc.reference_files()
    chosen = [f for f in files if (rc.players_in(f) <= SMALL) == small]
    marks = [] if small else [pytest.mark.slow]
    return [pytest.param(f, id=f.stem, marks=marks) for f in chosen] or [
        pytest.param(None, marks=pytest.mark.skip(reason=f"reference set not found at {rc.REFERENCE_DIR}"))
    ]


def _check(path: Path) -> None:
    checks = rc.check_file(path)
    wrong = [c.describe() for c in checks if not c.identical]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", _params(small=True))
def test_small_tournament_paired_as_bbppairings(path: Path) -> None:
    _check(path)


@pytest.mark.parametrize("path", _params(small=False))
def test_large_tournament_paired_as_bbppairings(path: Path) -> None:
    _check(path)


def test_cut_keeps_requested_byes_and_recomputes_points() -> None:
    head = f"{'001    7      Test0007 Player0007':<48}2208{'':28}12.0    7  "
    cells = ["  44 w 1", "  26 b =", "0000 - U", "0000 - H", "   5 b +"]
    text = "012 T\r" + head + "  ".join(cells) + "\r"
    cut = rc.cut_text(text, 4).split("\r")
    assert cut[0] == "XXR 5"
    row = next(x for x in cut if x.startswith("001"))
    assert row[80:84] == " 5.0"  # win 2 + draw 1 + bye 2
    assert [row[i : i + 8] for i in range(91, len(row), 10)] == ["  44 w 1", "  26 b =", "0000 - U", "0000 - H"]
    row5 = next(x for x in rc.cut_text(text, 5).split("\r") if x.startswith("001"))
    assert row5[80:84] == " 6.0"  # the H of round 4 counts once round 4 is played
    assert rc.file_pairing(text, 5) == frozenset()  # 7 is black in round 5: the white player's line says it
    assert rc.file_pairing(text, 3) == frozenset({(7, None)})
