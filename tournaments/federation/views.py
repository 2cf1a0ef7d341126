"""The report to the federation as served: the file and the PDF, for the tournament's arbiters only, in the
tournament's PDF language (tournaments.printing.views' conventions). Before the last round is completed
with every result in, both are refused in words (409): a report is sent once, when the table is final.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language

from tournaments.errors import DomainError
from tournaments.federation import report_pdf, rows
from tournaments.federation.report_file import write_report
from tournaments.models import Tournament
from tournaments.permissions import require_manage


def _arbiters_tournament(request: HttpRequest, slug: str) -> Tournament | HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = Tournament.objects.select_related("chief_arbiter").filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    require_manage(request.user, tournament)
    return tournament


def _served(response: HttpResponse) -> HttpResponse:
    response["Content-Language"] = get_language()
    add_never_cache_headers(response)  # an arbiter's document: no browser or proxy keeps it for another reader
    return response


def _refused(exc: DomainError) -> HttpResponse:
    return _served(HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8"))


def report_file(request: HttpRequest, slug: str) -> HttpResponse:
    found = _arbiters_tournament(request, slug)
    if isinstance(found, HttpResponse):
        return found
    try:
        report = rows.read_report(found)
    except DomainError as exc:
        return _refused(exc)
    response = HttpResponse(write_report(report), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-fmjd-report.csv"'
    return _served(response)


def report_pdf_view(request: HttpRequest, slug: str) -> HttpResponse:
    found = _arbiters_tournament(request, slug)
    if isinstance(found, HttpResponse):
        return found
    with translation.override(found.pdf_language or get_language()):
        try:
            report = rows.read_report(found)
        except DomainError as exc:
            return _refused(exc)
        response = HttpResponse(report_pdf.report_pdf(report), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{slug}-federation-report.pdf"'
        return _served(response)
