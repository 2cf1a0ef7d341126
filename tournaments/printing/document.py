"""What every PDF shares (reportlab, A4): the embedded font, the page with the tournament in its header
and "page n" in its footer, the table style, names cut to their column, and the one escaping helper.

Text is set in DejaVu Sans, embedded, so accents and Cyrillic names print as written. A missing font
file is an error with the fix in its message, never a silent fall back to a Latin-1 built-in font.

reportlab reads a Paragraph's text as markup (<b>, <img src=...>, <font>...): a name such as
"Broken <b" breaks the build and "<img src='/etc/hostname'/>" would embed a server file. So every
Paragraph is made by `para`, which escapes its text first; table cells and canvas strings are drawn
as plain text by reportlab and need no escaping.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

from tournaments.conformance.words import left_mode_text
from tournaments.models import Tournament
from tournaments.words import tournament_dates

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_DIR = Path(os.environ.get("DAMIER_FONT_DIR", "/usr/share/fonts/truetype/dejavu"))


class FontMissingError(RuntimeError):
    pass


def register_fonts() -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, filename in ((FONT, "DejaVuSans.ttf"), (FONT_BOLD, "DejaVuSans-Bold.ttf")):
        path = FONT_DIR / filename
        if not path.is_file():
            raise FontMissingError(
                f"{path} not found: the PDFs need DejaVu Sans for accents and Cyrillic. Install the Debian "
                "package fonts-dejavu-core, or set DAMIER_FONT_DIR to a folder holding DejaVuSans.ttf and "
                "DejaVuSans-Bold.ttf."
            )
        pdfmetrics.registerFont(TTFont(name, str(path)))


def markup(text: object) -> str:
    """Text from the database made safe for reportlab's paragraph markup: the one escaping helper."""
    return escape(str(text), quote=False)


def para(text: object, style: ParagraphStyle) -> Paragraph:
    return Paragraph(markup(text), style)


def player_text(line_name: str, title: str, federation: str) -> str:
    return " ".join(part for part in (line_name, title, federation and f"({federation})") if part)


def new_canvas(*args: Any, **kwargs: Any) -> Canvas:
    # The canvas would otherwise open every page in Helvetica, which cannot print Cyrillic.
    kwargs["initialFontName"], kwargs["initialFontSize"] = FONT, 9
    return Canvas(*args, **kwargs)


class Document:
    """A4 document with the tournament in the page header and 'page n' in the footer."""

    def __init__(self, tournament: Tournament, heading: str, *, wide: bool) -> None:
        register_fonts()
        self.tournament = tournament
        self.heading = heading
        self.pagesize = landscape(A4) if wide else A4
        self.buffer = io.BytesIO()
        self.doc = SimpleDocTemplate(
            self.buffer, pagesize=self.pagesize, leftMargin=12 * mm, rightMargin=12 * mm, topMargin=20 * mm,
            bottomMargin=14 * mm, title=f"{tournament.name} – {heading}", author="Damier",
        )
        self.printed = date_format(timezone.localtime(), "DATETIME_FORMAT")
        # The permanent mark of the public pages, on every printed page too: a standings sheet
        # pinned on the wall says as much as the page it was printed from.
        left = tournament.conformance_left_round
        self.mark = left_mode_text(left) if left is not None else ""

    def _page(self, canvas: Canvas, doc: Any) -> None:
        width, height = self.pagesize
        canvas.saveState()
        canvas.setFont(FONT_BOLD, 11)
        canvas.drawString(12 * mm, height - 11 * mm, self.tournament.name)
        canvas.setFont(FONT, 9)
        canvas.drawRightString(width - 12 * mm, height - 11 * mm, self.heading)
        venue = ", ".join(p for p in (self.tournament.venue, tournament_dates(self.tournament)) if p)
        canvas.drawString(12 * mm, height - 15.5 * mm, venue)
        canvas.setFont(FONT, 7.5)
        if self.mark:
            canvas.setFont(FONT_BOLD, 7.5)
            canvas.drawString(12 * mm, 11 * mm, self.mark)
            canvas.setFont(FONT, 7.5)
        canvas.drawString(12 * mm, 8 * mm, _("Printed %(when)s by Damier") % {"when": self.printed})
        canvas.drawRightString(width - 12 * mm, 8 * mm, _("Page %(n)s") % {"n": doc.page})
        canvas.restoreState()

    def build(self, flowables: list[Any]) -> bytes:
        self.doc.build(flowables, onFirstPage=self._page, onLaterPages=self._page, canvasmaker=new_canvas)
        return self.buffer.getvalue()


def styled_table(rows: list[list[Any]], widths: Sequence[float], *, align_left: Sequence[int] = (),
           small: bool = False, stripes: bool = True, extra: Sequence[tuple[Any, ...]] = (),
           size: float | None = None) -> Table:
    size = size or (7 if small else 9)
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, size),
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, size),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("GRID", (0, 1), (-1, -1), 0.25, colors.grey),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5 if small else size * 0.28),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5 if small else size * 0.28),
        ("LEFTPADDING", (0, 0), (-1, -1), 2 if size < 12 else 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2 if size < 12 else 4),
    ]
    for col in align_left:
        style.append(("ALIGN", (col, 0), (col, -1), "LEFT"))
    # Long tie-break names wrap inside their column instead of running into the next one.
    head = ParagraphStyle("head", fontName=FONT_BOLD, fontSize=size - 0.5, leading=size + 1, alignment=1,
                          splitLongWords=0)
    # "Sonneborn-Berger" breaks after its hyphen, never in the middle of a word.
    rows = [[Paragraph(markup(h).replace("-", "-<br/>"), head) if isinstance(h, str) and len(h) > 6 else h
             for h in rows[0]], *rows[1:]]
    if stripes:
        style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f0f0ec")]))
    style.extend(extra)
    table = Table(rows, colWidths=list(widths), repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def fit_name(text: str, width: float, size: float) -> str:
    """Cut a name to its column (with an ellipsis) rather than let it run into the next cell."""
    if pdfmetrics.stringWidth(text, FONT, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"
