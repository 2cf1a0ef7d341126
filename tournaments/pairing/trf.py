"""TRF(x): FIDE TRF-16 player lines plus the extensions bbpPairings and JaVaFo read.

Extensions: XXR total rounds, XXC initial colour (white1/black1), the point values BBW (win),
BBD (draw), BBL (loss), BBZ (zero-point bye), BBF (forfeit loss), BBU (pairing-allocated bye),
and XXP forbidden pairs (every two of the numbers on one line may not meet).
TRF-2026 records read as well: 142 number of rounds, 152 initial colour (W/B), 162 point values,
092/192 type of tournament (kept as text), 202 the tie-break list (codes kept as written), and
the final rank of each player (columns 86-89 of the 001 record).

Round cells (columns 92+, ten characters a round): `oooo c r` with r in 1 = 0 + - W D L for games
(W D L: played, not rated), `?` for a postponed game (TRF-2026; a draw until its result is in),
and `0000 - U` (pairing-allocated bye), `Z` (zero-point bye), `H` (half-point bye), `F` (full-point
bye), `-` (absent). A blank cell is a round the player was not in. In the round being paired,
a `0000 - x` cell marks a player who is not to be paired (withdrawn or excused).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.numbers import NumberError, number_or_none, parse_number
from tournaments.pairing.model import Colour, PairingRequest, PlayedRound, PointSystem, SwissPlayer

_WIN, _DRAW, _LOSS = ("1", "W", "+"), ("=", "D"), ("0", "L", "-")


@dataclass(frozen=True)
class TrfDetails:
    """TRF-16 player columns the engine does not need: title (11-13), federation (54-56), the
    player's id (58-68; FIDE's in chess, FMJD's here) and birth date (70-79)."""

    title: str = ""
    federation: str = ""
    player_id: int | None = None
    birth_year: int | None = None


@dataclass
class TrfPlayer:
    number: int
    name: str = ""
    rating: int = 0
    line: int = 0  # where it was read, for error messages
    details: TrfDetails = TrfDetails()
    points_text: str = ""  # the points column as written (81-84)
    rank_text: str = ""  # the rank column as written (86-89)
    cells: dict[int, tuple[int, str, str]] = field(default_factory=dict)  # round -> (opp, colour, code)


@dataclass
class TrfFile:
    name: str = ""
    total_rounds: int = 0
    points: PointSystem = PointSystem()
    initial_colour: Colour = "w"
    forbidden: frozenset[frozenset[int]] = frozenset()
    players: list[TrfPlayer] = field(default_factory=list)
    scale: int = 1  # file points times this are the engine's points (2 for chess halves)
    tiebreaks: tuple[str, ...] = ()  # the 202 record's codes, as written
    system: str = ""  # the 092 / 192 record, as written
    place: str = ""  # 022
    time_control: str = ""  # 122

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


def trf_lines(text: str) -> list[str]:
    """The records of a TRF text: split at LF (CR LF as well), or at CR in a file without any LF; never at
    the other characters str.splitlines() takes for line ends (U+0085, U+2028, vertical tab, form feed...),
    which a name may hold: splitting there would cut a player's record in two."""
    lines = text.split("\n" if "\n" in text or "\r" not in text else "\r")
    if lines and lines[-1] == "":
        lines.pop()  # the last record's line end
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def parse_trf(text: str) -> TrfFile:
    trf = TrfFile()
    colour_given = False
    given: dict[str, float] = {}
    forbidden: set[frozenset[int]] = set()
    for number, line in enumerate(trf_lines(text), start=1):
        code, rest = line[:3], line[4:].strip()
        try:
            if code == "001":
                trf.players.append(_parse_player(line, number))
            elif code == "012":
                trf.name = rest
            elif code == "022":
                trf.place = rest
            elif code == "122":
                trf.time_control = rest
            elif code in ("XXR", "142") and rest:
                trf.total_rounds = _whole(rest.split()[0], "number of rounds")
            elif code == "XXC":
                trf.initial_colour = "b" if "black1" in rest.lower().split() else "w"
                colour_given = True
            elif code == "152" and rest:
                if rest.upper() not in ("W", "B"):
                    raise TrfError(f"initial colour {rest!r} is not W or B")
                trf.initial_colour = "w" if rest.upper() == "W" else "b"
                colour_given = True
            elif code in ("092", "192"):
                trf.system = rest
            elif code == "202":
                trf.tiebreaks = tuple(t for t in rest.replace(",", " ").split() if t)
            elif code in _BB and rest:
                given[_BB[code]] = _points(rest.split()[0], code)
            elif code == "162":
                given.update(_point_system_162(line))
            elif code == "XXP":
                nums = [_whole(x, "pairing number") for x in rest.split()]
                twice = next((x for i, x in enumerate(nums) if x in nums[:i]), None)
                if twice is not None:
                    raise TrfError(f"pairing number {twice} is listed twice: a player cannot be kept apart from "
                                   "himself")
                forbidden |= {frozenset((a, b)) for i, a in enumerate(nums) for b in nums[i + 1 :]}
        except TrfError as exc:
            raise TrfError(f"line {number} ({code}): {exc}") from None
    trf.points, trf.scale = _point_system(given)
    if not colour_given:
        trf.initial_colour = _inferred_first_colour(trf.players)
    trf.forbidden = frozenset(forbidden)
    if not trf.total_rounds:
        trf.total_rounds = trf.rounds_in_file
    return trf


def _inferred_first_colour(players: list[TrfPlayer]) -> Colour:
    """The first-round colour of a file without XXC, inferred as bbpPairings infers it: in the first
    round where anyone has a colour, the first player by starting rank who had been paired by then
    had the initial colour if he is the first such player, the other one otherwise (as round 1 of
    a natural pairing gives it)."""
    coloured = [r for p in players for r, (_, colour, _) in p.cells.items() if colour in ("w", "b")]
    if not coloured:
        return "w"
    first = min(coloured)
    index = 0
    for p in sorted(players, key=lambda q: q.number):
        if not any(r <= first and _paired(c) for r, c in p.cells.items()):
            continue
        cell = p.cells.get(first)
        if cell is not None and cell[1] in ("w", "b"):
            own: Colour = "w" if cell[1] == "w" else "b"
            return own if index % 2 == 0 else ("b" if own == "w" else "w")
        index += 1
    return "w"


def _point_system(given: dict[str, float]) -> tuple[PointSystem, int]:
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
    return PointSystem(forfeit_win=ints["win"], **ints), scale


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
    try:
        return parse_number(text.strip(), high=9999)  # the widest number column of TRF-16 has four places
    except NumberError as exc:
        raise TrfError(f"{what} {exc}") from None


def _points(text: str, code: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TrfError(f"points {text!r} is not a number") from None
    if not 0 <= value <= 1000 or value != value:
        raise TrfError(f"points {text!r} out of range")
    return value


_CODES = "10=+-WDLHFUZ?"
_BYE_CODES = "UZHF"


def _parse_player(line: str, number: int = 0) -> TrfPlayer:
    """One `001` record, read strictly: every field that is there must make sense (the message names
    the columns); a blank cell is a round the player was not in."""
    start = _whole(line[4:8], "starting rank (columns 5-8)")
    if start < 1:
        raise TrfError("starting rank (columns 5-8) must be 1 or more")
    rating_s = line[48:52].strip()
    if rating_s and number_or_none(rating_s) is None:
        raise TrfError(f"rating (columns 49-52) {rating_s!r} is not a whole number")
    pid = line[57:68].strip()
    if pid and number_or_none(pid) is None:
        raise TrfError(f"player id (columns 58-68) {pid!r} is not a whole number")
    birth = line[69:79].strip()
    if birth and not (number_or_none(birth[:4]) is not None and len(birth) in (4, 10)):
        raise TrfError(f"birth date (columns 70-79) {birth!r} is not YYYY or YYYY/MM/DD")
    details = TrfDetails(
        title=line[10:13].strip(),
        federation=line[53:56].strip(),
        player_id=int(pid) if pid else None,
        birth_year=int(birth[:4]) if birth else None,
    )
    p = TrfPlayer(start, line[14:47].strip(), int(rating_s) if rating_s else 0, number, details)
    p.points_text = line[80:84].strip()
    p.rank_text = line[85:89].strip()
    if p.rank_text and number_or_none(p.rank_text) is None:
        raise TrfError(f"rank (columns 86-89) {p.rank_text!r} is not a whole number")
    for rnd, pos in enumerate(range(91, len(line), 10), start=1):
        cell = line[pos : pos + 8].ljust(8)
        if not cell.strip():
            continue
        p.cells[rnd] = _parse_cell(cell, start, f"round {rnd} (columns {pos + 1}-{pos + 8})")
    return p


def _parse_cell(cell: str, me: int, where: str) -> tuple[int, str, str]:
    opp_s, colour, code = cell[0:4].strip(), cell[5].lower(), cell[7].upper()
    if cell[4] != " " or cell[6] != " ":
        raise TrfError(f"{where}: {cell!r} is not 'oooo c r' (opponent, colour, result)")
    if opp_s and number_or_none(opp_s) is None:
        raise TrfError(f"{where}: opponent {opp_s!r} is not a starting rank")
    opp = int(opp_s) if opp_s else 0
    if code not in _CODES:
        raise TrfError(f"{where}: result {cell[7]!r} is not one of {' '.join(_CODES)}")
    if colour not in ("w", "b", "-", " "):
        raise TrfError(f"{where}: colour {cell[5]!r} is not w, b or -")
    if opp == me:
        raise TrfError(f"{where}: a player cannot meet himself")
    if opp == 0 and code not in _BYE_CODES + "-+":
        raise TrfError(f"{where}: result {code!r} needs an opponent (a bye is U, Z, H or F)")
    if opp and code in _BYE_CODES:
        raise TrfError(f"{where}: a bye ({code}) has no opponent: write 0000")
    if opp and colour not in ("w", "b") and code not in "+-":
        raise TrfError(f"{where}: a game played over the board needs a colour, w or b")
    return opp, colour.strip() or "-", code


def _entry(cell: tuple[int, str, str], pts: PointSystem) -> PlayedRound:
    opp, colour, code = cell
    if opp == 0:
        value = {"U": pts.bye, "F": pts.win, "H": pts.draw, "Z": pts.excused, "+": pts.win}.get(code, 0)
        return PlayedRound(None, None, value, played=False, pab=code == "U", requested=code in ("F", "H", "Z"))
    if code in ("+", "-"):
        side = colour if colour in ("w", "b") else None
        return PlayedRound(opp, side, pts.forfeit_win if code == "+" else pts.loss, played=False)  # type: ignore[arg-type]
    if code == "?":
        return PlayedRound(opp, "w" if colour == "w" else "b", pts.draw, played=True, postponed=True)
    value = pts.win if code in _WIN else pts.draw if code in _DRAW else pts.loss
    return PlayedRound(opp, "w" if colour == "w" else "b", value, played=True, rated=code not in "WDL")


def cell_points(cell: tuple[int, str, str], pts: PointSystem) -> int:
    """What one round cell scores, in the engine's points."""
    return _entry(cell, pts).points


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
    details: Mapping[int, TrfDetails] | None = None,
    excused_codes: Mapping[int, str] | None = None,
    tiebreaks: Sequence[str] = (),
    ranks: Mapping[int, int] | None = None,
    comments: Sequence[str] = (),
    header: Sequence[tuple[str, str]] = (),
    round_dates: Mapping[int, str] | None = None,
) -> str:
    """TRF(x) of the players' histories (their ids are written as the starting numbers); `details`
    adds a player's title, federation, id and birth year in their TRF-16 columns.

    With `next_round`, withdrawn players get `0000 - -` and excused ones `0000 - Z` in that round's
    column, so bbpPairings or JaVaFo pair exactly the players the engine would; `excused_codes` gives an
    excused player's bye its value there instead (H worth a draw, F a win).

    `tiebreaks` is written as the 202 record, `ranks` (id -> final rank) in columns 86-89 (by
    default: points, then the pairing number), `comments` as `###` lines after the header. The
    point values go out twice, as TRF-2026's 162 record (read by TieBreakServer and bbpPairings) and
    as the BBx lines (TRF(bx), read by older bbpPairings builds).

    `header` is TRF-16's other header records, (code, text) after 012 (022 place, 042 and 052 dates,
    092 type, 102 and 112 arbiters, 122 time control...); `round_dates` (round -> "YY/MM/DD") the 132
    record, each date in its round's columns of the player records.
    """
    pts = points or PointSystem()
    lines = [f"012 {_text_field(name)}".rstrip()]
    records = sorted([*header, ("062", str(len(players)))], key=lambda record: record[0])  # 112 may repeat
    lines += [f"{code} {_text_field(text)}".rstrip() for code, text in records]
    if round_dates:
        cells = [f"{round_dates.get(r, ''):<8}" for r in range(1, max(round_dates) + 1)]
        lines.append(("132" + " " * 88 + "  ".join(cells)).rstrip())
    lines += [f"### {_text_field(c)}".rstrip() for c in comments]
    lines.append(f"XXR {total_rounds}")
    lines.append(f"XXC {'white1' if initial_colour == 'w' else 'black1'}")
    for code, attr in _BB.items():
        lines.append(f"{code} {_points_field(getattr(pts, attr))}")
    lines.append(f"BBF {_points_field(pts.loss)}")
    lines.append("162  " + "    ".join(
        f"{letter}{_points_field(v)}" for letter, v in
        (("W", pts.win), ("D", pts.draw), ("L", pts.loss), ("Z", pts.excused), ("P", pts.bye))
    ))
    if tiebreaks:
        lines.append("202 " + " ".join(_text_field(t) for t in tiebreaks))
    for pair in sorted(tuple(sorted(p)) for p in forbidden):
        lines.append("XXP " + " ".join(str(x) for x in pair))
    scores = {p.id: sum(r.points for r in p.history) for p in players}
    ranked = sorted(players, key=lambda p: (-scores[p.id], p.pairing_number))
    rank = dict(ranks) if ranks is not None else {p.id: i + 1 for i, p in enumerate(ranked)}
    for p in sorted(players, key=lambda q: q.id):
        d = (details or {}).get(p.id, TrfDetails())
        title = d.title if len(d.title) <= 3 else ""
        head = (
            f"001 {p.id:4d}  {title:>3} {_text_field(p.name, 33):<33} {p.rating or '':>4} {d.federation[:3]:<3} "
            f"{d.player_id or '':>11} {d.birth_year or '':<10} {scores[p.id]:4.1f} {rank[p.id]:4d}  "
        )
        cells = [_cell(r, pts) for r in p.history]
        if next_round is not None:
            cells += [" " * 8] * (next_round - 1 - len(cells))
            if p.withdrawn:
                cells.append("0000 - -")
            elif p.excused:
                cells.append(f"0000 - {(excused_codes or {}).get(p.id, 'Z')}")
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
    if r.postponed:
        return f"{r.opponent:4d} {r.colour} ?"
    code = "1" if r.points >= pts.win else "=" if r.points >= pts.draw else "0"
    if not r.rated:
        code = {"1": "W", "=": "D", "0": "L"}[code]
    return f"{r.opponent:4d} {r.colour} {code}"


def write_pairing(boards: Sequence[tuple[int, int]], bye: int | None) -> str:
    """The bbpPairings / JaVaFo output: the number of pairs, then `white black`, the bye as `N 0`."""
    rows = [f"{w} {b}" for w, b in boards]
    if bye is not None:
        rows.append(f"{bye} 0")
    return "\n".join([str(len(rows))] + rows) + "\n"
