"""`python -m rules replay FILE... [--json]`: replay every game of PDN files and report per game.

Exit status: 0 when no game had an error, 1 when at least one did (an illegal move, a contradicted
result, a refused game type, a syntax error), 2 when a file cannot be read at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rules.pdn import PdnError, read_file
from rules.replay import Report, replay_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("replay", help="replay PDN game sheets and judge their results (art. 5.4, 6, 7)")
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDN files")
    parser.add_argument("--json", action="store_true",
                        help="print a JSON array with one object per game instead of the readable report")
    parser.set_defaults(handler=run)


def replay_files(paths: list[str]) -> tuple[list[Report], list[str]]:
    """Reports for every game of the files, and the messages of files that could not be read."""
    reports: list[Report] = []
    failures: list[str] = []
    for path in paths:
        try:
            games = read_file(path)
        except PdnError as err:
            failures.append(str(err))
            continue
        reports.extend(replay_game(game) for game in games)
    return reports, failures


def summary(reports: list[Report]) -> str:
    clean = sum(report.clean for report in reports)
    errors = sum(report.has_error for report in reports)
    return (f"{len(reports)} game(s): {clean} clean, {len(reports) - clean - errors} with warnings only, "
            f"{errors} with errors")


def run(args: argparse.Namespace) -> int:
    reports, failures = replay_files(args.files)
    for failure in failures:
        print(f"replay: {failure}", file=sys.stderr)
    try:
        show(reports, args.json)
    except BrokenPipeError:
        # The reader of our output went away (`| head`): not an error of the games.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if failures:
        return 2
    return 1 if any(report.has_error for report in reports) else 0


def show(reports: list[Report], as_json: bool) -> None:
    if as_json:
        data: list[dict[str, Any]] = [report.to_dict() for report in reports]
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for report in reports:
            print(report.text())
            print()
        print(summary(reports))
    sys.stdout.flush()
