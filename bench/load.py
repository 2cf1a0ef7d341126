"""Load: gunicorn against PostgreSQL on 127.0.0.1, readers of the public standings, crosstable and round pages
while an arbiter enters the last round's results through the admin (the real login and POSTs).

    .venv/bin/python bench/load.py                       # 60 s, 50 readers, page cache on, 1 server, the demo
    .venv/bin/python bench/load.py --matrix              # before/after: no cache; cache (files); 2 servers + Redis
    .venv/bin/python bench/load.py --matrix --players 200    # the same on a 200-player, 9-round Swiss
    .venv/bin/python bench/load.py --cache off --servers 1 --seconds 20 --readers 20
    .venv/bin/python bench/load.py --servers 2           # two gunicorn servers on two ports, one Redis
    .venv/bin/python bench/load.py --gzip --players 200  # readers accept gzip, as phones do
    .venv/bin/python bench/load.py --reader-processes 1  # the fifty readers as threads of one process
    .venv/bin/python bench/load.py --arbiter-server --players 200
    .venv/bin/python bench/load.py --hall                # the playing hall: 200 players check in within 2 minutes
        # while 50 readers poll and 4 hall screens refresh (bench/load_hall.py; its options follow --hall)
    .venv/bin/python bench/load.py --redis-down-at 0.5
        # the page cache in Redis, stopped halfway through: visitors must see no error (only slower pages)
        # the arbiter on a gunicorn of his own, the crowd's at nice 10 (README: "The arbiter first")
    DATABASE_URL=postgres://damier@127.0.0.1:54331/damier .venv/bin/python bench/load.py
        # a scratch server of yours: the tournament is (re)loaded into it (one run, no --matrix)

Loads the tournament (the 10-player demo: round 9 published with 2 of 5 results; or --players N: a Swiss of
N players and 9 rounds from bench/pages.py with round 9 published and 5 results missing), starts gunicorn
(gthread) with production settings (DJANGO_DEBUG=0, a random key, persistent database connections), one
server or several on their own ports sharing PostgreSQL and a Redis it starts (readers spread over the
servers), then runs the readers, each on its own keep-alive connection. Meanwhile the arbiter logs in on
the first server (or his own), enters the missing results one board at a time and completes the round; the
time of each of his requests is printed by step.

Prints requests/s, p50/p95/max latency, errors, the servers' CPU per request, and checks freshness: every
page read that started after a save was answered shows that save (the page's table is compared with the
state after each save, computed independently), "stale reads" (goal: 0). --conditional makes the readers
revalidate with If-None-Match, as browsers and the live pages do. Exit status 1 on any error, stale read
or wrong final standings. Everything listens on 127.0.0.1 only; every process it starts is stopped.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.client
import multiprocessing
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
DEMO_SLUG, BIG_SLUG, ROUND, ARBITER, PASSWORD = "damier-demo-2026", "load-swiss", 9, "arbiter", "damier-demo"
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

    def new_database(self, name: str) -> str:
        """A fresh database for one run of the matrix."""
        self._as_pg(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "damier", name)
        return f"postgres://damier@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._as_pg(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A throwaway Redis server (Debian's redis-server), nothing saved to disk."""

    def __init__(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            raise SystemExit("redis-server not found: apt-get install redis-server (needed for --servers 2)")
        self.exe, self.port = exe, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        self.proc = subprocess.Popen([self.exe, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no", "--loglevel", "warning"], stdout=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return f"redis://127.0.0.1:{self.port}/0"
            except OSError:
                time.sleep(0.1)
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=20)


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

    def get_raw(self, path: str, headers: dict[str, str]) -> tuple[int, str, bytes]:
        """A reader's GET: status, ETag, body bytes (no decoding: the bench's own CPU counts too)."""
        try:
            self.conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
            response = self.conn.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            raise
        return response.status, response.headers.get("ETag", ""), body


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


# --- The tournament and what its pages must show ------------------------------------------------------


def prepare_big(players: int) -> str:
    """A Swiss of `players` players and 9 rounds (bench/pages.py), round 9 published with 5 results missing."""
    from django.contrib.auth import get_user_model

    from bench.pages import build_swiss
    from tournaments.models import Game, Round, RoundStatus

    t = build_swiss(players, ROUND, slug=BIG_SLUG)
    t.chief_arbiter = get_user_model().objects.get(username=ARBITER)
    t.save()
    rnd = Round.objects.get(tournament=t, number=ROUND)
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.PUBLISHED)
    boards = list(rnd.games.filter(black__isnull=False).order_by("-board").values_list("pk", flat=True)[:5])
    Game.objects.filter(pk__in=boards).update(result="")
    return BIG_SLUG


def expected_states(slug: str) -> tuple[list[list[tuple[str, str, str]]], list[tuple[int, int]], int]:
    """From the database before the run, with the pure functions: the standings after 0, 1, … n of the
    arbiter's saves, the missing boards (board, game id) and the round's id."""
    from tournaments import selectors
    from tournaments.models import Round, Tournament
    from tournaments.results import Result
    from tournaments.standings import StandingGame, compute_standings

    t = Tournament.objects.get(slug=slug)
    rnd = Round.objects.get(tournament=t, number=ROUND)
    missing = list(rnd.games.filter(result="").order_by("board"))
    data = selectors.tournament_data(t, public_only=True)
    states = []
    for k in range(len(missing) + 1):
        games = data.standing_games() + [StandingGame(round=ROUND, white=g.white_id, black=g.black_id,
                                                      result=Result(RESULTS[i])) for i, g in enumerate(missing[:k])]
        rows = compute_standings(data.standing_players(), games, system=t.system, rounds_total=data.rounds_total,
                                 tiebreaks=list(t.tiebreaks), bye_points=selectors.bye_points_for(t))
        states.append([("" if r.rank is None else str(r.rank), r.player.name, str(r.points)) for r in rows])
    return states, [(g.board, g.pk) for g in missing], rnd.pk


def same_standings(shown: list[tuple[str, str, str]], want: list[tuple[str, str, str]]) -> bool:
    # The page's player cell adds the title and federation after the name.
    return len(shown) == len(want) and all(
        r == wr and (n == wn or n.startswith(wn + " ")) and p == wp
        for (r, n, p), (wr, wn, wp) in zip(shown, want, strict=True))


def round_state(html: str, boards: list[tuple[int, int]]) -> int:
    """How many of the arbiter's saves the round page shows (n + 1 once the round is completed)."""
    parser = TableParser()
    parser.feed(html)
    header, *rows = [r for r in parser.rows if r]
    b, res = header.index("Board"), header.index("Result")
    shown = {r[b]: r[res] for r in rows}
    k = 0
    while k < len(boards) and shown.get(str(boards[k][0])) == RESULTS[k]:
        k += 1
    completed = 'id="live"' not in html  # the live bar goes when the round is over
    return k + 1 if completed and k == len(boards) else k


def page_state(path: str, html: str, states: list[list[tuple[str, str, str]]],
               boards: list[tuple[int, int]]) -> int | None:
    if "/round/" in path:
        return round_state(html, boards)
    shown = standings_on_page(html)
    return next((k for k, want in enumerate(states) if same_standings(shown, want)), None)


# --- The arbiter and the readers -------------------------------------------------------------------------


def arbiter(port: int, boards: list[tuple[int, int]], round_pk: int, seconds: float, log: list[str],
            latencies: list[tuple[str, float]], saves: list[float]) -> None:
    """Enters the missing results, one POST each, then completes the round; `saves` gets the moment each
    save's answer arrived (the transaction is committed by then)."""
    s = Session(port)

    def timed(step: str, method: str, path: str, data: dict[str, Any] | None = None) -> tuple[int, str, str]:
        t0 = time.perf_counter()
        out = s.request(method, path, data)
        latencies.append((step, time.perf_counter() - t0))
        return out

    start = time.monotonic()
    _, _, page = timed("login page", "GET", "/admin/login/?next=/admin/")
    status, location, _ = timed("log in", "POST", "/admin/login/?next=/admin/", {
        "csrfmiddlewaretoken": form_of(page)["csrfmiddlewaretoken"][0], "username": ARBITER,
        "password": PASSWORD, "next": "/admin/"})
    if status != 302:
        log.append(f"arbiter: login refused ({status})")
        return
    url = f"/admin/tournaments/round/{round_pk}/change/"
    for i, (board, game_pk) in enumerate(boards, start=1):
        time.sleep(max(0.0, start + seconds * i / (len(boards) + 1) - time.monotonic()))
        status, _, page = timed("open round", "GET", url)
        form = form_of(page)
        index = next(k.split("-")[1] for k, v in form.items() if re.fullmatch(r"games-\d+-id", k)
                     and v == [str(game_pk)])
        form[f"games-{index}-result"] = [RESULTS[i - 1]]
        form["_continue"] = ["1"]
        status, location, _ = timed("save result", "POST", url, form)
        saves.append(time.monotonic())
        _, _, after = timed("open round", "GET", location or url)
        ok = status == 302 and "was changed successfully" in after
        log.append(f"arbiter: board {board} = {RESULTS[i - 1]}: {'saved' if ok else f'NOT saved ({status})'}")
    time.sleep(max(0.0, start + seconds * (len(boards) + 0.5) / (len(boards) + 1) - time.monotonic()))
    _, _, page = timed("round list", "GET", "/admin/tournaments/round/")
    token = form_of(page)["csrfmiddlewaretoken"][0]
    status, _, _ = timed("complete round", "POST", "/admin/tournaments/round/", {
        "csrfmiddlewaretoken": token, "action": "complete", "_selected_action": str(round_pk), "index": "0"})
    saves.append(time.monotonic())
    _, _, page = timed("open round", "GET", url)
    log.append(f"arbiter: round {ROUND} completed: {'yes' if 'Completed' in page else f'NO ({status})'}")


Read = tuple[float, float, int, str, str]  # started (monotonic), latency, status, path, body digest


def reader(port: int, paths: list[str], deadline: float, cap: int, conditional: bool, reads: list[Read],
           bodies: dict[str, bytes], errors: Counter[str], accept_gzip: bool = False) -> None:
    s = Session(port)
    etags: dict[str, str] = {}
    digests: dict[str, str] = {}
    n = 0
    while time.monotonic() < deadline and n < cap:
        path = paths[n % len(paths)]
        n += 1
        headers = {"If-None-Match": etags[path]} if conditional and path in etags else {}
        if accept_gzip:
            headers["Accept-Encoding"] = "gzip, deflate, br"
        started = time.monotonic()
        t0 = time.perf_counter()
        try:
            status, etag, body = s.get_raw(path, headers)
        except (OSError, http.client.HTTPException) as exc:
            errors[f"{type(exc).__name__} on {path}"] += 1
            continue
        latency = time.perf_counter() - t0
        if status == 200:
            # SHA-256 runs in the processor's SHA instructions: a third of blake2b's time on these pages,
            # and the readers stand for phones, whose work is not the servers' to share the cores with.
            digest = hashlib.sha256(body).hexdigest()
            bodies.setdefault(digest, body)
            digests[path], etags[path] = digest, etag
        elif status == 304:
            digest = digests.get(path, "")
        else:
            digest = ""
            errors[f"HTTP {status} on {path}"] += 1
        reads.append((started, latency, status, path, digest))


def reader_threads(first: int, count: int, ports: list[int], paths: list[str], deadline: float,
                   args: argparse.Namespace, reads: list[Read], bodies: dict[str, bytes],
                   errors: Counter[str]) -> list[threading.Thread]:
    return [threading.Thread(target=reader, args=(ports[i % len(ports)], paths[i % 3:] + paths[:i % 3], deadline,
                                                  args.cap, args.conditional, reads, bodies, errors, args.gzip))
            for i in range(first, first + count)]


def split_readers(readers: int, processes: int) -> list[tuple[int, int]]:
    """(first reader, how many) for each process; the first group runs in this process."""
    processes = max(1, min(processes, readers))
    size, extra = divmod(readers, processes)
    groups, first = [], 0
    for k in range(processes):
        count = size + (k < extra)
        groups.append((first, count))
        first += count
    return groups


def reader_process(send: Any, first: int, count: int, ports: list[int], paths: list[str], deadline: float,
                   args: argparse.Namespace) -> None:
    """Readers in a process of their own, as separate clients are: fifty threads in one interpreter would
    queue for its lock after each answer arrives, and that wait would be counted as the server's latency.
    time.monotonic() is the same clock in every process, so reads and saves compare as before."""
    reads: list[Read] = []
    bodies: dict[str, bytes] = {}
    errors: Counter[str] = Counter()
    cpu0 = time.process_time()
    threads = reader_threads(first, count, ports, paths, deadline, args, reads, bodies, errors)
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=args.seconds + 180)
    send.send((reads, bodies, errors, time.process_time() - cpu0))
    send.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def machine_cpu() -> tuple[float, float]:
    """(busy, stolen) CPU seconds of the whole machine so far, from /proc/stat. Stolen time is what the
    hypervisor gave to other guests while this one wanted to run: a VM's speed is not constant."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    hz = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / hz, steal / hz


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU of a process and its children (gunicorn's master and workers), from /proc."""
    user = system = 0.0
    hz = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        user += int(fields[11]) / hz
        system += int(fields[12]) / hz
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                u, s = cpu_times(int(child))
                user, system = user + u, system + s
    except (OSError, IndexError, ValueError):
        pass
    return user, system


def servers_cpu(procs: list[subprocess.Popen[bytes]]) -> tuple[float, float]:
    times = [cpu_times(p.pid) for p in procs]
    return sum(u for u, _ in times), sum(s for _, s in times)


# --- One run ----------------------------------------------------------------------------------------------


def run(args: argparse.Namespace, url: str, cache: str, servers: int) -> dict[str, Any]:
    """One configuration: cache "off", "file" or "redis"; `servers` gunicorn servers."""
    redis = Redis() if cache == "redis" else None
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "0", "PYTHONUNBUFFERED": "1",
           "DJANGO_CONN_MAX_AGE": str(args.conn_max_age), "DAMIER_PAGE_CACHE": "0" if cache == "off" else "1"}
    env.pop("DAMIER_CACHE_URL", None)
    cache_dir = tempfile.mkdtemp(prefix="damier-load-cache-")
    env["DAMIER_CACHE_DIR"] = cache_dir
    procs: list[subprocess.Popen[bytes]] = []
    try:
        if redis is not None:
            env["DAMIER_CACHE_URL"] = redis.start()
        for cmd in (["migrate", "--noinput", "-v0"], ["load_demo"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([PY, "manage.py", *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        # The readers' expectations are computed here, in this process, from the same database.
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django
        from django.conf import settings

        if not settings.configured:
            django.setup()
        from django.db import connection, connections

        connections.close_all()
        settings.DATABASES["default"]["NAME"] = urllib.parse.urlparse(url).path.lstrip("/")
        slug = prepare_big(args.players) if args.players != 10 else DEMO_SLUG
        states, boards, round_pk = expected_states(slug)
        connection.close()
        gunicorn = str(Path(PY).parent / "gunicorn")
        ports = [free_port() for _ in range(servers)]
        # The arbiter's own server, when asked: the admin behind a proxy rule of its own (README), so his
        # requests queue for the cores with the crowd's but not for a busy worker's interpreter lock.
        arbiter_port = free_port() if args.arbiter_server else ports[0]
        for port, workers, threads in [(p, args.workers, args.threads) for p in ports] + (
                [(arbiter_port, 1, 4)] if args.arbiter_server else []):
            # The crowd's servers yield the cores to the arbiter's when both want them.
            nice = ["nice", "-n", str(args.crowd_nice)] if args.arbiter_server and port != arbiter_port else []
            procs.append(subprocess.Popen([*nice, gunicorn, "-c", "config/gunicorn.py", "config.wsgi",
                                           "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
                                           "--threads", str(threads), "--log-level", "warning"],
                                          cwd=ROOT, env=env))
        for port in ports + ([arbiter_port] if args.arbiter_server else []):
            _wait_until_up(port)
        paths = [f"/t/{slug}/standings/", f"/t/{slug}/crosstable/", f"/t/{slug}/round/{ROUND}/"]
        for port in ports:
            for p in paths:
                status, _, _ = Session(port).get_raw(p, {})
                if status != 200:
                    raise SystemExit(f"{p}: HTTP {status} on port {port}; the public pages are needed.")
        reads: list[Read] = []
        bodies: dict[str, bytes] = {}
        errors: Counter[str] = Counter()
        log: list[str] = []
        arbiter_latencies: list[tuple[str, float]] = []
        saves: list[float] = []
        user0, system0 = servers_cpu(procs)
        machine0, own0 = machine_cpu(), time.process_time()
        readers_cpu = 0.0
        t0 = time.monotonic()
        deadline = t0 + args.seconds
        groups = split_readers(args.readers, args.reader_processes)
        pipes = []
        for first, count in groups[1:]:
            receive, send = multiprocessing.Pipe(duplex=False)
            child = multiprocessing.get_context("fork").Process(
                target=reader_process, args=(send, first, count, ports, paths, deadline, args))
            child.start()
            send.close()
            pipes.append((child, receive))
        first, count = groups[0]
        threads = reader_threads(first, count, ports, paths, deadline, args, reads, bodies, errors)
        threads.append(threading.Thread(target=arbiter, args=(arbiter_port, boards, round_pk, args.seconds, log,
                                                               arbiter_latencies, saves)))
        stopped: list[float] = []
        if args.redis_down_at is not None and redis is not None:
            def stop_redis() -> None:
                redis.stop()
                stopped.append(time.monotonic())
            threads.append(threading.Thread(target=lambda: (time.sleep(args.redis_down_at * args.seconds),
                                                             stop_redis())))
        for t in threads:
            t.start()
        for child, receive in pipes:
            if receive.poll(args.seconds + 180):
                more_reads, more_bodies, more_errors, more_cpu = receive.recv()
                readers_cpu += more_cpu
                reads.extend(more_reads)
                bodies.update(more_bodies)
                errors.update(more_errors)
            else:
                errors["a reader process hung"] += 1
            child.join(timeout=30)
        for t in threads:
            t.join(timeout=args.seconds + 180)
        elapsed = time.monotonic() - t0
        user1, system1 = servers_cpu(procs)
        server_user, server_system = user1 - user0, system1 - system0
        cpu = server_user + server_system
        # This process's readers and the arbiter's client count with the readers.
        readers_cpu += time.process_time() - own0
        machine1 = machine_cpu()
        busy, steal = machine1[0] - machine0[0], machine1[1] - machine0[1]
        hung = sum(t.is_alive() for t in threads)
        # Freshness: a read that started after save k was answered must show at least k saves.
        known: dict[tuple[str, str], int | None] = {}
        stale: Counter[str] = Counter()
        for started, _, status, path, digest in reads:
            if status not in (200, 304) or not digest:
                continue
            if (path, digest) not in known:
                body = bodies[digest]
                body = gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body
                known[(path, digest)] = page_state(path, body.decode("utf-8", "replace"), states, boards)
            state = known[(path, digest)]
            need = sum(1 for at in saves if at < started)
            if "/round/" not in path:
                need = min(need, len(boards))  # completing the round does not change the standings
            if state is None or state < need:
                stale[path] += 1
        final = Session(ports[-1]).get_raw(f"/t/{slug}/standings/", {})[2].decode()
        try:
            equal = same_standings(standings_on_page(final), states[-1])
        except ValueError:  # no table at all: an error page
            equal = False
        lat = [x for _, x, _, _, _ in reads]
        result = {"cache": cache, "servers": servers, "requests": len(reads), "rps": len(reads) / elapsed,
                  "p50": percentile(lat, .5) * 1000, "p95": percentile(lat, .95) * 1000,
                  "max": max(lat, default=0) * 1000, "errors": sum(errors.values()),
                  "stale": sum(stale.values()), "not_modified": sum(1 for r in reads if r[2] == 304),
                  "cpu_ms": cpu * 1000 / max(1, len(reads)), "equal": equal}
        print(f"load: {args.readers} readers in {args.reader_processes} process(es), {elapsed:.1f} s, "
              f"{servers} gunicorn server(s) x {args.workers} workers "
              f"x {args.threads} threads (gthread), PostgreSQL, page cache {cache}, "
              f"{'conditional' if args.conditional else 'full'} GETs{' (gzip)' if args.gzip else ''}, "
              f"{args.players} players ({slug})"
              f"{'; the arbiter on a server of his own (1 worker x 4 threads)' if args.arbiter_server else ''}")
        print(f"  requests: {len(reads)}  ({result['rps']:.1f} req/s); 304: {result['not_modified']}")
        print(f"  latency:  p50 {result['p50']:.0f} ms  p95 {result['p95']:.0f} ms  max {result['max']:.0f} ms")
        for p in paths:
            mine = [x for _, x, _, q, _ in reads if q == p]
            print(f"    {p:<36} {len(mine):>6} requests  p50 {percentile(mine, .5) * 1000:.0f} ms  "
                  f"p95 {percentile(mine, .95) * 1000:.0f} ms")
        # Where the tail comes from: reads in the 2 s after a save (re-renders, the arbiter's own requests)
        # against the rest of the run.
        near = [x for at, x, _, _, _ in reads if any(0 <= at - s < 2.0 for s in saves)]
        far = [x for at, x, _, _, _ in reads if not any(0 <= at - s < 2.0 for s in saves)]
        print(f"    within 2 s after a save: {len(near):>6} requests  p50 {percentile(near, .5) * 1000:.0f} ms  "
              f"p95 {percentile(near, .95) * 1000:.0f} ms; the rest: {len(far)} requests  "
              f"p50 {percentile(far, .5) * 1000:.0f} ms  p95 {percentile(far, .95) * 1000:.0f} ms")
        print(f"  server CPU: {result['cpu_ms']:.2f} ms per request ({cpu:.1f} s: user {server_user:.1f} s, "
              f"system {server_system:.1f} s)")
        # Where the two cores went: the p95 tail is a queue for them, so what the clients and the database
        # take from the servers matters as much as the servers' own cost.
        print(f"  machine CPU in {elapsed:.0f} s on {os.cpu_count()} cores: servers {cpu:.1f} s, readers "
              f"{readers_cpu:.1f} s ({readers_cpu * 1000 / max(1, len(reads)):.2f} ms per request), "
              f"PostgreSQL and the rest {max(0.0, busy - cpu - readers_cpu):.1f} s, "
              f"idle {max(0.0, elapsed * (os.cpu_count() or 1) - busy - steal):.1f} s, "
              f"stolen by the host {steal:.1f} s")
        if stopped:
            # The cache is a speed-up, never a condition: with Redis gone, pages are rendered (or taken from
            # each process's memory) and served; errors here are the visitors'.
            before = [r for r in reads if r[0] < stopped[0]]
            after = [r for r in reads if r[0] >= stopped[0]]
            for name, part in (("before", before), ("after", after)):
                lat_part = [x for _, x, _, _, _ in part]
                span = (stopped[0] - t0) if name == "before" else (t0 + elapsed - stopped[0])
                print(f"  Redis {name} it was stopped ({stopped[0] - t0:.1f} s into the run): {len(part)} requests "
                      f"({len(part) / max(span, 0.001):.1f} req/s), p50 {percentile(lat_part, .5) * 1000:.0f} ms, "
                      f"p95 {percentile(lat_part, .95) * 1000:.0f} ms, "
                      f"errors {sum(1 for r in part if r[2] not in (200, 304))}")
            result["after_redis"] = len(after)
        print(f"  errors:   {result['errors']}" + "".join(f"\n    {k}: {v}" for k, v in errors.items()))
        print(f"  stale reads (a page read after a save not showing it): {result['stale']}"
              + "".join(f"\n    {k}: {v}" for k, v in stale.items()))
        everything = [x for _, x in arbiter_latencies]
        print(f"  arbiter:  {len(everything)} requests, p50 {percentile(everything, .5) * 1000:.0f} ms,"
              f" max {max(everything, default=0) * 1000:.0f} ms")
        steps = dict.fromkeys(step for step, _ in arbiter_latencies)
        print("    " + "; ".join(
            f"{step} {'/'.join(f'{x * 1000:.0f}' for k, x in arbiter_latencies if k == step)} ms" for step in steps))
        for line in log:
            print(f"    {line}")
        print(f"  final standings: {'equal to the expected ones' if equal else 'DIFFERENT'} ({len(states[-1])} rows)",
              flush=True)
        result["failed"] = bool(errors) or bool(stale) or not equal or bool(hung) or any(
            "NOT" in line or "refused" in line for line in log)
        return result
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis is not None and redis.proc is not None and redis.proc.poll() is None:
            redis.stop()
        shutil.rmtree(cache_dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--hall" in argv:
        # The playing hall's scenario has options of its own; bench/load_hall.py reads them (it imports this
        # module's PostgreSQL, Session and reader, hence imported here and not at the top).
        from bench import load_hall

        return load_hall.main([a for a in argv if a != "--hall"])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hall", action="store_true",
                    help="the playing hall instead: players checking in from their phones while readers poll and "
                         "hall screens refresh (bench/load_hall.py; `--hall --help` lists its options)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--readers", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn worker processes per server")
    ap.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    ap.add_argument("--cap", type=int, default=20000, help="most requests per reader")
    ap.add_argument("--players", type=int, default=10, help="10: the demo; else a Swiss of that many, 9 rounds")
    ap.add_argument("--cache", choices=["on", "off"], default="on")
    ap.add_argument("--servers", type=int, default=1, help="gunicorn servers on their own ports (2+: Redis)")
    ap.add_argument("--conditional", action="store_true", help="readers send If-None-Match, as browsers do")
    ap.add_argument("--gzip", action="store_true", help="readers accept gzip, as browsers and phones do")
    ap.add_argument("--reader-processes", type=int, default=5,
                    help="spread the readers over this many processes (separate clients, as a crowd's phones are: "
                         "fifty threads in one interpreter would queue for its lock and count that as the "
                         "server's latency); 1: all in this one")
    ap.add_argument("--arbiter-server", action="store_true",
                    help="the arbiter on a gunicorn of his own (1 worker x 4 threads), as the README's proxy rule "
                         "for /admin/ does; its CPU is counted with the rest")
    ap.add_argument("--crowd-nice", type=int, default=10,
                    help="with --arbiter-server: the niceness of the crowd's servers (README)")
    ap.add_argument("--conn-max-age", type=int, default=60, help="DJANGO_CONN_MAX_AGE of the servers")
    ap.add_argument("--redis-down-at", type=float, default=None, metavar="FRACTION",
                    help="the page cache in Redis (even with one server), stopped this far into the run (0.5: "
                         "halfway); the visitors' errors after it must be 0")
    ap.add_argument("--matrix", action="store_true",
                    help="no cache / cache (files) / 2 servers + Redis, one after the other, fresh databases")
    args = ap.parse_args(argv)
    if not 1 <= args.readers <= 200 or not 1 <= args.seconds <= 600 or not 1 <= args.servers <= 4:
        ap.error("readers 1-200, seconds 1-600, servers 1-4")
    if args.players != 10 and not 12 <= args.players <= 1000:
        ap.error("players: 10 (the demo) or 12-1000")
    if args.cache == "off":
        configs = [("off", args.servers)]
    else:
        configs = [("redis" if args.servers > 1 else "file", args.servers)]
    if args.redis_down_at is not None:
        if not 0 < args.redis_down_at < 1 or args.cache == "off" or args.matrix:
            ap.error("--redis-down-at: a fraction between 0 and 1, with the cache on, without --matrix")
        configs = [("redis", args.servers)]
    if args.matrix:
        configs = [("off", 1), ("file", 1), ("redis", 2)]
    pg = None
    url = os.environ.get("DATABASE_URL", "")
    if url:
        parsed = urllib.parse.urlparse(url)
        if not parsed.scheme.startswith("postgres") or parsed.hostname not in LOOPBACK:
            raise SystemExit("DATABASE_URL must be a PostgreSQL server on 127.0.0.1 (loopback only).")
        if args.matrix:
            raise SystemExit("--matrix starts its own PostgreSQL: leave DATABASE_URL unset.")
    else:
        pg = Postgres()
        url = pg.start()
    results = []
    try:
        for i, (cache, servers) in enumerate(configs):
            run_url = pg.new_database(f"load{i}") if pg is not None and i > 0 else url
            results.append(run(args, run_url, cache, servers))
    finally:
        if pg is not None:
            pg.stop()
    if len(results) > 1:
        print(f"\nsummary ({args.players} players, {args.readers} readers in {args.reader_processes} process(es), "
              f"{args.seconds:.0f} s each, "
              f"{'conditional' if args.conditional else 'full'} GETs):")
        print("  cache  servers    req/s   p50 ms   p95 ms  CPU ms/req  errors  stale")
        for r in results:
            print(f"  {r['cache']:<6} {r['servers']:>7} {r['rps']:>8.1f} {r['p50']:>8.0f} {r['p95']:>8.0f} "
                  f"{r['cpu_ms']:>11.2f} {r['errors']:>7} {r['stale']:>6}")
    return 1 if any(r["failed"] for r in results) else 0


def _wait_until_up(port: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if Session(port).request("GET", "/")[0] in (200, 302):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on 127.0.0.1:{port} within {timeout:.0f} s")


if __name__ == "__main__":
    raise SystemExit(main())
