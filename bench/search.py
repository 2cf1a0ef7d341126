"""The name search of the "Enter players" screen: ms per query at a federation's size.

    .venv/bin/python bench/search.py                       # a throwaway SQLite database
    DATABASE_URL=postgres://... .venv/bin/python bench/search.py   # a scratch PostgreSQL of yours
    .venv/bin/python bench/search.py --rows 30000 --players 5000 --queries 200

Builds a 30,000-row FMJD list and a 5,000-player register (names from many countries, accents, some in
Cyrillic), then times 200 typical queries through tournaments.players.search.candidates, as the screen's
JSON endpoint calls it: 2 to 5 letters of a surname, a surname and the given name's first letters, an accent
or Cyrillic typed, a whole FMJD id, an id's first digits. Prints the median and the 95th percentile in ms.
Everything is written in one transaction rolled back at the end: nothing stays in the database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (Latin, own script or "") as lists print them.
SURNAMES = [("Sørensen", ""), ("Schwarzman", "Шварцман"), ("Baliakine", "Балякин"), ("Georgiev", "Георгиев"),
            ("N'Diaye", ""), ("Ndiaye", ""), ("Boomstra", ""), ("van den Heuvel", ""), ("Lefèvre", ""),
            ("Guérin", ""), ("Chizhov", "Чижов"), ("Amrillaev", "Амриллаев"), ("Kouadio", ""), ("Jansen", ""),
            ("de Jong", ""), ("Wiersma", ""), ("Valneris", ""), ("Thijssen", ""), ("Kovalenko", "Коваленко"),
            ("Müller", ""), ("Çelik", ""), ("Łukasik", ""), ("Dupont", ""), ("Mbaye", ""), ("Nguyen", ""),
            ("Zhang", "张"), ("Tsybulski", "Цыбульский"), ("Anikeev", "Аникеев"), ("Scholma", ""), ("Meurs", "")]
SYLLABLES = ["ba", "ke", "lo", "mi", "ran", "sto", "vel", "dor", "ni", "tsa", "gre", "pol", "hu", "zen", "ma",
             "ri", "ko", "sha", "ver", "di", "an", "el", "os", "ut"]
GIVEN = ["Ivar", "Anne", "Pavel", "Jan", "Élise", "Roel", "Alexander", "Ousmane", "Marc", "Inès", "Hugo",
         "Olga", "Tamara", "Noé", "Jean", "Yuri", "Aleksej", "Fatou", "Léa", "Pieter"]
FEDERATIONS = ["NED", "FRA", "RUS", "SEN", "UKR", "BLR", "LAT", "POL", "ITA", "CMR", "CIV", "BRA", "CAN", "USA"]
TITLES = ["", "", "", "", "", "", "CMI", "MF", "MI", "GMI", "MFF", "MIF"]


def names(rng: random.Random, i: int) -> tuple[str, str, str]:
    if i % 3 == 0:
        surname, native = rng.choice(SURNAMES)
        if i % 9:
            surname += rng.choice(SYLLABLES)  # many of one family name, as a country's list has
    else:
        surname = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
        native = ""
    return surname, rng.choice(GIVEN), native


def main() -> None:  # noqa: PLR0915
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=30000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="damier-bench-search-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    import datetime

    from django.core.management import call_command
    from django.db import connection, transaction

    call_command("migrate", verbosity=0)
    from tournaments.models import Player, RatingList, RatingListRow, System, Tournament
    from tournaments.models.register import search_key
    from tournaments.players.search import candidates

    rng = random.Random(20261128)

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            started = time.perf_counter()
            lst = RatingList.objects.create(source="FMJD", published_on=datetime.date(2026, 10, 1),
                                            row_count=args.rows)
            rows, players = [], []
            for i in range(args.rows):
                surname, given, native = names(rng, i)
                fmjd_id = 10000 + i * 3
                rows.append(RatingListRow(
                    rating_list=lst, line=i + 1, fmjd_id=fmjd_id, surname=surname, given_name=given,
                    native_name=native, federation=rng.choice(FEDERATIONS), title=rng.choice(TITLES),
                    rating=rng.randint(900, 2450), folded=search_key(surname, given, native)))
                if i < args.players:
                    players.append(Player(surname=surname, given_name=given, native_name=native, fmjd_id=fmjd_id,
                                          federation=rows[-1].federation, rating=rows[-1].rating,
                                          folded=rows[-1].folded))
            Player.objects.bulk_create(players, batch_size=2000)
            RatingListRow.objects.bulk_create(rows, batch_size=2000)
            tournament = Tournament.objects.create(name="Bench", slug=f"bench-{time.time_ns()}",
                                                   system=System.SWISS, rounds_total=9, fmjd_list=lst)
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
            print(f"{args.rows} list rows, {args.players} register players written in "
                  f"{time.perf_counter() - started:.1f} s; database: {connection.vendor}")

            queries = []
            for n in range(args.queries):
                row = rows[rng.randrange(args.rows)]
                kind = n % 10
                if kind < 5:
                    queries.append(row.surname[: rng.randint(2, 5)])
                elif kind < 7:
                    queries.append(f"{row.surname[:4]} {row.given_name[:2]}")
                elif kind == 7:
                    queries.append(rng.choice(["sore", "Sør", "шварц", "Бал", "lef", "guér", "n'di", "van den"]))
                elif kind == 8:
                    queries.append(str(row.fmjd_id))
                else:
                    queries.append(str(row.fmjd_id)[:3])
            candidates(queries[0], tournament=tournament)  # the first connection's set-up is not a query
            times, found = [], 0
            for q in queries:
                t0 = time.perf_counter()
                got = candidates(q, tournament=tournament)
                times.append((time.perf_counter() - t0) * 1000)
                found += bool(got)
            times.sort()
            p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
            print(f"{len(queries)} queries ({found} found something): median {statistics.median(times):.1f} ms, "
                  f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms (limit 50 ms)")
            raise Rollback
    except Rollback:
        pass


if __name__ == "__main__":
    main()
