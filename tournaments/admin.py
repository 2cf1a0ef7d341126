"""The arbiter's workplace. Declarative ModelAdmins; every write goes through tournaments.services.

Who may do what: superusers everything; a staff user may create a tournament (becoming its chief
arbiter) and changes only the tournaments where he is chief or deputy arbiter: every queryset,
object permission and action below is scoped by `tournament_of`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from tournaments import player_import, selectors, services, swiss
from tournaments.errors import DomainError
from tournaments.models import Entry, ForbiddenPair, Game, GameSheet, Player, Round, RoundStatus, Tournament
from tournaments.permissions import can_change_player, managed_tournaments, tournament_of
from tournaments.player_import import players_import_csv
from tournaments.sheet_admin import (
    GameSheetsMixin,
    RoundSheetsMixin,
    TournamentSheetsMixin,
)

admin.site.site_header = _("Damier – tournament arbitration")
admin.site.site_title = _("Damier arbitration")
admin.site.index_title = _("Tournaments, rounds and results")


def is_arbiter(user: Any) -> bool:
    return bool(user.is_active and user.is_staff)


def run_service(request: HttpRequest, func: Callable[[], object], success: str) -> bool:
    """Run one service call; a DomainError becomes an error message and nothing is written."""
    try:
        with transaction.atomic():
            func()
    except DomainError as exc:
        messages.error(request, str(exc))
        return False
    messages.success(request, success)
    return True


class ArbiterScopedAdmin(SimpleHistoryAdmin):
    """Object-level permissions: an arbiter sees and changes his own tournaments only."""

    tournament_lookup = "tournament"

    def scope(self, qs: QuerySet[Any], user: Any) -> QuerySet[Any]:
        if user.is_superuser:
            return qs
        p = self.tournament_lookup
        return qs.filter(Q(**{f"{p}__chief_arbiter": user}) | Q(**{f"{p}__deputy_arbiters": user})).distinct()

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.scope(super().get_queryset(request), request.user)

    def _allowed(self, request: HttpRequest, obj: object | None) -> bool:
        user = request.user
        if user.is_superuser:
            return True
        if not is_arbiter(user):
            return False
        tournament = tournament_of(obj) if obj is not None else None
        return obj is None or (tournament is not None and tournament.is_arbiter(user))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_arbiter(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        try:
            with transaction.atomic():
                return super().changeform_view(request, object_id, form_url, extra_context)
        except DomainError as exc:
            messages.error(request, f"Nothing saved: {exc}")
            return HttpResponseRedirect(request.get_full_path())

    def check_objects(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            if not self._allowed(request, obj):
                raise PermissionDenied(f"You are not an arbiter of {tournament_of(obj)}.")

    def history_form_view(self, request: HttpRequest, object_id: str, version_id: str,
                          extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # simple_history saves this form on POST even with reverts disabled: that would write
        # around the services, so an old version can be looked at, never saved back.
        if request.method == "POST":
            raise PermissionDenied("History is read-only: enter the change on the object's own page.")
        return super().history_form_view(request, object_id, version_id, extra_context)


class ScopedInline(admin.TabularInline):
    """Inlines follow their parent's object-level permission, not Django's model permissions."""

    def _allowed(self, request: HttpRequest, obj: object | None) -> bool:
        if request.user.is_superuser:
            return True
        tournament = tournament_of(obj) if obj is not None else None
        return is_arbiter(request.user) and (obj is None or (tournament is not None
                                                              and tournament.is_arbiter(request.user)))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)


def report_messages(request: HttpRequest, rnd: Round, report: Any) -> None:
    """The checker's verdict on a round, as admin messages: violations are errors, differences warnings."""
    for v in report.violations:
        messages.error(request, f"{rnd}: {v.criterion}: {v.detail}.")
    if report.differs:
        ours = ", ".join(f"{w}-{b if b is not None else 'bye'}" for w, b in report.only_proposed)
        engine = ", ".join(f"{w}-{b if b is not None else 'bye'}" for w, b in report.only_engine)
        messages.warning(request, f"{rnd}: differs from the engine's pairing (this round: {ours}; engine: {engine}).")
    if report.ok and not report.differs:
        messages.success(request, f"{rnd}: the pairing meets every absolute criterion and is the engine's own.")
    elif report.ok:
        messages.info(request, f"{rnd}: no absolute criterion is broken.")


# --- Players ---------------------------------------------------------------------------------


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.none(), required=False, label=_("Also enter them in"),
    )


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ("surname", "given_name", "title", "federation", "rating", "fmjd_id", "club", "birth_year")
    list_filter = ("title", "federation")
    search_fields = ("surname", "given_name", "fmjd_id", "club")
    change_list_template = "admin/tournaments/player/change_list.html"

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_arbiter(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_change_player(request.user, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def get_urls(self) -> list[Any]:
        return [
            path("import-csv/", self.admin_site.admin_view(self.import_csv_view), name="tournaments_player_import"),
            *super().get_urls(),
        ]

    def _foreign_players(self, request: HttpRequest) -> dict[int, tuple[Any, ...]]:
        """Players entered in a tournament this arbiter does not arbitrate, as they are now."""
        if request.user.is_superuser:
            return {}
        foreign = Entry.objects.exclude(tournament__in=managed_tournaments(request.user))
        fields = [f.attname for f in Player._meta.concrete_fields]
        return {row[0]: row for row in Player.objects.filter(entries__in=foreign).distinct().values_list(*fields)}

    def _check_foreign_players(self, request: HttpRequest, before: dict[int, tuple[Any, ...]]) -> None:
        """A rating list may update only players this arbiter may change; else the whole import is undone."""
        after = self._foreign_players(request)
        refused = sorted(str(Player.objects.get(pk=pk)) for pk, row in before.items() if after.get(pk) != row)
        if refused:
            raise DomainError(f"Nothing imported: {', '.join(refused)} also play in tournaments you are not an "
                              f"arbiter of; ask their arbiter or an administrator to update them.")

    def import_csv_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = CsvImportForm(request.POST or None, request.FILES or None)
        form.fields["tournament"].queryset = selectors.tournaments_for_arbiter(request.user)  # type: ignore[attr-defined]
        report = None
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                with transaction.atomic():
                    before = self._foreign_players(request)
                    # Never more than the limit in memory: one byte over is enough for the refusal.
                    report = players_import_csv(data=upload.read(player_import.MAX_BYTES + 1), source=upload.name,
                                                tournament=form.cleaned_data["tournament"])
                    self._check_foreign_players(request, before)
            except DomainError as exc:
                report = None
                messages.error(request, str(exc))
            else:
                if report.ok:
                    messages.success(request, f"{len(report.lines)} player line(s) imported from {upload.name}.")
                else:
                    messages.error(request, f"Nothing imported from {upload.name}: "
                                            f"{len(report.errors)} bad line(s), listed below.")
        context = {**self.admin_site.each_context(request), "form": form, "report": report,
                   "opts": self.model._meta, "title": _("Import players from CSV")}
        return render(request, "admin/tournaments/player/import_csv.html", context)


# --- Tournaments -----------------------------------------------------------------------------


class SafeAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete widget filters the posted value as an id when it redraws a refused form:
    a value that is not a number would be a server error instead of the form's own message."""

    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        return super().optgroups(name, [v for v in value if str(v).isdigit()], attr)


class SafeAutocompleteMixin:
    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs.setdefault("widget", SafeAutocompleteSelect(db_field, self.admin_site,  # type: ignore[attr-defined]
                                                               using=kwargs.get("using")))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


class EntryInline(SafeAutocompleteMixin, ScopedInline):
    model = Entry
    extra = 0
    fields = ("pairing_number", "player", "status", "withdrawn_after_round")
    readonly_fields = ("status", "withdrawn_after_round")
    autocomplete_fields = ("player",)
    ordering = ("pairing_number",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("player")


class ForbiddenPairInline(ScopedInline):
    model = ForbiddenPair
    extra = 0
    fields = ("first", "second", "reason")
    verbose_name_plural = _("forbidden pairs (Swiss: never paired together)")

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        entries = obj.entries.select_related("player") if obj is not None else Entry.objects.none()
        for name in ("first", "second"):
            formset.form.base_fields[name].queryset = entries
        return formset


class TournamentForm(forms.ModelForm):
    tiebreaks = forms.CharField(
        required=False,
        help_text=_("Comma-separated, in order. Known: %(known)s.") % {
            "known": "solkoff, solkoff_median, solkoff_short_truncated, solkoff_full_truncated, solkoff_plus, "
                     "sonneborn_berger, wins, mutual_result, average_rating"},
        label=_("Tie-break order"),
    )

    class Meta:
        model = Tournament
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance and isinstance(self.instance.tiebreaks, list):
            self.initial["tiebreaks"] = ", ".join(self.instance.tiebreaks)

    def clean_tiebreaks(self) -> list[str]:
        raw = self.cleaned_data.get("tiebreaks") or ""
        return [t.strip() for t in raw.split(",") if t.strip()]


@admin.register(Tournament)
class TournamentAdmin(TournamentSheetsMixin, ArbiterScopedAdmin):
    form = TournamentForm
    tournament_lookup = "pk"  # scope() filters on the tournament itself
    list_display = ("name", "system", "start_date", "venue", "public", "entry_count", "round_count", "links")
    list_filter = ("system", "public")
    search_fields = ("name", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("deputy_arbiters",)
    inlines = [EntryInline, ForbiddenPairInline]
    actions = ["pair_next_round", "number_by_rating", "export_trf", "export_json"]
    fieldsets = (
        (None, {"fields": ("name", "slug", "venue", ("start_date", "end_date"), "public")}),
        (_("System"), {"fields": ("system", "rounds_total", "time_control", "bye_points", "tiebreaks",
                                  "swiss_order")}),
        (_("Arbiters"), {"fields": ("chief_arbiter", "deputy_arbiters")}),
    )

    def scope(self, qs: QuerySet[Any], user: Any) -> QuerySet[Any]:
        if user.is_superuser:
            return qs
        return qs.filter(Q(chief_arbiter=user) | Q(deputy_arbiters=user)).distinct()

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
        if obj is not None and not request.user.is_superuser and obj.chief_arbiter_id != request.user.pk:
            # Who arbitrates is the chief arbiter's decision (or an administrator's), not a deputy's.
            return (*fields, "chief_arbiter", "deputy_arbiters")
        return fields

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.chief_arbiter_id is None and not request.user.is_superuser:
            obj.chief_arbiter = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    def get_urls(self) -> list[Any]:
        return [
            path("<int:pk>/standings/", self.admin_site.admin_view(self.standings_view),
                 name="tournaments_tournament_standings"),
            *super().get_urls(),
        ]

    def standings_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = get_object_or_404(self.get_queryset(request), pk=pk)
        rounds = list(selectors.tournament_rounds(tournament))
        after = request.GET.get("round")
        after_round = int(after) if after and after.isdigit() else None
        rows = selectors.standings(tournament, after_round=after_round)
        context = {**self.admin_site.each_context(request), "tournament": tournament, "rows": rows,
                   "rounds": rounds, "after_round": after_round, "opts": self.model._meta,
                   "tiebreak_names": list(tournament.tiebreaks), "title": f"{tournament} – {_('standings')}"}
        return render(request, "admin/tournaments/tournament/standings.html", context)

    @admin.action(description=_("Pair the next round"))
    def pair_next_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.check_objects(request, queryset)
        for t in queryset:
            run_service(request, lambda t=t: services.round_pair(tournament=t), f"{t}: next round paired (draft).")

    @admin.action(description=_("Export to TRF(x) (cross-check with bbpPairings or JaVaFo)"))
    def export_trf(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        self.check_objects(request, queryset)
        if queryset.count() != 1:
            messages.error(request, _("Select one tournament to export."))
            return None
        tournament = queryset.get()
        if tournament.is_round_robin:
            messages.error(request, _("TRF(x) export is for Swiss tournaments."))
            return None
        response = HttpResponse(swiss.export_trf(tournament), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.trf"'
        return response

    @admin.action(description=_("Export everything (JSON, for import_tournament)"))
    def export_json(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        from tournaments.transfer import dumps, export_tournament

        self.check_objects(request, queryset)
        if queryset.count() != 1:
            messages.error(request, _("Select one tournament to export."))
            return None
        tournament = queryset.get()
        response = HttpResponse(dumps(export_tournament(tournament)), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response

    @admin.action(description=_("Number the players by rating"))
    def number_by_rating(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.check_objects(request, queryset)
        for t in queryset:
            run_service(request, lambda t=t: services.entries_number_by_rating(tournament=t),
                        f"{t}: pairing numbers set by rating.")

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Entry:
            return super().save_formset(request, form, formset, change)
        instances = formset.save(commit=False)
        for obj in formset.deleted_objects:
            obj.delete()
        for entry in instances:
            if entry.pk is None:
                services.entry_add(tournament=form.instance, player=entry.player,
                                   pairing_number=entry.pairing_number)
            else:
                entry.save()
        return None


# --- Entries ---------------------------------------------------------------------------------


class WithdrawForm(forms.Form):
    after_round = forms.IntegerField(min_value=0, label=_("Withdrawn after round"))


class EntryForm(forms.ModelForm):
    class Meta:
        model = Entry
        fields = "__all__"

    def clean_excused_rounds(self) -> list[int]:
        value = self.cleaned_data.get("excused_rounds")
        if value in (None, ""):
            return []  # an emptied field means no excused round (the column is never NULL)
        if not isinstance(value, list) or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                                  for n in value):
            raise forms.ValidationError(_("A list of round numbers, e.g. [3, 5]."))
        return sorted(set(value))


@admin.register(Entry)
class EntryAdmin(SafeAutocompleteMixin, ArbiterScopedAdmin):
    form = EntryForm
    list_display = ("pairing_number", "player", "tournament", "status", "withdrawn_after_round")
    list_filter = ("tournament", "status")
    list_select_related = ("player", "tournament")
    search_fields = ("player__surname", "player__given_name", "player__fmjd_id")
    autocomplete_fields = ("player",)
    readonly_fields = ("status", "withdrawn_after_round")
    actions = ["withdraw"]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament":  # never enter a player in, or move one to, another's tournament
            kwargs["queryset"] = managed_tournaments(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:  # the service checks a round robin is not yet paired and the number is free
            saved = services.entry_add(tournament=obj.tournament, player=obj.player,
                                       pairing_number=obj.pairing_number)
            obj.pk = saved.pk

    @admin.action(description=_("Withdraw the player (competition rules 5.9)"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        self.check_objects(request, queryset)
        if "apply" in request.POST:
            form = WithdrawForm(request.POST)
            if form.is_valid():
                n = form.cleaned_data["after_round"]
                for entry in queryset.select_related("player"):
                    run_service(request, lambda e=entry: services.entry_withdraw(entry=e, after_round=n),
                                f"{entry.player} withdrawn after round {n}.")
                return None
        else:
            last = max((r for t in {e.tournament for e in queryset} for r in
                        t.rounds.values_list("number", flat=True)), default=0)
            form = WithdrawForm(initial={"after_round": last})
        context = {**self.admin_site.each_context(request), "form": form, "entries": queryset,
                   "opts": self.model._meta, "title": _("Withdraw players"),
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return render(request, "admin/tournaments/entry/withdraw.html", context)


# --- Rounds and games ------------------------------------------------------------------------

# What the change log shows for each model: who changed what, when, from what to what.
LOGGED_FIELDS: dict[type, tuple[str, ...]] = {
    Round: ("status", "date"), Game: ("white_id", "black_id", "result"),
    GameSheet: ("status", "sheet_result", "source_name"), Entry: ("status", "withdrawn_after_round"),
}


def _shown(value: object) -> str:
    return "–" if value in (None, "") else str(value)


def change_log(histories: list[tuple[type, str, QuerySet[Any]]], limit: int = 200) -> str:
    """An HTML table of history records, newest first; each line diffs a record against the previous one."""
    lines = []
    for model, label, qs in histories:
        fields = LOGGED_FIELDS[model]
        previous: dict[int, Any] = {}
        for rec in qs.select_related("history_user").order_by("id", "history_date", "history_id"):
            before = previous.get(rec.id)
            changes = [(f.removesuffix("_id"), getattr(before, f) if before else None, getattr(rec, f))
                       for f in fields if before is None or getattr(before, f) != getattr(rec, f)]
            previous[rec.id] = rec
            if before is not None and not changes and rec.history_type == "~":
                continue  # a save that changed none of the shown fields (e.g. the version alone)
            what = {"+": "created", "~": "changed", "-": "deleted"}[rec.history_type]
            text = "; ".join(f"{name}: {_shown(old)} → {_shown(new)}" for name, old, new in changes)
            lines.append((rec.history_date, label.format(obj=rec), what, rec.history_user or "(system)", text))
    lines.sort(key=lambda line: line[0], reverse=True)
    if not lines:
        return "No change recorded."
    rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                            ((localtime(d).strftime("%Y-%m-%d %H:%M:%S"), obj, what, who, text)
                             for d, obj, what, who, text in lines[:limit]))
    return format_html("<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>"
                       "<tbody>{}</tbody></table>", _("when"), _("what"), _("change"), _("who"),
                       _("before → after"), rows)


class GameInlineForm(forms.ModelForm):
    loaded_version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # The result the page showed ("=" first, so an empty result is a value too): a board the arbiter
    # did not touch is left alone, even when another arbiter saved it meanwhile.
    loaded_result = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Game
        fields = ("result",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["loaded_version"] = self.instance.version
            self.initial["loaded_result"] = "=" + self.instance.result


class GameInline(ScopedInline):
    """Results in a published round; in a draft round the arbiter may also swap or re-pair players."""

    model = Game
    form = GameInlineForm
    extra = 0
    can_delete = False
    fields = ("board", "white", "black", "result", "loaded_version", "loaded_result")
    ordering = ("board",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is not None and obj.status == RoundStatus.DRAFT:
            return ("board",)
        return ("board", "white", "black")

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None and obj.status == RoundStatus.DRAFT:
            entries = obj.tournament.entries.select_related("player")
            # Fixed choices: one query for the page instead of one per board and colour.
            choices = [("", "---------")] + [(e.pk, str(e)) for e in entries]
            for name in ("white", "black"):
                if name in formset.form.base_fields:
                    field = formset.form.base_fields[name]
                    field.queryset = entries
                    field.choices = choices
        return formset

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("white__player", "black__player", "round")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(RoundSheetsMixin, ArbiterScopedAdmin):
    class Media:
        css = {"all": ["damier/admin.css"]}

    list_display = ("__str__", "number", "date", "status", "game_count", "missing_results", "print_links")
    list_filter = ("tournament", "status")
    list_select_related = ("tournament",)
    inlines = [GameInline]
    fields = ("tournament", "number", "date", "status", "print_links", "pairing_explanation", "history_log")
    readonly_fields = ("tournament", "number", "status", "print_links", "pairing_explanation", "history_log")
    actions = ["publish", "complete", "reopen", "delete_draft", "check_pairing"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).annotate(
            n_games=Count("games"), n_missing=Count("games", filter=Q(games__result=""))
        )

    @admin.display(description=_("games"))
    def game_count(self, obj: Round) -> int:
        return getattr(obj, "n_games", 0)

    @admin.display(description=_("results missing"))
    def missing_results(self, obj: Round) -> int:
        return getattr(obj, "n_missing", 0)

    @admin.display(description=_("print"))
    def print_links(self, obj: Round) -> str:
        args = [obj.tournament.slug, obj.number]
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("tournaments:scoresheets_pdf", args=args), _("score sheets (PDF)"),
            reverse("tournaments:pairings_pdf", args=args), _("pairings (PDF)"),
        )

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # rounds are created by "pair the next round"

    @admin.display(description=_("change history"))
    def history_log(self, obj: Round) -> str:
        return change_log([
            (Round, "round {obj.number}", Round.history.filter(id=obj.pk)),
            (Game, "board {obj.board}", Game.history.filter(round_id=obj.pk)),
            (GameSheet, "sheet of game {obj.game_id}", GameSheet.history.filter(game__round_id=obj.pk)),
        ])

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Game:
            return super().save_formset(request, form, formset, change)
        # The admin's change message reads these three lists.
        formset.new_objects, formset.deleted_objects, formset.changed_objects = [], [], []
        for game_form in formset.forms:
            if not game_form.has_changed() or "result" not in game_form.changed_data:
                continue
            loaded = game_form.cleaned_data.get("loaded_result") or ""
            if loaded.startswith("=") and loaded[1:] == (game_form.cleaned_data["result"] or ""):
                continue  # unchanged on this page: what another arbiter saved meanwhile stands
            game = services.game_record_result(game=game_form.instance, result=game_form.cleaned_data["result"],
                                               expected_version=game_form.cleaned_data.get("loaded_version"))
            formset.changed_objects.append((game, ["result"]))
        moved = [f for f in formset.forms if {"white", "black"} & set(f.changed_data)]
        if moved:
            services.round_set_boards(round=form.instance, boards={
                f.instance.board: (f.cleaned_data["white"], f.cleaned_data.get("black")) for f in moved})
            formset.changed_objects += [(f.instance, ["white", "black"]) for f in moved]
            rnd = form.instance
            if not rnd.tournament.is_round_robin:
                report_messages(request, rnd, swiss.check_round(rnd.tournament, rnd.number))
        return None

    def _each(self, request: HttpRequest, queryset: QuerySet[Round], func: Callable[[Round], object],
              verb: str) -> None:
        self.check_objects(request, queryset)
        for rnd in queryset.order_by("number"):
            run_service(request, lambda r=rnd: func(r), f"{rnd}: {verb}.")

    @admin.action(description=_("Check the pairing (Swiss: absolute criteria, and what the engine would pair)"))
    def check_pairing(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self.check_objects(request, queryset)
        for rnd in queryset.select_related("tournament"):
            if rnd.tournament.is_round_robin:
                messages.info(request, f"{rnd}: a round robin follows the Berger tables.")
                continue
            report_messages(request, rnd, swiss.check_round(rnd.tournament, rnd.number))

    @admin.action(description=_("Publish the round"))
    def publish(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_publish(round=r), "published")

    @admin.action(description=_("Complete the round (all results in)"))
    def complete(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_complete(round=r), "completed")

    @admin.action(description=_("Reopen the round to correct a result"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_reopen(round=r), "reopened")

    @admin.action(description=_("Delete a draft round (to pair it again)"))
    def delete_draft(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_delete_draft(round=r), "deleted")


@admin.register(Game)
class GameAdmin(GameSheetsMixin, ArbiterScopedAdmin):
    tournament_lookup = "round__tournament"
    list_display = ("__str__", "round", "board", "white", "black", "result")
    list_filter = ("round__tournament", "round__number", "result")
    list_select_related = ("round__tournament", "white__player", "black__player")
    search_fields = ("white__player__surname", "black__player__surname")
    fields = ("round", "board", "white", "black", "result", "history_log")
    readonly_fields = ("round", "board", "white", "black", "result", "history_log")

    @admin.display(description=_("change history"))
    def history_log(self, obj: Game) -> str:
        players = [e for e in (obj.white_id, obj.black_id) if e]
        return change_log([
            (Game, "board {obj.board}", Game.history.filter(id=obj.pk)),
            (GameSheet, "sheet", GameSheet.history.filter(game_id=obj.pk)),
            (Entry, "entry {obj.pairing_number}", Entry.history.filter(id__in=players)),
        ])

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False
