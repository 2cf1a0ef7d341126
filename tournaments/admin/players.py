"""Players: the shared register, and the CSV import with its report per line."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from rules.numbers import number_or_none
from tournaments.admin.base import (
    AsciiIdMixin,
    hide_other_accounts,
    keep_typed_on_refusal,
    refusing_form,
    run_service,
)
from tournaments.admin.player_merge import OptionalManagementFormSet, PlayerMergeInline, PlayerMergeMixin
from tournaments.errors import DomainError
from tournaments.exchange import player_import
from tournaments.exchange.player_import import players_import_csv
from tournaments.models import NationalId, Player, Tournament, search_key
from tournaments.permissions import (
    can_change_player,
    is_staff_arbiter,
    managed_tournaments,
    player_fixed_fields,
    players_fixed_fields,
)
from tournaments.players.player_edit import fixed_words, player_save


def refuse_typed_into_fixed(form: forms.ModelForm, fixed: Any) -> None:  # type: ignore[type-arg]
    """A page read while every field was the arbiter's, posted after another arbiter's round 1 was paired:
    the fields are read-only now and the form would save the rest, silently keeping the stored rating. Say so
    instead, the page kept with what was typed."""
    player = form.instance
    for name in sorted(fixed or ()):
        if name not in form.data:
            continue  # not on the page (read-only), or an unticked box
        field = Player._meta.get_field(name)
        stored = field.value_from_object(player)
        typed = str(form.data.get(name, "")).strip()
        if isinstance(field, models.BooleanField):
            differs = bool(stored) != (typed.lower() in ("on", "true", "1"))
        else:
            differs = typed != ("" if stored is None else str(stored))
        if differs:
            form.add_error(None, forms.ValidationError(
                gettext("%(field)s: %(typed)s not saved. %(why)s")
                % {"field": capfirst(str(field.verbose_name)), "typed": typed[:40] or "–",
                   "why": fixed_words(player)}))


class NationalIdForm(forms.ModelForm):
    class Meta:
        model = NationalId
        fields = ("body", "number")

    def clean_body(self) -> str:
        return str(self.cleaned_data.get("body", "")).strip().upper()

    def clean_number(self) -> str:
        return str(self.cleaned_data.get("number", "")).strip()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        body, number = cleaned.get("body"), cleaned.get("number")
        if body and number:
            holder = (NationalId.objects.filter(body=body, number=number).exclude(player_id=self.instance.player_id)
                      .select_related("player").first())
            if holder is not None:
                self.add_error("number", gettext("%(body)s id %(number)s already belongs to %(player)s: one id is "
                                                 "one person. If they are the same person, merge the two records.")
                               % {"body": body, "number": number, "player": holder.player})
        return cleaned


class NationalIdFormSet(OptionalManagementFormSet):
    def clean(self) -> None:
        # Before Django's own check, whose words ("duplicate data for body and player") name no value.
        seen: dict[str, str] = {}
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or form.cleaned_data.get("DELETE"):
                continue
            body = form.cleaned_data.get("body")
            if body and body in seen:
                form.add_error("body", gettext("%(body)s: a player has one id with a body (%(number)s is already "
                                               "given above).") % {"body": body, "number": seen[body]})
            elif body:
                seen[body] = form.cleaned_data.get("number", "")
        super().clean()


class NationalIdInline(admin.TabularInline):
    """A player's ids with national federations and other bodies (KNDB number, FFJD licence)."""

    model = NationalId
    form = NationalIdForm
    formset = NationalIdFormSet
    extra = 1
    fields = ("body", "number")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user) and (obj is None or can_change_player(request.user, obj))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user) and (obj is None or can_change_player(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)


def folded_search(queryset: QuerySet[Player], term: str) -> QuerySet[Player]:
    """Players whose names, folded (Latin letters, no accents, lower case), hold every word of the term
    folded the same way ("sorensen" finds Sørensen, "shvartsman" Шварцман), or whose national id is the term
    ("4711", or "KNDB 4711")."""
    words = search_key(term).split()
    if not words:
        return queryset.none()
    names = Q()
    for word in words:
        names &= Q(folded__contains=word)
    ids = Q(number__iexact=term.strip())
    body, _sep, number = term.strip().partition(" ")
    if number.strip():
        ids |= Q(body__iexact=body, number__iexact=number.strip())
    return queryset.filter(names | Q(pk__in=NationalId.objects.filter(ids).values("player_id")))


STALE_FIELDS = ("surname", "given_name", "native_name", "sex", "fmjd_id", "federation", "title", "rating",
                "national_rating", "unrated", "club", "birth_year")


def last_change(player: Player) -> str:
    """The player's version: his last history record's id (a save, a list import, a merge each add one)."""
    return str(Player.history.filter(id=player.pk).order_by("-history_id")  # type: ignore[attr-defined]
               .values_list("history_id", flat=True).first() or "")


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]
    """The page carries the version it was drawn at: a save posted after another arbiter, a list import or a
    merge changed the player is refused, naming what changed, with what was typed kept; saving again then
    replaces it knowingly. A post without it (a script) is not checked."""

    read_at = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Player
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["read_at"].initial = last_change(self.instance)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        player = self.instance
        posted = self.data.get("read_at")
        if player.pk is None or not posted or posted == (now := last_change(player)):
            return cleaned
        then = Player.history.filter(history_id=number_or_none(posted), id=player.pk).first()  # type: ignore[attr-defined]
        stored = Player.objects.filter(pk=player.pk).first()
        changed = [f for f in STALE_FIELDS if then is None or stored is None or getattr(then, f) != getattr(stored, f)]
        names = ", ".join(f"{Player._meta.get_field(f).verbose_name}: "
                          f"{getattr(stored, f) if getattr(stored, f, None) not in (None, '') else '–'}"
                          for f in changed) or "–"
        self.add_error(None, forms.ValidationError(
            gettext("%(player)s changed since this page was opened (another arbiter, a list import or a merge); "
                    "now %(fields)s. Nothing saved: save again to replace that with what is typed here, or "
                    "reload the page.") % {"player": stored or player, "fields": names}))
        self.data = self.data.copy()
        self.data["read_at"] = now  # the next save replaces what is now stored, knowingly
        return cleaned


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.none(), required=False, label=_("Also enter them in"),
    )


@admin.register(Player)
class PlayerAdmin(PlayerMergeMixin, AsciiIdMixin, SimpleHistoryAdmin):
    form = PlayerForm
    list_display = ("surname", "given_name", "native_name", "sex", "title", "federation", "rating",
                    "national_rating", "rating_origin", "fmjd_id", "ids_shown", "club", "birth_year")
    readonly_fields = ("rating_origin",)
    list_filter = ("title", "federation", "sex")
    search_fields = ("surname", "given_name", "fmjd_id", "club")
    change_list_template = "admin/tournaments/player/change_list.html"
    inlines = [NationalIdInline, PlayerMergeInline]
    actions = ["merge_records"]

    @admin.display(description=_("national ids"))
    def ids_shown(self, obj: Player) -> str:
        return ", ".join(str(n) for n in obj.national_ids.all()) or "–"

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        # The merges a record absorbed are shown on its page once there are some (a new record has none).
        return [inline for inline in super().get_inline_instances(request, obj)
                if not isinstance(inline, PlayerMergeInline) or obj is not None and obj.merges.exists()]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).prefetch_related("national_ids")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Player],
                           search_term: str) -> tuple[QuerySet[Player], bool]:
        # Django's search (the typed letters in surname, given name, club, FMJD id), and the folded names and
        # national ids beside it: the list's search box and the entries' player search both come here.
        found, duplicates = super().get_search_results(request, queryset, search_term)
        if not search_term.strip():
            return found, duplicates
        return found | folded_search(queryset, search_term), duplicates

    @admin.display(description=_("source of the ratings"))
    def rating_origin(self, obj: Player) -> str:
        if obj.rating is None and obj.national_rating is None:
            return "–"
        return obj.rating_source or gettext("typed by hand")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_change_player(request.user, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        fixed = player_fixed_fields(request.user, obj) if obj is not None else frozenset()
        # The form's order, so the read-only fields stay where the arbiter expects them.
        return fields + tuple(f.name for f in Player._meta.fields if fixed and f.name in fixed)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = refusing_form(request, super().get_form(request, obj, change, **kwargs))
        fixed = player_fixed_fields(request.user, obj) if obj is not None else frozenset()
        if not fixed:
            return form

        class FixedFieldsChecked(form):  # type: ignore[valid-type, misc]
            def clean(self) -> dict[str, Any]:
                cleaned = super().clean()
                refuse_typed_into_fixed(self, fixed)
                return cleaned

        return FixedFieldsChecked

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        obj = self.get_object(request, object_id)
        if request.method == "GET" and obj is not None and player_fixed_fields(request.user, obj):
            messages.info(request, fixed_words(obj))
        return super().change_view(request, object_id, form_url, extra_context)

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return keep_typed_on_refusal(
            request, lambda: super(PlayerAdmin, self).changeform_view(request, object_id, form_url, extra_context),
            str)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def set_history_delta_changes(self, request: HttpRequest, historical_records: Any,
                                  foreign_keys_are_objs: bool = True) -> None:
        # A player is shared by every tournament he plays in: his history names only the reader's colleagues.
        super().set_history_delta_changes(request, historical_records, foreign_keys_are_objs)
        hide_other_accounts(request, historical_records)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if {"rating", "national_rating"} & set(form.changed_data):
            obj.rating_source = ""  # typed by hand (VCL4THP 134): shown as such
        player_save(player=obj, user=request.user)
        if change:  # a rating changed since an entry is said where it counts
            from tournaments.admin.numbering import rating_change_message

            if text := rating_change_message(obj):
                messages.warning(request, text)

    def get_urls(self) -> list[Any]:
        return [
            path("import-csv/", self.admin_site.admin_view(self.import_csv_view), name="tournaments_player_import"),
            *self.merge_urls(),
            *super().get_urls(),
        ]

    def _foreign_players(self, request: HttpRequest) -> dict[int, tuple[Any, ...]]:
        """The players this arbiter may not change freely (tournaments.permissions), as they are now: the
        fields he may not change only (all of them for a player who is not his at all)."""
        fixed = players_fixed_fields(request.user)
        every = [f.attname for f in Player._meta.concrete_fields]
        rows = {row[0]: dict(zip(every, row, strict=True))
                for row in Player.objects.filter(pk__in=list(fixed)).values_list(*every)}
        # A player who is not his at all: his national ids are not the arbiter's to add either.
        ids: dict[int, list[tuple[str, str]]] = {}
        for pk, body, number in NationalId.objects.filter(
                player_id__in=[pk for pk, f in fixed.items() if f is None]).values_list("player_id", "body", "number"):
            ids.setdefault(pk, []).append((body, number))
        return {pk: (*(v for k, v in row.items() if fixed[pk] is None or k in fixed[pk]), sorted(ids.get(pk, [])))
                for pk, row in rows.items()}

    def _check_foreign_players(self, request: HttpRequest, before: dict[int, tuple[Any, ...]]) -> None:
        """A rating list may update only what this arbiter may change; else the whole import is undone."""
        after = self._foreign_players(request)
        refused = sorted(str(Player.objects.get(pk=pk)) for pk, row in before.items() if after.get(pk) != row)
        if refused:
            raise DomainError(gettext("Nothing imported: %(players)s also play in tournaments you are not an "
                                      "arbiter of; ask their arbiter or an administrator to update them.")
                              % {"players": ", ".join(refused)})

    def import_csv_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        # ?tournament=N (the control room's link) preselects that tournament, when the user runs it.
        managed = managed_tournaments(request.user)
        chosen = managed.filter(pk=number_or_none(request.GET.get("tournament", ""))).first()
        form = CsvImportForm(request.POST or None, request.FILES or None, initial={"tournament": chosen})
        form.fields["tournament"].queryset = managed  # type: ignore[attr-defined]
        report = None
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]

            def read() -> Any:
                before = self._foreign_players(request)
                # Never more than the limit in memory: one byte over is enough for the refusal.
                done = players_import_csv(data=upload.read(player_import.MAX_BYTES + 1), source=upload.name,
                                          tournament=form.cleaned_data["tournament"])
                self._check_foreign_players(request, before)
                return done

            report = run_service(request, read).value
            if report is not None:
                if report.ok:
                    n = len(report.lines)
                    messages.success(request, ngettext("%(n)s player line imported from %(file)s.",
                                                       "%(n)s player lines imported from %(file)s.", n)
                                     % {"n": n, "file": upload.name})
                else:
                    n = len(report.errors)
                    messages.error(request, ngettext("Nothing imported from %(file)s: %(n)s bad line, listed below.",
                                                     "Nothing imported from %(file)s: %(n)s bad lines, listed below.",
                                                     n) % {"n": n, "file": upload.name})
        context = {**self.admin_site.each_context(request), "form": form, "report": report,
                   "opts": self.model._meta, "title": _("Import players from CSV")}
        return render(request, "admin/tournaments/player/import_csv.html", context)
