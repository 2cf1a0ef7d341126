"""Check a whole tournament file: every round's pairing against the engine, and the final ranks
against the file's tie-break list (the checker of `python -m tournaments.verification -c`).

Each round r is paired again from the file cut after round r-1 (the players without a game in round
r, or with a bye asked for in advance, are not paired, as bbpPairings reads such a column) and
compared with the file's round r: the pairs, each pair's colours, the pairing-allocated bye. The
absolute criteria of the file's own pairing are listed too (a rematch, a second bye, ...).

The standings: the file's points and tie-break list (record 202, FIDE codes or Damier's own names,
see TIEBREAK_CODES) give Damier's ranking; every player whose rank in columns 86-89 does not fit it
is named. Players Damier ranks equal (same points and every tie-break) may come in any order.
Everything is returned as data (codes and numbers); the command line makes the words.
"""

from __future__ import annotations

from tournaments.pairing.checker import absolute_violations
from tournaments.pairing.engine import pair_dutch
from tournaments.pairing.model import Board, Pairing, PairingRequest
from tournaments.pairing.trf import TrfFile, cell_points, request_from_trf
from tournaments.verification.reports import FileReport, RoundCheck

# Record 202 codes: FIDE's (tie-break regulations C.07) where a draughts tie-break means the same
# sum or count, read the FMJD way (a bye is an opponent scoring 0, forfeits count like games), and
# Damier's own registry names for the FMJD tie-breaks FIDE has no code for.
TIEBREAK_CODES: dict[str, str] = {
    "BH": "solkoff",
    "BH/C1": "solkoff_short_truncated",
    "BH/M1": "solkoff_median",
    "SB": "sonneborn_berger",
    "WIN": "wins",
    "DE": "mutual_result",
    "ARO": "average_rating",
}
_DAMIER_CODE = {v: k for k, v in TIEBREAK_CODES.items()}


def tiebreak_names(codes: tuple[str, ...] | list[str]) -> list[str]:
    """Damier's registry names for a 202 list; PTS (points come first anyway) is dropped. Raises
    ValueError naming the first code Damier cannot compute."""
    from tournaments.standings import TIEBREAKS

    names = []
    for code in codes:
        if code.upper() == "PTS":
            continue
        name = TIEBREAK_CODES.get(code.upper(), code.lower())
        if name not in TIEBREAKS:
            known = " ".join([*TIEBREAK_CODES, *(n for n in TIEBREAKS if n not in _DAMIER_CODE)])
            raise ValueError(f"tie-break {code!r} (record 202) is not one Damier computes; known: {known}")
        names.append(name)
    return names


def tiebreak_codes(names: list[str] | tuple[str, ...]) -> list[str]:
    """The 202 codes for Damier's tie-breaks: FIDE's code where there is one, else Damier's name."""
    return [_DAMIER_CODE.get(n, n) for n in names]


def is_round_robin(trf: TrfFile) -> bool:
    system = trf.system.upper()
    return "ROBIN" in system or "BERGER" in system


def round_request(trf: TrfFile, rnd: int) -> PairingRequest:
    """The request for round `rnd` as the file defines it: a player with no cell in that round, or
    a bye asked for in advance (Z, H, F) or an absence there, is not to be paired."""
    req = request_from_trf(trf, rnd)
    absent = {p.number for p in trf.players if (c := p.cells.get(rnd)) is None or (c[0] == 0 and c[2] not in "U+")}
    players = tuple(
        p if p.id not in absent or p.withdrawn else type(p)(**{**p.__dict__, "excused": True}) for p in req.players
    )
    return type(req)(**{**req.__dict__, "players": players})


def file_pairing(trf: TrfFile, rnd: int) -> tuple[Pairing, set[frozenset[int]]]:
    """The file's pairing of round `rnd`, and the pairs whose colours the file does not give (a
    forfeit written without colours)."""
    seen: set[int] = set()
    boards: list[Board] = []
    uncoloured: set[frozenset[int]] = set()
    bye = None
    for p in sorted(trf.players, key=lambda q: q.number):
        cell = p.cells.get(rnd)
        if cell is None or p.number in seen:
            continue
        opp, colour, code = cell
        if opp == 0:
            if code == "U":
                bye = p.number
            continue
        seen |= {p.number, opp}
        if colour not in ("w", "b"):
            uncoloured.add(frozenset((p.number, opp)))
        boards.append(Board(opp, p.number) if colour == "b" else Board(p.number, opp))
    return Pairing(tuple(boards), bye), uncoloured


def check_round(trf: TrfFile, rnd: int) -> RoundCheck:
    req = round_request(trf, rnd)
    proposed, uncoloured = file_pairing(trf, rnd)
    engine = pair_dutch(req)
    mine = {frozenset((b.white, b.black)): (b.white, b.black) for b in proposed.boards}
    theirs = {frozenset((b.white, b.black)): (b.white, b.black) for b in engine.boards}
    only_file = [mine[k] for k in mine.keys() - theirs.keys()]
    only_engine = [theirs[k] for k in theirs.keys() - mine.keys()]
    if proposed.bye != engine.bye:
        only_file += [(proposed.bye, None)] if proposed.bye is not None else []
        only_engine += [(engine.bye, None)] if engine.bye is not None else []
    colours = sorted(theirs[k] for k in mine.keys() & theirs.keys() if mine[k] != theirs[k] and k not in uncoloured)
    return RoundCheck(
        round=rnd,
        only_file=tuple(sorted(only_file, key=str)),
        only_engine=tuple(sorted(only_engine, key=str)),
        colours=tuple(colours),
        violations=tuple(absolute_violations(req, proposed)),
        unpaired=engine.unpaired,
    )


def _check_links(trf: TrfFile) -> None:
    """Every game names a player of the file whose own cell names him back in that round. Each
    side's result code is its own points, so an arbiter's 1-0 (`=` against `0`) is not an error."""
    by_number = {p.number: p for p in trf.players}
    for p in trf.players:
        for rnd, (opp, _, _) in p.cells.items():
            if not opp:
                continue
            other = by_number.get(opp)
            back = other.cells.get(rnd) if other else None
            if back is None or back[0] != p.number:
                raise ValueError(f"line {p.line}, round {rnd}: {p.number} meets {opp}, but {opp} does not meet "
                                 f"{p.number} in that round")


def _points_column(trf: TrfFile) -> list[tuple[int, float, float]]:
    """Players whose points column (81-84) is not what their cells make (each cell its own points)."""
    out = []
    last = trf.rounds_in_file
    for p in sorted(trf.players, key=lambda q: q.number):
        try:
            written = float(p.points_text) if p.points_text else None
        except ValueError:
            raise ValueError(f"line {p.line}, points (columns 81-84): {p.points_text!r} is not a number") from None
        made = sum(cell_points(c, trf.points) for r, c in p.cells.items() if r <= last) / trf.scale
        ahead = p.cells.get(last + 1)  # a bye asked for the next round may be counted already
        options = {made} | ({made + cell_points(ahead, trf.points) / trf.scale} if ahead else set())
        if written is not None and all(abs(written - m) > 1e-9 for m in options):
            out.append((p.number, written, made))
    return out


def check_file(trf: TrfFile, tiebreaks: list[str] | None = None) -> FileReport:
    """Every round of a Swiss file, then its final ranks. `tiebreaks` (Damier names) overrides the
    file's 202 record. Raises ValueError for a round robin (not replayed here) or an unknown code."""
    if is_round_robin(trf):
        raise ValueError(f"a round robin ({trf.system}): round robins are not paired by the Dutch rules, so its "
                         "rounds are not replayed here; manage.py import_trf --dry-run checks them against the "
                         "Berger table")
    _check_links(trf)
    report = FileReport()
    for rnd in range(1, trf.rounds_in_file + 1):
        report.rounds.append(check_round(trf, rnd))
    report.points = _points_column(trf)
    names = tiebreaks if tiebreaks is not None else tiebreak_names(trf.tiebreaks)
    report.tiebreaks = list(names)
    from tournaments.verification.file_standings import check_ranks

    check_ranks(trf, names, report, given=tiebreaks is not None or bool(trf.tiebreaks))
    return report
