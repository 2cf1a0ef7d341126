"""Perft speed of the rules engine: perft(6) and perft(7) from the initial position, in leaf nodes/s.

    .venv/bin/python bench/perft.py                       # Damier only
    .venv/bin/python bench/perft.py --compare /tmp/pyd/bin/python

--compare runs py-draughts (GPL, so never a dependency: install it in a throwaway virtualenv, e.g.
`python3 -m venv /tmp/pyd && /tmp/pyd/bin/pip install py-draughts`) in a child process with that
interpreter, in the same run, and prints both figures and the ratio.  py-draughts is measured two
ways: a walk through its public Board API (legal_moves/push/pop), and its own bulk perft function
when the installed version has one.  Every figure is the best of --repeat runs (the machine is shared,
so the best run is the one least disturbed by other work).
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

# Runs inside the other interpreter; prints one JSON line {"api": [nodes, s], "bulk": [nodes, s] | null}.
_CHILD = r"""
import json, sys, time
from draughts import StandardBoard
depth = int(sys.argv[1])
board = StandardBoard()

def walk(b, d):
    if d == 0:
        return 1
    n = 0
    for m in b.legal_moves:
        b.push(m)
        n += walk(b, d - 1)
        b.pop()
    return n

repeat = int(sys.argv[2])

def best(fn, *args):
    runs = []
    for _ in range(repeat):
        t = time.perf_counter(); n = fn(*args); runs.append(time.perf_counter() - t)
    return [n, min(runs)]

api = best(walk, board, depth)
bulk = None
try:
    from draughts.engines.turbo import perft_from_board
except ImportError:
    pass
else:
    bulk = best(perft_from_board, StandardBoard(), depth)
print(json.dumps({"api": api, "bulk": bulk}))
"""


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


def timed(repeat: int, fn: Callable[[Board, int], int], depth: int) -> tuple[int, float]:
    """(nodes, best wall-clock seconds over `repeat` runs), each run on a fresh initial position."""
    runs: list[float] = []
    nodes = 0
    for _ in range(repeat):
        board = Board()
        started = time.perf_counter()
        nodes = fn(board, depth)
        runs.append(time.perf_counter() - started)
    return nodes, min(runs)


def line(label: str, nodes: int, seconds: float) -> str:
    return f"{label:<44} {nodes:>9} nodes {seconds:7.3f} s {nodes / seconds:>11,.0f} nodes/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", metavar="PYTHON", help="interpreter that has py-draughts installed")
    parser.add_argument("--depths", default="6,7", help="perft depths for Damier (default 6,7)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, best kept (default 3)")
    args = parser.parse_args()

    results: dict[int, tuple[int, float]] = {}
    for depth in (int(d) for d in args.depths.split(",")):
        nodes, seconds = timed(args.repeat, perft, depth)
        if depth in EXPECTED and nodes != EXPECTED[depth]:
            print(f"perft({depth}) = {nodes}, expected {EXPECTED[depth]}", file=sys.stderr)
            return 1
        results[depth] = (nodes, seconds)
        print(line(f"damier rules.perft({depth}) [bulk]", nodes, seconds))
    nodes, seconds = timed(args.repeat, walk, 5)
    print(line("damier Board push/pop walk (5) [API]", nodes, seconds))

    if args.compare:
        depth = 6
        done = subprocess.run([args.compare, "-c", _CHILD, str(depth), str(args.repeat)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            print(f"py-draughts run failed: {done.stderr.strip()}", file=sys.stderr)
            return 1
        other = json.loads(done.stdout.strip().splitlines()[-1])
        ours = results.get(depth) or timed(args.repeat, perft, depth)
        ours_rate = ours[0] / ours[1]
        api_nodes, api_seconds = other["api"]
        print(line(f"py-draughts push/pop walk ({depth}) [API]", api_nodes, api_seconds))
        print(f"ratio damier perft({depth}) / py-draughts API walk: {ours_rate / (api_nodes / api_seconds):.2f}x")
        if other["bulk"]:
            bulk_nodes, bulk_seconds = other["bulk"]
            print(line(f"py-draughts turbo perft ({depth}) [bulk]", bulk_nodes, bulk_seconds))
            print(f"ratio damier perft({depth}) / py-draughts turbo perft: "
                  f"{ours_rate / (bulk_nodes / bulk_seconds):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
