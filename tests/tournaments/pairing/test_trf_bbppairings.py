"""A running 2/1/0 tournament exported by export_trf is read by bbpPairings v6, which pairs the next
round exactly as Damier does (pairs, colours, bye), round after round: draws, forfeits, a double
forfeit, a withdrawal and an excused player included.

bbpPairings is not a dependency: build it outside the repository and name the binary in
DAMIER_BBPPAIRINGS (e.g. /tmp/bbp/bbpPairings.exe); without it the test is skipped.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from tournaments.models import Round, System, Tournament
from tournaments.players import roster
from tournaments.rounds import pairing_bridge, services

BBP = os.environ.get("DAMIER_BBPPAIRINGS", "")


def bbp_pairing(text: str, tmp: Path) -> set[tuple[int, int | None]]:
    src, out = tmp / "in.trf", tmp / "out.txt"
    src.write_text(text, encoding="utf-8")
    done = subprocess.run([BBP, "--dutch", str(src), "-p", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"bbpPairings refused the export: {done.stdout} {done.stderr}\n{text}"
    rows = out.read_text().split()[1:]
    return {(int(a), None if b == "0" else int(b)) for a, b in zip(rows[::2], rows[1::2], strict=True)}


def damier_pairing(rnd: Round) -> set[tuple[int, int | None]]:
    got: set[tuple[int, int | None]] = set()
    for g in rnd.games.select_related("white", "black"):
        if g.black_id:
            got.add((g.white.pairing_number, g.black.pairing_number))
        elif g.result == "bye":
            got.add((g.white.pairing_number, None))
    return got


FORCED = {(2, 2): "2F-0F", (2, 3): "0F-0F", (3, 1): "0F-2F", (5, 4): "0F-0F"}  # (round, board): result


def play(rnd: Round, rng: random.Random) -> None:
    services.round_publish(round=rnd)
    for g in rnd.games.all():
        if not g.result:
            result = FORCED.get((rnd.number, g.board)) or rng.choice(["2-0", "1-1", "0-2", "2-0", "0-2"])
            services.game_record_result(game=g, result=result)
    services.round_complete(round=rnd)


@pytest.mark.skipif(not BBP, reason="DAMIER_BBPPAIRINGS does not name a bbpPairings binary")
def test_bbppairings_pairs_the_exported_tournament_as_damier(make_tournament, tmp_path: Path) -> None:
    t: Tournament = make_tournament(15, system=System.SWISS, slug="bbp", rounds_total=8)
    rng = random.Random(5)
    compared = 0
    for number in range(1, 9):
        if number == 3:
            roster.entry_withdraw(entry=t.entries.get(pairing_number=6), after_round=2)
        if number == 4:
            resting = t.entries.get(pairing_number=2)
            resting.excused_rounds = [4]
            resting.save()
        expected = bbp_pairing(pairing_bridge.export_trf(t), tmp_path)
        rnd = services.round_pair(tournament=t)
        assert damier_pairing(rnd) == expected, f"round {number}"
        compared += 1
        play(rnd, rng)
    assert compared == 8
