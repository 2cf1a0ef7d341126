"""`python -m rules perft FEN DEPTH`: the node count, on the last line of the output."""

from __future__ import annotations

import argparse
import time

from rules.board import Board, perft


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("perft", help="count the leaf nodes of the legal-move tree")
    parser.add_argument("fen", help="position, e.g. W:W31-50:B1-20")
    parser.add_argument("depth", type=int, help="depth in plies (0 or more)")
    parser.add_argument("--divide", action="store_true", help="also print the count below each move")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    board = Board(args.fen)
    if args.depth < 0:
        raise SystemExit("perft: depth must be 0 or more")
    started = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in board.legal_moves():
            label = board.notation(move)
            board.push(move)
            count = perft(board, args.depth - 1)
            board.pop()
            total += count
            print(f"{label} {count}")
    else:
        total = perft(board, args.depth)
    elapsed = time.perf_counter() - started
    print(f"# depth {args.depth}: {elapsed:.3f} s")
    print(total)
    return 0
