"""Public pages and printing: thin views, reads through selectors, rows through tables.py and pdf.py.

Only public tournaments and non-draft rounds exist for the public: anything else is a 404, never an
empty page. The score sheets PDF is the one arbiter-only view (the admin links to it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import get_language

from tournaments import pdf, progress, selectors, services, viewer
from tournaments.data_text import result_label, tournament_dates, withdrawal_text
from tournaments.diagram import board_svg
from tournaments.models import Game, Tournament
from tournaments.permissions import require_manage
from tournaments.sheet_line import GameLine
from tournaments.sheet_views import public_sheet
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


def _context(tournament: Tournament, section: str, **extra: Any) -> dict[str, Any]:
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    return {"tournament": tournament, "rounds": rounds, "section": section,
            "dates": tournament_dates(tournament), **extra}


def tournament_list(request: HttpRequest) -> HttpResponse:
    listings = selectors.public_tournament_listing(timezone.localdate())
    statuses = progress.tournament_statuses([ls.tournament for ls in listings])
    return render(request, "tournaments/list.html", {
        "table": TournamentTable.build(listings, tournament_dates, statuses), "count": len(listings)})


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
        "heading": progress.heading("standings", progress.shown_round(data.games, after)),
        "table": StandingsTable.build(slug, lines, tournament.tiebreaks),
        "notes": [(ln.player.name, withdrawal_text(ln.row.withdrawal)) for ln in lines if ln.row.withdrawal],
    })


def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    ctx = _context(tournament, "crosstable")
    after = _after_round(request, [r.number for r in ctx["rounds"]])
    data = selectors.tournament_data(tournament, public_only=True)
    table = selectors.crosstable(tournament, after_round=after, public_only=True, data=data)
    return render(request, "tournaments/crosstable.html", {
        **ctx, "after_round": after, "cross": table, "table": CrosstableTable.build(slug, table),
        "heading": progress.heading("crosstable", progress.shown_round(data.games, after)),
        "notes": [(ln.standing.player.name, withdrawal_text(ln.standing.row.withdrawal)) for ln in table.lines
                  if ln.standing.row.withdrawal],
    })


def tiebreak_help(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """What each tie-break computes and how byes, forfeits and withdrawals count; for a tournament,
    its own order first."""
    from tournaments import tiebreak_text
    from tournaments.standings import preset_of

    extra: dict[str, Any] = {}
    if slug is not None:
        tournament = _tournament(slug)
        preset = preset_of(tournament.tiebreaks)
        extra = {**_context(tournament, "tiebreaks"),
                 "order": [(name, tiebreak_text.TIEBREAK_HELP.get(name, "")) for name in tournament.tiebreaks],
                 "preset": tiebreak_text.preset_label(preset) if preset else ""}
    return render(request, "tournaments/tiebreaks.html", {
        **extra, "tiebreaks": tiebreak_text.tiebreak_rows(), "presets": tiebreak_text.preset_rows(),
        "counting": tiebreak_text.COUNTING_RULES,
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


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    tournament = _tournament(slug)
    game = selectors.public_game(tournament, game_id)
    if game is None:
        raise Http404("No such game.")
    sheet = getattr(game, "sheet", None)
    shown = public_sheet(sheet) if sheet is not None else {}
    line: GameLine | None = shown.get("line")
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
        "result": result_label(game.result) if game.result else "",
        "svg": board_svg(code, highlight=lit, label=viewer.fill(viewer.viewer_words()["board"], what=said))
        if code else "",
        "announcement": said,
        "position_text": viewer.position_text(line, ply) if line else "",
        # Per ply: position, squares of the move, move number, 1 for White, the move as written, the note.
        "positions": {"start": line.start, "words": viewer.viewer_words(),
                      "plies": [[p.code, list(p.squares), p.number, int(p.white), p.text, p.note]
                                for p in line.plies]} if line else None,
        "sheet_class": shown.get("sheet_class", ""), "sheet_label": shown.get("sheet_label", ""),
        "verdict": shown.get("verdict", ""),
        "moves": _move_rows(line) if line else [],
        "irregular": [(i, p) for i, p in enumerate(line.plies, start=1) if p.note] if line else [],
    })


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
    response["Content-Language"] = get_language()
    return response


def _in_pdf_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Render a PDF in the tournament's PDF language when it has one (Tournament.pdf_language), else in
    the reader's. Inside the page cache, which keys on the reader's language: each key still holds the
    one right PDF."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        chosen = Tournament.objects.filter(slug=slug).values_list("pdf_language", flat=True).first()
        with translation.override(chosen or get_language()):
            return view(request, slug, *args, **kwargs)

    return wrapper


@_in_pdf_language
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    after = _after_round(request, [r.number for r in rounds])
    data = selectors.tournament_data(tournament, public_only=True)
    lines = selectors.standing_lines(tournament, data, after)
    heading = progress.heading("standings", progress.shown_round(data.games, after))
    return _pdf(pdf.standings_pdf(tournament, lines, heading=heading), f"{slug}-standings.pdf")


@_in_pdf_language
def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    after = _after_round(request, [r.number for r in rounds])
    data = selectors.tournament_data(tournament, public_only=True)
    table = selectors.crosstable(tournament, after_round=after, public_only=True, data=data)
    heading = progress.heading("crosstable", progress.shown_round(data.games, after))
    return _pdf(pdf.crosstable_pdf(tournament, table, heading=heading), f"{slug}-crosstable.pdf")


def _round_to_print(request: HttpRequest, slug: str, number: int) -> tuple[Tournament, Any, list[Game]]:
    """A published round of a public tournament; its arbiters may also print a draft round, to check
    the wall sheets before publishing. A private tournament stays out of the public URLs for everyone,
    as every other public page does."""
    tournament = _tournament(slug)
    arbiter = request.user.is_authenticated and request.user.is_staff and tournament.is_arbiter(request.user)
    found = selectors.round_for_print(tournament, number, public_only=not arbiter)
    if found is None:
        raise Http404("No such round.")
    return tournament, found[0], found[1]


@_in_pdf_language
def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, rnd, games = _round_to_print(request, slug, number)
    return _pdf(pdf.pairings_pdf(tournament, rnd, games, points_before=progress.points_before(tournament, number),
                                 bye_points=selectors.bye_points_for(tournament)),
                f"{slug}-round-{number}-pairings.pdf")


@_in_pdf_language
def boards_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """'Find your board': the players of a round in alphabetical order."""
    tournament, rnd, games = _round_to_print(request, slug, number)
    return _pdf(pdf.boards_pdf(tournament, rnd, games, bye_points=selectors.bye_points_for(tournament)),
                f"{slug}-round-{number}-boards.pdf")


@_in_pdf_language
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
