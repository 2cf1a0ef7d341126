"""Random tournaments paired round after round: the absolute criteria always hold, and every player
who can be paired is (checked against an independent maximum matching)."""

from __future__ import annotations

import os
import random
import time

import pytest

from tournaments.pairing.checker import absolute_violations
from tournaments.pairing.colours import compatible_colours
from tournaments.pairing.matching import max_weight_matching
from tournaments.pairing.state import build_states
from tournaments.verification.generator import GenSettings, Tournament, generate, random_settings


def _most_pairs(t: Tournament, rnd: int) -> int:
    """The most games round `rnd` could have had under the absolute criteria, bye included."""
    req = t.rounds[rnd - 1].request
    st = build_states(req)
    active = [st[p.id] for p in req.players if not p.withdrawn and not p.excused]
    edges: list = []
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            if b.id not in a.opponents and compatible_colours(a, b, req.initial_colour):
                edges.append((a.id, b.id, 1))
    return len(max_weight_matching(edges)) // 2


def check_tournament(t: Tournament) -> None:
    for rec in t.rounds:
        req, res = rec.request, rec.result
        violations = [v for v in absolute_violations(req, res.pairing) if v.criterion != "not paired"]
        assert not violations, (t.settings, req.round, violations)
        active = sum(1 for p in req.players if not p.withdrawn and not p.excused)
        assert len(res.boards) == _most_pairs(t, req.round), (t.settings, req.round)
        if active % 2 and not res.unpaired:
            assert res.bye is not None




def test_thirty_small_tournaments() -> None:
    rng = random.Random(2026)
    for i in range(30):
        check_tournament(generate(random_settings(i, rng, 24)))


def test_generator_is_seeded() -> None:
    a = generate(GenSettings(players=15, rounds=5, seed=7))
    b = generate(GenSettings(players=15, rounds=5, seed=7))
    assert [r.result.boards for r in a.rounds] == [r.result.boards for r in b.rounds]
    assert a.histories == b.histories


@pytest.mark.slow
def test_many_tournaments() -> None:
    """DAMIER_SWISS_TOURNAMENTS (default 60) tournaments of 9 to DAMIER_SWISS_MAX_PLAYERS (default 40)
    players. The full check's 1,000 tournaments of 9 to 200 players take hours on two cores: they are run
    by `bench/pairing.py --absolute 1000 --max-players 200`, the same check."""
    n = int(os.environ.get("DAMIER_SWISS_TOURNAMENTS", "60"))
    top = int(os.environ.get("DAMIER_SWISS_MAX_PLAYERS", "40"))
    rng = random.Random(5)
    start = time.perf_counter()
    for i in range(n):
        check_tournament(generate(random_settings(i, rng, top)))
    print(f"{n} tournaments of 9-{top} players in {time.perf_counter() - start:.1f} s")
