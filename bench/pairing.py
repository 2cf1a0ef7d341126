"""Seconds to pair one Dutch round after 8 played rounds, for 50, 200, 500 and 1,000 players.

    .venv/bin/python bench/pairing.py [--sizes 50,200] [--seed 1]

The 8 rounds are generated (and paired) by the engine itself; only the 9th pairing is timed.
Anchor on the reference machine: bbpPairings (C++) 0.32 s at 200 players, 6.2 s at 500, 50 s at
1,000. Goal: 200 players under 2 s, 1,000 under 60 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.engine import pair_dutch  # noqa: E402
from tournaments.pairing.generator import GenSettings, generate  # noqa: E402


def bench(players: int, seed: int) -> tuple[float, float, int]:
    start = time.perf_counter()
    t = generate(GenSettings(players=players, rounds=9, seed=seed, late_rate=0, excuse_rate=0), rounds=8)
    built = time.perf_counter() - start
    req = t.request(9)
    start = time.perf_counter()
    res = pair_dutch(req)
    return time.perf_counter() - start, built, len(res.boards)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50,200,500,1000")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'players':>8} {'round 9 (s)':>12} {'rounds 1-8 (s)':>15} {'boards':>7}")
    for n in (int(x) for x in args.sizes.split(",")):
        secs, built, boards = bench(n, args.seed)
        print(f"{n:>8} {secs:>12.2f} {built:>15.1f} {boards:>7}", flush=True)


if __name__ == "__main__":
    main()
