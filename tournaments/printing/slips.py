"""Result slips: one per board, eight to an A4 page (two columns of four, A7 each) with dashed cut lines.
The players tick the result and sign; the arbiter collects the slips and types the results in.
Boards without an opponent get none: there is no result to sign there."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tournaments.hall.qr import draw as draw_qr
from tournaments.models import Entry, Game, Round, Tournament
from tournaments.printing.document import FONT, FONT_BOLD, fit_name, new_canvas, player_text, register_fonts
from tournaments.printing.rounds import when_text
from tournaments.words import time_control_text

COLUMNS, ROWS = 2, 4
PER_PAGE = COLUMNS * ROWS
BOXES = ("2-0", "1-1", "0-2")  # competition rules 5.6: 2 points the win, 1 the draw, 0 the loss
# The game's page, between the result boxes and the signatures: read at the board, a hand away.
SLIP_QR = 13 * mm


def slips_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game],
              game_url: Callable[[Game], str | None] = lambda game: None) -> bytes:
    """With `game_url`, each slip carries a QR code to its game's public page."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{tournament.name} – " + _("Round %(n)s result slips") % {"n": rnd.number})
    played = [g for g in games if g.black is not None]
    when = when_text(rnd)
    width, height = A4
    slip_w, slip_h = width / COLUMNS, height / ROWS
    for start in range(0, len(played), PER_PAGE):
        page = played[start:start + PER_PAGE]
        for i, game in enumerate(page):
            col, row = i % COLUMNS, i // COLUMNS
            _slip(canvas, tournament, rnd, game, when, col * slip_w, height - (row + 1) * slip_h, slip_w, slip_h)
            url = game_url(game)
            if url:
                draw_qr(canvas, url, (col + 1) * slip_w - 7 * mm - SLIP_QR, height - (row + 1) * slip_h + 10.5 * mm,
                        SLIP_QR)
        _cut_lines(canvas, width, height, slip_w, slip_h)
        canvas.showPage()
    if not played:
        canvas.setFont(FONT, 12)
        canvas.drawString(20 * mm, height - 30 * mm, _("No game to play in this round."))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _cut_lines(c: Canvas, width: float, height: float, slip_w: float, slip_h: float) -> None:
    c.saveState()
    c.setDash(3, 3)
    c.setLineWidth(0.4)
    for col in range(1, COLUMNS):
        c.line(col * slip_w, 0, col * slip_w, height)
    for row in range(1, ROWS):
        c.line(0, row * slip_h, width, row * slip_h)
    c.restoreState()


def _slip(c: Canvas, t: Tournament, rnd: Round, g: Game, when: str, x: float, y: float, w: float,
          h: float) -> None:
    """One slip in the box whose lower left corner is (x, y)."""
    left, right, top = x + 7 * mm, x + w - 7 * mm, y + h - 9 * mm
    c.setFont(FONT, 7.5)
    c.drawString(left, top, fit_name(t.name, right - left, 7.5))
    c.setFont(FONT_BOLD, 12)
    c.drawString(left, top - 6 * mm, _("Round %(r)s") % {"r": rnd.number})
    c.drawRightString(right, top - 6 * mm, _("Board %(b)s") % {"b": g.board})
    # When the round starts and the time control, small, a line each between the round and the players.
    c.setFont(FONT, 7)
    facts = [p for p in (when, time_control_text(t.time_control)) if p]
    for i, fact in enumerate(facts):
        c.drawString(left, top - (10.5 + 3.5 * i) * mm, fit_name(fact, right - left, 7))
    y_line = top - (15 + 3.5 * max(0, len(facts) - 1)) * mm
    for colour, entry in ((_("White"), g.white), (_("Black"), g.black)):
        assert entry is not None
        _player_line(c, colour, entry, left, right, y_line)
        y_line -= 7 * mm
    # The three results a game can end in, each a box to tick.
    box = 5 * mm
    y_box = y_line - 8 * mm
    c.setFont(FONT, 8)
    c.drawString(left, y_box + 1.5 * mm, _("Result") + ":")
    step = (right - left - 18 * mm) / len(BOXES)
    for i, label in enumerate(BOXES):
        bx = left + 18 * mm + i * step
        c.rect(bx, y_box, box, box)
        c.setFont(FONT_BOLD, 12)
        c.drawString(bx + box + 2 * mm, y_box + 1 * mm, label)
    c.setFont(FONT, 7.5)
    y_sign = y + 9 * mm
    half = (right - left - 6 * mm) / 2
    for i, who in enumerate((_("White's signature"), _("Black's signature"))):
        sx = left + i * (half + 6 * mm)
        c.line(sx, y_sign, sx + half, y_sign)
        c.drawString(sx, y_sign - 3.5 * mm, who)


def _player_line(c: Canvas, colour: str, entry: Entry, left: float, right: float, y: float) -> None:
    c.setFont(FONT, 8)
    c.drawString(left, y, colour)
    c.setFont(FONT_BOLD, 11)
    p = entry.player
    number = f"{entry.pairing_number}. "
    # Measured in the regular face: the bold one is wider, hence the margin.
    c.drawString(left + 14 * mm, y, number + fit_name(player_text(p.full_name, entry.title, ""),
                                                       right - left - 26 * mm, 11))
