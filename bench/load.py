"""Load: gunicorn against PostgreSQL on 127.0.0.1, readers of the public standings, crosstable and round pages
while an arbiter enters the last round's results through the admin (the real login and POSTs).

    .venv/bin/python bench/load.py                      # 60 s, 50 readers, its own throwaway PostgreSQL
    .venv/bin/python bench/load.py --seconds 20 --readers 20
    DATABASE_URL=postgres://damier@127.0.0.1:54331/damier .venv/bin/python bench/load.py
        # a scratch server of yours: the demo tournament is (re)loaded into it

Loads the demo tournament (round 9 published with 2 of 5 results), starts gunicorn (gthread) with
production settings (DJANGO_DEBUG=0, a random key), then runs the readers, each on its own keep-alive
connection, until the time is up or the request cap is reached. Meanwhile the arbiter logs in, enters the
3 missing results one board at a time and completes the round. Prints requests/s, p50/p95/max latency
and errors (goal: none), and checks that the public standings page shows exactly the standings computed
independently from the demo's results plus the ones the arbiter entered. Exit status 1 on any error or
difference. Everything listens on and connects to 127.0.0.1 only; every process it starts is stopped.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
SLUG, ROUND, ARBITER, PASSWORD = "damier-demo-2026", 9, "arbiter", "damier-demo"
RESULTS = ["2-0", "1-1", "0-2", "2-0", "1-1"]  # what the arbiter enters, board by board
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- PostgreSQL ------------------------------------------------------------------------------------


class Postgres:
    """A throwaway cluster in a temporary folder, as .ci/run starts one."""

    def __init__(self) -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: [int(x) for x in
                                                                                 re.findall(r"\d+", p.parent.name)])
        found = shutil.which("initdb")
        self.bin = Path(os.path.realpath(found)).parent if found else (bins[-1] if bins else None)
        if self.bin is None or not (self.bin / "initdb").exists():
            raise SystemExit("PostgreSQL not found (initdb); install it or give DATABASE_URL=postgres://...")
        self.dir = Path(tempfile.mkdtemp(prefix="damier-load-pg-"))
        self.port = free_port()

    def _as_pg(self, *cmd: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(prefix + list(cmd), check=True, stdout=subprocess.DEVNULL)

    def start(self) -> str:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        data = str(self.dir / "data")
        self._as_pg(str(self.bin / "initdb"), "-D", data, "-U", "damier", "--auth=trust", "-E", "UTF8")
        self._as_pg(str(self.bin / "pg_ctl"), "-D", data, "-l", str(self.dir / "log"), "-w", "-o",
                    f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off -c max_connections=100",
                    "start")
        self._as_pg(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "damier", "damier")
        return f"postgres://damier@127.0.0.1:{self.port}/damier"

    def stop(self) -> None:
        try:
            self._as_pg(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


# --- HTTP ------------------------------------------------------------------------------------------


class Session:
    """One keep-alive connection with its cookies: enough for the admin's login, CSRF and POSTs."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, data: dict[str, Any] | None = None) -> tuple[int, str, str]:
        headers = {"Host": "127.0.0.1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()  # reconnect on the next request
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, response.headers.get("Location", ""), text


class FormParser(HTMLParser):
    """The named inputs and selected options of a page: the form a browser would post back."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in {"submit", "button", "file"}:
            if a.get("type") in {"checkbox", "radio"} and "checked" not in a:
                return
            self.fields.setdefault(name, []).append(a.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            self.fields.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.fields[self._select].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def form_of(html: str) -> dict[str, list[str]]:
    parser = FormParser()
    parser.feed(html)
    return parser.fields


class TableParser(HTMLParser):
    """The rows of the first table: header texts and cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.header: list[str] = []
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None
        self._tables = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._tables += 1
        elif self._tables == 1 and tag == "tr":
            self.rows.append([])
        elif self._tables == 1 and tag in {"td", "th"}:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if self._tables == 1 and tag in {"td", "th"} and self._cell is not None and self.rows:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def standings_on_page(html: str) -> list[tuple[str, str, str]]:
    parser = TableParser()
    parser.feed(html)
    header, *rows = [r for r in parser.rows if r]
    col = {name: header.index(name) for name in ("Rank", "Player", "Pts")}
    return [(r[col["Rank"]], r[col["Player"]], r[col["Pts"]]) for r in rows]


# --- The run ---------------------------------------------------------------------------------------


def expected_standings() -> tuple[list[tuple[int | None, str, int]], list[tuple[int, int]], int]:
    """From the database before the run: the standings once the missing results are in (pure functions)."""
    from tournaments import selectors
    from tournaments.models import Round, Tournament
    from tournaments.results import Result
    from tournaments.standings import StandingGame, compute_standings

    t = Tournament.objects.get(slug=SLUG)
    rnd = Round.objects.get(tournament=t, number=ROUND)
    missing = list(rnd.games.filter(result="").order_by("board"))
    data = selectors.tournament_data(t, public_only=True)
    games = data.standing_games() + [StandingGame(round=ROUND, white=g.white_id, black=g.black_id,
                                                  result=Result(RESULTS[i])) for i, g in enumerate(missing)]
    rows = compute_standings(data.standing_players(), games, system=t.system, rounds_total=data.rounds_total,
                             tiebreaks=list(t.tiebreaks), bye_points=selectors.bye_points_for(t))
    return [(r.rank, r.player.name, r.points) for r in rows], [(g.board, g.pk) for g in missing], rnd.pk


def arbiter(port: int, boards: list[tuple[int, int]], round_pk: int, seconds: float, log: list[str],
            latencies: list[float]) -> None:
    s = Session(port)

    def timed(method: str, path: str, data: dict[str, Any] | None = None) -> tuple[int, str, str]:
        t0 = time.perf_counter()
        out = s.request(method, path, data)
        latencies.append(time.perf_counter() - t0)
        return out

    start = time.monotonic()
    _, _, page = timed("GET", "/admin/login/?next=/admin/")
    status, location, _ = timed("POST", "/admin/login/?next=/admin/", {
        "csrfmiddlewaretoken": form_of(page)["csrfmiddlewaretoken"][0], "username": ARBITER,
        "password": PASSWORD, "next": "/admin/"})
    if status != 302:
        log.append(f"arbiter: login refused ({status})")
        return
    url = f"/admin/tournaments/round/{round_pk}/change/"
    for i, (board, game_pk) in enumerate(boards, start=1):
        time.sleep(max(0.0, start + seconds * i / (len(boards) + 1) - time.monotonic()))
        status, _, page = timed("GET", url)
        form = form_of(page)
        index = next(k.split("-")[1] for k, v in form.items() if re.fullmatch(r"games-\d+-id", k)
                     and v == [str(game_pk)])
        form[f"games-{index}-result"] = [RESULTS[i - 1]]
        form["_continue"] = ["1"]
        status, location, _ = timed("POST", url, form)
        _, _, after = timed("GET", location or url)
        ok = status == 302 and "was changed successfully" in after
        log.append(f"arbiter: board {board} = {RESULTS[i - 1]}: {'saved' if ok else f'NOT saved ({status})'}")
    time.sleep(max(0.0, start + seconds * (len(boards) + 0.5) / (len(boards) + 1) - time.monotonic()))
    _, _, page = timed("GET", "/admin/tournaments/round/")
    token = form_of(page)["csrfmiddlewaretoken"][0]
    status, _, _ = timed("POST", "/admin/tournaments/round/", {
        "csrfmiddlewaretoken": token, "action": "complete", "_selected_action": str(round_pk), "index": "0"})
    _, _, page = timed("GET", url)
    log.append(f"arbiter: round {ROUND} completed: {'yes' if 'Completed' in page else f'NO ({status})'}")


def reader(port: int, paths: list[str], deadline: float, cap: int, results: list[tuple[float, int, str]],
           errors: Counter[str]) -> None:
    s = Session(port)
    n = 0
    while time.monotonic() < deadline and n < cap:
        path = paths[n % len(paths)]
        n += 1
        t0 = time.perf_counter()
        try:
            status, _, _ = s.request("GET", path)
        except (OSError, http.client.HTTPException) as exc:
            errors[f"{type(exc).__name__} on {path}"] += 1
            continue
        results.append((time.perf_counter() - t0, status, path))
        if status != 200:
            errors[f"HTTP {status} on {path}"] += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--readers", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    ap.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    ap.add_argument("--cap", type=int, default=20000, help="most requests per reader")
    args = ap.parse_args(argv)
    if not 1 <= args.readers <= 200 or not 1 <= args.seconds <= 600:
        ap.error("readers 1-200 and seconds 1-600")
    pg = None
    url = os.environ.get("DATABASE_URL", "")
    if url:
        parsed = urllib.parse.urlparse(url)
        if not parsed.scheme.startswith("postgres") or parsed.hostname not in LOOPBACK:
            raise SystemExit("DATABASE_URL must be a PostgreSQL server on 127.0.0.1 (loopback only).")
    else:
        pg = Postgres()
        url = pg.start()
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "PYTHONUNBUFFERED": "1"}
    server = None
    try:
        for cmd in (["migrate", "--noinput", "-v0"], ["load_demo"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PY, "manage.py", *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from django.db import connection

        expected, boards, round_pk = expected_standings()
        connection.close()
        gunicorn = str(Path(PY).parent / "gunicorn")
        server = subprocess.Popen([gunicorn, "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers",
                                   str(args.workers), "--threads", str(args.threads), "--worker-class", "gthread",
                                   "--keep-alive", "30", "--log-level", "warning"], cwd=ROOT, env=env)
        _wait_until_up(port)
        paths = [f"/t/{SLUG}/standings/", f"/t/{SLUG}/crosstable/", f"/t/{SLUG}/round/{ROUND}/"]
        for p in paths:
            status, _, _ = Session(port).request("GET", p)
            if status != 200:
                raise SystemExit(f"{p}: HTTP {status}; the public pages are needed (tournaments/views.py).")
        results: list[tuple[float, int, str]] = []
        errors: Counter[str] = Counter()
        log: list[str] = []
        arbiter_latencies: list[float] = []
        t0 = time.monotonic()
        deadline = t0 + args.seconds
        threads = [threading.Thread(target=reader, args=(port, paths[i % 3:] + paths[:i % 3], deadline, args.cap,
                                                         results, errors)) for i in range(args.readers)]
        threads.append(threading.Thread(target=arbiter, args=(port, boards, round_pk, args.seconds, log,
                                                               arbiter_latencies)))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.seconds + 120)
        elapsed = time.monotonic() - t0
        hung = sum(t.is_alive() for t in threads)
        _, _, page = Session(port).request("GET", f"/t/{SLUG}/standings/")
        shown = standings_on_page(page)
        want = [("" if rank is None else str(rank), name, str(points)) for rank, name, points in expected]
        # The page's player cell adds the title and federation after the name.
        equal = len(shown) == len(want) and all(
            r == wr and (n == wn or n.startswith(wn + " ")) and p == wp
            for (r, n, p), (wr, wn, wp) in zip(shown, want, strict=True))
        lat = [x for x, _, _ in results]
        print(f"load: {args.readers} readers, {elapsed:.1f} s, gunicorn {args.workers}x{args.threads} gthread, "
              f"PostgreSQL on 127.0.0.1")
        print(f"  requests: {len(results)}  ({len(results) / elapsed:.1f} req/s)")
        print(f"  latency:  p50 {percentile(lat, .5) * 1000:.0f} ms  p95 {percentile(lat, .95) * 1000:.0f} ms  "
              f"max {max(lat, default=0) * 1000:.0f} ms")
        for p in paths:
            mine = [x for x, _, q in results if q == p]
            print(f"    {p:<36} {len(mine):>6} requests  p50 {percentile(mine, .5) * 1000:.0f} ms  "
                  f"p95 {percentile(mine, .95) * 1000:.0f} ms")
        print(f"  errors:   {sum(errors.values())}" + "".join(f"\n    {k}: {v}" for k, v in errors.items()))
        print(f"  arbiter:  {len(arbiter_latencies)} requests, p50 {percentile(arbiter_latencies, .5) * 1000:.0f} ms,"
              f" max {max(arbiter_latencies, default=0) * 1000:.0f} ms")
        for line in log:
            print(f"    {line}")
        print(f"  final standings: {'equal to the expected ones' if equal else 'DIFFERENT'} ({len(want)} rows)")
        if not equal:
            for a, b in zip(shown, want, strict=False):
                print(f"    page {a}  expected {b}")
        failed = bool(errors) or not equal or hung or any("NOT" in line or "refused" in line for line in log)
        return 1 if failed else 0
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        if pg is not None:
            pg.stop()


def _wait_until_up(port: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if Session(port).request("GET", "/")[0] in (200, 302):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer on 127.0.0.1 within 30 s")


if __name__ == "__main__":
    raise SystemExit(main())
