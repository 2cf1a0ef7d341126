"""Perft speed of the rules engine: perft(6) and perft(7) from the initial position, in leaf nodes/s.

    .venv/bin/python bench/perft.py                       # Damier only
    .venv/bin/python bench/perft.py --compare /tmp/pyd/bin/python

--compare runs py-draughts (GPL, so never a dependency: install it in a throwaway virtualenv, e.g.
`python3 -m venv /tmp/pyd && /tmp/pyd/bin/pip install py-draughts`) in a child process with that
interpreter, in the same run, and prints both figures and the ratios.  py-draughts is measured two
ways: a walk through its public Board API (legal_moves/push/pop), and its own bulk perft function
when the installed version has one.

The machine is shared, so: the runs of both libraries are interleaved, every figure is the best of
--repeat runs, and both wall-clock and CPU time (time.process_time) are shown; the ratios use CPU
time, which other work on the machine disturbs least.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import Board, perft  # noqa: E402

EXPECTED = {5: 27117, 6: 167140, 7: 1049442}

# Runs inside the other interpreter, once per call; prints one JSON line:
# {"api": [nodes, wall, cpu], "bulk": [nodes, wall, cpu] | null}.
_CHILD = r"""
import json, sys, time
from draughts import StandardBoard
depth = int(sys.argv[1])

def walk(b, d):
    if d == 0:
        return 1
    n = 0
    for m in b.legal_moves:
        b.push(m)
        n += walk(b, d - 1)
        b.pop()
    return n

def measure(fn, *args):
    w, c = time.perf_counter(), time.process_time()
    n = fn(*args)
    return [n, time.perf_counter() - w, time.process_time() - c]

api = measure(walk, StandardBoard(), depth)
bulk = None
try:
    from draughts.engines.turbo import perft_from_board
except ImportError:
    pass
else:
    bulk = measure(perft_from_board, StandardBoard(), depth)
print(json.dumps({"api": api, "bulk": bulk}))
"""

Figure = tuple[int, float, float]  # nodes, best wall seconds, best CPU seconds


def walk(board: Board, depth: int) -> int:
    """Perft through the public API only (legal_moves/push/pop), no bulk counting."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves():
        board.push(move)
        total += walk(board, depth - 1)
        board.pop()
    return total


def measure(fn: Callable[[Board, int], int], depth: int) -> Figure:
    wall, cpu = time.perf_counter(), time.process_time()
    nodes = fn(Board(), depth)
    return nodes, time.perf_counter() - wall, time.process_time() - cpu


def _figure(values: list[float]) -> Figure:
    nodes, wall, cpu = values
    return int(nodes), float(wall), float(cpu)


def best(runs: list[Figure]) -> Figure:
    return runs[0][0], min(r[1] for r in runs), min(r[2] for r in runs)


def line(label: str, figure: Figure) -> str:
    nodes, wall, cpu = figure
    return (f"{label:<42} {nodes:>8} nodes  wall {wall:6.3f} s {nodes / wall:>10,.0f}/s"
            f"  cpu {cpu:6.3f} s {nodes / cpu:>10,.0f}/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", metavar="PYTHON", help="interpreter that has py-draughts installed")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, best kept (default 3)")
    args = parser.parse_args()

    ours: dict[int, list[Figure]] = {6: [], 7: []}
    api: list[Figure] = []
    theirs_api: list[Figure] = []
    theirs_bulk: list[Figure] = []
    for _ in range(args.repeat):
        for depth in ours:
            ours[depth].append(measure(perft, depth))
        api.append(measure(walk, 5))
        if args.compare:
            done = subprocess.run([args.compare, "-c", _CHILD, "6"], capture_output=True, text=True)
            if done.returncode != 0:
                print(f"py-draughts run failed: {done.stderr.strip()}", file=sys.stderr)
                return 1
            other = json.loads(done.stdout.strip().splitlines()[-1])
            theirs_api.append(_figure(other["api"]))
            if other["bulk"]:
                theirs_bulk.append(_figure(other["bulk"]))

    for depth, runs in ours.items():
        if runs[0][0] != EXPECTED[depth]:
            print(f"perft({depth}) = {runs[0][0]}, expected {EXPECTED[depth]}", file=sys.stderr)
            return 1
        print(line(f"damier rules.perft({depth}) [bulk]", best(runs)))
    print(line("damier Board push/pop walk (5) [API]", best(api)))
    if args.compare:
        six = best(ours[6])
        rate = six[0] / six[2]
        figure = best(theirs_api)
        print(line("py-draughts push/pop walk (6) [API]", figure))
        print(f"ratio damier perft(6) / py-draughts API walk (cpu): {rate / (figure[0] / figure[2]):.2f}x")
        if theirs_bulk:
            figure = best(theirs_bulk)
            print(line("py-draughts turbo perft (6) [bulk]", figure))
            print(f"ratio damier perft(6) / py-draughts turbo perft (cpu): {rate / (figure[0] / figure[2]):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
