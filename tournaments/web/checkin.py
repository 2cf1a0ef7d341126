"""A player checks in from his phone: the form on his (cached, shared) player page posts here.

The player page is one page for every reader, kept in the caches: its form holds no state and no token, and
this answer is never cached, for the one who posted. No form token is needed (csrf_exempt): the post changes
nothing of the reader's own (no session, no cookie) and is worth nothing without the code shown in the hall;
wrong codes are counted per address and tournament and locked out as logins are (tournaments.hall.checkin).
"""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config.http import client_ip
from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.hall import checkin


# Outside a request-wide transaction: the service has its own, so the tournament's row it locks is not held
# while the answer renders (a hall of phones checking in waits on that row, one post after the other).
@transaction.non_atomic_requests
@csrf_exempt
@never_cache
@require_POST
def player_checkin(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = selectors.public_tournament(slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    status, done = 200, True
    try:
        checked = checkin.player_checkin(tournament=tournament, pairing_number=number,
                                       code=request.POST.get("code", "")[:40], client=client_ip(request) or "")
        said = _("%(player)s: you are checked in for round %(round)s. Thank you.") % {
            "player": checked.entry.player.full_name, "round": checked.round_number}
    except checkin.CodeLocked as exc:
        status, done, said = 429, False, str(exc)
    except DomainError as exc:
        status, done, said = 400, False, str(exc)
    return render(request, "tournaments/checkin_answer.html", {
        "tournament": tournament, "section": "tournament", "number": number, "said": said, "done": done}, status=status)
