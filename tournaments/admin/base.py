"""What every page of the arbiter's admin shares: object-level scoping, service calls, the change log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from tournaments.errors import DomainError
from tournaments.models import Entry, Game, GameSheet, Round
from tournaments.permissions import colleagues, managed_tournaments, tournament_of


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

    def get_list_filter(self, request: HttpRequest) -> Any:
        """A filter on a relation lists only what this arbiter's objects refer to, never every
        tournament of the site."""
        filters = []
        for item in super().get_list_filter(request):
            if isinstance(item, str) and _is_relation(self.model, item):
                item = (item, admin.RelatedOnlyFieldListFilter)
            filters.append(item)
        return filters

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        kwargs.setdefault("queryset", _choices(db_field, request))
        if kwargs["queryset"] is None:
            del kwargs["queryset"]
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        kwargs.setdefault("queryset", _choices(db_field, request))
        if kwargs["queryset"] is None:
            del kwargs["queryset"]
        return super().formfield_for_manytomany(db_field, request, **kwargs)

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


def _is_relation(model: Any, path: str) -> bool:
    for name in path.split("__"):
        field = model._meta.get_field(name)
        if not field.is_relation:
            return False
        model = field.related_model
    return True


def _choices(db_field: Any, request: HttpRequest) -> QuerySet[Any] | None:
    """Who and what a select may offer: the arbiter's own tournaments and colleagues only."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Tournament

    if db_field.related_model is get_user_model():
        return colleagues(request.user)
    if db_field.related_model is Tournament:
        return managed_tournaments(request.user)
    return None


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


# What the change log shows for each model: who changed what, when, from what to what.
LOGGED_FIELDS: dict[type, tuple[str, ...]] = {
    Round: ("status", "date"), Game: ("white_id", "black_id", "result"),
    GameSheet: ("status", "sheet_result", "source_name"),
    Entry: ("player", "pairing_number", "status", "withdrawn_after_round"),
}


def _value(record: Any, name: str) -> Any:
    """A field of a history record; a relation shows its object's name, or its id once it is deleted."""
    try:
        return getattr(record, name)
    except ObjectDoesNotExist:
        return getattr(record, f"{name}_id")


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
            changes = [(f.removesuffix("_id"), _value(before, f) if before else None, _value(rec, f))
                       for f in fields if before is None or _value(before, f) != _value(rec, f)]
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
