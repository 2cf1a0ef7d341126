"""Whole-file consistency of a TRF: what one line cannot show on its own.

parse_trf reads each record strictly; check_trf then looks across records, the way an importer must
before trusting a file from another program: starting ranks unique, every opponent a player of the
file whose own cell says the same game (the other colour, the matching result), the points column
equal to what the results make. The first problem found raises TrfError naming the line and field.
"""

from __future__ import annotations

from tournaments.pairing.trf import TrfError, TrfFile, TrfPlayer, cell_points

# the result one side's code requires on the other side of the same game; an arbiter's ruling gives
# 1-0 (= against 0) and 0-0 (0 against 0) in draughts' 2/1/0 (chess ½-0 and 0-0); ? is a postponed game
_MIRROR = {"1": "0", "0": "10=", "=": "=0", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+-", "?": "?"}


def check_trf(trf: TrfFile) -> None:
    by_number: dict[int, TrfPlayer] = {}
    for p in trf.players:
        if p.number in by_number:
            raise TrfError(
                f"line {p.line}, starting rank (columns 5-8): {p.number} is already the rank of line "
                f"{by_number[p.number].line}"
            )
        by_number[p.number] = p
    last = trf.rounds_in_file
    if trf.total_rounds < last:
        raise TrfError(f"XXR: {trf.total_rounds} rounds, but the file has results for {last}")
    for p in trf.players:
        for rnd, (opp, colour, code) in sorted(p.cells.items()):
            where = f"line {p.line}, round {rnd} (columns {82 + 10 * rnd}-{89 + 10 * rnd})"
            if rnd > last + 1:
                raise TrfError(f"{where}: round {rnd} comes after the next round to pair ({last + 1})")
            if rnd == last + 1 and (opp or code not in ("Z", "H", "F", "-")):
                raise TrfError(f"{where}: in the round to pair only a bye asked for in advance (Z, H, F) or an "
                               "absence (0000 - -) can be written")
            if opp:
                _check_game(p, rnd, opp, colour, code, by_number, where)
        _check_points(trf, p, last)


def _check_game(
    p: TrfPlayer, rnd: int, opp: int, colour: str, code: str, by_number: dict[int, TrfPlayer], where: str
) -> None:
    other = by_number.get(opp)
    if other is None:
        raise TrfError(f"{where}: opponent {opp} is not a player of the file")
    theirs = other.cells.get(rnd)
    if theirs is None or theirs[0] != p.number:
        said = "nothing" if theirs is None else f"opponent {theirs[0] or 'none'}"
        raise TrfError(f"{where}: {p.number} meets {opp}, but line {other.line} says {said} for {opp} in that round")
    if colour in ("w", "b") and theirs[1] == colour:
        raise TrfError(f"{where}: {p.number} and {opp} both have colour {colour}")
    if theirs[2] not in _MIRROR[code]:
        raise TrfError(f"{where}: result {code} for {p.number} but {theirs[2]} for {opp} on line {other.line}")


def _check_points(trf: TrfFile, p: TrfPlayer, last: int) -> None:
    if not p.points_text:
        return
    try:
        written = float(p.points_text)
    except ValueError:
        raise TrfError(f"line {p.line}, points (columns 81-84): {p.points_text!r} is not a number") from None
    made = sum(cell_points(cell, trf.points) for rnd, cell in p.cells.items() if rnd <= last)
    ahead = p.cells.get(last + 1)
    options = {made} | ({made + cell_points(ahead, trf.points)} if ahead else set())
    if round(written * trf.scale) not in options:
        raise TrfError(
            f"line {p.line}, points (columns 81-84): {p.points_text} written, but the results make "
            f"{made / trf.scale:.1f}"
        )
