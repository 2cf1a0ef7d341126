"""The tournament admin's side of the conformance mode: the settings changed under way
and the forbidden pairs asked through the confirmation piece (confirm.py), the re-check said, the events
listed read-only on the tournament's page and its history, the permanent mark, leaving the mode on purpose."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.admin import confirm, warnings
from tournaments.admin.base import ScopedInline, run_service
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.conformance.words import describe, left_mode_text, level_name
from tournaments.models import ConformanceEvent, ForbiddenPair, Tournament
from tournaments.rounds import under_way
from tournaments.rounds.pairing_bridge import violation_words


def ask_settings(form: forms.ModelForm, cleaned: dict[str, Any]) -> None:
    """In the tournament form's clean(): a watched setting changed once a round is paired asks its level-4
    confirmation. (A change of system is refused by tournaments.rounds.settings_rules, with its own words.)"""
    stored = form.instance
    if stored.pk is None:
        return
    new = copy.copy(stored)
    for name in ("system", *under_way.WATCHED):
        if name in cleaned:
            setattr(new, name, cleaned[name])
    warnings = [w for w in under_way.setting_warnings(stored, new) if w.code is not Code.SYSTEM_CHANGED]
    confirm.ask(form, warnings)


class ForbiddenPairFormSet(BaseInlineFormSet):
    """After round 1 each added, changed or removed pair asks its level-4 confirmation, values kept."""

    def clean(self) -> None:
        super().clean()
        if self.instance is None or self.instance.pk is None or any(self.errors):
            return
        changes = under_way.pair_changes(under_way.stored_pairs(self.instance), self.kept(), self.removed())
        confirm.ask(self, under_way.forbidden_pair_warnings(self.instance, changes))

    def kept(self) -> list[tuple[int | None, Any, Any]]:
        out = []
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if not data or data.get("DELETE") or not form.has_changed():
                continue
            if data.get("first") is not None and data.get("second") is not None:
                out.append((form.instance.pk, data["first"], data["second"]))
        return out

    def removed(self) -> list[int]:
        return [f.instance.pk for f in self.forms
                if f.instance.pk and (getattr(f, "cleaned_data", None) or {}).get("DELETE")]


class ConformanceEventInline(ScopedInline):
    """The events of the tournament, read-only: what happened, at which round, its level, who confirmed it."""

    model = ConformanceEvent
    template = "admin/tournaments/tournament/conformance_events.html"
    extra = 0
    can_delete = False
    fields = ("round_number", "what", "level_words", "details", "created_at", "created_by")
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("conformance events (warnings confirmed)")

    @admin.display(description=gettext_lazy("what happened"))
    def what(self, obj: ConformanceEvent) -> str:
        return describe(obj)

    @admin.display(description=gettext_lazy("warning level"))
    def level_words(self, obj: ConformanceEvent) -> str:
        return f"{obj.level} – {level_name(obj.level)}"

    @admin.display(description=gettext_lazy("details"))
    def details(self, obj: ConformanceEvent) -> str:
        return " ".join(f"{k}={events._trf_value(v)}" for k, v in sorted(obj.values.items()))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def mark(tournament: Tournament | None) -> str:
    """The permanent mark of a tournament out of the mode, or ''."""
    if tournament is None or tournament.conformance_left_round is None:
        return ""
    return left_mode_text(tournament.conformance_left_round)


def say_recheck(request: HttpRequest, tournament: Tournament, outcome: under_way.SaveOutcome) -> None:
    """What the re-check of the paired rounds found, after a confirmed change."""
    check = outcome.recheck
    if check is None:
        return
    for event in outcome.recorded:
        messages.warning(request, _("Recorded: %(what)s") % {"what": describe(event)})
    if not check.rounds:
        return
    for number, violations in sorted(check.broken.items()):
        messages.error(request, format_html("{}<ul>{}</ul>", _(
            "Re-check with the new settings: round %(round)s now breaks these absolute criteria:")
            % {"round": number}, format_html_join("", "<li>{}</li>", ((w,) for w in
                                                                     violation_words(tournament, violations)))))
    if check.differs:
        messages.warning(request, _("Re-check with the new settings: the engine would now pair round(s) "
                                    "%(rounds)s differently; their pairing stands.")
                         % {"rounds": ", ".join(map(str, check.differs))})
    for number, why in sorted(check.unchecked.items()):
        messages.warning(request, _("Re-check of round %(round)s not possible: %(why)s") % {"round": number,
                                                                                          "why": why})
    if not check.broken and not check.differs and not check.unchecked:
        messages.info(request, _("Re-check with the new settings of round(s) %(rounds)s: nothing became wrong.")
                      % {"rounds": ", ".join(map(str, check.rounds))})


class ConformanceAdminMixin:
    """Mixed into TournamentAdmin before the admin base: the change form's saves go through the services."""

    admin_site: Any
    object_history_template = "admin/tournaments/tournament/object_history.html"

    def get_urls(self) -> list[Any]:
        return [path("<int:pk>/leave-conformance/", self.admin_site.admin_view(self.leave_view),
                     name="tournaments_tournament_leave_conformance"), *super().get_urls()]  # type: ignore[misc]

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)  # type: ignore[misc]
            return
        outcome = under_way.tournament_save(tournament=obj, confirmed=confirm.confirmed_codes(request.POST),
                                            user=request.user)
        say_recheck(request, obj, outcome)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> Any:
        if formset.model is not ForbiddenPair:
            return super().save_formset(request, form, formset, change)  # type: ignore[misc]
        save = formset.save(commit=False)
        outcome = under_way.forbidden_pairs_save(tournament=form.instance, save=save,
                                                 delete=list(formset.deleted_objects),
                                                 confirmed=confirm.confirmed_codes(request.POST), user=request.user)
        say_recheck(request, form.instance, outcome)
        return None

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], add: bool = False,
                           change: bool = False, form_url: str = "", obj: Any = None) -> Any:
        formsets = [f.formset for f in context.get("inline_admin_formsets", [])]
        form = getattr(context.get("adminform"), "form", None)
        # The warnings waiting for a confirmation and the setup's notices: one screen at the top of the form.
        shown = confirm.pending(form, *formsets) + (under_way.setup_notices(obj) if obj is not None else [])
        context["confirmation_block"] = warnings.block(request, shown, ticked=confirm.confirmed_codes(
            request.POST) if request.method == "POST" else ())
        context["conformance_mark"] = mark(obj)
        return super().render_change_form(request, context, add, change, form_url, obj)  # type: ignore[misc]

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        obj = self.get_object(request, object_id)  # type: ignore[attr-defined]
        extra = {**(extra_context or {}), "conformance_mark": mark(obj),
                 "conformance_events": [(e, describe(e), level_name(e.level)) for e in
                                        obj.conformance_events.select_related("created_by")] if obj else []}
        return super().history_view(request, object_id, extra)  # type: ignore[misc]

    def leave_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        change = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
        if not tournament.in_conformance:
            messages.info(request, mark(tournament))
            return HttpResponseRedirect(change)
        if request.method == "POST" and confirm.confirmed_codes(request.POST):
            if run_service(request, lambda: under_way.conformance_leave(
                    tournament=tournament, confirmed=confirm.confirmed_codes(request.POST), user=request.user),
                    refused=_("Nothing was done: %(why)s")):
                tournament.refresh_from_db()
                messages.warning(request, mark(tournament))
            return HttpResponseRedirect(change)
        response = confirm.ask_confirmation(
            request, under_way.leave_warnings(tournament), keep={},
            title=_("Leave the conformance mode: %(tournament)s") % {"tournament": tournament},
            button=_("Leave the conformance mode"), cancel_url=change,
            context={**self.admin_site.each_context(request), "opts": Tournament._meta})
        if request.method == "POST":
            messages.error(request, _("Tick the confirmation to leave the conformance mode; nothing was done."))
        return response

    @admin.action(description=gettext_lazy("Leave the conformance mode (level 4: for good)"))
    def leave_conformance_mode(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        self.check_objects(request, queryset)  # type: ignore[attr-defined]
        if queryset.count() != 1:
            messages.error(request, _("Select one tournament."))
            return None
        return HttpResponseRedirect(reverse("admin:tournaments_tournament_leave_conformance",
                                            args=[queryset.get().pk]))

