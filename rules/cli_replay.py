"""`python -m rules replay FILE... [--json | --summary]`: replay every game of PDN files and report.

`--summary` prints one line per file (games, plies replayed, legal, irregular, unreadable, refused) and
a total, so that an archive of thousands of games is checked at once; games are read and replayed one
at a time, so memory stays flat whatever the size of the archive.

Exit status: 0 when no game had an error, 1 when at least one did (an illegal move, a contradicted
result, a refused game type, a syntax error), 2 when a file cannot be read at all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.pdn import PdnError, iter_games, read_file
from rules.replay import Report, Verdict, replay_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("replay", help="replay PDN game sheets and judge their results (art. 5.4, 6, 7)")
    parser.add_argument("files", nargs="+", metavar="FILE", help="PDN files")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true",
                      help="print a JSON array with one object per game instead of the readable report")
    mode.add_argument("--summary", action="store_true",
                      help="print one line per file: games, plies, legal, irregular, unreadable, refused")
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


@dataclass
class FileCount:
    """What one file holds, counted game by game (each game in exactly one of the four classes)."""

    name: str
    games: int = 0
    plies: int = 0
    legal: int = 0
    irregular: int = 0
    unreadable: int = 0
    refused: int = 0
    errors: int = 0  # games with an error of any kind (exit status)

    def add(self, report: Report) -> None:
        self.games += 1
        self.plies += report.plies
        if report.status is Verdict.REFUSED:
            self.refused += 1
        elif report.status is Verdict.UNREADABLE:
            self.unreadable += 1
        elif report.legal:
            self.legal += 1
        else:
            self.irregular += 1
        self.errors += report.has_error

    def line(self) -> str:
        return (f"{self.name}: {self.games} games, {self.plies} plies, {self.legal} legal, {self.irregular} "
                f"irregular, {self.unreadable} unreadable, {self.refused} refused")


def count_file(path: str) -> FileCount:
    """Replay every game of one file and count; PdnError when the file cannot be read."""
    count = FileCount(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PdnError(f"cannot read {path}: {exc.strerror or exc}") from exc
    for game in iter_games(data, path):
        count.add(replay_game(game))
    return count


def run_summary(paths: list[str]) -> int:
    total = FileCount("total")
    failed = False
    started, cpu = time.perf_counter(), time.process_time()
    for path in paths:
        try:
            count = count_file(path)
        except PdnError as err:
            print(f"replay: {err}", file=sys.stderr)
            failed = True
            continue
        print(count.line())
        for name in ("games", "plies", "legal", "irregular", "unreadable", "refused", "errors"):
            setattr(total, name, getattr(total, name) + getattr(count, name))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    # CPU time beside the wall clock: on a shared machine other work inflates the wall clock only.
    print(f"{total.line()} in {len(paths)} file(s); {seconds:.2f} s, {total.plies / max(seconds, 1e-9):,.0f} "
          f"plies/s (CPU {cpu:.2f} s, {total.plies / max(cpu, 1e-9):,.0f} plies/s)")
    sys.stdout.flush()
    if failed:
        return 2
    return 1 if total.errors else 0


def run(args: argparse.Namespace) -> int:
    if args.summary:
        try:
            return run_summary(args.files)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
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
