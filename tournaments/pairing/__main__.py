"""Command line, as bbpPairings and JaVaFo are driven.

python -m tournaments.pairing --dutch IN.trf -p [OUT]   pair the next round; OUT (or stdout) gets the
                                                       number of pairs, then `white black`, the bye `N 0`
python -m tournaments.pairing --dutch IN.trf -c         check the file's last round against the engine
python -m tournaments.pairing --dutch IN.trf -e         explain the next round's pairing
python -m tournaments.pairing -g OUT.trf [--players N --rounds R --seed S]
                                                       write a random tournament paired by the engine
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tournaments.pairing.checker import check_pairing
from tournaments.pairing.engine import pair_dutch
from tournaments.pairing.model import Board, Pairing
from tournaments.pairing.trf import TrfFile, parse_trf, request_from_trf, write_pairing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tournaments.pairing", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dutch", metavar="IN.trf", help="a TRF(x) file")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("-p", nargs="?", const="-", metavar="OUT", help="pair the next round")
    mode.add_argument("-c", action="store_true", help="check the last round of the file")
    mode.add_argument("-e", action="store_true", help="explain the next round's pairing")
    mode.add_argument("-g", metavar="OUT.trf", help="generate a random tournament")
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.g:
        return _generate(Path(args.g), args.players, args.rounds, args.seed)
    if not args.dutch:
        ap.error("--dutch IN.trf is required")
    try:
        trf = parse_trf(Path(args.dutch).read_text(encoding="utf-8", errors="replace"))
        if args.c:
            return _check(trf)
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


def _check(trf: TrfFile) -> int:
    last = trf.rounds_in_file
    if last < 1:
        print("no round to check", file=sys.stderr)
        return 2
    req = request_from_trf(trf, last)
    seen: set[int] = set()
    boards, bye = [], None
    for p in sorted(trf.players, key=lambda q: q.number):
        cell = p.cells.get(last)
        if cell is None or p.number in seen:
            continue
        opp, colour, code = cell
        if opp == 0:
            if code == "U":
                bye = p.number
            continue
        seen |= {p.number, opp}
        boards.append(Board(p.number, opp) if colour == "w" else Board(opp, p.number))
    # a player with no game in the checked round (blank, or an absence code) was not to be paired in it
    absent = {p.number for p in trf.players if (c := p.cells.get(last)) is None or (c[0] == 0 and c[2] != "U")}
    players = tuple(type(p)(**{**p.__dict__, "excused": p.id in absent}) if p.id in absent else p for p in req.players)
    req = type(req)(**{**req.__dict__, "players": players})
    report = check_pairing(req, Pairing(tuple(boards), bye))
    for v in report.violations:
        print(f"violation: {v.criterion}: {v.detail}")
    if report.differs:
        print(f"round {last}: differs from the engine")
        for pair in report.only_proposed:
            print(f"  file only:   {_fmt(pair)}")
        for pair in report.only_engine:
            print(f"  engine only: {_fmt(pair)}")
    else:
        print(f"round {last}: identical to the engine")
    return 1 if report.violations or report.differs else 0


def _fmt(pair: tuple[int, int | None]) -> str:
    return f"{pair[0]} bye" if pair[1] is None else f"{pair[0]}-{pair[1]}"


def _generate(out: Path, players: int, rounds: int, seed: int) -> int:
    from tournaments.pairing.generator import GenSettings, generate, tournament_trf

    t = generate(GenSettings(players=players, rounds=rounds, seed=seed))
    out.write_text(tournament_trf(t), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
