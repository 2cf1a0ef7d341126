"""Results from the boards on the round page: each board's reports and verdicts, the one button that confirms
every agreed board whose moves confirm it, and the players' codes (issue, revoke, print with their QR codes).

The round admin gets /<pk>/confirm-agreed/ and /<pk>/codes/ (URL names tournaments_round_confirm_agreed and
tournaments_round_codes); every report is listed, late ones flagged, none applied by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.admin.base import run_service
from tournaments.boards import codes, confirm, reports, words
from tournaments.hall import qr
from tournaments.models import BoardCode, BoardReport, Round, RoundStatus


@dataclass
class ReportLine:
    side: str
    result: str
    verdict: str
    received: str
    status: str
    late: bool
    settled: bool  # confirmed or overruled: the arbiter has ruled on the board


@dataclass
class ReportCell:
    state: str  # none, single, agreed, disputed
    words: str
    agreed: str = ""  # the result the `a` key puts in the menu
    moves_confirm: bool = False
    lines: list[ReportLine] = field(default_factory=list)
    late: int = 0


def _line(report: BoardReport) -> ReportLine:
    return ReportLine(words.side_words(report.side), report.result,
                      words.verdict_words(report.verdict or {}, report.result),
                      timezone.localtime(report.received_at).strftime("%H:%M:%S"),
                      report.get_status_display(), report.status == "late",
                      report.status in ("confirmed", "overruled"))


def report_cells(rnd: Round) -> dict[int, ReportCell]:
    """Each board's reports as the round page shows them, keyed by game id (one query for the round)."""
    games = list(rnd.games.all())
    cells = {}
    for game_id, state in reports.states_of(games).items():
        if not state.reports:
            continue
        latest = [r for r in (state.white, state.black) if r is not None]
        cells[game_id] = ReportCell(
            state.state, words.state_words(state), state.result if state.state == reports.AGREED else "",
            state.moves_confirm, [_line(r) for r in latest] + [_line(r) for r in state.late], len(state.late))
    return cells


def boards_context(rnd: Round) -> dict[str, Any]:
    if rnd.status == RoundStatus.DRAFT:
        return {}
    confirm.round_settle(rnd)
    cells = report_cells(rnd)
    games = {g.pk: g for g in rnd.games.all()}
    to_confirm = sum(1 for pk, c in cells.items() if c.state == reports.AGREED and c.moves_confirm
                     and not games[pk].result)
    log = (BoardReport.objects.filter(game__round=rnd).select_related("game", "code")
           .order_by("-received_at")[:500])
    return {"board_reports": cells, "n_to_confirm": to_confirm, "any_agreed": any(c.agreed for c in cells.values()),
            "confirm_agreed_url": reverse("admin:tournaments_round_confirm_agreed", args=[rnd.pk]),
            "codes_url": reverse("admin:tournaments_round_codes", args=[rnd.pk]),
            "report_log": [(r, _line(r)) for r in log]}


class BoardReportsMixin:
    """The round admin's views for the reports and the codes."""

    def get_urls(self) -> list[Any]:
        site = self.admin_site  # type: ignore[attr-defined]
        return [path("<int:pk>/confirm-agreed/", site.admin_view(self.confirm_agreed_view),
                     name="tournaments_round_confirm_agreed"),
                path("<int:pk>/codes/", site.admin_view(self.codes_view), name="tournaments_round_codes"),
                *super().get_urls()]  # type: ignore[misc]

    def _boards_round(self, request: HttpRequest, pk: int) -> Round:
        rnd = get_object_or_404(self.get_queryset(request).select_related("tournament"), pk=pk)  # type: ignore[attr-defined]
        if not self._allowed(request, rnd):  # type: ignore[attr-defined]
            raise PermissionDenied
        return rnd

    def confirm_agreed_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        rnd = self._boards_round(request, pk)
        run_service(request, lambda: confirm.round_confirm_agreed(round=rnd, user=request.user),
                    lambda done: ngettext("%(n)s board confirmed: %(boards)s.", "%(n)s boards confirmed: %(boards)s.",
                                          len(done)) % {"n": len(done), "boards": ", ".join(str(g.board) for g in done)}
                    if done else _("No board to confirm: none is agreed with moves that confirm it."),
                    refused=_("Nothing confirmed: %(why)s"))
        return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[rnd.pk]))

    def codes_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        rnd = self._boards_round(request, pk)
        t = rnd.tournament
        if request.method == "POST" and "issue" in request.POST:
            run_service(request, lambda: codes.codes_issue(tournament=t),
                        lambda n: ngettext("%(n)s code issued.", "%(n)s codes issued.", n) % {"n": n})
            return HttpResponseRedirect(request.path)
        if request.method == "POST" and "revoke" in request.POST:
            code = BoardCode.objects.filter(pk=request.POST.get("revoke"), entry__tournament=t,
                                            revoked_at__isnull=True).select_related("entry__player").first()
            if code is not None:
                run_service(request, lambda: codes.code_revoke(code=code),
                            _("The code of %(name)s is revoked; a new one is issued.") % {"name": code.entry})
            return HttpResponseRedirect(request.path)
        live = (BoardCode.objects.filter(entry__tournament=t, revoked_at__isnull=True)
                .select_related("entry__player").order_by("entry__pairing_number"))
        rows = []
        for code in live:
            path_ = reverse("tournaments:board_report", args=[t.slug, code.token])
            url = qr.absolute(path_, request) or request.build_absolute_uri(path_)
            rows.append({"code": code, "url": url,
                         "qr": qr.svg(url, label=_("QR code of %(name)s") % {"name": code.entry}, css_class="dm-qr")})
        missing = t.entries.count() - len(rows)
        context = {**self.admin_site.each_context(request), "round": rnd, "tournament": t,  # type: ignore[attr-defined]
                   "rows": rows, "missing": missing, "title": _("Players' codes for reporting results"),
                   "round_url": reverse("admin:tournaments_round_change", args=[rnd.pk])}
        response = render(request, "admin/tournaments/round/codes.html", context)
        response["Cache-Control"] = "no-store, private, max-age=0"
        return response
