"""The PDFs: standings and crosstable (public), a round's pairings and "find your board" (public; a draft
round for its arbiters), score sheets (arbiters only). Each renders in the tournament's PDF language.

A private tournament prints for its arbiters (chief, deputies, superusers) and for nobody else: to the
public and to other arbiters it does not exist (404). Its PDFs are never shared: they are sent with
`Cache-Control: private, no-store`, and tournaments.web.public_cache stores nothing of a tournament that is
not public nor of a signed-in reader.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language

from tournaments import selectors
from tournaments.boards import codes
from tournaments.hall import qr
from tournaments.models import BoardCode, Game, Tournament
from tournaments.permissions import can_manage, require_manage
from tournaments.printing import lists, rounds, slips
from tournaments.printing.standings import crosstable_pdf as crosstable_pdf_bytes
from tournaments.printing.standings import standings_pdf as standings_pdf_bytes
from tournaments.public.views import after_round_asked
from tournaments.ranking import final_standings, progress
from tournaments.rounds import round_control

# --- PDFs ------------------------------------------------------------------------------------


def _pdf(content: bytes, filename: str, tournament: Tournament) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Content-Language"] = get_language()
    if not tournament.public:
        add_never_cache_headers(response)  # private, no-store: no browser or proxy keeps it for another reader
    return response


def printable_tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    """A public tournament, or a private one for its own arbiters: everyone else gets the 404 of a page
    that does not exist, so a private tournament's name is not confirmed to them."""
    tournament = Tournament.objects.select_related("chief_arbiter").filter(slug=slug).first()
    if tournament is None or not (tournament.public or can_manage(request.user, tournament)):
        raise Http404("No such public tournament.")
    return tournament


def in_pdf_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Render a PDF in the tournament's PDF language when it has one (Tournament.pdf_language), else in
    the reader's. Inside the page cache, which keys on the reader's language: each key still holds the
    one right PDF."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        chosen = Tournament.objects.filter(slug=slug).values_list("pdf_language", flat=True).first()
        with translation.override(chosen or get_language()):
            return view(request, slug, *args, **kwargs)

    return wrapper


def _public_table(request: HttpRequest, slug: str) -> tuple[Tournament, selectors.TournamentData, int | None]:
    """The tournament, its published games and the round the table is asked after (?round=N)."""
    tournament = printable_tournament_or_404(request, slug)
    rounds = list(selectors.tournament_rounds(tournament, public_only=True))
    after = after_round_asked(request, [r.number for r in rounds])
    return tournament, selectors.tournament_data(tournament, public_only=True), after


@in_pdf_language
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, data, after = _public_table(request, slug)
    if tournament.is_team:  # the individual tables rank players of a Swiss or a round robin
        return redirect(reverse("tournaments:team_standings_pdf", args=[slug]))
    lines = selectors.standing_lines(tournament, data, after)
    heading = final_standings.table_heading(tournament, data, "standings", after)
    return _pdf(standings_pdf_bytes(tournament, lines, heading=heading), f"{slug}-standings.pdf", tournament)


@in_pdf_language
def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, data, after = _public_table(request, slug)
    if tournament.is_team:  # the individual tables rank players of a Swiss or a round robin
        return redirect(reverse("tournaments:team_standings_pdf", args=[slug]))
    table = selectors.crosstable(tournament, after_round=after, public_only=True, data=data)
    heading = final_standings.table_heading(tournament, data, "crosstable", after)
    return _pdf(crosstable_pdf_bytes(tournament, table, heading=heading), f"{slug}-crosstable.pdf", tournament)


def _round_to_print(request: HttpRequest, slug: str, number: int) -> tuple[Tournament, Any, list[Game]]:
    """A published round of a public tournament; its arbiters may also print a draft round, to check
    the wall sheets before publishing, and every round of their private tournament."""
    tournament = printable_tournament_or_404(request, slug)
    arbiter = can_manage(request.user, tournament)
    found = selectors.round_for_print(tournament, number, public_only=not arbiter)
    if found is None:
        raise Http404("No such round.")
    return tournament, found[0], found[1]


def _round_url(request: HttpRequest, tournament: Tournament, number: int) -> str | None:
    """The round's live page, for the QR code of the wall sheets; none for a private tournament."""
    if not tournament.public:
        return None
    return qr.absolute(reverse("tournaments:round", args=[tournament.slug, number]), request)


def _game_urls(request: HttpRequest, tournament: Tournament) -> Callable[[Game], str | None]:
    """Each game's public page, for the QR code of its score sheet and its slip; none for a private tournament."""
    base = qr.site_base(request) if tournament.public else None

    def url(game: Game) -> str | None:
        return f"{base}{reverse('tournaments:game', args=[tournament.slug, game.pk])}" if base else None

    return url


@in_pdf_language
def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament, rnd, games = _round_to_print(request, slug, number)
    return _pdf(rounds.pairings_pdf(tournament, rnd, games, points_before=progress.points_before(tournament, number),
                                 bye_points=selectors.bye_points_for(tournament),
                                 live_url=_round_url(request, tournament, number)),
                f"{slug}-round-{number}-pairings.pdf", tournament)


@in_pdf_language
def boards_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """'Find your board': the players of a round in alphabetical order."""
    tournament, rnd, games = _round_to_print(request, slug, number)
    return _pdf(rounds.boards_pdf(tournament, rnd, games, bye_points=selectors.bye_points_for(tournament),
                                  live_url=_round_url(request, tournament, number)),
                f"{slug}-round-{number}-boards.pdf", tournament)


@in_pdf_language
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
    # Each player's code for reporting results, issued if missing (the arbiter's own print, never public).
    codes.codes_issue(tournament=tournament)
    report_urls = {code.entry_id: qr.absolute(reverse("tournaments:board_report", args=[slug, code.token]), request)
                   for code in BoardCode.objects.filter(entry__tournament=tournament, revoked_at__isnull=True)}
    return _pdf(rounds.scoresheets_pdf(tournament, rnd, games, _game_urls(request, tournament),
                                       {k: v for k, v in report_urls.items() if v}),
                f"{slug}-round-{number}-scoresheets.pdf", tournament)


@in_pdf_language
def slips_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Arbiters only, any round status: the slips go on the boards before the round starts."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    require_manage(request.user, tournament)
    found = selectors.round_for_print(tournament, number, public_only=False)
    if found is None:
        raise Http404("No such round.")
    rnd, games = found
    return _pdf(slips.slips_pdf(tournament, rnd, games, _game_urls(request, tournament)),
                f"{slug}-round-{number}-slips.pdf", tournament)


@in_pdf_language
def starting_list_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """?order=number (default), name, federation or club; anything else is a 404, as a bad ?round= is."""
    tournament = printable_tournament_or_404(request, slug)
    order = request.GET.get("order") or "number"
    if order not in lists.ORDERS:
        raise Http404("No such order.")
    entries = list(tournament.entries.select_related("player"))
    return _pdf(lists.starting_list_pdf(tournament, entries, order=order), f"{slug}-starting-list-{order}.pdf",
                tournament)


@in_pdf_language
def schedule_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """A round robin's whole Berger schedule on today's pairing numbers; a Swiss has none (404)."""
    tournament = printable_tournament_or_404(request, slug)
    if not tournament.is_round_robin:
        raise Http404("A Swiss tournament has no schedule in advance.")
    return _pdf(lists.schedule_pdf(tournament, round_control.berger_table(tournament)), f"{slug}-schedule.pdf",
                tournament)
