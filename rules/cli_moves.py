"""`python -m rules moves [--json] [FEN ...]`: one output line per FEN (arguments, else stdin lines)."""

from __future__ import annotations

import argparse
import json
import sys

from rules.board import Board
from rules.types import RulesError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("moves", help="list the legal moves of positions")
    parser.add_argument("fens", nargs="*", metavar="FEN", help="positions; read from stdin when none given")
    parser.add_argument("--json", action="store_true",
                        help='print a JSON array of {"notation", "path", "captured"} per position')
    parser.set_defaults(handler=run)


def describe(fen: str, as_json: bool) -> str:
    board = Board(fen)
    moves = board.legal_moves()
    if as_json:
        return json.dumps([{"notation": board.notation(m), "path": list(m.path), "captured": list(m.captured)}
                           for m in moves])
    return " ".join(board.notation(m) for m in moves)


def run(args: argparse.Namespace) -> int:
    fens = args.fens or [line.strip() for line in sys.stdin if line.strip()]
    status = 0
    for fen in fens:
        try:
            print(describe(fen, args.json))
        except RulesError as err:
            # Keep one output line per input so scripts stay aligned; the reason goes to stderr.
            print("")
            print(f"moves: {err}", file=sys.stderr)
            status = 1
    return status
