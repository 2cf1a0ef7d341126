"""Two records of one person made one, from the players' list: the action, the preview and its confirmation,
and the merges kept, read-only (tournaments.players.merge does the work)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.models import Player, PlayerMerge
from tournaments.permissions import is_staff_arbiter
from tournaments.players.merge import FIELDS, KEPT, OTHER, merge_plan, players_merge


def _shown(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    return str(value)


def plan_rows(plan: Any) -> list[dict[str, Any]]:
    """One row per field: both records' values, whether they differ, and which the kept record will have."""
    rows = []
    for name in FIELDS:
        field = Player._meta.get_field(name)
        kept, other = getattr(plan.kept, name), getattr(plan.other, name)
        display = getattr(plan.kept, f"get_{name}_display", None) if getattr(field, "choices", None) else None
        shown_kept = display() if display and kept else _shown(kept)
        shown_other = getattr(plan.other, f"get_{name}_display")() if display and other else _shown(other)
        rows.append({"name": name, "label": capfirst(str(field.verbose_name)), "kept": shown_kept,
                     "other": shown_other, "differs": kept != other, "choice": plan.choices.get(name, KEPT)})
    return rows


class PlayerMergeMixin:
    """Taken in by the players' admin: the action on the list, and the preview page it leads to."""

    @admin.action(description=_("Merge two records of one person…"))
    def merge_records(self, request: HttpRequest, queryset: QuerySet[Player]) -> HttpResponse | None:
        chosen = list(queryset.annotate(n=Count("entries")).order_by("pk"))
        if len(chosen) != 2:
            messages.error(request, gettext("Select exactly two records of one person to merge them."))
            return None
        # Kept by default: the record FMJD knows (its id), else the one with more tournaments, else the older.
        kept, other = sorted(chosen, key=lambda p: (p.fmjd_id is None, -p.n, p.pk))
        return HttpResponseRedirect(reverse("admin:tournaments_player_merge", args=[kept.pk, other.pk]))

    def merge_urls(self) -> list[Any]:
        return [path("merge/<str:kept_id>/<str:other_id>/", self.admin_site.admin_view(self.merge_view),  # type: ignore[attr-defined]
                     name="tournaments_player_merge")]

    def merge_view(self, request: HttpRequest, kept_id: str, other_id: str) -> HttpResponse:
        if not is_staff_arbiter(request.user):
            raise PermissionDenied
        pks = number_or_none(kept_id), number_or_none(other_id)
        found = {p.pk: p for p in Player.objects.filter(pk__in=[pk for pk in pks if pk is not None])}
        if pks[0] not in found or pks[1] not in found:
            raise Http404(gettext("One of the two records does not exist (merged or deleted meanwhile)."))
        kept, other = found[pks[0]], found[pks[1]]  # type: ignore[index]
        choices = None
        if request.method == "POST":
            choices = {name: request.POST.get(f"choose_{name}", "") for name in FIELDS}
            # A form without the version it was drawn at is treated as stale, never as "no preview".
            version = request.POST.get("version", "") or "none"
            done = run_service(
                request, lambda: players_merge(kept=kept, other=other, choices=choices, version=version,
                                               user=request.user),
                lambda m: gettext("%(removed)s merged into %(kept)s: one record now.")
                % {"removed": m.removed.get("full_name", m.removed_id), "kept": m.kept})
            if done:
                return HttpResponseRedirect(reverse("admin:tournaments_player_change", args=[kept.pk]))
            # Refused: the records as they are now, with the arbiter's choices kept.
            fresh = {p.pk: p for p in Player.objects.filter(pk__in=[kept.pk, other.pk])}
            if len(fresh) != len({kept.pk, other.pk}):  # merged or deleted meanwhile: nothing left to compare
                return HttpResponseRedirect(reverse("admin:tournaments_player_changelist"))
            kept, other = fresh[kept.pk], fresh[other.pk]
        plan = merge_plan(kept, other, choices, user=request.user)
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "opts": Player._meta, "title": _("Merge two records of one person"), "plan": plan,
            "rows": plan_rows(plan), "KEPT": KEPT, "OTHER": OTHER,
            "swap_url": reverse("admin:tournaments_player_merge", args=[other.pk, kept.pk]),
        }
        return render(request, "admin/tournaments/player/merge.html", context)


class OptionalManagementFormSet(forms.BaseInlineFormSet):  # type: ignore[type-arg]
    """An inline a post may leave out: a client that posts the player's fields alone (a script, a page
    drawn before the inline existed) says nothing of these rows, so none is added, changed or removed,
    where Django would refuse the whole page for the missing management form."""

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        prefix = kwargs.get("prefix") or self.get_default_prefix()
        if data is not None and f"{prefix}-TOTAL_FORMS" not in data:
            data = data.copy()
            data[f"{prefix}-TOTAL_FORMS"], data[f"{prefix}-INITIAL_FORMS"] = "0", "0"
        super().__init__(data, *args, **kwargs)


class PlayerMergeInline(admin.TabularInline):
    """The merges a player's record absorbed, on his page: read only."""

    model = PlayerMerge
    formset = OptionalManagementFormSet
    fk_name = "kept"
    extra = 0
    fields = ("removed_id", "removed_name", "merged_at", "merged_by")
    readonly_fields = fields
    verbose_name_plural = _("records merged into this one")

    @admin.display(description=_("removed record"))
    def removed_name(self, obj: PlayerMerge) -> str:
        return str(obj.removed.get("full_name", "–"))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    """The merges, as they were made: never changed or deleted here (the history is kept whole)."""

    list_display = ("merged_at", "kept", "removed_id", "removed_name", "merged_by")
    list_select_related = ("kept", "merged_by")
    readonly_fields = ("kept", "removed_id", "removed", "moved", "merged_at", "merged_by")
    search_fields = ("kept__surname", "kept__folded", "removed_id")

    @admin.display(description=_("removed record"))
    def removed_name(self, obj: PlayerMerge) -> str:
        return str(obj.removed.get("full_name", "–"))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
