"""Load of results from the boards: players report from their phones while readers poll the public pages.

    .venv/bin/python bench/load_boards.py                  # 100 players within 60 s, 50 readers, page cache on
    .venv/bin/python bench/load_boards.py --players 20 --seconds 10 --readers 5    # a quick look
    DATABASE_URL=postgres://damier@127.0.0.1:54331/damier .venv/bin/python bench/load_boards.py

A Swiss of --players players (round 1 published, every player's code issued) on gunicorn with production
settings (bench/load.py's server, PostgreSQL and HTTP helpers). Each player, at his moment spread over
--seconds, opens his report page (his code in the address) and posts his result, every other one with the
game typed; the readers poll the standings and the round page meanwhile. Then every report sent is looked for
in the database: same board, side, result and moves.

Prints the players' requests (open, send) and the readers' p50/p95/max, errors and lost reports; exit status 1
on any error, any lost report, or a players' p95 of 100 ms or more.
"""

from __future__ import annotations

import argparse
import json
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import LOOPBACK, PY, ROOT, Postgres, Session, _wait_until_up, form_of, free_port, percentile  # noqa: E402

SLUG = f"load-boards-{secrets.token_hex(3)}"  # a tournament of its own at each run
TYPED = "32-28 19-23 28x19 14x23"
RESULTS = ("2-0", "1-1", "0-2")

SETUP = """
import json
from tournaments.boards import codes
from tournaments.models import Player, Tournament, System, Game
from tournaments.players import roster
from tournaments.rounds import services
t = Tournament.objects.create(name="Load boards", slug=%(slug)r, system=System.SWISS, rounds_total=9, public=True)
for i in range(%(players)d):
    roster.entry_add(tournament=t, player=Player.objects.create(surname=f"Board{i:03d}", given_name="Load",
                                                                rating=2400 - i))
services.round_publish(round=services.round_pair(tournament=t))
codes.codes_issue(tournament=t)
rnd = t.rounds.get(number=1)
out = []
for g in rnd.games.select_related("white", "black").exclude(black=None):
    for side, entry in (("w", g.white), ("b", g.black)):
        out.append({"game": g.pk, "board": g.board, "side": side, "token": codes.live_code(entry).token})
print("JSON" + json.dumps(out))
"""

CHECK = """
import json
from tournaments.models import BoardReport
print("JSON" + json.dumps([[r.code.token, r.game_id, r.side, r.result, r.moves]
                          for r in BoardReport.objects.filter(game__round__tournament__slug=%(slug)r)
                          .select_related("code")]))
"""


def manage_json(env: dict[str, str], code: str) -> Any:
    out = subprocess.run([PY, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.split("JSON", 1)[1])


def player(port: int, who: dict[str, Any], at: float, result: str, typed: str, timings: list[tuple[str, float]],
           errors: Counter[str], sent: list[tuple[str, int, str, str, str]], lock: threading.Lock) -> None:
    time.sleep(max(0.0, at - time.monotonic()))
    s = Session(port)
    path = f"/t/{SLUG}/board/{who['token']}/"
    try:
        t0 = time.perf_counter()
        status, _, page = s.request("GET", path)
        t1 = time.perf_counter()
        if status != 200:
            with lock:
                errors[f"open {status}"] += 1
            return
        form = {"csrfmiddlewaretoken": form_of(page)["csrfmiddlewaretoken"][0], "result": result, "moves": typed,
                "game": str(who["game"])}
        status, _, page = s.request("POST", path, form)
        t2 = time.perf_counter()
    except Exception as exc:  # a refused connection or a timeout is an error of the run, counted
        with lock:
            errors[type(exc).__name__] += 1
        return
    with lock:
        timings += [("open", t1 - t0), ("send", t2 - t1)]
        if status != 200 or 'id="dm-report-stored"' not in page:
            errors[f"send {status}"] += 1
        else:
            sent.append((who["token"], who["game"], who["side"], result, typed))


def reader(port: int, paths: list[str], deadline: float, latencies: list[float], errors: Counter[str],
           lock: threading.Lock) -> None:
    s = Session(port)
    i = 0
    while time.monotonic() < deadline:
        path = paths[i % len(paths)]
        i += 1
        t0 = time.perf_counter()
        try:
            status, _, _ = s.get_raw(path, {"Accept-Encoding": "gzip"})
        except Exception as exc:
            with lock:
                errors[f"reader {type(exc).__name__}"] += 1
            continue
        with lock:
            latencies.append(time.perf_counter() - t0)
            if status != 200:
                errors[f"reader {status}"] += 1
        time.sleep(0.2)  # a phone polling the live pages, not a loop as fast as it can


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--readers", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args(argv)
    url = os.environ.get("DATABASE_URL", "")
    pg = None
    if url:
        if urllib.parse.urlparse(url).hostname not in LOOPBACK:
            raise SystemExit("DATABASE_URL must be a PostgreSQL server on 127.0.0.1 (loopback only).")
    else:
        pg = Postgres()
        url = pg.start()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "PYTHONUNBUFFERED": "1",
           "DJANGO_CONN_MAX_AGE": "60", "DAMIER_PAGE_CACHE": "1", "DAMIER_CACHE_DIR": tempfile.mkdtemp()}
    env.pop("DAMIER_CACHE_URL", None)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for cmd in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PY, "manage.py", *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        seats = manage_json(env, SETUP % {"slug": SLUG, "players": args.players})
        port = free_port()
        gunicorn = str(Path(PY).parent / "gunicorn")
        procs.append(subprocess.Popen([gunicorn, "-c", "config/gunicorn.py", "config.wsgi", "--bind",
                                       f"127.0.0.1:{port}", "--workers", str(args.workers), "--threads",
                                       str(args.threads), "--log-level", "warning"], cwd=ROOT, env=env))
        _wait_until_up(port)
        lock = threading.Lock()
        timings: list[tuple[str, float]] = []
        latencies: list[float] = []
        errors: Counter[str] = Counter()
        sent: list[tuple[str, int, str, str, str]] = []
        rng = random.Random(7)
        start = time.monotonic() + 0.5
        deadline = start + args.seconds
        paths = [f"/t/{SLUG}/standings/", f"/t/{SLUG}/round/1/"]
        threads = [threading.Thread(target=reader, args=(port, paths, deadline, latencies, errors, lock))
                   for _ in range(args.readers)]
        for i, who in enumerate(seats):
            at = start + args.seconds * i / max(1, len(seats))
            threads.append(threading.Thread(target=player, args=(
                port, who, at, rng.choice(RESULTS), TYPED if i % 2 else "", timings, errors, sent, lock)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        stored = {tuple(row) for row in manage_json(env, CHECK % {"slug": SLUG})}
        lost = [s for s in sent if s not in stored]
        players_ms = [v * 1000 for _, v in timings]
        print(f"players: {len(seats)} reports sent within {args.seconds:.0f} s, {len(sent)} answered 'received', "
              f"{len(stored)} in the database, {len(lost)} lost")
        for step in ("open", "send"):
            values = [v * 1000 for s, v in timings if s == step]
            print(f"  {step:<5} p50 {percentile(values, .5):6.1f} ms  p95 {percentile(values, .95):6.1f} ms  "
                  f"max {max(values, default=float('nan')):6.1f} ms  ({len(values)} requests)")
        p95 = percentile(players_ms, .95)
        print(f"  all   p95 {p95:6.1f} ms (goal: under 100 ms)")
        reads_ms = [v * 1000 for v in latencies]
        print(f"readers: {args.readers}, {len(reads_ms)} reads, p50 {percentile(reads_ms, .5):.1f} ms, "
              f"p95 {percentile(reads_ms, .95):.1f} ms, max {max(reads_ms, default=float('nan')):.1f} ms")
        print(f"errors: {sum(errors.values())} {dict(errors) if errors else ''}")
        return 1 if errors or lost or len(sent) != len(seats) or not p95 < 100 else 0
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)
        if pg is not None:
            pg.stop()


if __name__ == "__main__":
    sys.exit(main())
