"""The captain's line-up page: the team's code in the address, its line-up for the next round.

No account: the code is the key, so the page is never cached (no-store, private), never indexed, and
sends no Referer that would carry the code elsewhere, as the players' page does (tournaments.boards.views).
Wrong codes are counted per hashed address (captains.captain_check). The captain types his boards as the
arbiter does (a roster place number or the start of a name); the checks are the arbiter's, and the
arbiter sees the line-up on his line-up screen at once.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_protect

from config.http import client_ip
from rules.numbers import number_or_none
from tournaments.boards import codes
from tournaments.boards.views import _private
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Tournament

from . import captains, lineup_input

TEMPLATE = "tournaments/competitions/captain_lineup.html"


@csrf_protect
def captain_lineup(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    context: dict[str, Any] = {"tournament": tournament}
    try:
        team = captains.captain_check(tournament=tournament, token=token,
                                      hashed=codes.address_hash(client_ip(request) or ""))
    except codes.LockedOut as exc:
        context["refusal"] = str(exc)
        return _private(render(request, TEMPLATE, context, status=429))
    except codes.WrongCode as exc:
        context["refusal"] = str(exc)
        return _private(render(request, TEMPLATE, context, status=403))
    competition = team.competition
    match = captains.next_match(team)
    context.update(team=team, match=match, boards=range(1, competition.boards + 1))
    if match is None:
        context["closed"] = _("%(team)s has no line-up to give: every round it plays is published.") % {"team": team}
        return _private(render(request, TEMPLATE, context))
    side = captains.side_of(team, match)
    roster = lineup_input.roster_lines(team)
    status = 200
    errors: dict[int, str] = {}
    version = match.version
    if request.method == "POST":
        typed = lineup_input.typed_from(request.POST, "board", competition.boards)
        read = lineup_input.read(typed, roster)
        errors = read.errors
        posted_match = number_or_none(request.POST.get("match"))
        try:
            if posted_match != match.pk:
                raise StaleEditError(_("The next match changed since you opened the page: look at it again."))
            if errors:
                raise DomainError(" ".join(errors.values()))
            captains.captain_lineup_set(team=team, match=match, entries=read.entries,
                                        expected_version=number_or_none(request.POST.get("version")))
        except DomainError as exc:
            context["error"] = str(exc)
            status = 400
            version = number_or_none(request.POST.get("version")) or match.version
            if isinstance(exc, StaleEditError):
                version = type(match).objects.get(pk=match.pk).version
        else:
            # Post, then get: a reload sends nothing twice, and the page shows what is stored.
            return _private(HttpResponseRedirect(request.path + "?saved=1"))
    else:
        typed = lineup_input.stored_typed(list(match.boards.select_related("home_entry__player",
                                                                          "away_entry__player")),
                                          side, roster, competition.boards)
    names = lineup_input.names_of(typed, roster)
    context.update(
        side=side, roster=roster, version=version,
        roster_json=json.dumps([[line.position, line.name] for line in roster], ensure_ascii=False),
        saved=request.GET.get("saved") == "1" and status == 200,
        opponent=match.away if side == "home" else match.home,
        rows=[(n, typed[n - 1], names[n - 1], errors.get(n, "")) for n in range(1, competition.boards + 1)])
    return _private(render(request, TEMPLATE, context, status=status))

