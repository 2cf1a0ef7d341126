"""Every round of the 156 bbpPairings v6 reference tournaments, round 1 included, replayed by the checker
(`python -m tournaments.verification --dutch F.trf -c`): the same pairs, colours and bye. bench/pairing.py
--swiss-reference compares rounds 2 on; round 1 is where E.5 numbers only the players who have been in a
pairing (12 of the files have a player absent in round 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.pairing.trf import parse_trf
from tournaments.verification.file_check import check_file

REFERENCE = Path(__file__).resolve().parents[3].parent / "shared" / "swiss-reference"
FILES = sorted(REFERENCE.glob("*.trf")) if REFERENCE.is_dir() else []

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not FILES, reason="../shared/swiss-reference is absent")]


def test_every_round_of_every_reference_tournament() -> None:
    wrong = []
    for path in FILES:
        report = check_file(parse_trf(path.read_text(encoding="utf-8", errors="replace")))
        wrong += [f"{path.name} round {n}" for n, r in enumerate(report.rounds, start=1) if not r.ok]
    assert len(FILES) == 156 and not wrong, wrong
