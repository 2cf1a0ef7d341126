"""Rounds and games: fast result entry, the draft round's manual override, the pairing check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournaments import selectors, services, swiss
from tournaments.admin.base import ArbiterScopedAdmin, ScopedInline, change_log, report_messages, run_service
from tournaments.admin.sheets import (
    GameSheetsMixin,
    RoundSheetsMixin,
)
from tournaments.models import Entry, Game, GameSheet, Round, RoundStatus


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

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # Issue 18: a round with a later round is never deleted (Django shows the reason and no button);
        # deleting the last one names what goes with it (results, sheets, the standings after it).
        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        refused, lost = selectors.round_deletion_impact(list(objs))
        return [*lost, *deleted], counts, perms, [*protected, *refused]

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
