"""Load in the playing hall: players checking in from their phones while readers poll and hall screens refresh.

    .venv/bin/python bench/load_hall.py                  # 200 players within 120 s, 50 readers, 4 screens
    .venv/bin/python bench/load.py --hall                # the same, as bench/load.py's option (any option below)
    .venv/bin/python bench/load_hall.py --players 400 --seconds 120 --readers 100
    .venv/bin/python bench/load_hall.py --poll 0         # the readers without a pause: the crowd at its worst
    .venv/bin/python bench/load_hall.py --burst          # every player at the same moment ("check in now!"):
        # 20 phones at a time, each going on to the next player at once; a test of throughput more than of
        # latency (on 2 cores: p95 about 200 ms, over the goal, where the 2 minutes give 15 ms)
    DATABASE_URL=postgres://damier@127.0.0.1:54331/damier .venv/bin/python bench/load_hall.py

gunicorn (gthread, production settings, the page cache in files) against PostgreSQL on 127.0.0.1, as
bench/load.py starts them (its Postgres, Session and reader are reused). A Swiss of --players players has three
rounds played and check-in open for round 4. Each player, at a moment of his own drawn over the run (--burst: all
at the same moment, a quarter into it), opens his player page
(as his phone would) and posts the code shown in the hall; the 50 readers poll the standings, the round page and
the crosstable as the live pages do (a conditional GET every --poll seconds); the 4 hall screens refresh every
--screen-poll seconds: each its own hall screen (boards split between them), at /t/<slug>/hall/<token>/.

Prints, for each kind of request, how many, p50/p95/max latency and errors, and checks that every player is
checked in once. Exit status 1 on any error, a missing check-in, or a p95 over --p95-ms (default 100).
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load import LOOPBACK, PY, ROOT, Postgres, Session, _wait_until_up, free_port, percentile  # noqa: E402

SLUG, PLAYED = "hall-swiss", 3


def prepare(players: int, screens: int) -> tuple[str, list[str]]:
    """The Swiss, its three rounds played, check-in open for round 4, and its hall screens (the boards split
    between them); returns the code shown in the hall and the screens' addresses."""
    from bench.pages import build_swiss
    from tournaments.hall import checkin
    from tournaments.models import HallScreen, Tournament

    build_swiss(players, PLAYED, slug=SLUG)
    Tournament.objects.filter(slug=SLUG).update(rounds_total=9, checkin_enabled=True)
    t = Tournament.objects.get(slug=SLUG)
    boards = (players + 1) // 2
    share = -(-boards // max(screens, 1))
    paths = []
    for k in range(screens):
        screen = HallScreen.objects.create(tournament=t, name=f"Screen {chr(65 + k)}", token=secrets.token_hex(8),
                                           shows=["pairings", "find", "standings", "clock"],
                                           boards_from=k * share + 1, boards_to=(k + 1) * share)
        paths.append(f"/t/{SLUG}/hall/{screen.token}/")
    return str(checkin.checkin_open(tournament=t).checkin_code), paths


def check_in_moments(players: int, seconds: float, *, burst: bool = False, seed: int = 8) -> list[float]:
    """When each player checks in, in seconds from the start, in order: drawn over the run from one generator
    (one made anew for each player would give them all the same moment), or all at a quarter of it."""
    if burst:
        return [seconds / 4] * players
    draw = random.Random(seed)
    return sorted(draw.uniform(0, seconds) for _ in range(players))


def player(port: int, numbers: list[int], moments: list[float], code: str, t0: float,
           timings: list[tuple[str, float]], errors: Counter[str]) -> None:
    """Some players, each at his moment: his player page, then the code posted from it."""
    s = Session(port)
    for number, moment in zip(numbers, moments, strict=True):
        time.sleep(max(0.0, t0 + moment - time.monotonic()))
        page = f"/t/{SLUG}/player/{number}/"
        try:
            started = time.perf_counter()
            status, _, body = s.request("GET", page)
            timings.append(("player page", time.perf_counter() - started))
            if status != 200 or 'name="code"' not in body:
                errors[f"player page {status}{'' if status != 200 else ' without the form'}"] += 1
                continue
            started = time.perf_counter()
            status, _, body = s.request("POST", page + "checkin/", {"code": code})
            timings.append(("check-in POST", time.perf_counter() - started))
            if status != 200 or "checked in" not in body:
                errors[f"check-in POST {status}"] += 1
        except (OSError, http.client.HTTPException) as exc:
            errors[f"{type(exc).__name__} (player)"] += 1


def poller(port: int, paths: list[str], deadline: float, every: float, kind: str,
           timings: list[tuple[str, float]], errors: Counter[str]) -> None:
    """A reader or a hall screen, as the live pages ask: a conditional GET of each page every `every` s."""
    s = Session(port)
    etags: dict[str, str] = {}
    time.sleep(random.uniform(0, every or 0.1))
    while time.monotonic() < deadline:
        start = time.monotonic()
        for path in paths:
            started = time.perf_counter()
            try:
                status, etag, _body = s.get_raw(path, {"If-None-Match": etags[path]} if path in etags else {})
            except (OSError, http.client.HTTPException) as exc:
                errors[f"{type(exc).__name__} ({kind})"] += 1
                continue
            timings.append((kind, time.perf_counter() - started))
            if status == 200:
                etags[path] = etag
            elif status != 304:
                errors[f"{kind} {status} on {path}"] += 1
        if every:
            time.sleep(max(0.0, start + every - time.monotonic()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=120.0, help="the players check in within this time")
    ap.add_argument("--readers", type=int, default=50)
    ap.add_argument("--poll", type=float, default=4.0, help="seconds between a reader's rounds (0: no pause)")
    ap.add_argument("--screens", type=int, default=4)
    ap.add_argument("--screen-poll", type=float, default=4.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--p95-ms", type=float, default=100.0)
    ap.add_argument("--burst", action="store_true", help="every player at the same moment, a quarter into the run")
    args = ap.parse_args(argv)
    if not 12 <= args.players <= 1000 or not 1 <= args.seconds <= 600 or not 0 <= args.readers <= 500:
        ap.error("players 12-1000, seconds 1-600, readers 0-500")
    pg, url = None, os.environ.get("DATABASE_URL", "")
    if url and (not url.startswith("postgres") or urllib.parse.urlparse(url).hostname not in LOOPBACK):
        raise SystemExit("DATABASE_URL must be a PostgreSQL server on 127.0.0.1 (loopback only).")
    if not url:
        pg = Postgres()
        url = pg.start()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "PYTHONUNBUFFERED": "1",
           "DJANGO_CONN_MAX_AGE": "60", "DAMIER_PAGE_CACHE": "1",
           "DAMIER_CACHE_DIR": tempfile.mkdtemp(prefix="damier-load-hall-cache-")}
    env.pop("DAMIER_CACHE_URL", None)
    server: subprocess.Popen[bytes] | None = None
    try:
        for cmd in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PY, "manage.py", *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from django.db import connections

        from tournaments.models import CheckIn, Tournament

        Tournament.objects.filter(slug=SLUG).delete()
        code, screen_paths = prepare(args.players, args.screens)
        connections.close_all()
        port = free_port()
        server = subprocess.Popen([str(Path(PY).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi",
                                   "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--threads",
                                   str(args.threads), "--log-level", "warning"], cwd=ROOT, env=env)
        _wait_until_up(port)
        pages = [f"/t/{SLUG}/standings/", f"/t/{SLUG}/round/{PLAYED}/", f"/t/{SLUG}/crosstable/"]
        timings: list[tuple[str, float]] = []
        errors: Counter[str] = Counter()
        numbers = list(range(1, args.players + 1))
        random.Random(7).shuffle(numbers)
        moments = check_in_moments(len(numbers), args.seconds, burst=args.burst)
        t0 = time.monotonic()
        deadline = t0 + args.seconds
        groups = 20
        threads = [threading.Thread(target=player, args=(port, numbers[k::groups], moments[k::groups], code, t0,
                                                         timings, errors)) for k in range(groups)]
        threads += [threading.Thread(target=poller, args=(port, pages[i % 3:] + pages[:i % 3], deadline, args.poll,
                                                          "reader", timings, errors)) for i in range(args.readers)]
        threads += [threading.Thread(target=poller, args=(port, [path], deadline, args.screen_poll,
                                                          "hall screen", timings, errors))
                    for path in screen_paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.seconds + 120)
        elapsed = time.monotonic() - t0
        checked = CheckIn.objects.filter(entry__tournament__slug=SLUG, round_number=PLAYED + 1)
        once = checked.count() == args.players == checked.values("entry").distinct().count()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if pg is not None:
            pg.stop()
    print(f"\nhall load: {args.players} players checking in "
          f"{'all at once' if args.burst else f'within {args.seconds:.0f} s'}, {args.readers} readers "
          f"polling every {args.poll:g} s, {args.screens} hall screens of their own every "
          f"{args.screen_poll:g} s; {elapsed:.0f} s, 1 server ({args.workers} x {args.threads})")
    print("  kind             requests   p50 ms   p95 ms   max ms")
    failed = bool(errors) or not once
    for kind in ("check-in POST", "player page", "reader", "hall screen", "all"):
        values = [v for k, v in timings if k == kind or kind == "all"]
        p95 = percentile(values, 0.95) * 1000
        print(f"  {kind:<15} {len(values):>9} {percentile(values, 0.5) * 1000:>8.1f} {p95:>8.1f} "
              f"{(max(values) if values else float('nan')) * 1000:>8.1f}")
        failed |= kind == "all" and not p95 <= args.p95_ms
    print(f"  errors: {sum(errors.values())}" + "".join(f"\n    {n} x {e}" for e, n in errors.most_common()))
    print(f"  every player checked in once: {'yes' if once else 'NO'}; p95 goal {args.p95_ms:.0f} ms")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
