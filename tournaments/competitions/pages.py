"""The public pages of a team competition: the overview (team standings and every round's matches), a
round's matches, a match followed board by board, the team crosstable and the players' results by board.

Thin views over `outputs.read` and the pure `tables`; they never write. They are served through the page
cache (tournaments.web.public_cache, wired in tournaments/web/urls.py) keyed on the tournament's version,
which every write to the team tables moves (tournaments/web/cache_version.py), so a page follows its
matches live by the same ETag polling as the individual pages (static/damier/live.js, the "live" tag).
Only a public tournament of the system "team" has them; a round not yet published shows its fixtures,
never its line-ups. The individual pages of the tournament (its games, players, PDN) stay as they are.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.models import Match, RoundStatus, Tournament
from tournaments.public import views as public_views
from tournaments.teams.settings import Criterion
from tournaments.words import tournament_dates

from . import outputs, tables
from .words import reason_words

CRITERIA = {
    Criterion.MATCH_POINTS: (_("Match points"), _("MP")),
    Criterion.BOARD_POINTS: (_("Board points"), _("BP")),
    Criterion.MUTUAL: (_("Mutual match"), _("Mut.")),
    Criterion.SB_TEAMS: (_("Sonneborn-Berger on match points"), _("SB")),
    Criterion.WINS: (_("Matches won"), _("Won")),
}


def team_tournament_or_404(slug: str) -> tuple[Tournament, Any]:
    tournament = selectors.public_tournament(slug)
    competition = outputs.competition_of(tournament) if tournament is not None and tournament.is_team else None
    if tournament is None or competition is None:
        raise Http404("No such public team competition.")
    return tournament, competition


def _context(tournament: Tournament, competition: Any, section: str, read: outputs.Outputs,
             **extra: Any) -> dict[str, Any]:
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    return {"tournament": tournament, "competition": competition, "rounds": rounds, "section": section,
            "dates": tournament_dates(tournament), "published": read.published, "live_rounds": read.live,
            "boards": read.settings.boards, **extra}


def criteria_columns(read: outputs.Outputs) -> list[tuple[Any, Any]]:
    """(long name, short heading) of the criteria shown after the board points."""
    return [CRITERIA[c] for c in tables.extra_criteria(read.settings)]


def order_text(read: outputs.Outputs) -> list[Any]:
    return [CRITERIA[c][0] for c in read.settings.order]


def _match_rows(read: outputs.Outputs, states: list[Any]) -> list[dict[str, Any]]:
    return [{"state": s, "score": tables.live_score(s, read.settings),
             "published": s.match.round_number in read.published, "why": _why(s.match)} for s in states]


def _why(match: Match) -> str:
    """Why a decided cup match went to its winner, in words ("" while undecided)."""
    return reason_words(match.decided_by) if match.winner_id and match.decided_by else ""


def _round_of(read: outputs.Outputs, number: int, states: list[Any]) -> tuple[int, str, list[dict[str, Any]], bool]:
    """A round of the overview: its number, its table's id, its matches, and whether one is under way."""
    rows = _match_rows(read, states)
    playing = number in read.live and any(not r["score"].complete for r in rows if r["state"].match.away_id)
    return number, f"matches-{number}", rows, playing


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """/t/<slug>/: a team competition's overview, any other tournament's own page."""
    tournament = public_views.public_tournament_or_404(slug)
    competition = outputs.competition_of(tournament) if tournament.is_team else None
    if competition is None:
        return public_views.tournament_detail(request, slug, tournament)
    read = outputs.read(competition)
    return render(request, "tournaments/teams/home.html", {
        **_context(tournament, competition, "team_home", read),
        "lines": read.standing_lines(), "criteria": criteria_columns(read), "order": order_text(read),
        "deductions": tables.deduction_notes(read.rows),
        "schedule": [_round_of(read, n, states) for n, states in read.rounds()],
        "arbiters": selectors.tournament_arbiters(tournament),
    })


def team_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, competition = team_tournament_or_404(slug)
    rnd = selectors.public_round(tournament, number)
    read = outputs.read(competition, number)
    if rnd is None or not read.states:
        raise Http404("No such published round.")
    return render(request, "tournaments/teams/round.html", {
        **_context(tournament, competition, "team_round", read), "round": rnd,
        "matches": _match_rows(read, read.states)})


def _match_of(read: outputs.Outputs, table: int) -> Any:
    state = next((s for s in read.states if s.match.table == table), None)
    if state is None:
        raise Http404("No such match.")
    return state


def team_match(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament, competition = team_tournament_or_404(slug)
    rnd = selectors.public_round(tournament, number)
    if rnd is None:
        raise Http404("No such published round.")
    read = outputs.read(competition, number)
    state = _match_of(read, table)
    view = tables.match_view(state, read.settings, published=True)
    return render(request, "tournaments/teams/match.html", {
        **_context(tournament, competition, "team_match", read), "round": rnd, "view": view,
        "match": state.match, "barrage": _barrage_of(state.match), "why": _why(state.match)})


def _barrage_of(match: Match) -> Match | None:
    return match.barrage_of if match.barrage_of_id else None


def team_crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, competition = team_tournament_or_404(slug)
    read = outputs.read(competition)
    lines = read.crosstable()
    rows = {r.team: r for r in read.rows}
    return render(request, "tournaments/teams/crosstable.html", {
        **_context(tournament, competition, "team_crosstable", read),
        "lines": [(i, line, rows[line.team]) for i, line in enumerate(lines, start=1)],
        "numbers": list(range(1, len(lines) + 1)), "two_legs": competition.home_and_away})


def team_players(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, competition = team_tournament_or_404(slug)
    read = outputs.read(competition)
    by_team: dict[str, list[tables.PlayerLine]] = {}
    for line in read.players():
        by_team.setdefault(line.team, []).append(line)
    return render(request, "tournaments/teams/players.html", {
        **_context(tournament, competition, "team_players", read), "teams": list(by_team.items())})


def published_match(tournament: Tournament, competition: Any, number: int, table: int, *, drafts: bool
                    ) -> tuple[outputs.Outputs, Any]:
    """The match of a published round (any round for its arbiters, `drafts`), or a 404."""
    status = tournament.rounds.filter(number=number).values_list("status", flat=True).first()
    if not drafts and (status is None or status == RoundStatus.DRAFT):
        raise Http404("No such published round.")
    read = outputs.read(competition, number)
    return read, _match_of(read, table)

