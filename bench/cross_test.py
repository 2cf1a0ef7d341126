"""Cross-test with bbpPairings v6 (pairings) and TieBreakServer (tie-breaks), both ways.

    .venv/bin/python bench/cross_test.py --bbp /tmp/bbp/bbpPairings.exe [--tbs /tmp/tbsenv/bin/python]
        [--convention fide_c07|fmjd] [--direction 1|2|both] [--start 0] [--count 100] [--workers 1]
        [--max-players 100] [--log /tmp/cross_test.jsonl] [--keep DIR]
    .venv/bin/python bench/cross_test.py --summary /tmp/cross_test.jsonl

Neither tool is a dependency of Damier; both live outside the repository:
    bbpPairings v6: its source, built with its own Makefile (`make` in the source tree), e.g. in /tmp/bbp
    TieBreakServer: python3 -m venv /tmp/tbsenv && /tmp/tbsenv/bin/pip install gacrux==1.11.65

Direction 1: bbpPairings' random tournament generator writes a tournament (`--dutch -g CONFIG -o F
-s SEED`, 2/1/0 through PointsForWin/Draw/PAB, its other parameters drawn here from the
tournament's number), and Damier's checker (tournaments.verification.file_check) replays every round:
pairs, colours, bye. Direction 2: Damier's generator (`python -m tournaments.verification -g`, every
option left unset and so drawn from the seed; in every other tournament no bye worth 1 or 2 and no
1-0 ruling, whose ranks Damier's standings cannot compute yet) writes a tournament, and bbpPairings' checker
(`--dutch F -c`) replays it; a round it prints a table for is a discrepancy. When Damier's
generator finds no legal pairing for a round (a small field, many rounds), bbpPairings is given the
rounds before it and the same absentees and asked to pair it (`-p`): it must find none either (its
exit status 1), or the round is a discrepancy; the rounds before are checked as above.

Tie-breaks, both ways, where TieBreakServer runs (`--tbs` names a Python with the `gacrux` package,
the TieBreakServer of FIDE's TEC, installed outside the repository): the file with record 202 set to
`BH BH/C1 BH/M1 SB WIN` is read by its tiebreakchecker, and each value compared with Damier's
solkoff, short truncated Solkoff, Solkoff median, Sonneborn-Berger and wins, computed in the convention
`--convention` names:
- fide_c07 (the default): FIDE's Tie-Break Regulations C.07, 2024 edition (tournaments/standings/fide_c07.py),
  the rules TieBreakServer applies. The copy it reads starts on C07_START (record 042), a date for which
  it applies that edition (it picks the edition by the start date: an undated file gets the 2026 one, whose
  dummy opponent has caps). Both sides then follow one rule set, so every differing value is counted as
  "unexplained": a finding, to be named with the rule that explains it or fixed.
- fmjd: Damier's FMJD reading (Annex 4.2: a bye an opponent scoring 0, a forfeit like a game, a bye no
  win) against C.07's: a difference where the player or an opponent has an unplayed round is the two
  rule sets disagreeing ("own_unplayed_round", "opponent_unplayed_round"), anything else "unexplained".
Each record also counts the tie-break values of players with an unplayed round or an opponent with one,
and the unplayed rounds by kind (TRF codes U + - H F Z, "absent"), so a run says what it covered.

    .venv/bin/python bench/cross_test.py --bbp /tmp/bbp/bbpPairings.exe --tbs /tmp/tbsenv/bin/python \
        --convention fide_c07 --start 0 --count 2000 --workers 1 --log /tmp/c07_cross.jsonl

Run so (in chunks of 250, gacrux 1.11.65, bbpPairings v6), tournaments 0-1,999: direction 1, 2,000
checked, 656,742 values compared, 347,140 of them next to an unplayed round (U 7,517, + 7,161, - 7,315,
H 18, Z 31), 0 differences; direction 2, 2,000 checked, 641,646 values compared, 452,145 next to an
unplayed round (U 7,927, + 5,293, - 9,821, F 1,556, H 3,287, Z 6,862, absent 22,933), 0 differences.

Tournament k is number k in both directions: its seeds derive from k, so a chunk (--start/--count)
can be run later, or again, with the same tournaments. Each one's outcome is a JSON line in --log
(appended; tournaments already there are skipped, and --redo-skipped REASON runs again those the
log skipped for that reason; the last line of a tournament counts), and --summary adds up a log. Discrepancies are
classified: pairs or colours or the bye, and "e5_numbering" when Damier, pairing the round again
with the players absent before their first pairing left out of the pairing numbers, gives the other
tool's pairing exactly (bbpPairings numbers for rule E.5 only the players who have been in a
pairing; Damier keeps each player's pairing number); for tie-breaks, whether the player himself
had an unplayed round, or only one of his opponents (the fmjd convention, above).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.engine import pair_dutch  # noqa: E402
from tournaments.pairing.trf import TrfFile, parse_trf  # noqa: E402
from tournaments.verification.file_check import check_file, file_pairing, round_request  # noqa: E402
from tournaments.verification.file_standings import NotScored, standings_input  # noqa: E402

# Run by the TieBreakServer Python once per process: it reads file paths and answers each with
# tiebreakchecker's table and a NUL-marked end line (a Python start-up per file cost more than the check).
_TBS_DRIVER = """
import contextlib, io, sys
from gacrux.tiebreakchecker import tiebreakchecker
for line in sys.stdin:
    buf = io.StringIO()
    sys.argv = ["tiebreakchecker", "-i", line.strip(), "-d", "B"]
    try:
        with contextlib.redirect_stdout(buf):
            code = tiebreakchecker().common_main()
    except SystemExit as exc:
        code = exc.code
    except Exception as exc:
        buf.write("error " + repr(exc))
        code = 99
    sys.stdout.write(buf.getvalue().replace(chr(0), "") + chr(0) + "END " + str(code) + chr(10))
    sys.stdout.flush()
"""
_tbs: subprocess.Popen[str] | None = None


def _tbs_table(python: str, path: Path) -> tuple[int, str]:
    global _tbs
    if _tbs is None or _tbs.poll() is not None:
        _tbs = subprocess.Popen([python, "-c", _TBS_DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    assert _tbs.stdin and _tbs.stdout
    _tbs.stdin.write(f"{path}\n")
    _tbs.stdin.flush()
    lines = []
    for line in _tbs.stdout:
        if line.startswith("\0END "):
            return int(line.split()[1]), "".join(lines)
        lines.append(line)
    return 98, "".join(lines)  # the driver died


# In the C.07 convention, a start date TieBreakServer reads as "the 2024 edition applies" (see tiebreaks()).
C07_START = "2025/01/01"

TB_CODES = {"BH": "solkoff", "BH/C1": "solkoff_short_truncated", "BH/M1": "solkoff_median",
            "SB": "sonneborn_berger", "WIN": "wins"}


def bbp_config(k: int, max_players: int) -> str:
    """bbpPairings' generator parameters for tournament k (its README and generatorconfiguration.cpp:
    ForfeitRate r gives each side a 1 - sqrt(1 - 1/r) chance of not showing up; RetiredRate and
    HalfPointByeRate are its own scales, drawn in its own default ranges). Half of the tournaments
    have no half-point byes, so their tie-breaks can be compared."""
    rng = random.Random(f"bbp {k}")
    players = rng.randint(10, max_players)
    high = rng.randint(2000, 2700)
    lines = {
        "PlayersNumber": players,
        "RoundsNumber": rng.randint(5, max(5, min(11, players - 4))),
        "DrawPercentage": rng.randint(10, 60),
        "ForfeitRate": rng.randint(6, 200),
        "RetiredRate": rng.randint(15, 3225),
        "HalfPointByeRate": rng.randint(15, 3225) if rng.random() < 0.5 else 1_000_000,
        "HighestRating": high,
        "LowestRating": rng.randint(1000, high - 200),
        "PointsForWin": "2.0",
        "PointsForDraw": "1.0",
        "PointsForLoss": "0.0",
        "PointsForPAB": "2.0",
    }
    return "".join(f"{key}={value}\n" for key, value in lines.items())


def direction1(k: int, opts: argparse.Namespace, work: Path) -> dict[str, object]:
    cfg, path = work / f"bbp{k}.cfg", work / f"bbp{k}.trf"
    cfg.write_text(bbp_config(k, opts.max_players))
    done = subprocess.run([opts.bbp, "--dutch", "-g", str(cfg), "-o", str(path), "-s", str(k)],
                          capture_output=True, text=True, check=False)
    out: dict[str, object] = {"k": k, "dir": 1}
    if done.returncode != 0:
        out["skipped"] = f"bbp_generate_rc{done.returncode}"  # e.g. 1: no valid pairing for a round
        return out
    trf = parse_trf(path.read_text(encoding="utf-8", errors="replace"))
    report = check_file(trf, [])
    out["rounds"] = len(report.rounds)
    out["players"] = len(trf.players)
    diffs = []
    for r in report.rounds:
        if r.ok:
            continue
        kind = "pairs" if r.pairs_differ else "colours" if r.colours else "violation" if r.violations else "unpaired"
        diffs.append({"round": r.round, "kind": kind, "why": _why(trf, r.round, kind)})
    out["pairing_diffs"] = diffs
    out.update(tiebreaks(trf, path, opts, work))
    _keep(opts, path, bool(diffs) or bool(out.get("tb_diffs")))
    return out


def direction2(k: int, opts: argparse.Namespace, work: Path) -> dict[str, object]:
    from tournaments.verification.generator import generate, tournament_trf
    from tournaments.verification.generator_cli import settings_from_args

    path = work / f"damier{k}.trf"
    rng = random.Random(f"damier {k}")
    ns = argparse.Namespace(
        players=rng.randint(8, opts.max_players), rounds=None, seed=k, draw_rate=None, ratings=None,
        rating_range=None, rating_step=None, tiebreaks=None,
        **{o: None for o in ("forfeit_rate", "double_forfeit_rate", "zero_bye_rate", "half_bye_rate",
                             "full_bye_rate", "unusual_rate", "withdraw_rate", "late_rate", "unrated_rate")},
    )
    if k % 2 == 0:
        # every other tournament without byes worth 1 or 2 asked for in advance and arbiter's rulings, so
        # half of them compare the tie-breaks of plain games, forfeits and zero-point byes alone
        ns.half_bye_rate = ns.full_bye_rate = ns.unusual_rate = 0.0
    settings = settings_from_args(ns)
    out: dict[str, object] = {"k": k, "dir": 2, "players": settings.players}
    t = generate(settings)
    stuck = next((i + 1 for i, rec in enumerate(t.rounds) if rec.result.unpaired), None)
    stuck_diff: list[dict[str, object]] = []
    if stuck is not None:
        # The field got too small for the rounds: Damier found no legal pairing for round `stuck`.
        # bbpPairings is asked to pair that round too (it must find none), and the rounds before are checked.
        agreed = _bbp_finds_no_pairing(t, stuck, opts, work)
        out["no_pairing_round"] = stuck
        out["no_pairing"] = "agreed" if agreed else "bbp_paired"
        if not agreed:
            stuck_diff.append({"round": stuck, "kind": "pairs", "why": "bbp_paired_where_damier_found_none"})
        if stuck == 1:
            out["skipped"] = "no_pairing_in_round_1"
            return out
        t = _first_rounds(t, stuck - 1)
    text = tournament_trf(t)
    path.write_text(text, encoding="utf-8")
    out["rounds"] = len(t.rounds)
    done = subprocess.run([opts.bbp, "--dutch", str(path), "-c"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        out["skipped"] = f"bbp_check_rc{done.returncode}: {done.stderr.strip()[:200]}"
        _keep(opts, path, True)
        return out
    trf = parse_trf(text)
    diffs = []
    for rnd, rows in _bbp_tables(done.stdout).items():
        checker = {frozenset(p) for p in rows[0]}
        file = {frozenset(p) for p in rows[1]}
        kind = "colours" if checker == file else "pairs"
        theirs: set[tuple[int, int | None]] = {(w, b or None) for w, b in rows[0]}
        diffs.append({"round": rnd, "kind": kind, "why": _why(trf, rnd, kind, theirs)})
    out["pairing_diffs"] = diffs + stuck_diff
    out.update(tiebreaks(trf, path, opts, work, ended=stuck is not None))
    _keep(opts, path, bool(diffs) or bool(stuck_diff) or bool(out.get("tb_diffs")))
    return out


def _first_rounds(t: Any, rounds: int) -> Any:
    """The generated tournament as it stood after `rounds` rounds."""
    return dataclasses.replace(t, histories={pid: h[:rounds] for pid, h in t.histories.items()},
                               rounds=t.rounds[:rounds])


def _bbp_finds_no_pairing(t: Any, rnd: int, opts: argparse.Namespace, work: Path) -> bool:
    """Whether bbpPairings, given the rounds before `rnd` and who was to be paired in it, finds no pairing
    either (a pairing it finds where Damier found none is a discrepancy)."""
    from tournaments.pairing import SwissPlayer
    from tournaments.pairing.trf import write_trf

    asked = {p.id: p for p in t.rounds[rnd - 1].request.players}
    # the round's column: "-" for a player who withdrew, "Z" for one excused or not entered yet
    players = [SwissPlayer(p.id, p.pairing_number, p.rating, p.name, tuple(t.histories[p.id][: rnd - 1]),
                           withdrawn=p.id in asked and asked[p.id].withdrawn,
                           excused=p.id not in asked or asked[p.id].excused)
               for p in t.players]
    path = work / f"damier-stuck-{t.settings.seed}.trf"
    path.write_text(write_trf(players, total_rounds=t.settings.rounds, points=t.settings.points,
                              initial_colour=t.settings.initial_colour, next_round=rnd), encoding="utf-8")
    done = subprocess.run([opts.bbp, "--dutch", str(path), "-p", str(work / "stuck.out")], capture_output=True,
                          text=True, check=False)
    # bbpPairings' exit status 1: "No valid pairing exists"
    _keep(opts, path, done.returncode != 1)
    return done.returncode == 1


def _bbp_tables(stdout: str) -> dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """Round -> (bbpPairings' pairs, the file's pairs) for every round bbpPairings prints a table for."""
    tables: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    rnd = 0
    for line in stdout.splitlines():
        if ": Round #" in line:
            rnd = int(line.rsplit("#", 1)[1].rstrip("."))
        elif "-" in line and "pairings" not in line:
            cells = line.replace("-", " ").split()
            if len(cells) >= 2 and all(c.isdigit() for c in cells):
                mine, theirs = tables.setdefault(rnd, ([], []))
                if len(cells) >= 2:
                    mine.append((int(cells[0]), int(cells[1])))
                if len(cells) >= 4:
                    theirs.append((int(cells[2]), int(cells[3])))
        elif line.strip() and rnd and "Round #" not in line and "pairings" not in line:
            tables.setdefault(rnd, ([], []))  # a message (no valid pairing, ...) is a discrepancy too
    return tables


def _why(trf: TrfFile, rnd: int, kind: str, other: set[tuple[int, int | None]] | None = None) -> str:
    """What explains a difference in round `rnd`: "e5_numbering" when the round is the other tool's
    once the players absent before their first pairing are left out of the pairing numbers (as
    bbpPairings numbers the players for rule E.5: the players who have been in a pairing); else
    "unexplained". `other` is the other tool's pairing as (white, black) and (bye, None): the whole
    round (direction 1, the file), or the boards bbpPairings printed (direction 2)."""
    absent = _absent_before_first_pairing(trf, rnd)
    if not absent:
        return "unexplained"
    renumbered = _renumbered_pairing(trf, rnd, absent)
    if other is None:
        mine, _ = file_pairing(trf, rnd)
        other = {(b.white, b.black) for b in mine.boards} | ({(mine.bye, None)} if mine.bye else set())
        return "e5_numbering" if renumbered == other else "unexplained"
    return "e5_numbering" if other <= renumbered else "unexplained"


def _absent_before_first_pairing(trf: TrfFile, rnd: int) -> set[int]:
    out = set()
    for p in trf.players:
        before = any(c[0] or c[2] in "U+" for r, c in p.cells.items() if r < rnd)
        cell = p.cells.get(rnd)
        if not before and (cell is None or (cell[0] == 0 and cell[2] not in "U+")):
            out.add(p.number)
    return out


def _renumbered_pairing(trf: TrfFile, rnd: int, absent: set[int]) -> set[tuple[int, int | None]]:
    """Damier's pairing of the round with the players in `absent` given no pairing number."""
    from dataclasses import replace

    req = round_request(trf, rnd)
    kept = sorted((p for p in req.players if p.id not in absent), key=lambda p: p.pairing_number)
    players = tuple(replace(p, pairing_number=i + 1) for i, p in enumerate(kept))
    res = pair_dutch(replace(req, players=players))
    return {(b.white, b.black) for b in res.boards} | ({(res.bye, None)} if res.bye is not None else set())


def tiebreaks(trf: TrfFile, path: Path, opts: argparse.Namespace, work: Path, ended: bool = False) -> dict[str, object]:
    """Damier's tie-breaks against TieBreakServer's. `ended`: the tournament stopped before its announced
    rounds (no legal pairing left); both then count only the rounds played, since a tie-break program
    counts a round the file announces but lacks as an unplayed round of every player. (The pairings keep
    the announced total: which round is the last changes the Dutch rules for topscorers.)

    In the C.07 convention the copy read by TieBreakServer starts on C07_START (record 042), before
    1 March 2026: TieBreakServer picks the edition of C.07 by the start date, and this one is the 2024
    edition Damier implements (a file without a date gets the 2026 one, whose dummy has caps)."""
    if not opts.tbs:
        return {"tb": "no_tiebreakserver"}
    try:
        players, games = standings_input(trf)
    except NotScored as exc:
        return {"tb": f"not_scored_{exc.args[0]}"}
    from tournaments.standings import FIDE_C07, SWISS, compute_standings

    total = trf.rounds_in_file if ended else max(trf.total_rounds, trf.rounds_in_file)
    rows = compute_standings(players, games, system=SWISS, rounds_total=total,
                             tiebreaks=list(TB_CODES.values()), bye_points=trf.points.bye,
                             convention=opts.convention)
    damier = {r.player.id: r for r in rows}
    c07 = opts.convention == FIDE_C07
    lines = [f"XXR {total}" if x.startswith("XXR") else x
             for x in path.read_text(encoding="utf-8", errors="replace").splitlines()
             if not x.startswith("202") and not (c07 and x.startswith("042"))]
    if c07:
        lines.insert(0, f"042 {C07_START}")
    copy = work / (path.stem + "-tb.trf")
    copy.write_text("\n".join([*lines, "202 " + " ".join(TB_CODES)]) + "\n", encoding="utf-8")
    code, text = _tbs_table(opts.tbs, copy)
    table = [x.split() for x in text.splitlines() if x.strip()]
    if code != 0 or not table or table[0][:3] != ["StartNo", "Rank", "PTS"]:
        return {"tb": "tiebreakserver_failed", "tb_error": text[-300:]}
    head = table[0]
    unplayed = _unplayed(trf)
    touched = unplayed | {p.number for p in trf.players if any(o in unplayed for o in _opponents(trf, p.number))}
    diffs: list[dict[str, object]] = []
    compared = near_unplayed = 0
    for row in table[1:]:
        pid = int(row[0])
        mine = damier[pid]
        for code, text in zip(head[2:], row[2:], strict=False):
            theirs = float(text)
            ours = mine.points if code == "PTS" else mine.tiebreaks[TB_CODES[code]]
            compared += 1
            near_unplayed += pid in touched and code != "PTS"
            if abs(float(ours or 0) - theirs) > 1e-6:  # type: ignore[arg-type]
                if c07:
                    why = "unexplained"  # C.07 is one convention on both sides: every difference is a finding
                else:
                    why = "own_unplayed_round" if pid in unplayed else "opponent_unplayed_round" \
                        if any(o in unplayed for o in _opponents(trf, pid)) else "unexplained"
                diffs.append({"player": pid, "code": code, "damier": float(ours or 0), "tbs": theirs,  # type: ignore[arg-type]
                              "why": why})
    return {"tb": "compared", "tb_values": compared, "tb_diffs": diffs, "convention": opts.convention,
            "tb_values_unplayed": near_unplayed, "unplayed_cells": _unplayed_cells(trf, total)}


def _unplayed(trf: TrfFile) -> set[int]:
    """Players with a round not played over the board (a bye, a forfeit, an absence) up to the end."""
    last = trf.rounds_in_file
    out = set()
    for p in trf.players:
        for rnd in range(1, last + 1):
            c = p.cells.get(rnd)
            if c is None or c[0] == 0 or c[2] in "+-":
                out.add(p.number)
                break
    return out


def _unplayed_cells(trf: TrfFile, total: int) -> dict[str, int]:
    """The rounds not played over the board, by kind: the TRF code (U the pairing-allocated bye, + - forfeits,
    H F Z byes asked for, "absent" a blank cell or an absence), so a run says what its comparison covered."""
    out: Counter[str] = Counter()
    for p in trf.players:
        for rnd in range(1, total + 1):
            c = p.cells.get(rnd)
            if c is None or (c[0] == 0 and c[2] not in "UHFZ+"):
                out["absent"] += 1
            elif c[2] in "UHFZ+-":
                out[c[2]] += 1
    return dict(out)


def _opponents(trf: TrfFile, pid: int) -> list[int]:
    p = next(q for q in trf.players if q.number == pid)
    return [c[0] for c in p.cells.values() if c[0]]


def _keep(opts: argparse.Namespace, path: Path, keep: bool) -> None:
    if keep and opts.keep:
        Path(opts.keep).mkdir(parents=True, exist_ok=True)
        (Path(opts.keep) / path.name).write_bytes(path.read_bytes())


def run_one(job: tuple[int, int, argparse.Namespace]) -> dict[str, object]:
    direction, k, opts = job
    start = time.process_time()
    with tempfile.TemporaryDirectory(prefix="cross") as tmp:
        try:
            out = (direction1 if direction == 1 else direction2)(k, opts, Path(tmp))
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, recorded with the tournament
            out = {"k": k, "dir": direction, "crash": f"{type(exc).__name__}: {exc}"[:300]}
    out["cpu"] = round(time.process_time() - start, 3)
    out["t"] = round(time.time(), 1)  # when it finished: the log alone gives the rate of a long run
    return out


def summary(records: list[dict[str, object]], wall: float | None = None) -> str:
    lines = []
    for direction in (1, 2):
        recs = [r for r in records if r["dir"] == direction]
        if not recs:
            continue
        done = [r for r in recs if "skipped" not in r and "crash" not in r]
        skipped = Counter(str(r["skipped"]).split(":")[0] for r in recs if "skipped" in r)
        crashes = [r for r in recs if "crash" in r]
        rounds = sum(int(r.get("rounds", 0)) for r in done)  # type: ignore[call-overload]
        pd = Counter((d["kind"], d["why"]) for r in done for d in r.get("pairing_diffs", []))  # type: ignore[attr-defined]
        bad = sum(1 for r in done if r.get("pairing_diffs"))
        tb = Counter(str(r.get("tb")) for r in done)
        tbd = Counter((d["code"], d["why"]) for r in done for d in r.get("tb_diffs", []))  # type: ignore[attr-defined]
        tb_bad = sum(1 for r in done if r.get("tb_diffs"))
        values = sum(int(r.get("tb_values", 0)) for r in done)  # type: ignore[call-overload]
        near = sum(int(r.get("tb_values_unplayed", 0)) for r in done)  # type: ignore[call-overload]
        cells: Counter[str] = Counter()
        for r in done:
            cells.update(r.get("unplayed_cells", {}))  # type: ignore[arg-type]
        conventions = Counter(str(r["convention"]) for r in done if "convention" in r)
        who = "bbpPairings generates, Damier checks" if direction == 1 else "Damier generates, bbpPairings checks"
        lines.append(f"direction {direction} ({who}): {len(recs)} tournaments, {len(done)} checked "
                     f"({rounds} rounds), skipped {dict(skipped) or 0}, crashes {len(crashes)}")
        lines.append(f"  pairings: {len(done) - bad} tournaments identical in every round, {bad} with "
                     f"differences ({sum(pd.values())} rounds)")
        stuck = Counter(str(r["no_pairing"]) for r in recs if "no_pairing" in r)
        if stuck:
            lines.append(f"  rounds where Damier found no legal pairing: {sum(stuck.values())}, bbpPairings found "
                         f"none either in {stuck.get('agreed', 0)} (the rounds before them are checked above)")
        for (kind, why), n in sorted(pd.items()):
            lines.append(f"    {kind:8} {why:30} {n} rounds")
        lines.append(f"  tie-breaks: {dict(tb)}; {values} values compared, {tb_bad} tournaments with "
                     f"differences")
        if conventions:
            lines.append(f"    convention {dict(conventions)}; {near} of the tie-break values are of a player with "
                         f"an unplayed round or an opponent with one; unplayed rounds by kind: "
                         f"{dict(sorted(cells.items()))}")
        for (code, why), n in sorted(tbd.items()):
            lines.append(f"    {code:6} {why:30} {n} values")
        cpu = sum(float(r.get("cpu", 0)) for r in recs)  # type: ignore[arg-type]
        lines.append(f"  CPU in this process: {cpu:.1f} s ({cpu / len(recs):.3f} s a tournament)")
        for r in crashes[:5]:
            lines.append(f"  crash k={r['k']}: {r['crash']}")
    stamps = sorted(float(r["t"]) for r in records if "t" in r)  # type: ignore[arg-type]
    if not wall and len(stamps) > 1:
        wall = (stamps[-1] - stamps[0]) * len(stamps) / (len(stamps) - 1)
    if wall:
        lines.append(f"wall {wall:.1f} s: {len(records) / wall:.2f} tournaments/s; "
                     f"50,000 each way at this rate: {100_000 / (len(records) / wall) / 3600:.1f} h")
    return "\n".join(lines)


def _latest(log: Path) -> list[dict[str, object]]:
    """The log's records, the last one of each tournament and direction (a tournament run again replaces
    its earlier line)."""
    latest: dict[tuple[object, object], dict[str, object]] = {}
    for line in log.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            latest[(r["dir"], r["k"])] = r
    return list(latest.values())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bbp", help="bbpPairings v6 binary (built outside the repository)")
    ap.add_argument("--tbs", help="a Python with TieBreakServer (pip package gacrux) installed")
    ap.add_argument("--convention", choices=("fmjd", "fide_c07"), default="fide_c07",
                    help="Damier's tie-break convention compared with TieBreakServer: fide_c07 (FIDE C.07, 2024 "
                    "edition: every difference is a finding) or fmjd (FMJD Annex 4.2: a difference where the "
                    "player or an opponent has an unplayed round is the two conventions disagreeing)")
    ap.add_argument("--direction", choices=("1", "2", "both"), default="both")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-players", type=int, default=100)
    ap.add_argument("--log", default="/tmp/cross_test.jsonl")
    ap.add_argument("--keep", help="copy the files with a discrepancy here")
    ap.add_argument("--summary", metavar="LOG", help="only add up a log")
    ap.add_argument("--redo-skipped", metavar="REASON", help="run again the tournaments the log skipped for a "
                    "reason starting with REASON (e.g. damier_could_not_pair, from before such rounds were checked)")
    opts = ap.parse_args()
    if opts.summary:
        print(summary(_latest(Path(opts.summary))))
        return 0
    if not opts.bbp or not Path(opts.bbp).exists():
        ap.error("--bbp must name a bbpPairings binary")
    log = Path(opts.log)
    seen = set()
    if log.exists():
        seen = {(r["dir"], r["k"]) for r in _latest(log)
                if not (opts.redo_skipped and str(r.get("skipped", "")).startswith(opts.redo_skipped))}
    directions = (1, 2) if opts.direction == "both" else (int(opts.direction),)
    jobs = [(d, k, opts) for k in range(opts.start, opts.start + opts.count) for d in directions
            if (d, k) not in seen]
    records: list[dict[str, object]] = []
    start = time.perf_counter()
    with log.open("a") as fh:
        if opts.workers > 1:
            with multiprocessing.Pool(opts.workers) as pool:
                results = pool.imap_unordered(run_one, jobs)
                for rec in results:
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                    records.append(rec)
        else:
            for job in jobs:
                rec = run_one(job)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                records.append(rec)
    wall = time.perf_counter() - start
    if _tbs is not None and _tbs.stdin:
        _tbs.stdin.close()
        _tbs.wait()
    print(f"this run: {len(records)} tournaments ({len(jobs)} to do, {len(seen)} already in {log})")
    print(summary(records, wall if records else None))
    if records:
        cpu = sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
                  for f in ("ru_utime", "ru_stime"))
        per = cpu / len(records)
        print(f"CPU, bbpPairings and TieBreakServer included: {per:.3f} s a tournament; 50,000 each way "
              f"on one idle core: {100_000 * per / 3600:.1f} h, on {os.cpu_count()} cores: "
              f"{100_000 * per / 3600 / (os.cpu_count() or 1):.1f} h")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
