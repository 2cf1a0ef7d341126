"""Entries: a player in a tournament, and the withdrawal action (competition rules 5.9)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin import byes
from tournaments.admin.base import ArbiterScopedAdmin, SafeAutocompleteMixin, run_service
from tournaments.admin.entry_results import expel, grant_bye
from tournaments.admin.longevents import EntryRatingInline
from tournaments.admin.player_story import PlayerStoryMixin
from tournaments.models import Entry, Game, Round, RoundStatus
from tournaments.permissions import managed_tournaments
from tournaments.players import roster
from tournaments.players.numbering import MAX_PAIRING_NUMBER, is_late

# Why a field of an entry is fixed: shown as the field's help, so the arbiter reads it before trying.
HAS_GAMES = _("Fixed: this entry has games; the player stays as he was paired. Withdraw him instead.")
STAYS = _("An entry stays in its tournament (its games, forbidden pairs and history are there): enter the "
          "player in the other tournament instead.")
NUMBER_FIXED = _("Pairing numbers of entered players are fixed once round 1 is paired: they change only "
                 "through the tournament's numbering step (\"Number the players by rating\"), before round 1.")


def limit_number(form: forms.ModelForm) -> None:
    """A pairing number from 1 to the TRF's four digits (numbering.MAX_PAIRING_NUMBER), said on the form."""
    field = form.fields.get("pairing_number")
    if field is None:
        return
    field.min_value, field.max_value = 1, MAX_PAIRING_NUMBER
    field.validators += [MinValueValidator(1), MaxValueValidator(MAX_PAIRING_NUMBER)]
    field.widget.attrs.update({"min": 1, "max": MAX_PAIRING_NUMBER})


def lock_played_fields(form: forms.ModelForm, fields: tuple[str, ...]) -> None:
    """Make what a played pairing depends on read-only: a disabled field keeps its stored value whatever
    is posted, so a forged or stale form cannot change it either."""
    entry = form.instance
    if entry.pk is None:
        return
    # A list of entries reads these once for all its rows (played_facts); an entry's own page reads them here.
    facts = getattr(form, "played_facts", None)
    if facts is not None:
        paired, has_games = facts[0], entry.pk in facts[1]
    else:
        has_games = Game.objects.filter(Q(white_id=entry.pk) | Q(black_id=entry.pk)).exists()
        paired = Round.objects.filter(tournament_id=entry.tournament_id).exists()
    for name in fields:
        field = form.fields.get(name)
        if field is None:
            continue
        if name == "pairing_number" and (paired or has_games):
            field.disabled, field.help_text = True, NUMBER_FIXED
        elif name == "tournament":
            field.disabled, field.help_text = True, STAYS
        elif name == "player" and has_games:
            field.disabled, field.help_text = True, HAS_GAMES
            # Read-only: the one player it holds, without the search widget's query per row.
            field.widget = forms.Select(choices=[(entry.player_id, str(entry.player))])


def refuse_typed_into_locked(form: forms.ModelForm) -> None:
    """A page read before round 1 and posted after it: the field is locked now and would silently keep the
    stored value; say so on the field instead, the typed value kept on the page."""
    if not form.is_bound:
        return
    for name, field in form.fields.items():
        if not field.disabled or name not in ("pairing_number", "player", "tournament"):
            continue
        posted = form.data.get(form.add_prefix(name))
        stored = form.initial.get(name)
        if posted not in (None, "") and str(posted) != str(getattr(stored, "pk", stored)):
            form.add_error(None, forms.ValidationError(f"{field.label}: {field.help_text}"))


class WithdrawForm(forms.Form):
    after_round = forms.IntegerField(min_value=0, label=_("Withdrawn after round"))


class EntryForm(forms.ModelForm):
    class Meta:
        model = Entry
        # The requested byes are set on the grid (tournaments.admin.byes), through their service and its
        # checks; the entry's page shows them in words with a link there.
        exclude = ("excused_rounds",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limit_number(self)
        lock_played_fields(self, ("tournament", "player", "pairing_number"))
        if self.instance.pk is None and "pairing_number" in self.fields:
            # Empty: the next number, or for a late Swiss entry the one his rating earns (roster.entry_add).
            self.fields["pairing_number"].required = False
            self.fields["pairing_number"].help_text = LATE_NUMBER

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        refuse_typed_into_locked(self)
        return cleaned


@admin.register(Entry)
class EntryAdmin(PlayerStoryMixin, SafeAutocompleteMixin, ArbiterScopedAdmin):
    form = EntryForm
    list_display = ("pairing_number", "player", "tournament", "status", "withdrawn_after_round")
    list_filter = ("tournament", "status")
    list_select_related = ("player", "tournament")
    search_fields = ("player__surname", "player__given_name", "player__fmjd_id")
    autocomplete_fields = ("player",)
    # The ratings the tournament holds for the player: shown, changed only by taking a later list on.
    readonly_fields = ("status", "withdrawn_after_round", "expelled_after_round", "requested_byes", "rating",
                       "national_rating")
    actions = ["withdraw", expel, grant_bye]
    inlines = [EntryRatingInline]

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        # Later ratings belong to a long event's entries only (VCL4THP Q212): elsewhere, no inline at all.
        if obj is None or not obj.tournament.long_event:
            return []
        return super().get_inline_instances(request, obj)

    @admin.display(description=_("requested byes"))
    def requested_byes(self, obj: Entry) -> str:
        if obj is None or obj.pk is None:
            return "–"
        return byes.entry_summary(obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament":  # never enter a player in, or move one to, another's tournament
            kwargs["queryset"] = managed_tournaments(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:  # the service checks a round robin is not yet paired and the number is free
            late = is_late(obj.tournament)
            saved = roster.entry_add(tournament=obj.tournament, player=obj.player,
                                       pairing_number=obj.pairing_number, user=request.user)
            obj.pk, obj.pairing_number = saved.pk, saved.pairing_number
            if late:  # the numbers it moved and what his missed rounds score: said, never silent
                messages.warning(request, roster.late_entry_message(saved))

    @admin.action(description=_("Withdraw the player (competition rules 5.9)"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        self.check_objects(request, queryset)
        if "apply" in request.POST:
            form = WithdrawForm(request.POST)
            if form.is_valid():
                n = form.cleaned_data["after_round"]
                for entry in queryset.select_related("player"):
                    run_service(request, lambda e=entry: roster.entry_withdraw(entry=e, after_round=n),
                                gettext("%(player)s withdrawn after round %(round)s.")
                                % {"player": entry.player, "round": n})
                return None
        else:
            # A draft round is not played yet: by default he leaves before it (it is then paired again).
            last = max((r for t in {e.tournament for e in queryset} for r in
                        t.rounds.exclude(status=RoundStatus.DRAFT).values_list("number", flat=True)), default=0)
            form = WithdrawForm(initial={"after_round": last})
        context = {**self.admin_site.each_context(request), "form": form, "entries": queryset,
                   "opts": self.model._meta, "title": _("Withdraw players"),
                   "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME}
        return render(request, "admin/tournaments/entry/withdraw.html", context)


class EntryInlineForm(forms.ModelForm):
    """The tournament page's list of entries: the same locks as the entry's own page."""

    class Meta:
        model = Entry
        fields = ("pairing_number", "player")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limit_number(self)
        lock_played_fields(self, ("player", "pairing_number"))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        refuse_typed_into_locked(self)
        return cleaned


LATE_NUMBER = _("A player entered now is a late entry: leave his number empty, his rating gives it (the players "
                "below move down one).")


def played_facts(tournament: Any) -> tuple[bool, frozenset[int]]:
    """Whether the tournament is paired, and its entries that have games: two queries for a whole list."""
    games = Game.objects.filter(round__tournament_id=tournament.pk)
    played = frozenset(games.values_list("white_id", flat=True)) | frozenset(
        games.exclude(black_id=None).values_list("black_id", flat=True))
    return Round.objects.filter(tournament_id=tournament.pk).exists(), played


def explain_inline_locks(formset: Any, tournament: Any) -> Any:
    """The inline's column headers carry the help: say there why numbers are fixed once paired. The rows'
    locks are read once for the whole list."""
    if tournament is not None and tournament.pk is not None:
        formset.form = type(formset.form.__name__, (formset.form,), {"played_facts": played_facts(tournament)})
    if tournament is not None and tournament.pk is not None and tournament.rounds.exists():
        formset.form.base_fields["pairing_number"].help_text = NUMBER_FIXED
        formset.form.base_fields["player"].help_text = HAS_GAMES
        if not tournament.is_round_robin:  # a late Swiss entry is numbered by its rating
            formset.form.base_fields["pairing_number"].required = False
            formset.form.base_fields["pairing_number"].help_text = f"{NUMBER_FIXED} {LATE_NUMBER}"
    return formset
