"""The report file to the federation: written from a Report (tournaments.federation.rows), and read back.

No FMJD text specifying the file was found (docs/research/federation-texts.md, 3b). The layout is KNDB
Toernooibase's "matrixnewfmjd" table as third parties copy it, with the lines a known reader of such files
(the tiebreak R scripts) looks for:

    <event name>
    FMJD-report
    Pl;FMJD-id;Title;Name;Cn;FMJD-rating;R1;…;Rn;Pt
    1;10011;GMI;Dupont, Jean;FRA;2350;2/10w;…;14

A cell is `points/place colour` for a game sent for rating (Toernooibase's notation, points on the 2-point
scale, the opponent by his final place, w or b). What Toernooibase's files never show is our documented
choice: a result that is scored but not sent for rating writes `+`, `=` or `-` (2, 1 or 0 points) in place
of the points, after FIDE's B.02 art. 11 marks for unplayed games: `+/12w` a forfeit won, `-/12b` a forfeit
lost, `-/12w` each side of a double forfeit, `=/12w` a game the arbiter marked "not rated" drawn; a round
without an opponent writes its mark alone (`+` the pairing's bye worth 2, `=` a requested bye worth a draw,
`-` absent with zero); a round without a game (after a withdrawal, a round robin's free round) is empty.

`;` separates, a value with decimals would take a decimal comma (draughts points are whole numbers, so
none does today), lines end in CRLF, the text is UTF-8 without a byte-order mark (the stored Toernooibase
files are UTF-8 without one). Text typed by users (the event's and players' names, federations) is quoted
when it holds `;`, a quote or a line break, and a leading `=`, `+`, `-`, `@`, tab or carriage return is
preceded by `'` so a spreadsheet never reads it as a formula (and a leading `'` by another one); the reader
takes that `'` off again.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from fractions import Fraction

from tournaments.federation.rows import BYE, GAME, NONE, REQUESTED_BYE, Report, ReportCell

MARKER = "FMJD-report"
COLUMNS = ("Pl", "FMJD-id", "Title", "Name", "Cn", "FMJD-rating")
TOTAL = "Pt"
SYMBOL = {2: "+", 1: "=", 0: "-"}
POINTS = {s: p for p, s in SYMBOL.items()}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CELL = re.compile(r"^(?:(?P<points>\d+|[+=-])/(?P<place>\d+)(?P<colour>[wb])|(?P<alone>[+=-]))$")


def number(value: int | float | Fraction | None) -> str:
    """A number as the file writes it: whole numbers plain, decimals with a comma; nothing for None."""
    if value is None:
        return ""
    if isinstance(value, int) or Fraction(value).denominator == 1:
        return str(int(value))
    return f"{float(value):.1f}".replace(".", ",")


def text(value: str) -> str:
    """Text typed by a user, made safe for a spreadsheet (the quoting is the csv writer's)."""
    # a text that itself starts with ' gets one more, so the reader's taking one off gives it back whole
    return "'" + value if value.startswith((*FORMULA_START, "'")) else value


def cell_text(cell: ReportCell) -> str:
    if cell.kind == NONE or cell.points is None:
        return ""
    if cell.kind in (BYE, REQUESTED_BYE):
        return SYMBOL[cell.points]
    mark = str(cell.points) if cell.kind == GAME else SYMBOL[cell.points]
    return f"{mark}/{cell.opponent}{cell.colour}"


def write_report(report: Report) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", quotechar='"', quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow([text(report.tournament.name)])
    writer.writerow([MARKER])
    writer.writerow([*COLUMNS, *[f"R{n}" for n in range(1, report.rounds + 1)], TOTAL])
    for row in report.rows:
        cells = [cell_text(c) for c in row.cells] + [""] * (report.rounds - len(row.cells))
        writer.writerow([row.place, number(row.fmjd_id), row.title, text(row.name), text(row.federation),
                         number(row.rating), *cells, number(row.points)])
    return out.getvalue().encode("utf-8")


# --- Reading it back ----------------------------------------------------------------------------------


class ReportFileError(ValueError):
    """What is wrong in a report file, and where (line, column)."""


@dataclass(frozen=True)
class ReadCell:
    round: int
    points: int | None  # None: empty
    rated: bool  # points written as a number (sent for rating), not as +, = or -
    opponent: int | None
    colour: str | None


@dataclass(frozen=True)
class ReadRow:
    place: int
    fmjd_id: int | None
    title: str
    name: str
    federation: str
    rating: int | None
    cells: tuple[ReadCell, ...]
    points: Fraction


@dataclass(frozen=True)
class ReadReport:
    event: str
    rounds: int
    rows: tuple[ReadRow, ...]


def _untext(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith((*FORMULA_START, "'")) else value


def _whole(value: str, where: str) -> int | None:
    if value == "":
        return None
    if not value.isdigit():
        raise ReportFileError(f"{where}: “{value}” is not a whole number")
    return int(value)


def _cell(value: str, rnd: int, where: str) -> ReadCell:
    if value == "":
        return ReadCell(rnd, None, False, None, None)
    m = CELL.match(value)
    if m is None:
        raise ReportFileError(f"{where}: “{value}” is not a cell (points/place and w or b, +, = or -, or empty)")
    if m["alone"]:
        return ReadCell(rnd, POINTS[m["alone"]], False, None, None)
    mark = m["points"]
    rated = mark.isdigit()
    points = int(mark) if rated else POINTS[mark]
    if points > 2:
        raise ReportFileError(f"{where}: {points} points in one game (at most 2)")
    return ReadCell(rnd, points, rated, int(m["place"]), m["colour"])


def read_report(data: bytes) -> ReadReport:
    """The places, ids, titles, names, federations, ratings, cells and totals of a report file."""
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReportFileError(f"byte {exc.start}: the file is not UTF-8") from None
    lines = list(csv.reader(io.StringIO(content, newline=""), delimiter=";", quotechar='"'))
    if len(lines) < 3:
        raise ReportFileError("the file has fewer than three lines (event, marker, column names)")
    event = _untext(lines[0][0] if lines[0] else "")
    if lines[1][:1] != [MARKER]:
        raise ReportFileError(f"line 2: “{';'.join(lines[1])}” instead of the marker {MARKER}")
    header = lines[2]
    rounds = len(header) - len(COLUMNS) - 1
    expected = [*COLUMNS, *[f"R{n}" for n in range(1, rounds + 1)], TOTAL]
    if rounds < 0 or header != expected:
        raise ReportFileError(f"line 3: the columns are {';'.join(header)}; expected {';'.join(expected)}")
    rows = []
    for line_no, fields in enumerate(lines[3:], start=4):
        if not any(fields):
            continue
        if len(fields) != len(header):
            raise ReportFileError(f"line {line_no}: {len(fields)} values for {len(header)} columns")
        where = {name: f"line {line_no}, column {name}" for name in header}
        place = _whole(fields[0], where["Pl"])
        if place is None:
            raise ReportFileError(f"{where['Pl']}: the place is missing")
        total = fields[-1].replace(",", ".")
        try:
            points = Fraction(total)
        except ValueError:
            raise ReportFileError(f"{where[TOTAL]}: “{fields[-1]}” is not a number") from None
        rows.append(ReadRow(
            place=place, fmjd_id=_whole(fields[1], where["FMJD-id"]), title=fields[2], name=_untext(fields[3]),
            federation=_untext(fields[4]), rating=_whole(fields[5], where["FMJD-rating"]),
            cells=tuple(_cell(v, r, where[f"R{r}"]) for r, v in enumerate(fields[6:-1], start=1)),
            points=points,
        ))
    return ReadReport(event, rounds, tuple(rows))


def problems(report: ReadReport) -> list[str]:
    """What does not hold together: a place named twice, a cell naming a place not in the table, a game whose
    other side does not name this player with the other colour. (A total is not checked against the cells: a
    game cancelled by 5.9 A.a or corrected for the rating report only is in a cell and not in the total.)"""
    found: list[str] = []
    by_place = {r.place: r for r in report.rows}
    if len(by_place) != len(report.rows):
        found.append("a place is named twice")
    for row in report.rows:
        for c in row.cells:
            if c.opponent is None:
                continue
            other = by_place.get(c.opponent)
            if other is None:
                found.append(f"place {row.place}, R{c.round}: no player at place {c.opponent}")
                continue
            mirror = other.cells[c.round - 1] if c.round <= len(other.cells) else None
            if mirror is None or mirror.opponent != row.place or mirror.colour == c.colour:
                found.append(f"place {row.place}, R{c.round}: place {c.opponent} does not have the other side")
    return found
