"""Compare generated tournaments with a reference Dutch implementation, round by round.

The reference is caissify-pairings (Apache-2.0), which matched bbpPairings on every tournament its
authors tried. It is too slow to be a dependency, so it lives in a throwaway virtualenv
(DAMIER_REFERENCE_PYTHON, /tmp/caissify/bin/python by default) and is driven through TRF files and
its own checker, the way FIDE's endorsement test drives two programs.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tournaments.verification.generator import Tournament, tournament_trf

REFERENCE_PYTHON = Path(os.environ.get("DAMIER_REFERENCE_PYTHON", "/tmp/caissify/bin/python"))

_SCRIPT = r"""
import json, sys
from caissify_pairings.fpc import check_trf
out = []
for path in sys.argv[1:]:
    rep = check_trf(open(path).read())
    rounds = []
    for r in rep["rounds"]:
        rounds.append({"round": r["round"], "match": r["match"],
                       "engine": [[p["white"], p.get("black")] for p in r["engine_pairings"]]})
    out.append(rounds)
print(json.dumps(out))
"""


def available() -> bool:
    if not REFERENCE_PYTHON.exists():
        return False
    probe = subprocess.run([str(REFERENCE_PYTHON), "-c", "import caissify_pairings"], capture_output=True, check=False)
    return probe.returncode == 0


@dataclass(frozen=True)
class RoundComparison:
    round: int
    same_pairs: bool  # the same games and bye
    same_colours: bool  # ... and the same colours


def compare(tournaments: list[Tournament], timeout: float = 3600) -> list[list[RoundComparison]]:
    """For each tournament, each round: does the reference pair it as we did?"""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, t in enumerate(tournaments):
            path = Path(tmp) / f"t{i}.trf"
            path.write_text(tournament_trf(t))
            paths.append(str(path))
        proc = subprocess.run(
            [str(REFERENCE_PYTHON), "-c", _SCRIPT, *paths],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    data = json.loads(proc.stdout)
    out = []
    for t, rounds in zip(tournaments, data, strict=True):
        ours = {
            rec.request.round: {(b.white, b.black) for b in rec.result.boards}
            | ({(rec.result.bye, None)} if rec.result.bye is not None else set())
            for rec in t.rounds
        }
        row = []
        for r in rounds:
            theirs = {(w, b) for w, b in r["engine"]}
            mine = ours.get(r["round"], set())
            row.append(RoundComparison(r["round"], bool(r["match"]), bool(r["match"]) and theirs == mine))
        out.append(row)
    return out
