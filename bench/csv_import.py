"""CSV player import: ms per line for a large rating list, through the same function the admin page calls.

    .venv/bin/python bench/csv_import.py                 # 10,000 lines into a throwaway SQLite database
    .venv/bin/python bench/csv_import.py --lines 5000 --enter   # also enter every player in a Swiss
    DATABASE_URL=postgres://... .venv/bin/python bench/csv_import.py   # a scratch PostgreSQL of yours

Two runs: the first creates every player, the second updates them all (a rating list re-imported). Prints
the file's size and the ms/line of each run; the limits in tournaments/exchange/player_import.py follow from it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def csv_lines(n: int) -> bytes:
    rows = ["surname,given_name,fmjd_id,federation,title,rating,club,birth_year"]
    rows += [f"Surname{i},Given{i},{100000 + i},NED,{'GMI' if i % 50 == 0 else ''},{1200 + i % 1500},Club {i % 300},"
             f"{1950 + i % 60}" for i in range(n)]
    return ("\n".join(rows) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10000)
    parser.add_argument("--enter", action="store_true", help="also enter every player in a new Swiss")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="damier-bench-csv-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tournaments.exchange import player_import
    from tournaments.models import Tournament

    data = csv_lines(args.lines)
    limit = getattr(player_import, "MAX_LINES", None)
    print(f"{args.lines} lines, {len(data) / 1e6:.2f} MB; line limit: {limit or 'none'}; "
          f"database: {os.environ['DATABASE_URL'].split(':')[0]}")
    tournament = None
    if args.enter:
        tournament = Tournament.objects.create(name="Bench", slug=f"bench-{time.time_ns()}", system="swiss",
                                               rounds_total=9)
    for label in ("create", "update"):
        started = time.perf_counter()
        report = player_import.players_import_csv(data=data, source="bench.csv",
                                                  tournament=tournament if label == "create" else None)
        elapsed = time.perf_counter() - started
        assert report.ok, report.as_text()[:2000]
        print(f"{label}: {elapsed:.2f} s, {1000 * elapsed / args.lines:.3f} ms/line")


if __name__ == "__main__":
    main()
