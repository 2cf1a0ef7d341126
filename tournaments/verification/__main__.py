"""Command line, as bbpPairings and JaVaFo are driven.

python -m tournaments.verification --dutch IN.trf -p [OUT]   pair the next round; OUT (or stdout) gets the
                                                       number of pairs, then `white black`, the bye `N 0`
python -m tournaments.verification --dutch IN.trf -c [--tiebreaks CODES]
                                                       check every round of the file against the engine
                                                       (pairs, colours, bye) and its final ranks against
                                                       its tie-break list (202, or CODES); exit 0 all
                                                       correct, 1 differences, 2 unreadable / round robin
python -m tournaments.verification --dutch IN.trf -e         explain the next round's pairing
python -m tournaments.verification -g OUT.trf [options]     write a random tournament paired by the engine
                                                       (see -h; unset options are drawn, --seed repeats)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tournaments.pairing.engine import pair_dutch
from tournaments.pairing.trf import TrfFile, parse_trf, request_from_trf, write_pairing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tournaments.verification", description=__doc__.split("\n\n")[0],
                                 epilog="The draw rate of -g: a game is drawn with probability min(rate, 2 x the "
                                 "weaker side's expected score by the FIDE / FMJD table).")
    ap.add_argument("--dutch", metavar="IN.trf", help="a TRF(x) file")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("-p", nargs="?", const="-", metavar="OUT", help="pair the next round")
    mode.add_argument("-c", action="store_true", help="check every round of the file and its final ranks "
                      "(exit 0 all correct, 1 differences, 2 unreadable or a round robin)")
    mode.add_argument("-e", action="store_true", help="explain the next round's pairing")
    mode.add_argument("-g", metavar="OUT.trf", help="generate a random tournament (- : the standard output)")
    from tournaments.verification.generator_cli import add_generator_options, run_generator

    add_generator_options(ap)
    args = ap.parse_args(argv)
    if args.g:
        return run_generator(ap, args)
    if not args.dutch:
        ap.error("--dutch IN.trf is required")
    try:
        trf = parse_trf(Path(args.dutch).read_text(encoding="utf-8", errors="replace"))
        if args.c:
            return _check(trf, args.tiebreaks)
        req = request_from_trf(trf)
    except OSError as exc:
        print(f"{args.dutch}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:  # TrfError and the request's own checks
        print(f"{args.dutch}: {exc}", file=sys.stderr)
        return 2
    res = pair_dutch(req)
    if args.e:
        print(res.explanation.as_text())
        return 0
    text = write_pairing([(b.white, b.black) for b in res.boards], res.bye)
    if args.p == "-":
        sys.stdout.write(text)
    else:
        Path(args.p).write_text(text, encoding="utf-8")
    if res.unpaired:
        print("not paired: " + " ".join(map(str, res.unpaired)), file=sys.stderr)
        return 1
    return 0


def _check(trf: TrfFile, codes: str | None) -> int:
    from tournaments.verification.file_check import check_file, tiebreak_names

    if trf.rounds_in_file < 1:
        print("no round to check", file=sys.stderr)
        return 2
    try:
        names = tiebreak_names(codes.replace(",", " ").split()) if codes is not None else None
        report = check_file(trf, names)
    except ValueError as exc:
        print(f"not checked: {exc}", file=sys.stderr)
        return 2
    for r in report.rounds:
        if r.ok:
            print(f"round {r.round}: identical to the engine")
            continue
        print(f"round {r.round}: differs from the engine")
        for pair in r.only_file:
            print(f"  file only:   {_fmt(pair)}")
        for pair in r.only_engine:
            print(f"  engine only: {_fmt(pair)}")
        for w, b in r.colours:
            print(f"  colours:     the engine gives {w}-{b} (White first), the file {b}-{w}")
        for v in r.violations:
            print(f"  violation:   {v.criterion}: {v.detail}")
        if r.unpaired:
            print("  the engine cannot pair: " + " ".join(map(str, r.unpaired)))
    for number, written, made in report.points:
        print(f"points: player {number}: {written:.1f} in the file, {made:.1f} by the results")
    print(_standings_text(report))
    return 0 if report.ok else 1


_SKIPPED = {
    "no_tiebreak_list": "no tie-break list (record 202, or --tiebreaks)",
    "no_ranks": "the file gives no ranks (columns 86-89)",
    "requested_bye_+": "round {0}, player {1}: a forfeit win without an opponent (0000 - +)",
    "unusual_result": "round {0}, player {1}: a pair of result codes no result of Damier's stands for",
}


def _standings_text(report) -> str:  # type: ignore[no-untyped-def]
    if report.standings_skipped:
        why = _SKIPPED[report.standings_skipped].format(*report.skipped_detail)
        return f"standings: not checked: {why}"
    listed = ", ".join(report.tiebreaks) or "points only"
    if not report.ranks:
        return f"standings: every rank agrees with Damier's standings ({listed})"
    lines = [f"standings: {len(report.ranks)} rank(s) differ from Damier's standings ({listed})"]
    for r in report.ranks:
        place = str(r.lowest) if r.lowest == r.highest else f"{r.lowest}-{r.highest}"
        lines.append(f"  player {r.player}: rank {r.file_rank} in the file, {place} by Damier")
    return "\n".join(lines)


def _fmt(pair: tuple[int, int | None]) -> str:
    return f"{pair[0]} bye" if pair[1] is None else f"{pair[0]}-{pair[1]}"


if __name__ == "__main__":
    raise SystemExit(main())
