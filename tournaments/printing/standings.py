"""The standings and crosstable PDFs, from the rows tournaments.selectors read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Spacer

from tournaments.models import Tournament
from tournaments.printing.document import (
    FONT,
    FONT_BOLD,
    Document,
    fit_name,
    para,
    player_text,
    styled_table,
)
from tournaments.public import notation
from tournaments.selectors import Crosstable, StandingLine
from tournaments.words import expelled_text, format_tiebreak, tiebreak_label, withdrawal_text

# The left and right padding of a table cell below 12 pt (document.styled_table).
CELL_PADDING = 2


def _notes(lines: Sequence[StandingLine]) -> list[Any]:
    notes = [(ln.player.name, withdrawal_text(ln.row.withdrawal)) for ln in lines if ln.row.withdrawal]
    notes += [(ln.player.name, expelled_text()) for ln in lines if ln.row.expelled]
    if not notes:
        return []
    style = ParagraphStyle("note", fontName=FONT, fontSize=8, leading=10)
    out: list[Any] = [Spacer(1, 4 * mm)]
    out.extend(para(f"{name}: {note}", style) for name, note in notes)
    return out


def standings_pdf(tournament: Tournament, lines: Sequence[StandingLine], *, heading: str) -> bytes:
    """`heading` says which round the table is after, and whether that round is complete
    (tournaments.ranking.progress.heading)."""
    tiebreaks = list(tournament.tiebreaks)
    wide = len(tiebreaks) > 3
    doc = Document(tournament, heading, wide=wide)
    usable = doc.pagesize[0] - 24 * mm
    fixed = [12 * mm, 0, 14 * mm, 12 * mm, 16 * mm] + [22 * mm] * len(tiebreaks)
    fixed[1] = usable - sum(fixed)
    header = [_("Rank"), _("Player"), _("Rating"), _("Pts"), _("Games")] + [str(tiebreak_label(n)) for n in tiebreaks]
    rows: list[list[Any]] = [header]
    for ln in lines:
        name = player_text(ln.player.name, ln.player.title, ln.player.federation)
        if ln.row.withdrawn:
            name += " " + _("(withdrawn)")
        rows.append([
            ln.row.rank if ln.row.rank is not None else "–", fit_name(name, fixed[1] - 4, 9),
            ln.player.rating or "", ln.row.points, ln.row.played,
            *[format_tiebreak(ln.row.tiebreaks.get(n)) for n in tiebreaks],
        ])
    total = sum(ln.row.points for ln in lines)
    rows.append(["", _("Total"), "", total, ""] + [""] * len(tiebreaks))
    table = styled_table(rows, fixed, align_left=[1], extra=[("FONT", (0, -1), (-1, -1), FONT_BOLD, 9)])
    return doc.build([table, *_notes(lines)])


def _crosstable_widths(cross: Crosstable, texts: list[list[str]], size: float, usable: float) -> list[float]:
    """The columns: #, rank, player, rating, a cell per round, points, the tie-breaks."""
    n_cells = len(cross.headers)
    cell_w = (8 if cross.round_robin else 12 if size > 7 else 9) * mm
    if cross.round_robin and n_cells > 20:
        cell_w = 6 * mm
    # A cell is as wide as its longest mark ("+2 bye", "12w0F" in the reader's language), never narrower than
    # the usual width: nothing spills into the next round.
    longest = max((pdfmetrics.stringWidth(t, FONT, size) for row in texts for t in row), default=0)
    cell_w = max(cell_w, longest + 2 * CELL_PADDING + 1)
    tb = list(cross.tiebreaks)
    fixed = [8 * mm, 11 * mm, 0, 12 * mm] + [cell_w] * n_cells + [10 * mm] + [20 * mm] * len(tb)
    if usable - sum(fixed) < 45 * mm:  # a wide Swiss: narrower tie-break columns keep the names readable
        fixed[-len(tb) or len(fixed):] = [16 * mm] * len(tb)
    fixed[2] = max(35 * mm, usable - sum(fixed))
    return fixed


def crosstable_pdf(tournament: Tournament, cross: Crosstable, *, heading: str) -> bytes:
    doc = Document(tournament, heading, wide=True)
    usable = doc.pagesize[0] - 24 * mm
    n_cells = len(cross.headers)
    tb = list(cross.tiebreaks)
    texts = [[c.text if cross.round_robin else notation.cell_text(c) for c in line.cells] for line in cross.lines]
    # the smaller type for a big table, or when the marks do not fit the page at the larger
    for small in (True,) if len(cross.lines) > 30 or n_cells > 14 else (False, True):
        size = 7 if small else 9
        fixed = _crosstable_widths(cross, texts, size, usable)
        if sum(fixed) <= usable:
            break
    header = ["#", _("Rank"), _("Player"), _("Rating"), *cross.headers, _("Pts"), *[str(tiebreak_label(n)) for n in tb]]
    rows: list[list[Any]] = [header]
    for i, line in enumerate(cross.lines, start=1):
        s = line.standing
        name = player_text(s.player.name, s.player.title, s.player.federation)
        if s.row.withdrawn:
            name += " " + _("(wd)")
        rows.append([
            i, s.row.rank if s.row.rank is not None else "–", fit_name(name, fixed[2] - 4, size),
            s.player.rating or "", *texts[i - 1], s.row.points,
            *[format_tiebreak(s.row.tiebreaks.get(n)) for n in tb],
        ])
    extra: list[tuple[Any, ...]] = []
    if cross.round_robin:
        for i in range(len(cross.lines)):
            extra.append(("BACKGROUND", (4 + i, 1 + i), (4 + i, 1 + i), colors.HexColor("#555555")))
    table = styled_table(rows, fixed, align_left=[2], small=small, stripes=True, extra=extra)
    legend = ParagraphStyle("legend", fontName=FONT, fontSize=7.5, leading=9.5)
    said = notation.legend([c for line in cross.lines for c in line.cells], round_robin=cross.round_robin)
    return doc.build([table, Spacer(1, 3 * mm), *[para(text, legend) for text in said],
                      *_notes([ln.standing for ln in cross.lines])])


# Sheets for the wall are read standing, from about two metres. At 2 m a letter is just resolved by
# normal (6/6) vision when its height subtends 5 arc minutes: 2000 mm x tan(5') = 2.9 mm. 16 pt DejaVu
# Sans has a cap height of 16 x 0.353 mm x 0.73 = 4.1 mm and an x-height of 3.1 mm: about 1.4 times that
# limit, so it stays readable for a player with 6/9 vision, in a crowd and in a dim hall, while an A4
# landscape page still holds 17 boards. Board numbers, what a player looks for first, are set larger.
