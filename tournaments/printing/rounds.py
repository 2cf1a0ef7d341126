"""A round's PDFs: the pairings and "find your board" at wall size, and the score sheets (art. 3.10).

Each says when the round starts (its date, moved or planned, and the planned start time:
tournaments.rounds.schedule.start_of) and the tournament's time control, which the players need at the
board as much as their opponent's name."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Spacer, Table, TableStyle

from tournaments.hall.qr import QRFlowable
from tournaments.hall.qr import draw as draw_qr
from tournaments.models import Game, Round, Tournament
from tournaments.printing.document import (
    FONT,
    FONT_BOLD,
    Document,
    fit_name,
    new_canvas,
    para,
    player_text,
    register_fonts,
    styled_table,
)
from tournaments.ratings import tournament_rating
from tournaments.results import Result
from tournaments.rounds.schedule import start_of
from tournaments.words import result_text, start_text, time_control_text

MOVES_PER_SHEET = 100  # four blocks of 25 numbered lines
COPIES = 2  # competition rules 3.10.2: a sheet must allow writing the game "au moins, en double exemplaire"
WALL_SIZE = 16
WALL_BOARD_SIZE = 20
# A printed QR code is read by a phone held at arm's length, or from a step back on the wall: 26 mm holds a
# version 4 code (33 modules and the quiet zone) at 0.64 mm a module; 18 mm on a score sheet, read at the board.
WALL_QR = 26 * mm
SHEET_QR = 18 * mm


def when_text(rnd: Round) -> str:
    """'Saturday 14 November 2026, 14:00': the round's date and start time, '' when neither is known."""
    return start_text(*start_of(rnd))


def _wall_doc(tournament: Tournament, rnd: Round, heading: str) -> Document:
    return Document(tournament, heading % {"n": rnd.number}, wide=True)


def _wall_title(text: str, tournament: Tournament, rnd: Round, live_url: str | None = None) -> list[Any]:
    """The sheet's title, then under it when the round starts and the time control, large enough to be
    read with the pairings (the venue is in every page's header). With `live_url`, a QR code to the
    round's live page at the right of the title, and its address in words under it."""
    out: list[Any] = [para(text, ParagraphStyle("wall-title", fontName=FONT_BOLD, fontSize=WALL_SIZE + 4,
                                                 leading=WALL_SIZE + 8, spaceAfter=1 * mm))]
    facts = " · ".join(p for p in (when_text(rnd), time_control_text(tournament.time_control)) if p)
    if facts:
        out.append(para(facts, ParagraphStyle("wall-when", fontName=FONT, fontSize=WALL_SIZE - 2,
                                              leading=WALL_SIZE + 2, spaceAfter=3 * mm)))
    if not live_url:
        return out
    note = para(_("Live results: %(url)s") % {"url": live_url.split("://", 1)[-1]},
                ParagraphStyle("wall-url", fontName=FONT, fontSize=10, leading=12))
    width = landscape_width() - 24 * mm
    box = Table([[[*out, note], QRFlowable(live_url, WALL_QR)]], colWidths=[width - WALL_QR - 4 * mm,
                                                                               WALL_QR + 4 * mm])
    box.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                             ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 3 * mm),
                             ("ALIGN", (1, 0), (1, 0), "RIGHT")]))
    return [box]


def landscape_width() -> float:
    return A4[1]


def bye_text(game: Game, bye_points: int) -> str:
    """A board without an opponent named by its kind and its value, as the standings count it: the
    pairing's bye scores the tournament's bye points, a requested bye the 0, 1 or 2 points the arbiter
    granted (results.Result)."""
    try:
        result: Result | None = Result(game.result)
    except ValueError:  # no result yet: the pairing's bye before it is written
        result = None
    if result is Result.EXCUSED:
        return _("absent (requested bye 0)")
    if result is Result.EXCUSED_DRAW:
        return _("requested bye +1 (draw)")
    if result is Result.EXCUSED_WIN:
        return _("requested bye +2 (win)")
    if result is Result.NOT_PLAYED:
        return _("not played")
    if bye_points == 0:  # a round robin's free round: every player has one, it scores nothing
        return _("free round (no game)")
    return _("pairing bye +%(points)s") % {"points": bye_points}


def _fitting_size(text: str, width: float, size: float = WALL_SIZE, smallest: float = 10) -> float:
    """The wall size, or less for a long bye's words: whole words in a smaller type, not an ellipsis."""
    while size > smallest and stringWidth(text, FONT, size) > width:
        size -= 0.5
    return size


def pairings_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game], *,
                 points_before: Mapping[int, int], bye_points: int, live_url: str | None = None) -> bytes:
    """Board, pairing numbers, names and each player's points before the round, at wall size.

    The boards come first; the players without an opponent follow in a table of their own, without a
    board number (nobody looks for a board there), each bye named by its kind and value.
    `points_before` maps entry id -> points in the standings after the previous round.
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
    alone = [g for g in games if g.black is None]
    for g in games:
        if g.black is None:
            continue
        w, b = g.white.player, g.black.player
        # On the wall the name and title (the entry's); the federation would cost the name its end.
        rows.append([g.board, g.white.pairing_number,
                     fit_name(player_text(w.full_name, g.white.title, ""), name_w, WALL_SIZE),
                     points_before.get(g.white_id, 0), result_text(g.result), points_before.get(g.black_id, 0),
                     fit_name(player_text(b.full_name, g.black.title, ""), name_w, WALL_SIZE), g.black.pairing_number])
    flowables: list[Any] = _wall_title(_("Round %(n)s pairings") % {"n": rnd.number}, tournament, rnd, live_url)
    if len(rows) > 1:
        flowables.append(styled_table(rows, fixed, align_left=[2, 6], size=WALL_SIZE, extra=extra))
    elif not alone:
        rows.append(["", "", _("No game in this round."), "", "", "", "", ""])
        flowables.append(styled_table(rows, fixed, align_left=[2, 6], size=WALL_SIZE, extra=extra))
    if alone:
        flowables += [Spacer(1, 5 * mm), _byes_table(alone, fixed[0] + fixed[1] + fixed[2], usable, points_before,
                                                       bye_points)]
    note = ParagraphStyle("wall-note", fontName=FONT, fontSize=10, leading=13)
    flowables += [Spacer(1, 3 * mm), para(_("No.: pairing number. Pts: points before this round."), note)]
    return doc.build(flowables)


def _byes_table(alone: Sequence[Game], name_w: float, usable: float, points_before: Mapping[int, int],
                bye_points: int) -> Any:
    widths = [14 * mm, name_w, 14 * mm, 0]
    widths[3] = usable - sum(widths)
    rows: list[list[Any]] = [[_("No."), _("Without an opponent"), _("Pts"), _("Bye")]]
    extra: list[tuple[Any, ...]] = [("TEXTCOLOR", (2, 1), (2, -1), colors.HexColor("#333333"))]
    for i, g in enumerate(sorted(alone, key=lambda g: g.white.pairing_number), start=1):
        p = g.white.player
        words = bye_text(g, bye_points)
        size = _fitting_size(words, widths[3] - 8)
        rows.append([g.white.pairing_number, fit_name(player_text(p.full_name, g.white.title, ""), name_w - 8,
                                                          WALL_SIZE),
                     points_before.get(g.white_id, 0), fit_name(words, widths[3] - 8, size)])
        extra.append(("FONTSIZE", (3, i), (3, i), size))
    return styled_table(rows, widths, align_left=[1, 3], size=WALL_SIZE, extra=extra)


def _sort_key(name: str) -> tuple[str, str]:
    # Alphabetical as a player looks for himself: accents do not move a name (Émile with the Es).
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return (bare.casefold(), name)


def boards_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game], *, bye_points: int,
               live_url: str | None = None) -> bytes:
    """'Find your board': every player of the round in alphabetical order, with his board, his colour
    and his opponent, at wall size. Players without a game this round (withdrawn) are not listed."""
    doc = _wall_doc(tournament, rnd, _("Round %(n)s – find your board"))
    usable = doc.pagesize[0] - 24 * mm
    fixed = [0, 14 * mm, 25 * mm, 30 * mm, 0]
    fixed[0] = fixed[4] = (usable - sum(fixed)) / 2
    lines: list[tuple[str, float, list[Any]]] = []
    for g in games:
        sides = [(g.white, g.black, _("White")), (g.black, g.white, _("Black"))] if g.black else [(g.white, None, "–")]
        board: int | str = g.board if g.black else ""  # a bye has no board to find
        for entry, opponent, colour in sides:
            assert entry is not None
            p = entry.player
            size: float = WALL_SIZE
            if opponent is None:
                against = bye_text(g, bye_points)
                size = _fitting_size(against, fixed[4] - 8)
            else:
                o = opponent.player
                against = f"{player_text(o.full_name, opponent.title, '')} ({opponent.pairing_number})"
            lines.append((p.full_name, size, [fit_name(player_text(p.full_name, entry.title, ""), fixed[0] - 8,
                                                        WALL_SIZE), entry.pairing_number, board, colour,
                                              fit_name(against, fixed[4] - 8, size)]))
    rows: list[list[Any]] = [[_("Player"), _("No."), _("Board"), _("Colour"), _("Opponent (No.)")]]
    extra: list[tuple[Any, ...]] = [("FONT", (2, 1), (2, -1), FONT_BOLD, WALL_BOARD_SIZE)]
    for i, (_name, size, cells) in enumerate(sorted(lines, key=lambda line: _sort_key(line[0])), start=1):
        rows.append(cells)
        if size != WALL_SIZE:
            extra.append(("FONTSIZE", (4, i), (4, i), size))
    if not lines:
        rows.append([_("No game in this round."), "", "", "", ""])
    table = styled_table(rows, fixed, align_left=[0, 3, 4], size=WALL_SIZE, extra=extra)
    return doc.build([*_wall_title(_("Round %(n)s – find your board") % {"n": rnd.number}, tournament, rnd,
                                   live_url), table])


def scoresheets_pdf(tournament: Tournament, rnd: Round, games: Sequence[Game],
                    game_url: Callable[[Game], str | None] = lambda game: None,
                    report_urls: Mapping[int, str] | None = None) -> bytes:
    """One page per copy, COPIES copies per game (3.10.2), byes skipped: nothing is played there. With
    `game_url`, each sheet carries a QR code to its game's public page.

    `report_urls` (entry id to the address of his report page, tournaments.boards) puts White's code as a
    QR code on the first copy and Black's on the second: one sheet for each competitor (3.10.1)."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{tournament.name} – " + _("Round %(n)s score sheets") % {"n": rnd.number})
    when = when_text(rnd)
    for g in games:
        if g.black is None:
            continue
        for copy in range(1, COPIES + 1):
            _scoresheet(canvas, tournament, rnd, g, copy, when, game_url(g))
            owner = {1: g.white, 2: g.black}.get(copy)
            if report_urls and owner is not None and owner.pk in report_urls:
                _report_code(canvas, report_urls[owner.pk], _("White") if copy == 1 else _("Black"))
            canvas.showPage()
    if canvas.getPageNumber() == 1 and not any(g.black is not None for g in games):
        canvas.setFont(FONT, 12)
        canvas.drawString(20 * mm, A4[1] - 30 * mm, _("No game to play in this round."))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _scoresheet(c: Canvas, t: Tournament, rnd: Round, g: Game, copy: int, when: str, url: str | None) -> None:
    width, height = A4
    left, right = 15 * mm, width - 15 * mm
    y = height - 18 * mm
    if url:
        # Top right, beside the heading, whose right-hand lines move left of it.
        draw_qr(c, url, right - SHEET_QR + 2 * mm, height - 12 * mm - SHEET_QR, SHEET_QR)
        right -= SHEET_QR + 2 * mm
    c.setFont(FONT_BOLD, 14)
    c.drawString(left, y, _("Score sheet"))
    c.setFont(FONT, 9)
    c.drawRightString(right, y, _("Copy %(i)s of %(n)s") % {"i": copy, "n": COPIES})
    y -= 7 * mm
    c.setFont(FONT_BOLD, 11)
    c.drawString(left, y, fit_name(t.name, right - left, 11))
    y -= 5.5 * mm
    c.setFont(FONT, 9)
    # The place and the round's start on the left, the time control on the right of the same line, or
    # on a line of its own when the two do not fit side by side.
    place = ", ".join(p for p in (t.venue, when) if p)
    clock = time_control_text(t.time_control)
    c.drawString(left, y, fit_name(place, right - left, 9))
    if clock and stringWidth(place, FONT, 9) + stringWidth(clock, FONT, 9) + 5 * mm <= right - left:
        c.drawRightString(right, y, clock)
    elif clock:
        y -= 4.5 * mm
        c.drawString(left, y, fit_name(clock, right - left, 9))
    c.setFont(FONT_BOLD, 11)
    c.drawRightString(right, y + 5.5 * mm, _("Round %(r)s – Board %(b)s") % {"r": rnd.number, "b": g.board})
    y -= 9 * mm
    right = width - 15 * mm
    for colour, entry in ((_("White"), g.white), (_("Black"), g.black)):
        assert entry is not None
        p = entry.player
        c.setFont(FONT, 9)
        c.drawString(left, y, colour)
        c.setFont(FONT_BOLD, 11)
        c.drawString(left + 18 * mm, y, fit_name(player_text(p.full_name, entry.title, p.federation), 120 * mm, 11))
        c.setFont(FONT, 9)
        rating = tournament_rating(entry, t.rating_method)  # the rating the entry holds
        c.drawRightString(right, y, (_("No. %(n)s") % {"n": entry.pairing_number})
                          + (f" – {_('Rating')} {rating}" if rating else ""))
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


def _report_code(c: Canvas, url: str, side: str) -> None:
    """The player's own code between the moves and the result line (the grid ends above 40 mm): scanned, it
    opens his page to report the result."""
    left, size, bottom = 15 * mm, 20 * mm, 31 * mm
    draw_qr(c, url, left, bottom, size)
    c.setFont(FONT, 8)
    c.drawString(left + size + 3 * mm, bottom + 12 * mm, _("%(side)s: scan to report the result") % {"side": side})
    c.drawString(left + size + 3 * mm, bottom + 7.5 * mm, _("Your personal code: do not share it."))


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
