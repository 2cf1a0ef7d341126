"""Command line: `python -m rules SUBCOMMAND ...`.

Subcommands live in their own modules, listed in SUBCOMMANDS.  Each module provides
`register(subparsers)`, which adds its parser and sets `handler` (a function taking the parsed
arguments and returning the exit status) with `parser.set_defaults(handler=...)`.  To add one, write
the module and add its name here; nothing else changes.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from rules.types import RulesError

#: Subcommand modules, imported in this order.
SUBCOMMANDS: list[str] = ["rules.cli_perft", "rules.cli_moves", "rules.cli_replay"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules", description="FMJD international draughts rules")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.handler(args)
    except RulesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
