"""Tournaments with their entries and forbidden pairs; pairing, numbering and export actions."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.numbers import number_or_none
from tournaments import ratings, selectors
from tournaments.admin.base import ArbiterScopedAdmin, SafeAutocompleteMixin, ScopedInline, run_service
from tournaments.admin.byes import ByeGridMixin
from tournaments.admin.checkin import CheckInMixin
from tournaments.admin.conformance import (
    ConformanceAdminMixin,
    ConformanceEventInline,
    ForbiddenPairFormSet,
    ask_settings,
)
from tournaments.admin.control import ControlRoomMixin, team_refusal
from tournaments.admin.enter_players import EnterPlayersMixin
from tournaments.admin.entries import EntryInlineForm, explain_inline_locks
from tournaments.admin.final_ties import ties_context
from tournaments.admin.longevents import FIELDSET as RATING_FIELDSET
from tournaments.admin.longevents import LongEventAdminMixin, LongEventFormMixin
from tournaments.admin.numbering import NumbersMixin
from tournaments.admin.round_schedule import ScheduleInline, ScheduleMixin
from tournaments.admin.sheets import (
    TournamentSheetsMixin,
)
from tournaments.admin.team_cup import TeamCupMixin
from tournaments.admin.team_lineups import TeamRoundsMixin
from tournaments.admin.tiebreak_field import CUSTOM, SLOTS, STANDARD, TiebreakField
from tournaments.admin.trf_import import import_trf_view
from tournaments.locks import check_entry_delete
from tournaments.models import Entry, ForbiddenPair, System, Tournament
from tournaments.permissions import can_choose_arbiters
from tournaments.players import period_ratings, rating_lists, roster
from tournaments.players.numbering import is_late
from tournaments.ranking import progress
from tournaments.rounds import pairing_bridge, services, settings_rules
from tournaments.standings import PRESETS, default_preset
from tournaments.words import preset_label


class EntryInline(SafeAutocompleteMixin, ScopedInline):
    model = Entry
    form = EntryInlineForm  # once paired, numbers and played players are read-only, with the reason
    extra = 0
    fields = ("pairing_number", "player", "title", "federation", "rating", "status", "withdrawn_after_round", "story")
    readonly_fields = ("title", "federation", "rating", "status", "withdrawn_after_round", "story")
    autocomplete_fields = ("player",)
    ordering = ("pairing_number",)

    # What the arbiter checks an entry against: the player's title and federation, and the rating the
    # tournament reads from the entry (kept at entry, tournaments/ratings.py).
    @admin.display(description=_("title"))
    def title(self, obj: Entry) -> str:
        return obj.title if obj.pk else ""  # the title the entry keeps from its list

    @admin.display(description=_("federation"))
    def federation(self, obj: Entry) -> str:
        return obj.player.federation if obj.pk else ""

    @admin.display(description=_("story"))
    def story(self, obj: Entry) -> str:
        if not obj.pk:
            return ""
        return format_html('<a href="{}">{}</a>', reverse("admin:tournaments_entry_story", args=[obj.pk]),
                           gettext("story"))

    @admin.display(description=_("rating"))
    def rating(self, obj: Entry) -> str:
        value = ratings.tournament_rating(obj, obj.tournament.rating_method) if obj.pk else None
        return "" if value is None else str(value)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("player", "tournament")

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        return explain_inline_locks(super().get_formset(request, obj, **kwargs), obj)


class ForbiddenPairInline(ScopedInline):
    model = ForbiddenPair
    formset = ForbiddenPairFormSet  # after round 1, each change asks its level-4 confirmation
    extra = 0
    fields = ("first", "second", "reason")
    verbose_name_plural = _("forbidden pairs (Swiss: never paired together)")

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        entries = obj.entries.select_related("player") if obj is not None else Entry.objects.none()
        for name in ("first", "second"):
            formset.form.base_fields[name].queryset = entries
        return formset


class TournamentForm(LongEventFormMixin, forms.ModelForm):
    """The tie-breaks are chosen by name: a preset, or an order composed from the registry. A
    new tournament, and one without tie-breaks, is offered its system's standard preset."""

    tiebreaks = TiebreakField(label=_("Tie-breaks"))

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._offer_lists()
        system = self.fields.get("system")
        if system is not None and self.instance.is_team:
            # A team competition's system is its own: its rounds are matches, never paired.
            system.disabled = True
        elif system is not None:
            # A team tournament is made with its competition (the team competitions' page), never here.
            system.choices = [c for c in system.choices if c[0] != System.TEAM]  # type: ignore[attr-defined]
            system.help_text = _("A team competition is made with its rules on the page “Team competitions”.")
        current = self.instance.tiebreaks if isinstance(self.instance.tiebreaks, list) else []
        if len(current) > SLOTS:
            self.fields["tiebreaks"] = TiebreakField(slots=len(current), label=_("Tie-breaks"))
        if self.instance.pk and not current and self.instance.rounds.exists():
            self.fields["tiebreaks"].help_text = _(
                "This tournament has no tie-breaks: players equal on points share their place. A round is "
                "paired, so a tie-break order now takes the tournament out of the conformance mode; choose a "
                "preset by its name to apply one.")
        elif self.instance.pk and not current:
            self.fields["tiebreaks"].help_text = _(
                "This tournament has no tie-breaks yet: players equal on points share their place. The "
                "standard preset of its system is offered; save to apply it.")
        else:
            self.fields["tiebreaks"].help_text = _(
                "The standard preset: FMJD Swiss on rating for a Swiss paired by rating, FMJD Swiss on "
                "Solkoff for a Swiss paired by standing, FMJD round robin for a round robin.")

    def _offer_lists(self) -> None:
        """Each kind's lists newest first, named by source, date and size; a tournament that has chosen none
        before round 1 is offered the list valid at its start (the latest on or before it, VCL4THP Q137)."""
        paired = self.instance.pk is not None and self.instance.rounds.exists()
        for kind, name in rating_lists.LIST_FIELD.items():
            field = self.fields.get(name)
            if field is None:  # read-only: round 1 is paired
                continue
            field.queryset = rating_lists.lists_offered(kind)  # type: ignore[attr-defined]
            field.label_from_instance = rating_lists.list_label  # type: ignore[attr-defined]
            if not paired and getattr(self.instance, f"{name}_id") is None and not self.is_bound:
                default = rating_lists.list_valid_at(kind, self.instance.start_date or datetime.date.today())
                if default is not None:
                    self.initial[name] = default.pk

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        choice = cleaned.get("tiebreaks")
        if not isinstance(choice, dict):
            ask_settings(self, cleaned)
            return cleaned
        order = [name for name in choice["order"] if name]
        if choice["preset"] == CUSTOM:
            if len(set(order)) != len(order):
                self.add_error("tiebreaks", _("A tie-break is chosen twice in the custom order."))
                return cleaned
            cleaned["tiebreaks"] = order
            ask_settings(self, cleaned)
            return cleaned
        if (choice["preset"] == STANDARD and not order and self.instance.pk and not self.instance.tiebreaks
                and self.instance.rounds.exists()):
            # Offered, not chosen: once a round is paired, saving the page for another reason must not change
            # the ranking (a level-4 breach). The arbiter who wants a preset picks it by its name.
            cleaned["tiebreaks"] = []
            ask_settings(self, cleaned)
            return cleaned
        if choice["preset"] == STANDARD:
            preset = default_preset(cleaned.get("system") or self.instance.system,
                                    cleaned.get("swiss_order") or self.instance.swiss_order)
        else:
            preset = PRESETS[choice["preset"]]
        shown = self.fields["tiebreaks"].widget.decompress(self.initial.get("tiebreaks") or [])[1:]
        if choice["order"] != shown and order != list(preset.tiebreaks):
            # The arbiter changed the order menus but left a preset chosen: keep what he typed and ask.
            self.add_error("tiebreaks", _(
                "You changed the custom order but the preset menu says “%(preset)s”: choose “Custom: the "
                "order below” to use your order, or choose a preset and leave the order as it was.")
                % {"preset": preset_label(preset) if choice["preset"] != STANDARD
                   else _("The standard preset of the system chosen above")})
            return cleaned
        cleaned["tiebreaks"] = list(preset.tiebreaks)
        ask_settings(self, cleaned)
        return cleaned

    def _post_clean(self) -> None:
        # The model checks each value; what the stored row and its rounds refuse is the settings' rules.
        super()._post_clean()
        if refusals := settings_rules.settings_refusals(self.instance):
            self._update_errors(ValidationError(refusals))


@admin.register(Tournament)
class TournamentAdmin(EnterPlayersMixin, ByeGridMixin, NumbersMixin, LongEventAdminMixin, ConformanceAdminMixin,
                      ScheduleMixin, TeamRoundsMixin, TeamCupMixin, ControlRoomMixin, CheckInMixin,
                      TournamentSheetsMixin, ArbiterScopedAdmin):
    # LongEventAdminMixin before ConformanceAdminMixin: its save_model adds the long-event notices after
    # the conformance save (which does not call further up for a change).
    form = TournamentForm
    # The change page leads to the control room, where the day is run.
    change_form_template = "admin/tournaments/tournament/change_form.html"
    tournament_lookup = ""  # the rows are the tournaments themselves
    list_display = ("name", "control_room", "system", "start_date", "venue", "public", "entry_count", "round_count",
                    "links")
    list_filter = ("system", "public")
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("deputy_arbiters",)
    inlines = [EntryInline, ScheduleInline, ForbiddenPairInline, ConformanceEventInline]
    actions = ["pair_next_round", "number_by_rating", "export_trf", "export_json", "leave_conformance_mode"]
    fieldsets = (
        (None, {"fields": ("name", "slug", "venue", ("start_date", "end_date"), "public", "pdf_language")}),
        (_("System"), {"fields": ("system", "rounds_total", "time_control", "bye_points", "tiebreaks",
                                  "tiebreak_convention", "swiss_order", "first_colour")}),
        # The rating the tournament reads, equal ratings, a double round robin's order.
        (_("Ratings and pairing numbers"), {"fields": ("fmjd_list", "national_list", "rating_method", "tie_order",
                                                       "rr_reverse_last_two")}),
        RATING_FIELDSET,
        (_("Arbiters"), {"fields": ("chief_arbiter", "deputy_arbiters")}),
        (_("The playing hall"), {"fields": ("checkin_enabled",)}),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).annotate(
            n_entries=Count("entries", distinct=True), n_rounds=Count("rounds", distinct=True)
        )

    @admin.display(description=_("players"), ordering="n_entries")
    def entry_count(self, obj: Tournament) -> int:
        return getattr(obj, "n_entries", 0)

    @admin.display(description=_("rounds"), ordering="n_rounds")
    def round_count(self, obj: Tournament) -> int:
        return getattr(obj, "n_rounds", 0)

    @admin.display(description=_("control room"))
    def control_room(self, obj: Tournament) -> str:
        return format_html('<a class="damier-control-link" href="{}">{}</a>',
                           reverse("admin:tournaments_tournament_control", args=[obj.pk]), _("Run the rounds"))

    @admin.display(description=_("pages"))
    def links(self, obj: Tournament) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("admin:tournaments_tournament_standings", args=[obj.pk]), _("standings"),
            reverse("admin:tournaments_round_changelist") + f"?tournament__id__exact={obj.pk}", _("rounds"),
            reverse("tournaments:tournament", args=[obj.slug]), _("public page"),
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_readonly_fields(request, obj)
        if obj is not None and obj.rounds.exists():
            # Chosen before round 1; a later list is compared on the pairing-numbers page.
            fields = (*fields, "fmjd_list", "national_list")
        if obj is not None and not can_choose_arbiters(request.user, obj):
            return (*fields, "chief_arbiter", "deputy_arbiters")
        return fields

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.chief_arbiter_id is None and not request.user.is_superuser:
            obj.chief_arbiter = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)  # ConformanceAdminMixin: through the services

    def get_urls(self) -> list[Any]:
        return [
            path("<int:pk>/standings/", self.admin_site.admin_view(self.standings_view),
                 name="tournaments_tournament_standings"),
            path("import-trf/", self.admin_site.admin_view(lambda request: import_trf_view(self, request)),
                 name="tournaments_tournament_import_trf"),
            *super().get_urls(),
        ]

    def standings_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = get_object_or_404(self.get_queryset(request), pk=pk)
        rounds = list(selectors.tournament_rounds(tournament))
        after_round = number_or_none(request.GET.get("round"))
        ties = ties_context(request, tournament)  # the final standings' ties (lots, order by hand)
        rows = selectors.standings(tournament, after_round=after_round)
        heading = progress.heading("standings", progress.shown_round(selectors.tournament_data(tournament).games,
                                                                     after_round))
        context = {**self.admin_site.each_context(request), "tournament": tournament, "rows": rows, **ties,
                   "heading": heading,
                   "rounds": rounds, "after_round": after_round, "opts": self.model._meta,
                   "tiebreak_names": list(tournament.tiebreaks), "rating_note": period_ratings.note(tournament),
                   "title": f"{tournament} – {_('standings')}"}
        return render(request, "admin/tournaments/tournament/standings.html", context)

    @admin.action(description=_("Pair the next round"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.check_objects(request, queryset)
        for t in queryset:
            run_service(request, lambda t=t: services.round_pair(tournament=t), format_html(
                _("{tournament}: next round paired (draft): look at it and publish it in the {link}."), tournament=t,
                link=format_html('<a href="{}">{}</a>', reverse("admin:tournaments_tournament_control", args=[t.pk]),
                                 _("control room"))))

    @admin.action(description=_("Export to TRF (Swiss: cross-check with bbpPairings or JaVaFo)"))
    def export_trf(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        self.check_objects(request, queryset)
        if queryset.count() != 1:
            messages.error(request, _("Select one tournament to export."))
            return None
        tournament = queryset.get()
        # No final file while a postponed game is open: said on the page.
        text = run_service(request, lambda: pairing_bridge.export_trf(tournament)).value
        if text is None:
            return None
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.trf"'
        return response

    @admin.action(description=_("Export everything (JSON, for import_tournament)"))
    def export_json(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        from tournaments.exchange.transfer import dumps, export_tournament

        self.check_objects(request, queryset)
        if queryset.count() != 1:
            messages.error(request, _("Select one tournament to export."))
            return None
        tournament = queryset.get()
        text = run_service(request, lambda: dumps(export_tournament(tournament))).value
        if text is None:
            return None  # refused in words (a team competition's tournament)
        response = HttpResponse(text, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response

    @admin.action(description=_("Number the players by rating"))
    def number_by_rating(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.check_objects(request, queryset)
        for t in queryset:
            if t.is_team:
                messages.error(request, team_refusal(t))
                continue
            run_service(request, lambda t=t: roster.entries_number_by_rating(tournament=t),
                        gettext("%(tournament)s: pairing numbers set by rating.") % {"tournament": t})

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Entry:
            return super().save_formset(request, form, formset, change)
        instances = formset.save(commit=False)
        for obj in formset.deleted_objects:
            check_entry_delete(obj)  # under the tournament's lock: round 1 may have been paired meanwhile
            obj.delete()
        for entry in instances:
            if entry.pk is None:
                late = is_late(form.instance)
                saved = roster.entry_add(tournament=form.instance, player=entry.player,
                                         pairing_number=entry.pairing_number, user=request.user)
                if late:  # said at once: the next entry of this list may move the numbers again
                    messages.warning(request, roster.late_entry_message(saved))
            else:
                entry.save()
        return None
