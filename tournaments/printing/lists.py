"""PDFs printed before round 1: the starting rank list and a round robin's whole schedule."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Spacer, Table, TableStyle

from tournaments import selectors
from tournaments.models import Entry, EntryStatus, Tournament, numbered
from tournaments.printing.document import FONT, Document, fit_name, para, styled_table
from tournaments.ratings import tournament_rating
from tournaments.rounds.schedule import Start, timetable
from tournaments.selectors import starting_order
from tournaments.words import start_text, time_control_text

# ?order=... -> its name on the sheet; the first is the default.
ORDERS = {
    "number": gettext_lazy("by pairing number"),
    "name": gettext_lazy("alphabetical"),
    "federation": gettext_lazy("by federation"),
    "club": gettext_lazy("by club"),
}


def starting_list_pdf(tournament: Tournament, entries: Sequence[Entry], *, order: str) -> bytes:
    """Number, title, name, federation, rating and club of every entry, in the asked order (ORDERS)."""
    heading = _("Starting rank list") + f" ({ORDERS[order]})"
    doc = Document(tournament, heading, wide=False)
    usable = doc.pagesize[0] - 24 * mm
    widths = [12 * mm, 12 * mm, 0, 14 * mm, 16 * mm, 0]
    free = usable - sum(widths)
    widths[2], widths[5] = free * 0.58, free * 0.42
    rows: list[list[Any]] = [[_("No."), _("Title"), _("Name"), _("Fed."), _("Rating"), _("Club")]]
    gone = 0
    for e in starting_order(entries, order):
        p = e.player
        name = p.full_name
        if e.status != EntryStatus.ACTIVE:
            name += " *"
            gone += 1
        rows.append([e.pairing_number, e.title, fit_name(name, widths[2] - 6, 10), p.federation,
                     tournament_rating(e, tournament.rating_method) or "", fit_name(p.club, widths[5] - 6, 10)])
    if len(rows) == 1:
        rows.append(["", "", _("No player entered yet."), "", "", ""])
    title = ParagraphStyle("list-title", fontName=FONT, fontSize=14, leading=18, spaceAfter=3 * mm)
    note = ParagraphStyle("list-note", fontName=FONT, fontSize=8, leading=10)
    flowables: list[Any] = [para(heading, title), styled_table(rows, widths, align_left=[2, 5], size=10)]
    if gone:
        flowables += [Spacer(1, 3 * mm), para(_("*: withdrawn or expelled."), note)]
    return doc.build(flowables)


def schedule_pdf(tournament: Tournament, schedule: Sequence[Sequence[tuple[Entry, Entry | None]]]) -> bytes:
    """Every round of a round robin on one landscape sheet where they fit: each round a small table of
    boards (White – Black, pairing number and name), as few rounds side by side as the sheet's height
    allows, so that the names keep the widest columns. A field too large for one sheet runs on."""
    doc = Document(tournament, _("Schedule of all rounds"), wide=True)
    title = ParagraphStyle("schedule-title", fontName=FONT, fontSize=14, leading=18, spaceAfter=2 * mm)
    flowables: list[Any] = [para(_("Schedule of all rounds"), title)]
    if not schedule:
        flowables.append(para(_("The schedule follows from pairing numbers 1 to n without gaps: number the "
                                "players first."), title))
        return doc.build(flowables)
    note = ParagraphStyle("schedule-note", fontName=FONT, fontSize=8, leading=10, spaceAfter=2 * mm)
    legend = _("Board, then White and Black: pairing number and name.")
    flowables.append(para(" ".join(p for p in (legend, time_control_text(tournament.time_control)) if p), note))
    # Each round's day and start time (the round schedule; a published round's own day), under its number.
    when = {s.number: s for s in timetable(tournament, selectors.tournament_rounds(tournament, public_only=True))}
    usable_w = doc.doc.width - 12
    usable_h = doc.doc.height - 12 - 18 - 12 - 4 * mm - 4 * mm  # the frame's padding, the title, the note
    layout = _layout(schedule, usable_w, usable_h, dated=any(s.date for s in when.values()))
    columns, size = layout if layout is not None else (min(6, len(schedule)), 6.0)
    col_w = usable_w / columns
    cells: list[Any] = [_round_table(number, boards, col_w, size, _when(when.get(number), col_w - GAP - 4, size - 1))
                        for number, boards in enumerate(schedule, start=1)]
    grid = [cells[i:i + columns] for i in range(0, len(cells), columns)]
    grid[-1] += [""] * (columns - len(grid[-1]))
    table = Table(grid, colWidths=[col_w] * columns)
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), GAP / 2),
                               ("RIGHTPADDING", (0, 0), (-1, -1), GAP / 2), ("TOPPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), GAP)]))
    flowables.append(table)
    return doc.build(flowables)


GAP = 3 * mm  # between two rounds, across and down


def _when(start: Start | None, width: float, size: float) -> str:
    """The round's day and start time in words, or in the short date format where the words do not fit
    the column: the start time is never cut."""
    if start is None or start.date is None:
        return ""
    words = start_text(start.date, start.time)
    if stringWidth(words, FONT, size) <= width:
        return words
    return fit_name(", ".join(p for p in (date_format(start.date, "SHORT_DATE_FORMAT"),
                                          start.time.strftime("%H:%M") if start.time else "") if p), width, size)


def _layout(schedule: Sequence[Sequence[tuple[Entry, Entry | None]]], width: float,
            height: float, *, dated: bool = False) -> tuple[int, float] | None:
    """(columns, type size) of the first layout putting every round on one sheet, the fewest columns and
    the largest type first; None when no layout does. `dated`: each round has a line for its day."""
    for size in (10.0, 9.0, 8.0, 7.0, 6.0):
        for columns in range(1, min(len(schedule), 8) + 1):
            col_w = width / columns
            probe = _round_table(1, max(schedule, key=len), col_w, size, "x" if dated else "")
            _w, round_h = probe.wrap(col_w - GAP, height)
            if math.ceil(len(schedule) / columns) * (round_h + GAP) <= height:
                return columns, size
    return None


def _round_table(number: int, boards: Sequence[tuple[Entry, Entry | None]], col_w: float, size: float,
                 when: str = "") -> Table:
    inner = col_w - GAP
    widths = [size * 2.2, (inner - size * 2.2) / 2, (inner - size * 2.2) / 2]
    rows: list[list[Any]] = [[_("Round %(n)s") % {"n": number}, "", ""]]
    extra: list[tuple[Any, ...]] = [("SPAN", (0, 0), (-1, 0)), ("ALIGN", (0, 0), (-1, 0), "LEFT")]
    if when:
        rows.append([when, "", ""])
        extra += [("SPAN", (0, 1), (-1, 1)), ("ALIGN", (0, 1), (-1, 1), "LEFT"),
                  ("FONTSIZE", (0, 1), (-1, 1), size - 1)]
    for board, (white, black) in enumerate(boards, start=1):
        rows.append([board, _side(white, widths[1], size),
                     _side(black, widths[2], size) if black is not None else _("free round")])
    return styled_table(rows, widths, align_left=[1, 2], size=size, extra=extra)


def _side(entry: Entry, width: float, size: float) -> str:
    """'3. Full name', or '3. Surname' where the full name does not fit: a number alone finds nobody."""
    full = str(entry)
    if stringWidth(full, FONT, size) <= width - 4:
        return full
    return fit_name(numbered(entry.pairing_number, entry.player.surname), width - 4, size)
