"""TRF(x): FIDE TRF-16 player lines plus the extensions bbpPairings and JaVaFo read.

Extensions: XXR total rounds, XXC initial colour (white1/black1), the point values BBW (win),
BBD (draw), BBL (loss), BBZ (zero-point bye), BBF (forfeit loss), BBU (pairing-allocated bye),
and XXP forbidden pairs (every two of the numbers on one line may not meet).

Round cells (columns 92+, ten characters a round): `oooo c r` with r in 1 = 0 + - W D L for games,
and `0000 - U` (pairing-allocated bye), `Z` (zero-point bye), `H` (half-point bye), `F` (full-point
bye), `-` (absent). A blank cell is a round the player was not in. In the round being paired,
a `0000 - x` cell marks a player who is not to be paired (withdrawn or excused).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.pairing.model import Colour, PairingRequest, PlayedRound, PointSystem, SwissPlayer

_WIN, _DRAW, _LOSS = ("1", "W", "+"), ("=", "D"), ("0", "L", "-")


@dataclass
class TrfPlayer:
    number: int
    name: str = ""
    rating: int = 0
    cells: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # round -> (opp, colour, code)


@dataclass
class TrfFile:
    name: str = ""
    total_rounds: int = 0
    points: PointSystem = PointSystem()
    initial_colour: Colour = "w"
    forbidden: frozenset[frozenset[int]] = frozenset()
    players: list[TrfPlayer] = field(default_factory=list)

    @property
    def rounds_in_file(self) -> int:
        """The last round that was paired: someone has an opponent, the pairing-allocated bye or a
        forfeit win in it. A last column holding only byes requested in advance (`0000 - H`, `Z`, `F`)
        or absences (`0000 - -`) announces the next round; it is not a played one (as bbpPairings
        reads it)."""
        return max((r for p in self.players for r, c in p.cells.items() if _paired(c)), default=0)


def _paired(cell: tuple[int, str, str]) -> bool:
    opp, _, code = cell
    return opp != 0 or code in ("U", "+")


def _points_field(v: int) -> str:
    """A point value in columns 5-8 of a BBx line, as bbpPairings and JaVaFo read it: `BBW  2.0`."""
    return f"{v:4.1f}"


def _text_field(text: str, width: int | None = None) -> str:
    """A name for a fixed-width TRF field: no control or format characters (a newline would end the
    record and let a name forge lines of its own), cut to the field's width."""
    clean = "".join(" " if unicodedata.category(ch)[0] in "CZ" and ch != " " else ch for ch in text)
    clean = " ".join(clean.split())
    return clean if width is None else clean[:width]


class TrfError(ValueError):
    """A TRF line that cannot be read; the message names the line and the field."""


def parse_trf(text: str) -> TrfFile:
    trf = TrfFile()
    given: dict[str, float] = {}
    forbidden: set[frozenset[int]] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\n\r")
        code, rest = line[:3], line[4:].strip()
        try:
            if code == "001":
                trf.players.append(_parse_player(line))
            elif code == "012":
                trf.name = rest
            elif code == "XXR" and rest:
                trf.total_rounds = _whole(rest.split()[0], "number of rounds")
            elif code == "XXC":
                trf.initial_colour = "b" if rest.lower().startswith("black") else "w"
            elif code in _BB and rest:
                given[_BB[code]] = _points(rest.split()[0], code)
            elif code == "162":
                given.update(_point_system_162(line))
            elif code == "XXP":
                nums = [_whole(x, "pairing number") for x in rest.split()]
                forbidden |= {frozenset((a, b)) for i, a in enumerate(nums) for b in nums[i + 1 :]}
        except TrfError as exc:
            raise TrfError(f"line {number} ({code}): {exc}") from None
    trf.points = _point_system(given)
    trf.forbidden = frozenset(forbidden)
    if not trf.total_rounds:
        trf.total_rounds = trf.rounds_in_file
    return trf


def _point_system(given: dict[str, float]) -> PointSystem:
    """Draughts 2/1/0 unless the file says otherwise; chess halves are doubled, since the engine
    only compares scores and differences."""
    win = given.get("win", 2.0)
    vals = {
        "win": win,
        "draw": given.get("draw", win / 2),
        "loss": given.get("loss", 0.0),
        "excused": given.get("excused", 0.0),
        "bye": given.get("bye", win),
    }
    scale = 1 if all(v.is_integer() for v in vals.values()) else 2
    ints = {k: int(v * scale) for k, v in vals.items()}
    return PointSystem(forfeit_win=ints["win"], **ints)


_162 = {"W": "win", "D": "draw", "L": "loss", "Z": "excused", "P": "bye"}


def _point_system_162(line: str) -> dict[str, float]:
    """TRF-2025 `162` record: from column 6, a result letter and its points in four columns, every
    nine columns (`162  W 2.0    D 1.0`)."""
    got: dict[str, float] = {}
    for pos in range(5, len(line.rstrip()), 9):
        letter, value = line[pos], line[pos + 1 : pos + 5]
        if letter not in _162:
            raise TrfError(f"column {pos + 1}: result code {letter!r} is not one of {' '.join(_162)}")
        got[_162[letter]] = _points(value.strip(), "162")
    return got


_BB = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "excused", "BBU": "bye"}


def _whole(text: str, what: str) -> int:
    if not text.strip().isdigit():
        raise TrfError(f"{what} {text.strip()!r} is not a whole number")
    return int(text)


def _points(text: str, code: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TrfError(f"points {text!r} is not a number") from None
    if not 0 <= value <= 1000 or value != value:
        raise TrfError(f"points {text!r} out of range")
    return value


def _parse_player(line: str) -> TrfPlayer:
    number = _whole(line[4:8], "starting rank (columns 5-8)")
    name = line[14:47].strip()
    rating_s = line[48:52].strip()
    p = TrfPlayer(number, name, int(rating_s) if rating_s.isdigit() else 0)
    rnd, pos = 1, 91
    while pos < len(line):
        cell = line[pos : pos + 8]
        parts = cell.split()
        if len(parts) == 3:
            opp = int(parts[0]) if parts[0].isdigit() else 0
            p.cells[rnd] = (opp, parts[1].lower(), parts[2].upper())
        rnd += 1
        pos += 10
    return p


def _entry(cell: tuple[int, str, str], pts: PointSystem) -> PlayedRound:
    opp, colour, code = cell
    if opp == 0:
        value = {"U": pts.bye, "F": pts.win, "H": pts.draw, "Z": pts.excused, "+": pts.win}.get(code, 0)
        return PlayedRound(None, None, value, played=False, pab=code == "U", requested=code in ("F", "H", "Z"))
    if code in ("+", "-"):
        side = colour if colour in ("w", "b") else None
        return PlayedRound(opp, side, pts.forfeit_win if code == "+" else pts.loss, played=False)  # type: ignore[arg-type]
    value = pts.win if code in _WIN else pts.draw if code in _DRAW else pts.loss
    return PlayedRound(opp, "w" if colour == "w" else "b", value, played=True)


def request_from_trf(trf: TrfFile, rnd: int | None = None) -> PairingRequest:
    """The request for round `rnd` (default: the round after the last one in the file)."""
    rnd = rnd or trf.rounds_in_file + 1
    ordered = sorted(trf.players, key=lambda p: p.number)
    players = []
    for p in ordered:
        hist = []
        for k in range(1, rnd):
            cell = p.cells.get(k)
            hist.append(_entry(cell, trf.points) if cell else PlayedRound.absent())
        mark = p.cells.get(rnd)
        not_paired = mark is not None and mark[0] == 0 and mark[2] != "U"
        players.append(
            SwissPlayer(
                id=p.number,
                pairing_number=p.number,
                rating=p.rating,
                name=p.name,
                history=tuple(hist),
                withdrawn=not_paired and mark[2] == "-",  # type: ignore[index]
                excused=not_paired and mark[2] != "-",  # type: ignore[index]
            )
        )
    return PairingRequest(
        players=tuple(players),
        round=rnd,
        total_rounds=max(trf.total_rounds, rnd),
        points=trf.points,
        forbidden_pairs=trf.forbidden,
        initial_colour=trf.initial_colour,
    )


def write_trf(
    players: Sequence[SwissPlayer],
    *,
    total_rounds: int,
    points: PointSystem | None = None,
    name: str = "",
    initial_colour: Colour = "w",
    forbidden: frozenset[frozenset[int]] = frozenset(),
    next_round: int | None = None,
) -> str:
    """TRF(x) of the players' histories (their ids are written as the starting numbers).

    With `next_round`, withdrawn players get `0000 - -` and excused ones `0000 - Z` in that round's
    column, so bbpPairings or JaVaFo pair exactly the players the engine would.
    """
    pts = points or PointSystem()
    lines = [f"012 {_text_field(name)}".rstrip(), f"062 {len(players)}", f"XXR {total_rounds}"]
    lines.append(f"XXC {'white1' if initial_colour == 'w' else 'black1'}")
    for code, attr in _BB.items():
        lines.append(f"{code} {_points_field(getattr(pts, attr))}")
    lines.append(f"BBF {_points_field(pts.loss)}")
    for pair in sorted(tuple(sorted(p)) for p in forbidden):
        lines.append("XXP " + " ".join(str(x) for x in pair))
    scores = {p.id: sum(r.points for r in p.history) for p in players}
    ranked = sorted(players, key=lambda p: (-scores[p.id], p.pairing_number))
    rank = {p.id: i + 1 for i, p in enumerate(ranked)}
    for p in sorted(players, key=lambda q: q.id):
        head = (
            f"001 {p.id:4d}      {_text_field(p.name, 33):<33} {p.rating:4d}     {'':11} {'':10} "
            f"{scores[p.id]:4.1f} {rank[p.id]:4d}  "
        )
        cells = [_cell(r, pts) for r in p.history]
        if next_round is not None:
            cells += [" " * 8] * (next_round - 1 - len(cells))
            if p.withdrawn:
                cells.append("0000 - -")
            elif p.excused:
                cells.append("0000 - Z")
        lines.append((head + "  ".join(cells)).rstrip())
    return "\n".join(lines) + "\n"


def _cell(r: PlayedRound, pts: PointSystem) -> str:
    if r.opponent is None:
        if r.pab:
            return "0000 - U"
        if r.points == 0 and not r.requested:
            return " " * 8  # not in this round
        code = "F" if r.points >= pts.win else "H" if r.points >= pts.draw else "Z"
        return f"0000 - {code}"
    if not r.played:
        return f"{r.opponent:4d} {r.colour or '-'} {'+' if r.points > pts.loss else '-'}"
    code = "1" if r.points >= pts.win else "=" if r.points >= pts.draw else "0"
    return f"{r.opponent:4d} {r.colour} {code}"


def write_pairing(boards: Sequence[tuple[int, int]], bye: int | None) -> str:
    """The bbpPairings / JaVaFo output: the number of pairs, then `white black`, the bye as `N 0`."""
    rows = [f"{w} {b}" for w, b in boards]
    if bye is not None:
        rows.append(f"{bye} 0")
    return "\n".join([str(len(rows))] + rows) + "\n"
