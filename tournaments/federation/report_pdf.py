"""The report to the federation as a PDF for the chief arbiter to sign: the event, its arbiters, the final
crosstable in rank order with titles, federations and ratings (a Swiss: each round's opponent, colour and
result; a round robin: the grid), unplayed games marked, the games not sent for rating and why, the number
of players, and a signature block. The house style of tournaments.printing (its Document, fonts, tables and
escaping); the cells use the report file's notation (tournaments.federation.report_file), so file and paper
read alike. The content follows FIDE's B.02 art. 11 for a crosstable as practice (docs/research, 3c); no
FMJD text on the report's content was found (Annex 9 art. 4).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from tournaments.federation import words
from tournaments.federation.report_file import cell_text
from tournaments.federation.rows import Report, ReportCell, ReportRow
from tournaments.printing.document import FONT, FONT_BOLD, Document, fit_name, markup, para, styled_table
from tournaments.words import result_text, tournament_dates

HEAD = ParagraphStyle("report-head", fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=4, spaceAfter=3)
BODY = ParagraphStyle("report-body", fontName=FONT, fontSize=8.5, leading=11)
SMALL = ParagraphStyle("report-small", fontName=FONT, fontSize=7.5, leading=9.5)


def _arbiter_name(user: Any) -> str:
    return user.get_full_name().strip() if user is not None else ""


def _event(report: Report, usable: float) -> Table:
    t = report.tournament
    deputies = [_arbiter_name(u) for u in t.deputy_arbiters.order_by("last_name", "username")]
    rows = [
        (_("Event"), t.name),
        (_("Venue"), t.venue),
        (_("Dates"), tournament_dates(t)),
        (_("Time control"), t.time_control),
        (_("System"), t.get_system_display()),
        (_("Rounds"), str(report.rounds)),
        (_("Players"), str(len(report.rows))),
        (_("Chief arbiter"), _arbiter_name(t.chief_arbiter)),
        (_("Deputy arbiters"), ", ".join(n for n in deputies if n)),
    ]
    data = [[para(label, BODY), para(value or "–", BODY)] for label, value in rows]
    table = Table(data, colWidths=[40 * mm, usable - 40 * mm])
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8.5), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.lightgrey),
                               ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    return table


def _rr_text(cells: list[ReportCell]) -> str:
    """A round robin's grid cell: this player's points against that one, a mark for a result not rated."""
    return " ".join(cell_text(c).split("/")[0] for c in cells)


def _crosstable(report: Report, usable: float) -> Table:
    n = len(report.rows)
    columns = [str(r.place) for r in report.rows] if report.round_robin else [str(r) for r in
                                                                               range(1, report.rounds + 1)]
    many = len(columns) > 14 or n > 30
    size = 7 if many else 8
    cell_w = (7 if report.round_robin else 11 if size == 7 else 13) * mm
    around = [8 * mm, 10 * mm, 38 * mm, 10 * mm, 11 * mm, 10 * mm]  # place, title, name, fed., rating, points
    # a big round robin's grid narrows its cells (never below 5 mm, "2 0" at 7 pt) to stay on the page
    cell_w = max(5 * mm, min(cell_w, (usable - sum(around)) / max(1, len(columns))))
    fixed = [8 * mm, 10 * mm, 0, 10 * mm, 11 * mm] + [cell_w] * len(columns) + [10 * mm]
    # the name takes what is left, up to a width that keeps the table's cells near the names they belong to
    fixed[2] = min(max(38 * mm, usable - sum(fixed)), 80 * mm)
    header = [_("Pl"), _("Title"), _("Name"), _("Fed."), _("Rating"), *columns, _("Pts")]
    rows: list[list[Any]] = [header]
    for row in report.rows:
        if report.round_robin:
            against: dict[int, list[ReportCell]] = {}
            for c in row.cells:
                if c.opponent is not None:
                    against.setdefault(c.opponent, []).append(c)
            texts = ["X" if other.place == row.place else _rr_text(against.get(other.place, []))
                     for other in report.rows]
        else:
            texts = [cell_text(c) or "–" for c in row.cells]
            texts += ["–"] * (report.rounds - len(texts))
        name = row.name + (" " + _("(wd)") if row.withdrawn_after is not None else "")
        rows.append([row.place, row.title, fit_name(name, fixed[2] - 4, size), row.federation,
                     row.rating or "", *texts, row.points])
    extra: list[tuple[Any, ...]] = []
    if report.round_robin:
        for i in range(n):
            extra += [("BACKGROUND", (5 + i, 1 + i), (5 + i, 1 + i), colors.HexColor("#555555")),
                      ("TEXTCOLOR", (5 + i, 1 + i), (5 + i, 1 + i), colors.white)]
    for i, row in enumerate(report.rows, start=1):
        for j, c in enumerate(row.cells):
            if c.reasons and not report.round_robin:  # each shaded cell is in the list of games below
                extra.append(("BACKGROUND", (5 + j, i), (5 + j, i), colors.HexColor("#fde9c8")))
    table = styled_table(rows, fixed, align_left=[2], small=many, size=size, extra=extra)
    table.hAlign = "LEFT"
    return table


def _legend(report: Report) -> list[Any]:
    lines = [
        _("2/12w: 2 points (win; 1 draw, 0 loss) against the player in place 12, with White (w) or Black (b)."),
        _("+/12w, =/12w, -/12w: scored 2, 1 or 0 but not sent for rating (a forfeit, a double forfeit, a game "
          "marked “not rated”); +, =, - alone: a round without an opponent worth 2, 1 or 0 (a bye); “–”: no game."),
        _("A shaded cell is in the list of games not sent for rating, or to be checked, below."),
    ]
    if report.round_robin:
        lines = [_("Each cell: the points of the player in the row against the player in the column (2 win, 1 "
                   "draw, 0 loss); +, =, - a result scored 2, 1 or 0 but not sent for rating (forfeit, game marked "
                   "“not rated”); two values: the two games of a double round robin.")]
    return [para(text, SMALL) for text in lines]


def _withdrawals(report: Report) -> list[Any]:
    out = []
    for row in report.rows:
        if row.withdrawn_after is not None:
            out.append(para(_("%(name)s withdrew after round %(round)s.") % {"name": row.name,
                                                                              "round": row.withdrawn_after}, SMALL))
        if row.expelled:
            out.append(para(_("%(name)s was expelled by the arbiter (2.6).") % {"name": row.name}, SMALL))
    return out


def not_rated(report: Report) -> list[tuple[int, int | None, str, str, str, str]]:
    """The games not sent for rating, or to be looked at, once each: (round, board, white, black, result, why)."""
    by_place: dict[int, ReportRow] = {r.place: r for r in report.rows}
    seen: set[tuple[int, int | None, frozenset[int]]] = set()
    out = []
    for row in report.rows:
        for c in row.cells:
            if not c.reasons:
                continue
            pair = frozenset({row.place, c.opponent or 0})
            key = (c.round, c.board, pair)
            if key in seen:
                continue
            seen.add(key)
            other = by_place[c.opponent].name if c.opponent in by_place else "–"
            white, black = (row.name, other) if c.colour != "b" else (other, row.name)
            played = c.played.value if c.played is not None else ""
            why = "; ".join(words.reason_text(code, rating=c.for_rating.value if c.for_rating else "",
                                              played=played) for code in c.reasons)
            out.append((c.round, c.board, white, black, result_text(played), why))
    return sorted(out, key=lambda r: (r[0], r[1] or 0))


def _not_rated_table(report: Report, usable: float) -> list[Any]:
    listed = not_rated(report)
    if not listed:
        return [para(_("Every game of the tournament was played and is sent for rating."), BODY)]
    fixed = [12 * mm, 12 * mm, 50 * mm, 50 * mm, 34 * mm, 0]
    fixed[-1] = usable - sum(fixed)
    rows: list[list[Any]] = [[_("Round"), _("Board"), _("White"), _("Black"), _("Result"), _("Why")]]
    for rnd, board, white, black, result, why in listed:
        rows.append([rnd, board or "–", fit_name(white, fixed[2] - 4, 8), fit_name(black, fixed[3] - 4, 8),
                     Paragraph(markup(result), SMALL), Paragraph(markup(why), SMALL)])
    return [styled_table(rows, fixed, align_left=[2, 3, 4, 5], size=8)]


def _signature(report: Report, usable: float) -> KeepTogether:
    chief = _arbiter_name(report.tournament.chief_arbiter)
    data = [[_("Chief arbiter"), chief or ""], [_("Date"), ""], [_("Signature"), ""]]
    table = Table(data, colWidths=[40 * mm, 90 * mm], rowHeights=[8 * mm, 8 * mm, 16 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                               ("LINEBELOW", (1, 0), (1, -1), 0.5, colors.black)]))
    return KeepTogether([Spacer(1, 6 * mm), para(_("The chief arbiter certifies this report."), BODY),
                         Spacer(1, 2 * mm), table])


def report_pdf(report: Report) -> bytes:
    doc = Document(report.tournament, _("Report to the federation"), wide=True)
    usable = doc.pagesize[0] - 24 * mm
    story: list[Any] = [
        para(_("Report to the federation"), HEAD), _event(report, usable),
        para(_("Final crosstable"), HEAD), _crosstable(report, usable), Spacer(1, 2 * mm), *_legend(report),
        *_withdrawals(report),
        para(_("Games not sent for rating, and why"), HEAD), *_not_rated_table(report, usable),
        _signature(report, usable),
    ]
    return doc.build(story)
