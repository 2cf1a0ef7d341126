"""Render time of the public pages and PDFs of a 200-player, 9-round Swiss.

    .venv/bin/python bench/pages.py                 # 200 players, 9 rounds, best of 5
    .venv/bin/python bench/pages.py --players 400 --rounds 11 --repeat 3

Builds the tournament with bulk_create in a throwaway SQLite file (never the project database), then
times full requests through Django's test client (URL routing, queries, standings, django-tables2,
template, middleware), keeping the best of several runs so other work on a shared machine does not
distort the figure. Goals: a page under 300 ms, the crosstable PDF under 2 s.

`build_swiss` is also what the query-count tests use to build the same tournament.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOALS_MS = {"standings": 300, "crosstable": 300, "crosstable.pdf": 2000}


def build_swiss(n_players: int, n_rounds: int, *, slug: str = "big-swiss", seed: int = 7) -> Any:
    """A public Swiss with every round completed, built directly with the ORM (no pairing engine).

    Pairings come from the circle method, so nobody meets the same opponent twice; with an odd number
    of players one player a round gets a bye. Results are random but seeded; a few are forfeits.
    """
    from tournaments.models import Entry, Game, Player, Round, RoundStatus, System, Tournament
    from tournaments.results import Result

    rng = random.Random(seed)
    t = Tournament.objects.create(
        name=f"Open Swiss {n_players}", slug=slug, system=System.SWISS, rounds_total=n_rounds, public=True,
        start_date=datetime.date(2026, 7, 1), end_date=datetime.date(2026, 7, 9), venue="Saint-Étienne",
        tiebreaks=["solkoff_short_truncated", "solkoff", "sonneborn_berger", "wins"],
    )
    # Ratings fall evenly from 2500 to 1000 whatever the field's size (a rating is 0 to 3000).
    base = (Player.objects.order_by("-fmjd_id").values_list("fmjd_id", flat=True).first() or 0) + 1
    players = Player.objects.bulk_create([
        Player(surname=f"Joueur{i:03d}", given_name=rng.choice(["Émile", "Zoë", "Андрій", "Łukasz"]),
               federation=rng.choice(["NED", "FRA", "SEN", "UKR"]),
               rating=2500 - i * 1500 // n_players if i % 17 else None,
               fmjd_id=base + i)
        for i in range(n_players)
    ])
    entries = Entry.objects.bulk_create([
        Entry(tournament=t, player=p, pairing_number=i + 1) for i, p in enumerate(players)
    ])
    rounds = Round.objects.bulk_create([
        Round(tournament=t, number=r + 1, status=RoundStatus.COMPLETED,
              date=datetime.date(2026, 7, 1) + datetime.timedelta(r)) for r in range(n_rounds)
    ])
    ring: list[Any] = list(entries) + ([None] if n_players % 2 else [])
    games = []
    for rnd in rounds:
        half = len(ring) // 2
        board = 0
        lone = None
        for i in range(half):
            a, b = ring[i], ring[-1 - i]
            if a is None or b is None:
                lone = a or b
                continue
            board += 1
            white, black = (a, b) if (i + rnd.number) % 2 else (b, a)
            roll = rng.random()
            result = (Result.WHITE_WINS if roll < 0.4 else Result.BLACK_WINS if roll < 0.7
                      else Result.WHITE_FORFEIT_WIN if roll < 0.72 else Result.DRAW)
            games.append(Game(round=rnd, board=board, white=white, black=black, result=result))
        if lone is not None:
            games.append(Game(round=rnd, board=board + 1, white=lone, black=None, result=Result.BYE))
        ring = [ring[0], ring[-1], *ring[1:-1]]  # circle method: the first stays, the others turn
    Game.objects.bulk_create(games)
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="damier-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DAMIER_AXES_ENABLED", "0")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    t = build_swiss(args.players, args.rounds)
    print(f"built {args.players} players x {args.rounds} rounds in {time.perf_counter() - start:.2f} s "
          f"(SQLite, {folder})")
    client = Client()
    pages = {
        "standings": f"/t/{t.slug}/standings/",
        "crosstable": f"/t/{t.slug}/crosstable/",
        "player": f"/t/{t.slug}/player/1/",
        "round": f"/t/{t.slug}/round/{args.rounds}/",
        "standings.pdf": f"/t/{t.slug}/standings.pdf",
        "crosstable.pdf": f"/t/{t.slug}/crosstable.pdf",
    }
    try:
        _time_pages(client, pages, args.repeat)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _time_pages(client: Any, pages: dict[str, str], repeat: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for name, url in pages.items():
        times = []
        for _ in range(repeat):
            with CaptureQueriesContext(connection) as queries:
                t0 = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - t0)
            assert response.status_code == 200, (url, response.status_code)
        best = min(times) * 1000
        goal = GOALS_MS.get(name)
        verdict = "" if goal is None else (f"  goal < {goal} ms: {'ok' if best < goal else 'MISSED'}")
        print(f"{name:15} best {best:7.1f} ms  median {sorted(times)[len(times) // 2] * 1000:7.1f} ms  "
              f"{len(queries.captured_queries):2d} queries  {len(response.content) / 1024:7.1f} KiB{verdict}")


if __name__ == "__main__":
    main()
