"""Public pages and printing: thin views, reads through selectors, rows through tables.py and pdf.py.

Only public tournaments and non-draft rounds exist for the public: anything else is a 404, never an
empty page. The score sheets PDF is the one arbiter-only view (the admin links to it).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format

from tournaments import pdf, selectors, services, viewer
from tournaments.diagram import GameLine, board_svg, line_from_pdn
from tournaments.models import Game, SheetStatus, Tournament
from tournaments.permissions import require_manage
from tournaments.results import Result
from tournaments.tables import (
    CrosstableTable,
    PairingsTable,
    PlayerGamesTable,
    StandingsTable,
    TournamentTable,
)


def _tournament(slug: str) -> Tournament:
    tournament = selectors.public_tournament(slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    return tournament


def _after_round(request: HttpRequest, public_numbers: list[int]) -> int | None:
    """?round=N: the standings after round N, N a published round; anything else is a 404."""
    raw = request.GET.get("round")
    if raw in (None, ""):
        return None
    try:
        number = int(raw)
    except ValueError:
        raise Http404("Bad round number.") from None
    if number not in public_numbers:
        raise Http404("No such round.")
    return number


def tournament_dates(t: Tournament) -> str:
    if t.start_date is None:
        return ""
    start = date_format(t.start_date, "DATE_FORMAT")
    if t.end_date is None or t.end_date == t.start_date:
        return start
    return f"{start} – {date_format(t.end_date, 'DATE_FORMAT')}"


def _context(tournament: Tournament, section: str, **extra: Any) -> dict[str, Any]:
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    return {"tournament": tournament, "rounds": rounds, "section": section,
            "dates": tournament_dates(tournament), **extra}


def tournament_list(request: HttpRequest) -> HttpResponse:
    listings = selectors.public_tournament_listing(timezone.localdate())
    return render(request, "tournaments/list.html", {
        "table": TournamentTable.build(listings, tournament_dates), "count": len(listings)})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    ctx = _context(tournament, "tournament")
    return render(request, "tournaments/tournament.html", {
        **ctx,
        "arbiters": selectors.tournament_arbiters(tournament),
        "players": tournament.entries.count(),
        "rounds_total": services.rounds_total(tournament),
    })


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    ctx = _context(tournament, "standings")
    after = _after_round(request, [r.number for r in ctx["rounds"]])
    data = selectors.tournament_data(tournament, public_only=True)
    lines = selectors.standing_lines(tournament, data, after)
    return render(request, "tournaments/standings.html", {
        **ctx, "after_round": after, "last_round": selectors.last_round_with_results(data, after),
        "table": StandingsTable.build(slug, lines, tournament.tiebreaks),
        "notes": [(ln.player.name, ln.row.withdrawal_note) for ln in lines if ln.row.withdrawal_note],
    })


def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    ctx = _context(tournament, "crosstable")
    after = _after_round(request, [r.number for r in ctx["rounds"]])
    table = selectors.crosstable(tournament, after_round=after, public_only=True)
    return render(request, "tournaments/crosstable.html", {
        **ctx, "after_round": after, "cross": table, "table": CrosstableTable.build(slug, table),
        "notes": [(ln.standing.player.name, ln.standing.row.withdrawal_note) for ln in table.lines
                  if ln.standing.row.withdrawal_note],
    })


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    rnd = selectors.public_round(tournament, number)
    if rnd is None:
        raise Http404("No such round.")
    games = list(selectors.round_games(rnd))
    lines = {e.pk: selectors.player_line(e) for e in _entries_of(games)}
    return render(request, "tournaments/round.html", {
        **_context(tournament, "round"), "round": rnd, "table": PairingsTable.build(slug, games, lines),
        "missing": sum(1 for g in games if not g.result),
    })


def _entries_of(games: list[Game]) -> list[Any]:
    out = []
    for g in games:
        out.append(g.white)
        if g.black is not None:
            out.append(g.black)
    return out


def player_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    card = selectors.player_card(tournament, number)
    if card is None:
        raise Http404("No such player.")
    return render(request, "tournaments/player.html", {
        **_context(tournament, "player"), "card": card, "table": PlayerGamesTable.build(slug, card),
    })


SHEET_NOTES = {
    SheetStatus.VERIFIED: "ok",
    SheetStatus.NOT_VERIFIABLE: "info",
    SheetStatus.IRREGULAR: "warn",
    SheetStatus.MISMATCH: "warn",
}


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    game = selectors.public_game(tournament, game_id)
    if game is None:
        raise Http404("No such game.")
    sheet = getattr(game, "sheet", None)
    line: GameLine | None = line_from_pdn(sheet.text) if sheet is not None else None
    ply = len(line.plies) if line else 0
    if line is not None and request.GET.get("ply", "").isdigit():
        ply = min(int(request.GET["ply"]), len(line.plies))
    code = (line.plies[ply - 1].code if ply else line.start) if line else None
    lit = line.plies[ply - 1].squares if line and ply else ()
    white, black = game.white.player, (game.black.player if game.black else None)
    said = viewer.announcement(line, ply) if line else ""
    return render(request, "tournaments/game.html", {
        **_context(tournament, "game"), "game": game, "round": game.round, "sheet": sheet, "line": line,
        "ply": ply, "white": white, "black": black,
        "result": Result(game.result).label if game.result else "",
        "svg": board_svg(code, highlight=lit, label=viewer.fill(viewer.viewer_words()["board"], what=said))
        if code else "",
        "announcement": said,
        "position_text": viewer.position_text(line, ply) if line else "",
        # Per ply: position, squares of the move, move number, 1 for White, the move as written, the note.
        "positions": {"start": line.start, "words": viewer.viewer_words(),
                      "plies": [[p.code, list(p.squares), p.number, int(p.white), p.text, p.note]
                                for p in line.plies]} if line else None,
        "sheet_class": SHEET_NOTES.get(sheet.status, "info") if sheet else "",
        "verdict": sheet_verdict(sheet) if sheet else "",
        "moves": _move_rows(line) if line else [],
        "irregular": [(i, p) for i, p in enumerate(line.plies, start=1) if p.note] if line else [],
    })


def sheet_verdict(sheet: Any) -> str:
    """What the replay concluded, as the sheets engineer stores it: the one-line summary when there is
    one, else the replay report's verdict."""
    summary = getattr(sheet, "summary", "")
    if summary:
        return str(summary)
    report = sheet.report or {}
    return str((report.get("replay") or {}).get("verdict") or report.get("verdict") or "")


def _move_rows(line: GameLine) -> list[dict[str, Any]]:
    """Move list rows: number, white ply, black ply (either may be missing), with ply indexes."""
    rows: list[dict[str, Any]] = []
    for index, p in enumerate(line.plies, start=1):
        if p.white or not rows or rows[-1]["number"] != p.number:
            rows.append({"number": p.number, "white": None, "black": None})
        rows[-1]["white" if p.white else "black"] = {"ply": index, "text": p.text, "note": p.note}
    return rows


# --- PDFs ------------------------------------------------------------------------------------


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    after = _after_round(request, [r.number for r in rounds])
    data = selectors.tournament_data(tournament, public_only=True)
    lines = selectors.standing_lines(tournament, data, after)
    last = selectors.last_round_with_results(data, after)
    return _pdf(pdf.standings_pdf(tournament, lines, after_round=last), f"{slug}-standings.pdf")


def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    after = _after_round(request, [r.number for r in rounds])
    table = selectors.crosstable(tournament, after_round=after, public_only=True)
    return _pdf(pdf.crosstable_pdf(tournament, table), f"{slug}-crosstable.pdf")


def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(slug)
    found = selectors.round_for_print(tournament, number, public_only=True)
    if found is None:
        raise Http404("No such round.")
    rnd, games = found
    return _pdf(pdf.pairings_pdf(tournament, rnd, games), f"{slug}-round-{number}-pairings.pdf")


def scoresheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Arbiters only, any round status: sheets are printed before the round is published."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    require_manage(request.user, tournament)  # the rule of every arbiter view: staff, and his tournament
    found = selectors.round_for_print(tournament, number, public_only=False)
    if found is None:
        raise Http404("No such round.")
    rnd, games = found
    return _pdf(pdf.scoresheets_pdf(tournament, rnd, games), f"{slug}-round-{number}-scoresheets.pdf")
