"""Public sheet parts: PDN downloads of a public tournament's published and completed rounds, and what the
public game page shows of a sheet.

The verdict on a sheet is the arbiter's until he accepts it or rules on it (competition rules 5.5):
before that, spectators see the moves as written and a line saying the ruling is to come; after it,
the ruling and its sentence. The moves come from the line kept with the sheet (tournaments.sheets.line),
never from a replay on the page view.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.sheets.export import export_pdn
from tournaments.sheets.line import GameLine, Ply, sheet_line
from tournaments.sheets.words import article_words, sentence, status_label

_ARTICLE = re.compile(r"art\. ([\d.]+): ")
# CSS classes of the public page's sheet line, by ruling.
_NOTE_CLASS = {"verified": "ok", "not_verifiable": "info", "irregular": "warn", "mismatch": "warn"}


def public_sheet(sheet: Any) -> dict[str, Any]:
    """What the public game page shows of a sheet: the line, and the ruling once the arbiter made it."""
    line = sheet_line(sheet)
    if line.problem:
        # The engine's reason is part of the verdict (and in English): the page says only where it stops.
        line.problem = _("the next move written on the sheet cannot be played on the board")
    ruling = getattr(sheet, "ruling", "")
    if not ruling:
        # The engine's notes on single moves are part of the verdict: kept back until the ruling.
        line = GameLine(start=line.start, plies=[Ply(p.number, p.white, p.text, p.code, p.squares) for p in line.plies],
                        unplayable=line.unplayable, problem=line.problem, headers=line.headers)
        return {"line": line, "sheet_label": _("moves as written; the arbiter has not ruled on this sheet yet"),
                "verdict": "", "sheet_class": "info"}
    # The notes on single moves come from the engine in English; the reader gets the article in his words.
    plies = [Ply(p.number, p.white, p.text, p.code, p.squares, _note(p.note)) for p in line.plies]
    line = GameLine(start=line.start, plies=plies, unplayable=line.unplayable, problem=line.problem,
                    headers=line.headers)
    return {"line": line, "sheet_label": status_label(ruling), "verdict": sentence(sheet.report),
            "sheet_class": _NOTE_CLASS.get(ruling, "info")}


def _note(note: str) -> str:
    found = _ARTICLE.match(note)
    if not note or found is None:
        return note
    article = found.group(1)
    return _("%(what)s (art. %(article)s)") % {"what": article_words(article), "article": article}


def _pdn(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/x-pdn; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def tournament_pdn(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.public_tournament(slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    return _pdn(export_pdn(tournament, public_only=True), f"{tournament.slug}.pdn")


def round_pdn(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = selectors.public_tournament(slug)
    rnd = selectors.public_round(tournament, number) if tournament is not None else None
    if tournament is None or rnd is None:
        raise Http404("No such public round.")
    return _pdn(export_pdn(tournament, round=rnd, public_only=True), f"{tournament.slug}-round-{number}.pdn")
