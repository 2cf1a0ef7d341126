"""Rating-list import: seconds for a 30,000-row list, through the same functions the admin page calls.

    .venv/bin/python bench/rating_list.py                    # 30,000 rows into a throwaway SQLite database
    .venv/bin/python bench/rating_list.py --rows 5000
    DATABASE_URL=postgres://... .venv/bin/python bench/rating_list.py   # a scratch PostgreSQL of yours

Three runs: an FMJD `.DRA` list while the register holds every player (each one's rating moves: the
register is updated, with its history), the next list of the same players (all move again), and an XLSX
file of the same size read through the column mapping into a national list. Each prints the seconds of
reading, of the import, and the total.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TITLES = ["GMI", "MI", "MF", "CMF", "", "", "", "", "", ""]


def dra_file(n: int, bump: int) -> bytes:
    rows = ['"nr_ew","last_n","first_n","country","title","rating","wtitle","wrating"']
    rows += [f'"{100000 + i}","Surname{i}","Given {i}","NED","{TITLES[i % 10]}","A {1200 + (i + bump) % 1500}","",""'
             for i in range(n)]
    return ("\r\n".join(rows) + "\r\n").encode()


def xlsx_file(n: int) -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Ratinglijst")
    sheet.append(["Bondsnummer", "Achternaam", "Voornaam", "KNDB rating", "Geslacht", "Vereniging", "Geboortejaar"])
    for i in range(n):
        sheet.append([500000 + i, f"Achternaam{i}", f"Voornaam {i}", 900 + i % 1300, "MV"[i % 2],
                      f"Club {i % 300}", 1950 + i % 60])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=30000)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="damier-bench-lists-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from simple_history.utils import bulk_create_with_history

    from tournaments.models import Player, search_key
    from tournaments.ratinglists import columns, readers, rows
    from tournaments.ratinglists.services import import_rating_list

    players = [Player(surname=f"Surname{i}", given_name=f"Given {i}", fmjd_id=100000 + i, rating=1000,
                      folded=search_key(f"Surname{i}", f"Given {i}")) for i in range(args.rows)]
    bulk_create_with_history(players, Player, batch_size=1000)
    print(f"{args.rows} rows; register: {Player.objects.count()} players; "
          f"database: {os.environ['DATABASE_URL'].split(':')[0]}")

    def run(label: str, name: str, data: bytes, source: str, kind: str, date: datetime.date) -> None:
        started = time.perf_counter()
        table = readers.read_file(name, data)
        read = rows.read_rows(table, columns.guess_all(table.headers))
        assert not read.errors, read.errors[:5]
        done_reading = time.perf_counter()
        result = import_rating_list(read=read, source=source, kind=kind, published_on=date, file_name=name,
                                    file_format=table.file_format)
        done = time.perf_counter()
        print(f"{label}: {len(data) / 1e6:.2f} MB, read {done_reading - started:.2f} s, import "
              f"{done - done_reading:.2f} s ({result.rows} rows, {result.matched} matched, {result.updated} "
              f"updated), total {done - started:.2f} s")

    run("FMJD .DRA, every player's rating moves", "V261001.DRA", dra_file(args.rows, 0), "FMJD", "fmjd",
        datetime.date(2026, 10, 1))
    run("FMJD .DRA, the next list", "V270101.DRA", dra_file(args.rows, 7), "FMJD", "fmjd", datetime.date(2027, 1, 1))
    run("XLSX through the mapping, national list", "kndb.xlsx", xlsx_file(args.rows), "KNDB", "national",
        datetime.date(2026, 10, 1))


if __name__ == "__main__":
    main()
