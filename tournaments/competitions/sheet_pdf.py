"""The match sheet (two copies, one for each team) and the team standings, as PDFs (reportlab, A4).

The match sheet carries what the arbiter and the captains sign: the match (competition, round, date,
venue, time control), both line-ups board by board with each player's colour, room on every board for
its result and for both clocks' remaining time, the match score, and the signatures of the arbiter and
of both captains. The KNDB's Wedstrijdvoorwaarden (art. 3, docs/research/team-competitions.md) ask that
"de stand van de klokken (in de vorm van de resterende bedenktijd), de uitslag en het bordnummer" be
written and that the forms be made "in duplo": hence the two clock columns, and two pages, each saying
whose copy it is. A QR code (tournaments.hall.qr, drawn as vectors) leads to the match's live page.

Text from users is drawn by the canvas as plain text (the competition, the teams, the venue, the time
control), which reportlab never reads as markup; the players' names are Paragraphs, so they go through
`document.para`, which escapes them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Spacer, Table, TableStyle

from tournaments.hall.qr import draw as draw_qr
from tournaments.models import Entry, Match, ScheduledRound, TeamCompetition
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
from tournaments.rounds.schedule import start_of
from tournaments.teams.settings import TeamSettings
from tournaments.words import start_text, time_control_text

from . import tables
from .selectors import MatchState

QR_SIZE = 22 * mm
# A name wraps to a second line of its cell rather than lose its end (a board's row holds two).
NAME = ParagraphStyle("sheet-name", fontName=FONT, fontSize=9.5, leading=11)
SMALL_NAME = ParagraphStyle("sheet-name-small", fontName=FONT, fontSize=8, leading=8.6)
HEAD = ParagraphStyle("sheet-head", fontName=FONT_BOLD, fontSize=8, leading=9, alignment=1)
MARGIN = 15 * mm


def when_text(competition: TeamCompetition, number: int) -> str:
    """The round's day and start time, from the round once made, else from the planned schedule."""
    rnd = competition.tournament.rounds.filter(number=number).first()
    if rnd is not None:
        return start_text(*start_of(rnd))
    row = ScheduledRound.objects.filter(tournament_id=competition.tournament_id, number=number).first()
    return start_text(row.date, row.start_time) if row is not None else ""


def _name(entry: Entry | None) -> str:
    if entry is None:
        return ""
    return player_text(entry.player.full_name, entry.title, "")


def match_sheet_pdf(competition: TeamCompetition, state: MatchState, settings: TeamSettings, *,
                    url: str | None, when: str) -> bytes:
    """Two pages, the same sheet: the home team's copy, then the away team's."""
    register_fonts()
    match = state.match
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{competition.tournament.name} – " + _("Match sheet"))
    canvas.setAuthor("Damier")
    away = match.away.name if match.away else _("bye")
    for copy in (_("Copy for the home team: %(team)s") % {"team": match.home.name},
                 _("Copy for the away team: %(team)s") % {"team": away}):
        _sheet(canvas, competition, state, settings, copy, url, when)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _sheet(c: Any, competition: TeamCompetition, state: MatchState, settings: TeamSettings, copy: str,
           url: str | None, when: str) -> None:
    t = competition.tournament
    match: Match = state.match
    width, height = A4
    left, right = MARGIN, width - MARGIN
    top = height - 14 * mm
    if url:
        draw_qr(c, url, right - QR_SIZE + 2 * mm, top - QR_SIZE + 4 * mm, QR_SIZE)
        c.setFont(FONT, 6.5)
        c.drawRightString(right, top - QR_SIZE - 1.5 * mm, _("Live: scan for the match page"))
    text_right = right - (QR_SIZE + 4 * mm if url else 0)
    y = top - 4 * mm
    c.setFont(FONT_BOLD, 15)
    c.drawString(left, y, _("Match sheet"))
    c.setFont(FONT_BOLD, 9.5)
    c.drawRightString(text_right, y, fit_name(copy, text_right - left - 45 * mm, 9.5))
    y -= 7 * mm
    c.setFont(FONT_BOLD, 11)
    c.drawString(left, y, fit_name(t.name, text_right - left, 11))
    y -= 5.5 * mm
    c.setFont(FONT, 9)
    what = _("Round %(round)s – match %(table)s") % {"round": match.round_number, "table": match.table}
    c.drawString(left, y, fit_name(", ".join(p for p in (what, when) if p), text_right - left, 9))
    y -= 4.5 * mm
    place = t.venue and _("Venue: %(venue)s") % {"venue": t.venue}
    clock = time_control_text(t.time_control)
    if match.barrage_of_id and competition.barrage_time_control:
        clock = time_control_text(competition.barrage_time_control)
    c.drawString(left, y, fit_name(" · ".join(p for p in (place, clock) if p), text_right - left, 9))
    y = min(y, top - QR_SIZE) - 12 * mm
    home, away = match.home.name, match.away.name if match.away else ""
    c.setFont(FONT, 8.5)
    c.drawString(left, y + 5 * mm, _("Home team"))
    c.drawString(width / 2 + 2 * mm, y + 5 * mm, _("Away team"))
    c.setFont(FONT_BOLD, 13)
    c.drawString(left, y, fit_name(home, width / 2 - left - 4 * mm, 13))
    c.drawString(width / 2 + 2 * mm, y, fit_name(away, right - width / 2 - 2 * mm, 13))
    y -= 5 * mm
    table = _boards_table(state, settings, right - left, y - 62 * mm)
    _w, h = table.wrapOn(c, right - left, y)
    table.drawOn(c, left, y - h)
    y -= h + 9 * mm
    _score_and_signatures(c, state, settings, left, right, y)
    note = para(_("Clocks: each player's remaining time when the game ends. Results: the home team's board "
                  "points first (2, 1 or 0; F for a forfeit)."),
                ParagraphStyle("sheet-note", fontName=FONT, fontSize=7.5, leading=9.5))
    _w, h = note.wrapOn(c, right - left, 30 * mm)
    note.drawOn(c, left, 10 * mm)


def _boards_table(state: MatchState, settings: TeamSettings, width: float, room: float) -> Table:
    """Board, the home player and his colour, the away player and his, the result, both clocks."""
    by_number = {b.number: b for b in state.boards}
    fixed = [14 * mm, 0, 12 * mm, 0, 12 * mm, 20 * mm, 19 * mm, 19 * mm]  # "Coul." whole in French
    fixed[1] = fixed[3] = (width - sum(fixed)) / 2
    white, black = pgettext("colour initial", "W"), pgettext("colour initial", "B")
    row_h = max(7.5 * mm, min(12 * mm, room / (settings.boards + 1)))
    name = NAME if row_h >= 10 * mm else SMALL_NAME
    rows: list[list[Any]] = [[para(h, HEAD) for h in (_("Board"), _("Home player"), _("Col."), _("Away player"),
                                                       _("Col."), _("Result"), _("Clock home"), _("Clock away"))]]
    view = tables.match_view(state, settings, published=True)
    results = {line.number: line for line in view.boards}
    for number in range(1, settings.boards + 1):
        b = by_number.get(number)
        home_white = settings.first_is_white(number)
        line = results.get(number)
        result = ""
        if line is not None and line.home_points is not None:
            mark = "F" if line.forfeit else ""
            result = f"{line.home_points}{mark} – {line.away_points}{mark}"
        rows.append([number, para(_name(b.home_entry if b else None), name), white if home_white else black,
                     para(_name(b.away_entry if b else None), name), black if home_white else white, result, "", ""])
    table = Table(rows, colWidths=fixed, rowHeights=[None] + [row_h] * settings.boards)  # room to write by hand
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, 8.5), ("FONT", (0, 1), (-1, -1), FONT, 10),
        ("FONT", (0, 1), (0, -1), FONT_BOLD, 12), ("FONT", (2, 1), (2, -1), FONT_BOLD, 10),
        ("FONT", (4, 1), (4, -1), FONT_BOLD, 10), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (1, 1), (1, -1), "LEFT"), ("ALIGN", (3, 1), (3, -1), "LEFT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e2")),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]))
    return table


def _score_and_signatures(c: Any, state: MatchState, settings: TeamSettings, left: float, right: float,
                          y: float) -> None:
    score = tables.live_score(state, settings)
    c.setFont(FONT_BOLD, 11)
    c.drawString(left, y, _("Match score"))
    box_w, box_h = 22 * mm, 10 * mm
    x = left + 40 * mm
    c.setLineWidth(0.8)
    for i, value in enumerate((score.home, score.away)):
        bx = x + i * (box_w + 8 * mm)
        c.rect(bx, y - 3.5 * mm, box_w, box_h)
        if score.complete:
            c.drawCentredString(bx + box_w / 2, y, str(value))
    c.drawCentredString(x + box_w + 4 * mm, y, "–")
    c.setFont(FONT, 8)
    c.drawString(x, y - 7.5 * mm, _("home"))
    c.drawString(x + box_w + 8 * mm, y - 7.5 * mm, _("away"))
    y -= 22 * mm
    third = (right - left) / 3
    c.setLineWidth(0.4)
    for i, who in enumerate((_("Arbiter"), _("Captain of the home team"), _("Captain of the away team"))):
        x0 = left + i * third
        c.setFont(FONT, 8.5)
        c.drawString(x0, y, who)
        c.drawString(x0, y - 16 * mm, _("Name:"))
        c.line(x0 + 12 * mm, y - 16.5 * mm, x0 + third - 6 * mm, y - 16.5 * mm)
        c.line(x0, y - 10 * mm, x0 + third - 6 * mm, y - 10 * mm)


def standings_pdf(competition: TeamCompetition, lines: Sequence[tables.StandingLine],
                  extra_heads: Sequence[str], notes: Sequence[str], heading: str) -> bytes:
    """The team standings as the overview shows them: played – won – drawn – lost – match points – board
    points, the further criteria of the order, the match points deducted."""
    doc = Document(competition.tournament, heading, wide=False)
    usable = doc.pagesize[0] - 24 * mm
    fixed = [11 * mm, 0] + [11 * mm] * 4 + [14 * mm, 14 * mm] + [16 * mm] * len(extra_heads) + [14 * mm]
    fixed[1] = usable - sum(fixed)
    rows: list[list[Any]] = [[_("Rank"), _("Team"), _("Pl."), "+", "=", "−", _("MP"), _("BP"),
                              *extra_heads, _("Ded.")]]
    for ln in lines:
        r = ln.row
        rows.append([r.rank, fit_name(r.team, fixed[1] - 4, 9), r.played, r.won, r.drawn, r.lost, r.match_points,
                     r.board_points, *ln.extra, f"−{r.deductions}" if r.deductions else ""])
    story: list[Any] = [styled_table(rows, fixed, align_left=[1])]
    style = ParagraphStyle("note", fontName=FONT, fontSize=8, leading=10)
    if notes:
        story.append(Spacer(1, 4 * mm))
        story.extend(para(n, style) for n in notes)
    return doc.build(story)

