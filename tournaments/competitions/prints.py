"""The files of a team competition: a match's sheet (PDF, two copies) and its games (PDN), the team
standings (PDF).

A published round's are public, served through the page cache like every public PDF. The arbiters of the
competition print a match sheet before the round is published too (the line-ups as they stand), and every
file of a private competition: those answers are their own, never shared (`Cache-Control: private,
no-store`, and the page cache stores nothing for a signed-in reader or a private tournament).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.hall import qr
from tournaments.models import TeamCompetition, Tournament
from tournaments.permissions import can_manage
from tournaments.printing.views import in_pdf_language, printable_tournament_or_404

from . import outputs, pages, pdn, sheet_pdf, tables


def _competition(request: HttpRequest, slug: str) -> tuple[Tournament, TeamCompetition, bool]:
    tournament = printable_tournament_or_404(request, slug)
    competition = outputs.competition_of(tournament) if tournament.is_team else None
    if competition is None:
        raise Http404("No such team competition.")
    return tournament, competition, can_manage(request.user, tournament)


def _answer(content: bytes | str, content_type: str, filename: str, tournament: Tournament) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Language"] = get_language()
    if not tournament.public:
        add_never_cache_headers(response)
    return response


def match_url(request: HttpRequest | None, tournament: Tournament, number: int, table: int) -> str | None:
    """The match's live page, for the sheet's QR code; none for a private tournament."""
    if not tournament.public:
        return None
    return qr.absolute(reverse("tournaments:team_match", args=[tournament.slug, number, table]), request)


@in_pdf_language
def match_sheet(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament, competition, arbiter = _competition(request, slug)
    read, state = pages.published_match(tournament, competition, number, table, drafts=arbiter)
    if state.match.away_id is None:
        raise Http404("A bye has no match sheet.")
    content = sheet_pdf.match_sheet_pdf(competition, state, read.settings,
                                        url=match_url(request, tournament, number, table),
                                        when=sheet_pdf.when_text(competition, number))
    return _answer(content, "application/pdf", f"{slug}-round-{number}-match-{table}.pdf", tournament)


def match_games(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament, competition, arbiter = _competition(request, slug)
    _read, state = pages.published_match(tournament, competition, number, table, drafts=arbiter)
    text = pdn.match_pdn(competition, state.match, public_only=not arbiter)
    return _answer(text, "application/x-pdn; charset=utf-8", pdn.match_filename(competition, state.match),
                   tournament)


@in_pdf_language
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, competition, _arbiter = _competition(request, slug)
    read = outputs.read(competition)
    notes = [_("Ranked on:") + " " + ", ".join(str(c) for c in pages.order_text(read)) + "."]
    notes += [_("%(team)s: %(points)s match points deducted.") % {"team": team, "points": points}
              for team, points in tables.deduction_notes(read.rows)]
    heads = [str(short) for _long, short in pages.criteria_columns(read)]
    content = sheet_pdf.standings_pdf(competition, read.standing_lines(), heads, notes, _("Team standings"))
    return _answer(content, "application/pdf", f"{slug}-team-standings.pdf", tournament)

