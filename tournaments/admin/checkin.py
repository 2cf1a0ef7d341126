"""The arbiter's check-in screen, and what the control room says of the check-in.

The screen lists the players expected for the open round; its search field has the focus and finds a player
by pairing number or by name (accents and alphabets folded); Enter (or Space while the search is empty) marks
the highlighted player present, the same key again marks him absent; ↑ and ↓ move. Each mark posts what the
arbiter wants (present or not) and the round the screen was read for (tournaments/hall/checkin.py); the page
works without its script too, one button a player. The pairing's question (who did not check in: not paired
and 0 points, or paired anyway) is the page `question`, shown by the control room's "pair" step.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.conformance.policy import Code
from tournaments.hall import checkin
from tournaments.models import Tournament, search_key

TEMPLATE = "admin/tournaments/tournament/checkin.html"
ABSENT_CODES = [Code.ABSENT_NOT_PAIRED, Code.ABSENT_PAIRED]


def count_words(present: int, total: int) -> str:
    return ngettext("%(present)s of %(total)s present", "%(present)s of %(total)s present", total) % {
        "present": present, "total": total}


def control_room_lines(tournament: Tournament) -> dict[str, Any]:
    """The control room's check-in line ("37 of 40 present", the link) and the withdrawals it proposes."""
    if not tournament.checkin_enabled:
        return {}
    presence = checkin.presence(tournament)
    proposals = [(entry, rounds, reverse("admin:tournaments_entry_changelist") + "?" + urlencode(
        {"tournament__id__exact": tournament.pk, "q": entry.player.surname}))
        for entry, rounds in checkin.withdrawal_proposals(tournament)]
    return {"checkin_url": reverse("admin:tournaments_tournament_checkin", args=[tournament.pk]),
            "checkin_count": count_words(presence.present, presence.total) if presence else "",
            "checkin_round": presence.round if presence else None,
            "checkin_proposals": proposals}


def question(request: HttpRequest, context: dict[str, Any], exc: checkin.AbsenteesQuestion) -> HttpResponse:
    """The pairing's question: the players who did not check in, and what they get."""
    t = exc.tournament
    return render(request, "admin/tournaments/tournament/checkin_question.html", {
        **context, "title": _("Round %(n)s: players not checked in") % {"n": exc.number},
        "number": exc.number, "absentees": exc.absentees, "read_at": exc.read_at, "stale": exc.stale,
        "round_robin": t.is_round_robin, "not_paired": checkin.NOT_PAIRED, "paired": checkin.PAIRED,
        "checkin_url": reverse("admin:tournaments_tournament_checkin", args=[t.pk])})


def _rows(presence: checkin.Presence | None) -> list[dict[str, Any]]:
    if presence is None:
        return []
    return [{"id": line.entry.pk, "number": line.entry.pairing_number, "name": line.entry.player.full_name,
             "key": search_key(line.entry.player.full_name), "present": line.present,
             "by_player": line.by == "player"} for line in presence.lines]


class CheckInMixin:
    """Adds the check-in screen, its marks and its state (for the screen's own refresh) to TournamentAdmin."""

    admin_site: Any
    model: type[Tournament]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/checkin/", view(self.checkin_view), name="tournaments_tournament_checkin"),
            path("<int:pk>/checkin/mark/", view(self.checkin_mark_view), name="tournaments_tournament_checkin_mark"),
            path("<int:pk>/checkin/state/", view(self.checkin_state_view),
                 name="tournaments_tournament_checkin_state"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    def _checkin_tournament(self, request: HttpRequest, pk: int) -> Tournament:
        tournament: Tournament = get_object_or_404(self.get_queryset(request), pk=pk)  # type: ignore[attr-defined]
        if not self.has_change_permission(request, tournament):  # type: ignore[attr-defined]
            raise PermissionDenied(_("You are not an arbiter of %(tournament)s.") % {"tournament": tournament})
        return tournament

    def checkin_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._checkin_tournament(request, pk)
        here = reverse("admin:tournaments_tournament_checkin", args=[pk])
        if request.method == "POST":
            action, read = request.POST.get("action", ""), number_or_none(request.POST.get("round"))
            user = request.user
            if action == "open":
                run_service(request, lambda: checkin.checkin_open(tournament=tournament, user=user),
                            lambda t: _("Check-in is open for round %(n)s. The code to show in the hall: %(code)s.")
                            % {"n": t.checkin_round, "code": t.checkin_code})
            elif action == "close":
                run_service(request, lambda: checkin.checkin_close(tournament=tournament, user=user),
                            _("Check-in is closed; the marks are kept."))
            elif action == "all":
                run_service(request, lambda: checkin.checkin_all_present(tournament=tournament, expected_round=read,
                                                                         user=user),
                            lambda n: ngettext("%(n)s more player marked present.",
                                               "%(n)s more players marked present.", n) % {"n": n})
            elif action == "reset":
                run_service(request, lambda: checkin.checkin_reset(tournament=tournament, expected_round=read),
                            _("Nobody is marked present any more."))
            else:
                messages.error(request, _("Unknown step: nothing was done."))
            return HttpResponseRedirect(here)
        tournament.refresh_from_db()
        presence = checkin.presence(tournament)
        return render(request, TEMPLATE, {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "title": _("Check-in: %(tournament)s") % {"tournament": tournament},
            "presence": presence, "rows": _rows(presence), "next_round": checkin.next_round(tournament),
            "count": count_words(presence.present, presence.total) if presence else "",
            "control_url": reverse("admin:tournaments_tournament_control", args=[pk]),
            "mark_url": reverse("admin:tournaments_tournament_checkin_mark", args=[pk]),
            "state_url": reverse("admin:tournaments_tournament_checkin_state", args=[pk]),
            "settings_url": reverse("admin:tournaments_tournament_change", args=[pk]),
        })

    def checkin_mark_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """One player present or not. The screen's script posts it and reads JSON back; without the script the
        button posts the same and comes back to the screen."""
        tournament = self._checkin_tournament(request, pk)
        here = reverse("admin:tournaments_tournament_checkin", args=[pk])
        wants_json = request.headers.get("Accept", "").startswith("application/json")
        if request.method != "POST":
            return HttpResponseRedirect(here)
        entry_id, _sep, want = request.POST.get("mark", "").partition(":")
        entry, read = number_or_none(entry_id), number_or_none(request.POST.get("round"))
        if entry is None or want not in ("0", "1"):
            if wants_json:
                return JsonResponse({"error": _("Unknown step: nothing was done.")}, status=400)
            messages.error(request, _("Unknown step: nothing was done."))
            return HttpResponseRedirect(here)
        ran = run_service(request, lambda: checkin.checkin_mark(tournament=tournament, entry_id=entry,
                                                                present=want == "1", expected_round=read,
                                                                user=request.user))
        if not wants_json:
            return HttpResponseRedirect(here)
        if not ran:
            said = [str(m) for m in messages.get_messages(request)]
            return JsonResponse({"error": " ".join(said)}, status=409)
        return self._state(tournament)

    def checkin_state_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._state(self._checkin_tournament(request, pk))

    def _state(self, tournament: Tournament) -> JsonResponse:
        tournament.refresh_from_db()
        presence = checkin.presence(tournament)
        response = JsonResponse({
            "round": presence.round if presence else None,
            "present": [r["id"] for r in _rows(presence) if r["present"]],
            "count": count_words(presence.present, presence.total) if presence else "",
        })
        response["Cache-Control"] = "no-store"
        return response
