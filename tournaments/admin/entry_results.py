"""Entry actions: expel a player (competition rules 2.6) and grant a requested bye worth
0, 1 or 2 points; each asks the checklist's confirmations on its own page, keeping what was typed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin import warnings
from tournaments.admin.base import run_service
from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.models import Entry, RoundStatus
from tournaments.players import roster
from tournaments.players.expulsion import results_kept
from tournaments.players.requested_byes import bye_request


class ExpelForm(forms.Form):
    after_round = forms.IntegerField(min_value=0, label=_("Expelled after round"))


class ByeForm(forms.Form):
    round_number = forms.IntegerField(min_value=1, label=_("Round"))
    points = forms.TypedChoiceField(
        label=_("Worth"), coerce=int,
        choices=[(0, _("0 (a zero-point bye)")), (1, _("1 (a draw)")), (2, _("2 (a win)"))])


def _page(admin_obj: Any, request: HttpRequest, queryset: QuerySet[Entry], *, form: forms.Form, action: str,
          title: Any, intro: str, button: Any, to_confirm: str = "") -> HttpResponse:
    context = {**admin_obj.admin_site.each_context(request), "form": form, "entries": queryset,
               "opts": admin_obj.model._meta, "title": title, "action": action, "intro": intro, "button": button,
               "to_confirm": to_confirm, "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
    return render(request, "admin/tournaments/entry/results_action.html", context)


def _last_round(queryset: QuerySet[Entry]) -> int:
    return max((r for t in {e.tournament for e in queryset} for r in t.rounds.values_list("number", flat=True)),
               default=0)


@admin.action(description=_("Expel the player (competition rules 2.6)"))
def expel(admin_obj: Any, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
    admin_obj.check_objects(request, queryset)
    form = ExpelForm(request.POST if "apply" in request.POST else None,
                     initial={"after_round": _last_round(queryset)})
    if form.is_valid():
        n = form.cleaned_data["after_round"]
        for entry in queryset.select_related("player"):
            done = run_service(request, lambda e=entry: roster.entry_expel(entry=e, after_round=n,
                                                                             user=request.user),
                               gettext("%(player)s expelled after round %(round)s: no longer paired, left out of the "
                                       "standings; his games count for his opponents.")
                               % {"player": entry.player, "round": n})
            kept = results_kept(Entry.objects.get(pk=entry.pk)) if done else []
            if kept:
                messages.warning(request, gettext(
                    "%(player)s: his results of rounds %(rounds)s stand; an expulsion changes no result already "
                    "given. If one is wrong, correct it on its round's page (with a reason; the checklist's "
                    "warning applies).") % {"player": entry.player, "rounds": ", ".join(map(str, kept))})
        return None
    return _page(admin_obj, request, queryset, form=form, action="expel", title=_("Expel players"),
                 intro=gettext("Competition rules 2.6: a player who refuses the rules or the arbiter is expelled. "
                               "He is no longer paired and is left out of the standings; the games he played "
                               "still count for his opponents. His games of later rounds that have no result yet "
                               "become not played; a result already given stands."), button=_("Expel"))


@admin.action(description=_("Grant a requested bye (0, 1 or 2 points)"))
def grant_bye(admin_obj: Any, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
    admin_obj.check_objects(request, queryset)
    form = ByeForm(request.POST if "apply" in request.POST else None,
                   initial={"round_number": _last_round(queryset) + 1, "points": 0})
    to_confirm = ""
    if form.is_valid():
        n, points = form.cleaned_data["round_number"], form.cleaned_data["points"]
        confirmed = request.POST.getlist("confirm")
        try:
            with transaction.atomic():  # all the selected players or none
                done = [bye_request(entry=e, round_number=n, points=points, confirmed=confirmed, user=request.user)
                        for e in queryset.select_related("player", "tournament")]
        except events.NeedsConfirmation as exc:
            to_confirm = warnings.block(request, exc.warnings, field="confirm")
        except DomainError as exc:
            form.add_error(None, str(exc))
        else:
            for entry in done:
                messages.success(request, gettext("%(player)s: requested bye in round %(round)s, worth %(points)s.")
                                 % {"player": entry.player, "round": n, "points": points})
            if points == 2:
                messages.warning(request, gettext("A bye worth a win is not described by the competition rules: "
                                                  "keep it exceptional. It is recorded in the TRF."))
            if any(e.tournament.rounds.filter(number=n, status=RoundStatus.DRAFT).exists() for e in done):
                messages.warning(request, gettext("Round %(n)s was paired as a draft before this change: pair it "
                                                  "again (control room) so the pairing takes it in.") % {"n": n})
            return None
    return _page(admin_obj, request, queryset, form=form, action="grant_bye", title=_("Grant a requested bye"),
                 intro=gettext("A round the player asked to sit out: worth 0, or, as the regulations allow, a draw (1) "
                               "or a win (2). The pairing leaves him out of that round."),
                 button=_("Grant the bye"), to_confirm=to_confirm)
