"""Public pages: thin views, reads through selectors, rows through tables.py; they never write.

Only public tournaments and non-draft rounds exist for the public: anything else is a 404, never an
empty page. The PDFs of the same pages are tournaments.printing.views.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from rules.numbers import number_or_none
from tournaments import selectors
from tournaments.models import Game, RoundStatus, Tournament
from tournaments.public import find_board, notation, per_version, viewer
from tournaments.public.diagram import board_svg
from tournaments.public.sheet_views import public_sheet
from tournaments.public.tables import (
    CrosstableTable,
    PairingsTable,
    PlayerGamesTable,
    StandingsTable,
    TournamentTable,
)
from tournaments.ranking import final_standings, progress
from tournaments.rounds import schedule
from tournaments.sheets.line import GameLine
from tournaments.words import day_text, expelled_text, result_label, start_text, tournament_dates, withdrawal_text


def public_tournament_or_404(slug: str) -> Tournament:
    tournament = selectors.public_tournament(slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    return tournament


def after_round_asked(request: HttpRequest, public_numbers: list[int]) -> int | None:
    """?round=N: the standings after round N, N a published round; anything else is a 404."""
    raw = request.GET.get("round")
    if raw in (None, ""):
        return None
    number = number_or_none(raw)
    if number is None:
        raise Http404("Bad round number.")
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


def tournament_detail(request: HttpRequest, slug: str, tournament: Tournament | None = None) -> HttpResponse:
    """The tournament's page; `tournament` when the caller has read it already (a team competition's page
    is tournaments.competitions.pages, which hands the others over here)."""
    tournament = tournament or public_tournament_or_404(slug)
    ctx = _context(tournament, "tournament")
    published = {r.number: r for r in ctx["rounds"]}
    # One row a round, planned or published: the round (a link once published), its day and start time.
    timetable = [{"number": s.number, "round": published.get(s.number), "day": day_text(s.date) if s.date else "",
                  "time": s.time.strftime("%H:%M") if s.time else ""}
                 for s in schedule.timetable(tournament, ctx["rounds"])]
    timetable += [{"number": n, "round": r, "day": "", "time": ""} for n, r in published.items()
                  if n not in {row["number"] for row in timetable}]
    return render(request, "tournaments/tournament.html", {
        **ctx, "timetable": sorted(timetable, key=lambda row: row["number"]),
        "arbiters": selectors.tournament_arbiters(tournament),
        "players": tournament.entries.count(),
        "rounds_total": selectors.rounds_total(tournament),
    })


def team_table(tournament: Tournament, name: str, *args: object) -> HttpResponse | None:
    """A team competition's individual tables lead to its team tables: the individual standings rank
    the players of a Swiss or a round robin, and a team competition is neither."""
    return redirect(reverse(name, args=[tournament.slug, *args])) if tournament.is_team else None


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    if (to_team := team_table(tournament, "tournaments:tournament")) is not None:
        return to_team
    ctx = _context(tournament, "standings")
    after = after_round_asked(request, [r.number for r in ctx["rounds"]])
    data = selectors.tournament_data(tournament, public_only=True)
    lines = selectors.standing_lines(tournament, data, after)
    return render(request, "tournaments/standings.html", {
        **ctx, "after_round": after, "last_round": selectors.last_round_with_results(data, after),
        "heading": final_standings.table_heading(tournament, data, "standings", after),
        "table": StandingsTable.build(slug, lines, tournament.tiebreaks),
        "notes": [(ln.player.name, withdrawal_text(ln.row.withdrawal)) for ln in lines if ln.row.withdrawal],
    })


def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    if (to_team := team_table(tournament, "tournaments:team_crosstable")) is not None:
        return to_team
    ctx = _context(tournament, "crosstable")
    after = after_round_asked(request, [r.number for r in ctx["rounds"]])
    data = selectors.tournament_data(tournament, public_only=True)
    table = selectors.crosstable(tournament, after_round=after, public_only=True, data=data)
    return render(request, "tournaments/crosstable.html", {
        **ctx, "after_round": after, "cross": table, "table": CrosstableTable.build(slug, table),
        "legend": notation.legend([c for ln in table.lines for c in ln.cells], round_robin=table.round_robin),
        "heading": final_standings.table_heading(tournament, data, "crosstable", after),
        "notes": [(ln.standing.player.name, withdrawal_text(ln.standing.row.withdrawal)) for ln in table.lines
                  if ln.standing.row.withdrawal]
        + [(ln.standing.player.name, expelled_text()) for ln in table.lines if ln.standing.row.expelled],
    })


def tiebreak_help(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """What each tie-break computes and how byes, forfeits and withdrawals count; for a tournament,
    its own order first."""
    from tournaments import words
    from tournaments.players import period_ratings
    from tournaments.standings import preset_of

    extra: dict[str, Any] = {}
    convention = "fmjd"
    if slug is not None:
        tournament = public_tournament_or_404(slug)
        convention = tournament.tiebreak_convention
        preset = preset_of(tournament.tiebreaks)
        extra = {**_context(tournament, "tiebreaks"),
                 "order": [(name, period_ratings.help_for(tournament, name,
                                                          words.help_text(name, convention)))
                           for name in tournament.tiebreaks],
                 "preset": words.preset_label(preset) if preset else ""}
    return render(request, "tournaments/tiebreaks.html", {
        **extra, "tiebreaks": words.tiebreak_rows(), "presets": words.preset_rows(),
        "counting": words.counting_rules(convention),
    })


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    rnd = selectors.public_round(tournament, number)
    if rnd is None:
        raise Http404("No such round.")
    games = list(selectors.round_games(rnd))
    lines = {e.pk: selectors.player_line(e, tournament.rating_method) for e in _entries_of(games)}
    bye_points = selectors.bye_points_for(tournament)
    # ?find=name: the phone without script asks the server (never stored by the page cache: web/urls.py).
    query = request.GET.get("find", "").strip()[:find_board.LONGEST_QUERY]
    found = find_board.find(games, query) if query else []
    return render(request, "tournaments/round.html", {
        **_context(tournament, "round"), "round": rnd, "when": start_text(*schedule.start_of(rnd)),
        "table": PairingsTable.build(slug, games, lines, bye_points, frozenset(f.game.pk for f in found)),
        "missing": sum(1 for g in games if not g.result),
        "query": query, "found": [(f, find_board.where_text(f, bye_points), find_board.anchor(f)) for f in found],
        "clock_started": rnd.clock_started_at if rnd.status == RoundStatus.PUBLISHED else None,
    })


def _entries_of(games: list[Game]) -> list[Any]:
    out = []
    for g in games:
        out.append(g.white)
        if g.black is not None:
            out.append(g.black)
    return out


def player_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    if tournament.is_team:  # his results board by board, on the team competition's players' page
        return redirect(reverse("tournaments:team_players", args=[slug]) + f"#player-{number}")
    # The cards of the tournament's version, computed once for all its players' pages (per_version).
    card = per_version.player_cards(tournament).get(number)
    if card is None:
        raise Http404("No such player.")
    ctx = _context(tournament, "player")
    now = ""
    playing = next((r for r in reversed(ctx["rounds"]) if r.status == RoundStatus.PUBLISHED), None)
    if playing is not None:
        now = find_board.now_playing(playing, list(selectors.round_games(playing)), card.player.entry_id,
                                     selectors.bye_points_for(tournament))
    return render(request, "tournaments/player.html", {
        **ctx, "card": card, "table": PlayerGamesTable.build(slug, card), "now_playing": now,
        "now_round": playing,
    })


def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    game = selectors.public_game(tournament, game_id)
    if game is None:
        raise Http404("No such game.")
    sheet = getattr(game, "sheet", None)
    shown = public_sheet(sheet) if sheet is not None else {}
    line: GameLine | None = shown.get("line")
    ply = len(line.plies) if line else 0
    asked = number_or_none(request.GET.get("ply"))
    if line is not None and asked is not None:
        ply = min(asked, len(line.plies))
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
