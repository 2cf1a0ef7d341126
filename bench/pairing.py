"""Seconds to pair one Dutch round after 8 played rounds, for 50, 200, 500 and 1,000 players.

    .venv/bin/python bench/pairing.py [--sizes 50,200] [--seed 1]
    .venv/bin/python bench/pairing.py --conformance 200 [--max-players 60] [--all-features]
    .venv/bin/python bench/pairing.py --swiss-reference [DIR] [--max-players N] [--reference BBP]
    .venv/bin/python bench/pairing.py --fast-paths 200 [--max-players 60]

--swiss-reference checks every round (2 to the last) of the bbpPairings v6 reference tournaments
(../shared/swiss-reference, 1,098 rounds) as tests/tournaments/pairing/reference_check.py does, and
prints how many are identical, pairs and colours. With --reference naming a bbpPairings binary, the
same cut files are also paired by it, which shows the cut reproduces the reference's own rounds.

--fast-paths N pairs every round of N random tournaments (all features) with the engine's fast
paths and again with one full matching per step instead, and counts the rounds that differ.

--conformance N generates N tournaments (9 to --max-players players, 5 to 11 rounds, draws,
forfeits, withdrawals) and has the reference Dutch implementation (caissify-pairings in the throwaway
virtualenv of tests/tournaments/pairing/reference.py) re-pair every round; it prints the share of
tournaments whose every round it pairs identically. --all-features adds late entries and zero-point
byes; the reference's checker pairs late entries in round 1, so that round is left out for them.

The 8 rounds are generated with a quick greedy pairer (or the engine, --engine-history); only the
9th pairing, by the Dutch engine, is timed. With --reference BBP (a bbpPairings binary built
outside the repository), round 9 is written as TRF and paired from that file three ways, each
timed --repeat times (median): the engine's pairing call in this process (networkx imported
beforehand, as in a running server); a whole `python -m tournaments.verification` process (Python
start-up and imports included, bytecode compiled beforehand as for an installed program); and a
whole bbpPairings process. The table says whether all three pair it the same.
Goal: no size slower than bbpPairings on the same file (--reference).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.colours import allocate  # noqa: E402
from tournaments.pairing.engine import pair_dutch  # noqa: E402
from tournaments.pairing.model import Board, PairingRequest, PairingResult  # noqa: E402
from tournaments.pairing.state import build_states  # noqa: E402
from tournaments.verification.generator import GenSettings, generate, random_settings  # noqa: E402


def quick_pairer(req: PairingRequest) -> PairingResult:
    """Rounds 1-8 of the benchmark only need realistic histories: score order, no rematches, colours
    alternated where possible. This greedy pairer makes them in no time (--engine-history uses the
    Dutch engine instead, which takes minutes at 500 players and more)."""
    states = build_states(req)
    todo = sorted((states[p.id] for p in req.players if not p.withdrawn and not p.excused), key=lambda s: s.rank)
    bye = None
    if len(todo) % 2:
        bye = next((s for s in reversed(todo) if s.bye_ok), todo[-1])
        todo.remove(bye)
    boards = []
    while todo:
        a = todo.pop(0)
        k = next((i for i, b in enumerate(todo) if b.id not in a.opponents), 0)
        b = todo.pop(k)
        w, k2 = allocate(a, b, req.initial_colour)
        boards.append(Board(w.id, k2.id))
    return PairingResult(tuple(boards), bye.id if bye else None)


def bench(players: int, seed: int, engine_history: bool = False, dump: str | None = None) -> tuple[float, float, int]:
    start = time.perf_counter()
    settings = GenSettings(players=players, rounds=9, seed=seed, late_rate=0, excuse_rate=0)
    t = generate(settings, pair=None if engine_history else quick_pairer, rounds=8)
    built = time.perf_counter() - start
    req = t.request(9)
    if dump:
        import pickle

        Path(dump, f"round9_{players}.pkl").write_bytes(pickle.dumps(req))
    start = time.perf_counter()
    res = pair_dutch(req)
    return time.perf_counter() - start, built, len(res.boards)


Timing = tuple[float, float]  # (wall, CPU) seconds


def bench_file(
    players: int, seed: int, engine_history: bool, binary: str | None, repeat: int = 3
) -> tuple[Timing, Timing, Timing | None, bool]:
    """Round 9 of the same tournament, from the same TRF file, each timed `repeat` times (the
    median): the engine's pairing call in this process (networkx already imported, as in a running
    server); a whole `python -m tournaments.verification --dutch IN -p OUT` process (Python start-up,
    imports with compiled bytecode, reading the file, pairing, writing); bbpPairings' whole process
    on the same file. Then whether all of them pair it the same. CPU seconds (user + system) are
    the fairer figure on a shared machine."""
    import statistics
    import tempfile

    import networkx  # noqa: F401  # loaded once by a running server: not part of a pairing's time

    from tournaments.pairing.trf import parse_trf, request_from_trf, write_trf

    settings = GenSettings(players=players, rounds=9, seed=seed, late_rate=0, excuse_rate=0)
    t = generate(settings, pair=None if engine_history else quick_pairer, rounds=8)
    text = write_trf(t.request(9).players, total_rounds=9, next_round=9)
    req = request_from_trf(parse_trf(text))
    calls = []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        res = pair_dutch(req)
        calls.append((time.perf_counter() - start, time.process_time() - cpu))
    ours = (statistics.median(c[0] for c in calls), statistics.median(c[1] for c in calls))
    mine = {(b.white, b.black) for b in res.boards} | ({(res.bye, 0)} if res.bye else set())
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "in.trf")
        src.write_text(text, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "pycache"))  # compiled once, as when installed
        cli = [sys.executable, "-m", "tournaments.verification", "--dutch", str(src), "-p"]
        _run(cli, Path(tmp, "warm.txt"), env)  # writes the bytecode; not timed
        whole, got = _timed(cli, Path(tmp, "cli.txt"), env, repeat)
        same = got == mine
        if not binary:
            return ours, whole, None, same
        theirs_s, theirs = _timed([binary, "--dutch", str(src), "-p"], Path(tmp, "bbp.txt"), None, repeat)
    return ours, whole, theirs_s, same and theirs == mine


def _run(cmd: list[str], out: Path, env: dict[str, str] | None) -> set[tuple[int, int]] | None:
    import subprocess

    done = subprocess.run([*cmd, str(out)], capture_output=True, text=True, check=False, env=env,
                          cwd=Path(__file__).resolve().parent.parent)
    if done.returncode:
        print(f"  {cmd[0]}: {done.stdout.strip()} {done.stderr.strip()}")
        return None
    rows = [int(x) for x in out.read_text().split()[1:]]
    return set(zip(rows[::2], rows[1::2], strict=True))


def _timed(
    cmd: list[str], out: Path, env: dict[str, str] | None, repeat: int
) -> tuple[Timing | None, set[tuple[int, int]] | None]:
    """Median wall and CPU seconds of `repeat` runs of a whole process, and its pairing."""
    import resource
    import statistics

    walls, cpus, got = [], [], None
    for _ in range(repeat):
        start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        got = _run(cmd, out, env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if got is None:
            return None, None
        walls.append(time.perf_counter() - start)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return (statistics.median(walls), statistics.median(cpus)), got


def conformance(count: int, max_players: int, all_features: bool, batch: int = 25, min_players: int = 9) -> None:
    import random

    from tests.tournaments.pairing import reference

    if not reference.available():
        print(f"reference not installed at {reference.REFERENCE_PYTHON}")
        return
    rng = random.Random(12345)
    same_t = same_r = rounds = same_col = 0
    sizes: list[int] = []
    start = time.perf_counter()
    for first in range(0, count, batch):
        ts = []
        for seed in range(first, min(count, first + batch)):
            n, r = rng.randint(min_players, max_players), rng.randint(5, 11)
            extra = {} if all_features else {"late_rate": 0.0, "excuse_rate": 0.0}
            ts.append(generate(GenSettings(players=n, rounds=r, seed=seed, **extra)))  # type: ignore[arg-type]
        for t, row in zip(ts, reference.compare(ts), strict=True):
            late = any(v > 1 for v in t.entry_round.values())
            row = [c for c in row if not (late and c.round == 1)]
            bad = [c.round for c in row if not c.same_pairs]
            rounds += len(row)
            same_r += len(row) - len(bad)
            same_col += sum(c.same_colours for c in row)
            sizes.append(t.settings.players)
            if bad:
                print(f"  differs: seed {t.settings.seed}, {t.settings.players} players, rounds {bad}", flush=True)
            else:
                same_t += 1
    print(
        f"{same_t}/{len(sizes)} tournaments identical ({100 * same_t / len(sizes):.1f}%), "
        f"{same_r}/{rounds} rounds, colours too in {same_col}/{rounds} rounds; "
        f"{min(sizes)}-{max(sizes)} players (mean {sum(sizes) / len(sizes):.0f}); "
        f"{time.perf_counter() - start:.0f} s"
    )


def absolute(count: int, max_players: int, part: int = 0, parts: int = 1) -> None:
    """Every round of `count` random tournaments keeps the absolute criteria and
    pairs every player who can be paired (an independent maximum matching says how many can)."""
    import random

    from tournaments.pairing.checker import absolute_violations
    from tournaments.pairing.colours import compatible_colours
    from tournaments.pairing.matching import max_weight_matching

    bad = rounds = done = 0
    start = time.perf_counter()
    for i in range(part, count, parts):
        rng = random.Random(2027 + i)
        settings = random_settings(i, rng, max_players)
        t = generate(settings)
        for rec in t.rounds:
            rounds += 1
            found = [v for v in absolute_violations(rec.request, rec.result.pairing) if v.criterion != "not paired"]
            st = build_states(rec.request)
            act = [st[p.id] for p in rec.request.players if not p.withdrawn and not p.excused]
            edges = [
                (a.id, b.id, 1)
                for j, a in enumerate(act)
                for b in act[j + 1 :]
                if b.id not in a.opponents and compatible_colours(a, b)
            ]
            if found or len(max_weight_matching(edges)) // 2 != len(rec.result.boards):
                bad += 1
                print(f"  seed {i} round {rec.request.round}: {found or 'fewer boards than possible'}", flush=True)
        done += 1
        if done % 25 == 0:
            print(f"{done} tournaments, {rounds} rounds, {bad} bad, {time.perf_counter() - start:.0f} s", flush=True)
    print(
        f"{done} tournaments (9-{max_players} players, 5-11 rounds), {rounds} rounds: {bad} with a problem; "
        f"{time.perf_counter() - start:.0f} s"
    )


def fast_paths(count: int, max_players: int) -> None:
    """Pair every round of `count` random tournaments (all features) with the engine's fast paths
    (the D-order shortcut, the core-then-complete matching, the exhaustive small matching) and
    without them (one full matching per step): the pairings must be identical."""
    import random

    from tournaments.pairing import dutch, matching

    rounds = differ = 0
    start = time.perf_counter()
    for i in range(count):
        settings = random_settings(i, random.Random(4242 + i), max_players)
        requests = [rec.request for rec in generate(settings).rounds]
        fast = [pair_dutch(r) for r in requests]
        saved = dutch.first_if_best, dutch._core_then_complete, matching.SMALL_GRAPH
        dutch.first_if_best = lambda *args: None  # type: ignore[assignment]
        dutch._core_then_complete = lambda *args: None  # type: ignore[assignment]
        matching.SMALL_GRAPH = 0
        try:
            slow = [pair_dutch(r) for r in requests]
        finally:
            dutch.first_if_best, dutch._core_then_complete, matching.SMALL_GRAPH = saved
        for req, f, s in zip(requests, fast, slow, strict=True):
            rounds += 1
            if (f.boards, f.bye, f.unpaired) != (s.boards, s.bye, s.unpaired):
                differ += 1
                print(f"  differs: seed {i}, {settings.players} players, round {req.round}", flush=True)
    print(f"{count} tournaments (9-{max_players} players), {rounds} rounds: {differ} differ between the fast "
          f"paths and the full matchings; {time.perf_counter() - start:.0f} s")


def swiss_reference(directory: str | None, max_players: int | None, binary: str | None) -> None:
    import resource
    import statistics
    import tempfile

    import networkx  # noqa: F401  # loaded once by a running server: not part of a pairing's time

    from tests.tournaments.pairing import reference_check as rc

    where = Path(directory) if directory else rc.REFERENCE_DIR
    files = rc.reference_files(max_players, where)
    if not files:
        print(f"no reference tournaments at {where}")
        return
    same = same_pairs = rounds = bbp_same = 0
    ours: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            text = f.read_bytes().decode("utf-8")
            band = _band(rc.players_in(f))
            for r in range(2, rc.rounds_in(f) + 1):
                cpu = time.process_time()
                check = rc.check_round(f, r, text)  # cut, read, pair and compare: all counted
                ours.setdefault(band, []).append(time.process_time() - cpu)
                rounds += 1
                same += check.identical
                same_pairs += check.same_pairs
                if not check.identical:
                    print("  " + check.describe(), flush=True)
                if binary:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    bbp_same += _bbp_pairing(binary, Path(tmp), rc.cut_text(text, r)) == check.expected
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    spent = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                    theirs.setdefault(band, []).append(spent)
    print(
        f"{same} / {rounds} rounds identical (pairs and colours); pairs identical in {same_pairs}; "
        f"{len(files)} tournaments; {time.perf_counter() - start:.0f} s"
    )
    if binary:
        print(f"{binary} on the same cut files: {bbp_same} / {rounds} rounds identical to the reference")
        print("CPU seconds a round, median / 90th percentile: Damier cuts, reads and pairs in this process "
              "(networkx imported); bbpPairings is a whole process reading the cut file")
        for band in sorted(ours, key=lambda b: int(b.split("-")[0])):
            mine, bbp = ours[band], theirs[band]
            print(f"  {band:>8} players, {len(mine):>4} rounds: Damier {statistics.median(mine):.3f} / "
                  f"{_p90(mine):.3f}, bbpPairings {statistics.median(bbp):.3f} / {_p90(bbp):.3f}")


def _band(players: int) -> str:
    return "1-60" if players <= 60 else "61-150" if players <= 150 else "151-"


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _bbp_pairing(binary: str, tmp: Path, cut: str) -> frozenset[tuple[int, int | None]]:
    import subprocess

    src, out = tmp / "in.trf", tmp / "out.txt"
    src.write_text(cut, encoding="utf-8", newline="")
    done = subprocess.run([binary, "--dutch", str(src), "-p", str(out)], capture_output=True, text=True, check=False)
    if done.returncode:
        print(f"  {binary}: {done.stdout.strip()} {done.stderr.strip()}")
        return frozenset()
    rows = out.read_text().split()[1:]
    return frozenset((int(a), None if b == "0" else int(b)) for a, b in zip(rows[::2], rows[1::2], strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50,200,500,1000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--conformance", type=int, default=0, metavar="N")
    ap.add_argument("--max-players", type=int, default=60)
    ap.add_argument("--min-players", type=int, default=9)
    ap.add_argument("--fast-paths", type=int, default=0, metavar="N",
                    help="compare the engine's fast paths with full matchings on N random tournaments")
    ap.add_argument("--absolute", type=int, default=0, metavar="N", help="check N random tournaments")
    ap.add_argument("--part", default="0/1", help="with --absolute: K/M runs tournaments K, K+M, ...")
    ap.add_argument("--all-features", action="store_true")
    ap.add_argument("--engine-history", action="store_true", help="pair rounds 1-8 with the engine too")
    ap.add_argument("--dump", metavar="DIR", help="pickle each round-9 request there (for profiling)")
    ap.add_argument("--swiss-reference", nargs="?", const="", metavar="DIR",
                    help="check the bbpPairings v6 reference tournaments (default ../shared/swiss-reference)")
    ap.add_argument("--repeat", type=int, default=3, help="with --reference: runs per timing (the median)")
    ap.add_argument("--reference", metavar="BBP",
                    help="a bbpPairings binary: time it on the same round-9 files (or, with --swiss-reference, "
                         "pair the same cut files)")
    args = ap.parse_args()
    if args.swiss_reference is not None:
        limit = args.max_players if "--max-players" in sys.argv else None
        swiss_reference(args.swiss_reference or None, limit, args.reference)
        return
    if args.fast_paths:
        fast_paths(args.fast_paths, args.max_players)
        return
    if args.absolute:
        part, parts = (int(x) for x in args.part.split("/"))
        absolute(args.absolute, args.max_players, part, parts)
        return
    if args.conformance:
        conformance(args.conformance, args.max_players, args.all_features, min_players=args.min_players)
        return
    if args.reference:
        print(f"Round 9 after 8 rounds, the same TRF file for every column; wall / CPU seconds, median of "
              f"{args.repeat} run(s).\n  Damier call: pair_dutch in this process (networkx already imported, "
              "as in a running server);\n  Damier process: python -m tournaments.verification --dutch IN -p OUT, "
              "start-up and imports included (bytecode compiled beforehand);\n  bbpPairings process: "
              "bbpPairings --dutch IN -p OUT.")
        print(f"{'players':>8} {'Damier call':>13} {'Damier process':>15} {'bbpPairings process':>20} "
              f"{'same pairing':>13}")
        for n in (int(x) for x in args.sizes.split(",")):
            ours, whole, theirs, same = bench_file(n, args.seed, args.engine_history, args.reference, args.repeat)
            cols = [f"{t[0]:.3f} / {t[1]:.3f}" if t is not None else "failed" for t in (ours, whole, theirs)]
            print(f"{n:>8} {cols[0]:>13} {cols[1]:>15} {cols[2]:>20} {'yes' if same else 'no':>13}", flush=True)
        return
    print(f"{'players':>8} {'round 9 (s)':>12} {'rounds 1-8 (s)':>15} {'boards':>7}")
    for n in (int(x) for x in args.sizes.split(",")):
        secs, built, boards = bench(n, args.seed, args.engine_history, args.dump)
        print(f"{n:>8} {secs:>12.2f} {built:>15.1f} {boards:>7}", flush=True)


if __name__ == "__main__":
    main()
