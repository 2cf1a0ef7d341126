"""The PDFs an arbiter prints (reportlab, A4): standings, crosstable, round pairings, the alphabetical
"find your board" list and score sheets.

Text is set in DejaVu Sans, embedded, so accents and Cyrillic names print as written. A missing font
file is an error with the fix in its message, never a silent fall back to a Latin-1 built-in font.
Every function takes rows already read by tournaments.selectors and returns the PDF bytes.

reportlab reads a Paragraph's text as markup (<b>, <img src=...>, <font>...): a name such as
"Broken <b" breaks the build and "<img src='/etc/hostname'/>" would embed a server file. So every
Paragraph is made by `_para`, which escapes its text first; table cells and canvas strings are drawn
as plain text by reportlab and need no escaping.
"""

from __future__ import annotations

import io
import os
import unicodedata
from collections.abc import Mapping, Sequence
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
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from tournaments.data_text import result_text, tournament_dates, withdrawal_text
from tournaments.models import Game, Round, Tournament
from tournaments.selectors import Crosstable, StandingLine
from tournaments.tiebreak_text import format_tiebreak, tiebreak_label

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_DIR = Path(os.environ.get("DAMIER_FONT_DIR", "/usr/share/fonts/truetype/dejavu"))
MOVES_PER_SHEET = 100  # four blocks of 25 numbered lines
COPIES = 2  # competition rules 3.10.2: a sheet must allow writing the game "au moins, en double exemplaire"


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


def _para(text: object, style: ParagraphStyle) -> Paragraph:
    return Paragraph(markup(text), style)


def _player(line_name: str, title: str, federation: str) -> str:
    return " ".join(part for part in (line_name, title, federation and f"({federation})") if part)


def _canvas(*args: Any, **kwargs: Any) -> Canvas:
    # The canvas would otherwise open every page in Helvetica, which cannot print Cyrillic.
    kwargs["initialFontName"], kwargs["initialFontSize"] = FONT, 9
    return Canvas(*args, **kwargs)


class _Doc:
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
        canvas.drawString(12 * mm, 8 * mm, _("Printed %(when)s by Damier") % {"when": self.printed})
        canvas.drawRightString(width - 12 * mm, 8 * mm, _("Page %(n)s") % {"n": doc.page})
        canvas.restoreState()

    def build(self, flowables: list[Any]) -> bytes:
        self.doc.build(flowables, onFirstPage=self._page, onLaterPages=self._page, canvasmaker=_canvas)
        return self.buffer.getvalue()


def _table(rows: list[list[Any]], widths: Sequence[float], *, align_left: Sequence[int] = (),
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


def _fit_name(text: str, width: float, size: float) -> str:
    """Cut a name to its column (with an ellipsis) rather than let it run into the next cell."""
    if pdfmetrics.stringWidth(text, FONT, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


def _notes(lines: Sequence[StandingLine]) -> list[Any]:
    notes = [(ln.player.name, withdrawal_text(ln.row.withdrawal)) for ln in lines if ln.row.withdrawal]
    if not notes:
        return []
    style = ParagraphStyle("note", fontName=FONT, fontSize=8, leading=10)
    out: list[Any] = [Spacer(1, 4 * mm)]
    out.extend(_para(f"{name}: {note}", style) for name, note in notes)
    return out


def standings_pdf(tournament: Tournament, lines: Sequence[StandingLine], *, heading: str) -> bytes:
    """`heading` says which round the table is after, and whether that round is complete
    (tournaments.progress.heading)."""
    tiebreaks = list(tournament.tiebreaks)
    wide = len(tiebreaks) > 3
    doc = _Doc(tournament, heading, wide=wide)
    usable = doc.pagesize[0] - 24 * mm
    fixed = [12 * mm, 0, 14 * mm, 12 * mm, 16 * mm] + [22 * mm] * len(tiebreaks)
    fixed[1] = usable - sum(fixed)
    header = [_("Rank"), _("Player"), _("Rating"), _("Pts"), _("Games")] + [str(tiebreak_label(n)) for n in tiebreaks]
    rows: list[list[Any]] = [header]
    for ln in lines:
        name = _player(ln.player.name, ln.player.title, ln.player.federation)
        if ln.row.withdrawn:
            name += " " + _("(withdrawn)")
        rows.append([
            ln.row.rank if ln.row.rank is not None else "–", _fit_name(name, fixed[1] - 4, 9),
            ln.player.rating or "", ln.row.points, ln.row.played,
            *[format_tiebreak(ln.row.tiebreaks.get(n)) for n in tiebreaks],
        ])
    total = sum(ln.row.points for ln in lines)
    rows.append(["", _("Total"), "", total, ""] + [""] * len(tiebreaks))
    table = _table(rows, fixed, align_left=[1], extra=[("FONT", (0, -1), (-1, -1), FONT_BOLD, 9)])
    return doc.build([table, *_notes(lines)])


def crosstable_pdf(tournament: Tournament, cross: Crosstable, *, heading: str) -> bytes:
    doc = _Doc(tournament, heading, wide=True)
    usable = doc.pagesize[0] - 24 * mm
    n_cells = len(cross.headers)
    small = len(cross.lines) > 30 or n_cells > 14
    size = 7 if small else 9
    tb = list(cross.tiebreaks)
    cell_w = (8 if cross.round_robin else 12) * mm
    if cross.round_robin and n_cells > 20:
        cell_w = 6 * mm
    tb_w = 20 * mm
    fixed = [8 * mm, 11 * mm, 0, 12 * mm] + [cell_w] * n_cells + [10 * mm] + [tb_w] * len(tb)
    if usable - sum(fixed) < 45 * mm:  # a wide Swiss: narrower tie-break columns keep the names readable
        fixed[-len(tb) or len(fixed):] = [16 * mm] * len(tb)
    fixed[2] = max(35 * mm, usable - sum(fixed))
    header = ["#", _("Rank"), _("Player"), _("Rating"), *cross.headers, _("Pts"), *[str(tiebreak_label(n)) for n in tb]]
    rows: list[list[Any]] = [header]
    for i, line in enumerate(cross.lines, start=1):
        s = line.standing
        name = _player(s.player.name, s.player.title, s.player.federation)
        if s.row.withdrawn:
            name += " " + _("(wd)")
        rows.append([
            i, s.row.rank if s.row.rank is not None else "–", _fit_name(name, fixed[2] - 4, size),
            s.player.rating or "", *[c.text for c in line.cells], s.row.points,
            *[format_tiebreak(s.row.tiebreaks.get(n)) for n in tb],
        ])
    extra: list[tuple[Any, ...]] = []
    if cross.round_robin:
        for i in range(len(cross.lines)):
            extra.append(("BACKGROUND", (4 + i, 1 + i), (4 + i, 1 + i), colors.HexColor("#555555")))
    table = _table(rows, fixed, align_left=[2], small=small, stripes=True, extra=extra)
    legend = ParagraphStyle("legend", fontName=FONT, fontSize=7.5, leading=9.5)
    text = _("2 win, 1 draw, 0 loss; F forfeit (5.7, 5.8).") if cross.round_robin else _(
        "Each round: the opponent's line number, w/b for White/Black, then the result (2, 1, 0; F forfeit). "
        "Example: 12w2 = won with White against the player on line 12.")
    return doc.build([table, Spacer(1, 3 * mm), _para(text, legend),
                      *_notes([ln.standing for ln in cross.lines])])


# Sheets for the wall are read standing, from about two metres. At 2 m a letter is just resolved by
# normal (6/6) vision when its height subtends 5 arc minutes: 2000 mm x tan(5') = 2.9 mm. 16 pt DejaVu
# Sans has a cap height of 16 x 0.353 mm x 0.73 = 4.1 mm and an x-height of 3.1 mm: about 1.4 times that
# limit, so it stays readable for a player with 6/9 vision, in a crowd and in a dim hall, while an A4
# landscape page still holds 17 boards. Board numbers, what a player looks for first, are set larger.
WALL_SIZE = 16
WALL_BOARD_SIZE = 20


def _wall_doc(tournament: Tournament, rnd: Round, heading: str) -> _Doc:
    when = f" – {date_format(rnd.date, 'DATE_FORMAT')}" if rnd.date else ""
    return _Doc(tournament, heading % {"n": rnd.number} + when, wide=True)


def _wall_title(text: str) -> Paragraph:
    return _para(text, ParagraphStyle("wall-title", fontName=FONT_BOLD, fontSize=WALL_SIZE + 4,
                                      leading=WALL_SIZE + 8, spaceAfter=3 * mm))


def _bye_text(game: Game, bye_points: int) -> str:
    if game.result == "excused":
        return _("excused (0 points)")
    if bye_points == 0:  # a round robin's free round: every player has one, it scores nothing
        return _("free round (no game)")
    return _("bye (+%(points)s points)") % {"points": bye_points}


def pairings_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game], *,
                 points_before: Mapping[int, int], bye_points: int) -> bytes:
    """Board, pairing numbers, names and each player's points before the round, at wall size.

    A bye (or an excused round) is one line: the player, then "bye (+2 points)" across the opponent's
    columns; nothing else on that line repeats it. `points_before` maps entry id -> points in the
    standings after the previous round.
    """
    doc = _wall_doc(tournament, rnd, _("Round %(n)s pairings"))
    usable = doc.pagesize[0] - 24 * mm
    fixed = [21 * mm, 14 * mm, 0, 14 * mm, 28 * mm, 14 * mm, 0, 14 * mm]
    fixed[2] = fixed[6] = (usable - sum(fixed)) / 2
    rows: list[list[Any]] = [[_("Board"), _("No."), _("White"), _("Pts"), _("Result"), _("Pts"), _("Black"),
                              _("No.")]]
    extra: list[tuple[Any, ...]] = [("FONT", (0, 1), (0, -1), FONT_BOLD, WALL_BOARD_SIZE),
                                    ("TEXTCOLOR", (3, 1), (3, -1), colors.HexColor("#333333")),
                                    ("TEXTCOLOR", (5, 1), (5, -1), colors.HexColor("#333333"))]
    name_w = fixed[2] - 8
    for i, g in enumerate(games, start=1):
        w = g.white.player
        # On the wall the name and title; the federation would cost the name its end.
        white = [g.board, g.white.pairing_number, _fit_name(_player(w.full_name, w.title, ""), name_w, WALL_SIZE),
                 points_before.get(g.white_id, 0)]
        if g.black is None:
            rows.append([*white, _bye_text(g, bye_points), "", "", ""])
            extra += [("SPAN", (4, i), (7, i)), ("ALIGN", (4, i), (4, i), "LEFT")]
            continue
        b = g.black.player
        rows.append([*white, result_text(g.result), points_before.get(g.black_id, 0),
                     _fit_name(_player(b.full_name, b.title, ""), name_w, WALL_SIZE),
                     g.black.pairing_number])
    if not games:
        rows.append(["", "", _("No game in this round."), "", "", "", "", ""])
    table = _table(rows, fixed, align_left=[2, 6], size=WALL_SIZE, extra=extra)
    note = ParagraphStyle("wall-note", fontName=FONT, fontSize=10, leading=13)
    return doc.build([
        _wall_title(_("Round %(n)s pairings") % {"n": rnd.number}), table, Spacer(1, 3 * mm),
        _para(_("No.: pairing number. Pts: points before this round."), note),
    ])


def _sort_key(name: str) -> tuple[str, str]:
    # Alphabetical as a player looks for himself: accents do not move a name (Émile with the Es).
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return (bare.casefold(), name)


def boards_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game], *, bye_points: int) -> bytes:
    """'Find your board': every player of the round in alphabetical order, with his board, his colour
    and his opponent, at wall size. Players without a game this round (withdrawn) are not listed."""
    doc = _wall_doc(tournament, rnd, _("Round %(n)s – find your board"))
    usable = doc.pagesize[0] - 24 * mm
    fixed = [0, 14 * mm, 25 * mm, 30 * mm, 0]
    fixed[0] = fixed[4] = (usable - sum(fixed)) / 2
    lines: list[tuple[str, list[Any]]] = []
    for g in games:
        sides = [(g.white, g.black, _("White")), (g.black, g.white, _("Black"))] if g.black else [(g.white, None, "–")]
        for entry, opponent, colour in sides:
            assert entry is not None
            p = entry.player
            if opponent is None:
                against = _bye_text(g, bye_points)
            else:
                o = opponent.player
                against = f"{_player(o.full_name, o.title, '')} ({opponent.pairing_number})"
            lines.append((p.full_name, [_fit_name(_player(p.full_name, p.title, ""), fixed[0] - 8,
                                                  WALL_SIZE), entry.pairing_number, g.board, colour,
                                        _fit_name(against, fixed[4] - 8, WALL_SIZE)]))
    rows: list[list[Any]] = [[_("Player"), _("No."), _("Board"), _("Colour"), _("Opponent (No.)")]]
    rows.extend(cells for _name, cells in sorted(lines, key=lambda line: _sort_key(line[0])))
    if not lines:
        rows.append([_("No game in this round."), "", "", "", ""])
    table = _table(rows, fixed, align_left=[0, 3, 4], size=WALL_SIZE,
                   extra=[("FONT", (2, 1), (2, -1), FONT_BOLD, WALL_BOARD_SIZE)])
    return doc.build([_wall_title(_("Round %(n)s – find your board") % {"n": rnd.number}), table])


def scoresheets_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game]) -> bytes:
    """One page per copy, COPIES copies per game (3.10.2), byes skipped: nothing is played there."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = _canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{tournament.name} – " + _("Round %(n)s score sheets") % {"n": rnd.number})
    for g in games:
        if g.black is None:
            continue
        for copy in range(1, COPIES + 1):
            _scoresheet(canvas, tournament, rnd, g, copy)
            canvas.showPage()
    if canvas.getPageNumber() == 1 and not any(g.black is not None for g in games):
        canvas.setFont(FONT, 12)
        canvas.drawString(20 * mm, A4[1] - 30 * mm, _("No game to play in this round."))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _scoresheet(c: Canvas, t: Tournament, rnd: Round, g: Game, copy: int) -> None:
    width, height = A4
    left, right = 15 * mm, width - 15 * mm
    y = height - 18 * mm
    c.setFont(FONT_BOLD, 14)
    c.drawString(left, y, _("Score sheet"))
    c.setFont(FONT, 9)
    c.drawRightString(right, y, _("Copy %(i)s of %(n)s") % {"i": copy, "n": COPIES})
    y -= 7 * mm
    c.setFont(FONT_BOLD, 11)
    c.drawString(left, y, _fit_name(t.name, right - left, 11))
    y -= 5.5 * mm
    c.setFont(FONT, 9)
    place = ", ".join(p for p in (t.venue, date_format(rnd.date, "DATE_FORMAT") if rnd.date else "") if p)
    c.drawString(left, y, place)
    c.setFont(FONT_BOLD, 11)
    c.drawRightString(right, y + 5.5 * mm, _("Round %(r)s – Board %(b)s") % {"r": rnd.number, "b": g.board})
    y -= 9 * mm
    for colour, entry in ((_("White"), g.white), (_("Black"), g.black)):
        assert entry is not None
        p = entry.player
        c.setFont(FONT, 9)
        c.drawString(left, y, colour)
        c.setFont(FONT_BOLD, 11)
        c.drawString(left + 18 * mm, y, _fit_name(_player(p.full_name, p.title, p.federation), 120 * mm, 11))
        c.setFont(FONT, 9)
        c.drawRightString(right, y, (_("No. %(n)s") % {"n": entry.pairing_number})
                          + (f" – {_('Rating')} {p.rating}" if p.rating else ""))
        y -= 6.5 * mm
    y -= 2 * mm
    _move_grid(c, left, y, right - left)
    base = 26 * mm
    c.setFont(FONT, 9)
    c.drawString(left, base, _("Result") + ":")
    c.line(left + 16 * mm, base - 1, left + 50 * mm, base - 1)
    c.drawString(left + 60 * mm, base, _("White's signature") + ":")
    c.line(left + 60 * mm, base - 9 * mm, left + 115 * mm, base - 9 * mm)
    c.drawString(left + 125 * mm, base, _("Black's signature") + ":")
    c.line(left + 125 * mm, base - 9 * mm, right, base - 9 * mm)
    c.setFont(FONT, 7)
    c.drawString(left, 8 * mm, _("The original stays with the organisers when the competition ends (3.10.4)."))


def _move_grid(c: Canvas, x0: float, top: float, width: float) -> None:
    blocks, per_block = 4, MOVES_PER_SHEET // 4
    gap = 3 * mm
    block_w = (width - gap * (blocks - 1)) / blocks
    num_w = 8 * mm
    half = (block_w - num_w) / 2
    row_h = min(7 * mm, (top - 40 * mm) / (per_block + 1))
    for b in range(blocks):
        x = x0 + b * (block_w + gap)
        c.setFont(FONT_BOLD, 8)
        c.drawCentredString(x + num_w + half / 2, top - row_h + 2 * mm, _("White"))
        c.drawCentredString(x + num_w + half * 1.5, top - row_h + 2 * mm, _("Black"))
        c.setFont(FONT, 8)
        for r in range(per_block + 1):
            y = top - (r + 1) * row_h
            c.setLineWidth(0.8 if r == 0 else 0.3)
            c.line(x, y, x + block_w, y)
            if r < per_block:
                c.drawRightString(x + num_w - 1.5 * mm, y - row_h + 2 * mm, str(b * per_block + r + 1))
        bottom = top - (per_block + 1) * row_h
        c.setLineWidth(0.3)
        for xx in (x, x + num_w, x + num_w + half, x + block_w):
            c.line(xx, top - row_h, xx, bottom)
