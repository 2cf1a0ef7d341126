"""The player's page: his code in the address, his board, three result buttons and the game if he has it.

No account: the code is the key, so the page is never cached anywhere (no-store, private), never indexed,
and sends no Referer that would carry the code to another site (same-origin). Wrong codes are counted per hashed
address (tournaments.boards.codes).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_protect

from config.http import client_ip
from tournaments.boards import codes, reports, words
from tournaments.errors import DomainError
from tournaments.models import Tournament

MAX_UPLOAD = 512 * 1024


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store, private, max-age=0"
    response["Pragma"] = "no-cache"
    # same-origin: the code never leaves in a Referer to another site, and the form's Origin stays readable
    # for the CSRF check (no-referrer would make a browser send "Origin: null")
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return -1  # a forged id that is no number is no board of this code


@csrf_protect
def report_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    hashed = codes.address_hash(client_ip(request) or "")
    context: dict[str, Any] = {"tournament": tournament, "section": "report", "results": [
        ("2-0", _("White wins")), ("1-1", _("Draw")), ("0-2", _("Black wins"))]}
    try:
        code = codes.code_check(tournament=tournament, token=token, hashed=hashed)
    except codes.LockedOut as exc:
        context["refusal"] = str(exc)
        return _private(render(request, "tournaments/boards/report.html", context, status=429))
    except codes.WrongCode as exc:
        context["refusal"] = str(exc)
        return _private(render(request, "tournaments/boards/report.html", context, status=403))
    entry = code.entry
    context["entry"] = entry
    try:
        game = reports.board_of(code)
    except DomainError as exc:
        context["closed"] = str(exc)
        return _private(render(request, "tournaments/boards/report.html", context))
    context.update(game=game, side="w" if game.white_id == entry.pk else "b")
    context["opponent"] = game.black if game.white_id == entry.pk else game.white
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("pdn")
        data = None
        if upload is not None:
            data = upload.read(MAX_UPLOAD + 1)
        sent = reports.Sent(result=request.POST.get("result", ""), moves=request.POST.get("moves", ""),
                            pdn=data, pdn_name=getattr(upload, "name", ""),
                            game_id=_int_or_none(request.POST.get("game")))
        try:
            if data is not None and len(data) > MAX_UPLOAD:
                raise DomainError(_("The file is larger than %(n)s kB: send the moves typed instead.")
                                  % {"n": MAX_UPLOAD // 1024})
            report = reports.report_submit(code=code, sent=sent, hashed=hashed, now=timezone.now())
        except DomainError as exc:
            context.update(error=str(exc), typed=sent.moves, chosen=sent.result)
            status = 400
        else:
            context["stored"] = report
            context["stored_result"] = words.result_words(report.result)
            context["stored_verdict"] = words.verdict_words(report.verdict or {}, report.result)
    return _private(render(request, "tournaments/boards/report.html", context, status=status))
