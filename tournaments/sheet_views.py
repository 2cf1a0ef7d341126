"""Public PDN downloads: the games of a public tournament's published and completed rounds."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from tournaments import selectors
from tournaments.sheet_export import export_pdn


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
