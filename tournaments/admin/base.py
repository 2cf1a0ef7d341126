"""What every page of the arbiter's admin shares: object-level scoping, service calls, the change log."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, models, transaction
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from rules.numbers import number_or_none
from tournaments.errors import DomainError
from tournaments.models import (
    Entry,
    EntryStatus,
    Game,
    GameSheet,
    Player,
    Round,
    RoundStatus,
    SheetStatus,
)
from tournaments.permissions import (
    arbitrated_by,
    can_manage_or_list,
    colleagues,
    is_staff_arbiter,
    managed_tournaments,
    tournament_of,
)
from tournaments.results import Result
from tournaments.rounds.pairing_bridge import violation_words
from tournaments.words import result_label

T = TypeVar("T")


@dataclass(frozen=True)
class Ran(Generic[T]):
    """What a service call gave the page: true with its value, false when refused (the message is said)."""

    ok: bool
    value: T | None = None

    def __bool__(self) -> bool:
        return self.ok


def run_service(request: HttpRequest, func: Callable[[], T], success: str | Callable[[T], str] | None = None, *,
                refused: str = "%(why)s", passes: tuple[type[DomainError], ...] = ()) -> Ran[T]:
    """Run one service call in one transaction; a refusal (DomainError) becomes an error message, worded by
    `refused` (its %(why)s is the refusal), and nothing is written. A question the page asks itself (a
    confirmation, named in `passes`) is raised to the page. `success` is said when the call went through; a
    callable words it from the call's value."""
    try:
        with transaction.atomic():
            value = func()
    except DomainError as exc:
        if isinstance(exc, passes):
            raise
        messages.error(request, refused % {"why": exc})
        return Ran(False)
    if success is not None:
        messages.success(request, success(value) if callable(success) else success)
    return Ran(True, value)


class AsciiIdMixin:
    """The id in an admin address is read by rules.numbers: Django's own reading takes '١' for 1, and
    simple_history's pages pass '²' or 'abc' to the database, which raises."""

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        if from_field is None and number_or_none(unquote(object_id)) is None:
            return None  # the admin's "does not exist" answer, as for any unknown id
        return super().get_object(request, object_id, from_field)  # type: ignore[misc]

    def history_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        if number_or_none(unquote(object_id)) is None:
            raise Http404
        return super().history_view(request, object_id, extra_context)  # type: ignore[misc]

    def history_form_view(self, request: HttpRequest, object_id: str, version_id: str,
                          extra_context: dict[str, Any] | None = None) -> Any:
        if number_or_none(unquote(object_id)) is None or number_or_none(unquote(version_id)) is None:
            raise Http404
        # simple_history saves this form on POST even with reverts disabled: that would write an old version
        # around the services, so an old version can be looked at, never saved back.
        if request.method == "POST":
            raise PermissionDenied(gettext("History is read-only: enter the change on the object's own page."))
        return super().history_form_view(request, object_id, version_id, extra_context)  # type: ignore[misc]


def keep_typed_on_refusal(request: HttpRequest, run: Callable[[], HttpResponse],
                          words: Callable[[DomainError], str]) -> HttpResponse:
    """A change form whose save a service refused (another arbiter changed the board meanwhile, a rule the
    form could not see) or the database refused (a unique row another arbiter committed meanwhile): nothing
    is saved, and the form comes back with what was typed and why, instead of
    a redirect to an empty form. The form is shown again by running the page once more with the refusal as
    its error (`refusing_form`): it cannot save."""
    from tournaments.web.busy import busy_words

    try:
        with transaction.atomic():
            return run()
    except DomainError as exc:
        said = words(exc)
    except IntegrityError:
        # Another arbiter's row, committed after this form checked (two tournaments under one slug at once):
        # run again, the form's own check now sees it and says so.
        said = busy_words()
    if request.method == "POST":
        request._damier_refused = said  # type: ignore[attr-defined]
        try:
            with transaction.atomic():
                return run()
        except (DomainError, IntegrityError):
            pass
    messages.error(request, said)
    return HttpResponseRedirect(request.get_full_path())


def refusing_form(request: HttpRequest, form: Any) -> Any:
    """The change form, invalid with the service's refusal when keep_typed_on_refusal runs it again."""
    refused = getattr(request, "_damier_refused", None)
    if refused is None:
        return form

    class Refused(form):  # type: ignore[valid-type, misc]
        def clean(self) -> Any:
            cleaned = super().clean()
            self.add_error(None, refused)
            return cleaned

    return Refused


class ArbiterScopedAdmin(AsciiIdMixin, SimpleHistoryAdmin):
    """Object-level permissions: an arbiter sees and changes his own tournaments only."""

    tournament_lookup = "tournament"

    def scope(self, qs: QuerySet[Any], user: Any) -> QuerySet[Any]:
        if user.is_superuser:
            return qs
        return qs.filter(arbitrated_by(user, self.tournament_lookup)).distinct()

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
        return can_manage_or_list(request.user, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return is_staff_arbiter(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    # Django's delete page and bulk delete action: what holds a result, a pairing or a sheet of a paired round
    # is listed with what to do instead, and no button is offered (tournaments.rounds.deletion).
    delete_confirmation_template = "admin/tournaments/delete_confirmation.html"
    delete_selected_confirmation_template = "admin/tournaments/delete_selected_confirmation.html"

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        from tournaments.rounds import deletion

        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        kept = deletion.refusals(objs)
        request.damier_kept = kept  # type: ignore[attr-defined]  # the templates word the refusal
        return deleted, counts, perms, [*kept, *protected]

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return keep_typed_on_refusal(
            request, lambda: super(ArbiterScopedAdmin, self).changeform_view(request, object_id, form_url,
                                                                             extra_context),
            lambda exc: gettext("Nothing saved: %(why)s") % {"why": exc})

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        return refusing_form(request, super().get_form(request, obj, change, **kwargs))

    # The delete page and the actions (the bulk delete among them) checked what they act on when the page
    # was made; a colleague may publish the round meanwhile, and the deletion's own guard (tournaments.rounds.deletion)
    # or a service then refuses: said in words, nothing done, rather than an error page.
    def delete_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
                    ) -> HttpResponse:
        ran = run_service(request, lambda: super(ArbiterScopedAdmin, self).delete_view(request, object_id,
                                                                                        extra_context),
                          refused=gettext("Nothing deleted: %(why)s"))
        return ran.value if ran else HttpResponseRedirect(request.get_full_path())

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        ran = run_service(request, lambda: super(ArbiterScopedAdmin, self).response_action(request, queryset),
                          refused=gettext("Nothing was done: %(why)s"))
        return ran.value if ran else HttpResponseRedirect(request.get_full_path())

    def check_objects(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            if not self._allowed(request, obj):
                raise PermissionDenied(gettext("You are not an arbiter of %(tournament)s.")
                                       % {"tournament": tournament_of(obj)})

    def set_history_delta_changes(self, request: HttpRequest, historical_records: Any,
                                  foreign_keys_are_objs: bool = True) -> None:
        # simple_history's history page lists each record's reason as stored: the services' own, in words.
        super().set_history_delta_changes(request, historical_records, foreign_keys_are_objs)
        for record in historical_records:
            record.history_change_reason = reason_words(record.history_change_reason or "") or None
        hide_other_accounts(request, historical_records)


class _Shown(str):
    """An account as a history page may show it to its reader (a name, or "another arbiter")."""


def hide_other_accounts(request: HttpRequest, records: Any) -> None:
    """simple_history's history list names each record's account by its login name, linked to the account
    (its id). An arbiter sees by name only himself and his colleagues (permissions.colleagues); any other
    account is "another arbiter" or "an administrator", without a link. An administrator sees all."""
    viewer = request.user
    if viewer.is_superuser:
        return
    known = set(colleagues(viewer).values_list("pk", flat=True))
    for record in records:
        user = record.history_user
        if user is None:
            continue
        if user.pk in known:
            shown = _Shown(user.get_full_name() or user.get_username())
        else:
            shown = _Shown(gettext("an administrator") if user.is_superuser else gettext("another arbiter"))
        # The list's template reads record.history_user, and links it by history_user_id: no id to link, then
        # the words in the relation's cache (in this order: setting the id empties the cache).
        record.history_user_id = None
        record._state.fields_cache["history_user"] = shown


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
        return can_manage_or_list(request.user, obj)

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
    for words in violation_words(rnd.tournament, report.violations):
        messages.error(request, gettext("%(round)s: %(violation)s") % {"round": rnd, "violation": words})
    if report.differs:
        messages.warning(request, differs_message(rnd, report))
    if report.ok and not report.differs:
        messages.success(request, gettext("%(round)s: the pairing meets every absolute criterion and is the engine's "
                                          "own.") % {"round": rnd})
    elif report.ok:
        messages.info(request, gettext("%(round)s: no absolute criterion is broken.") % {"round": rnd})


def differs_message(rnd: Round, report: Any) -> str:
    """Where the round differs from what the engine would pair, board by board as pairing numbers."""
    bye = gettext("bye")
    ours = ", ".join(f"{w}-{b if b is not None else bye}" for w, b in report.only_proposed)
    engine = ", ".join(f"{w}-{b if b is not None else bye}" for w, b in report.only_engine)
    return gettext("%(round)s: differs from the engine's pairing (this round: %(ours)s; engine: %(engine)s).") \
        % {"round": rnd, "ours": ours, "engine": engine}


class SafeAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete widget filters the posted value as an id when it redraws a refused form:
    a value that is not a number would be a server error instead of the form's own message."""

    def optgroups(self, name: str, value: Any, attr: Any = None) -> Any:
        return super().optgroups(name, [v for v in value if number_or_none(str(v)) is not None], attr)


class SafeAutocompleteMixin:
    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name in self.get_autocomplete_fields(request):  # type: ignore[attr-defined]
            kwargs.setdefault("widget", SafeAutocompleteSelect(db_field, self.admin_site,  # type: ignore[attr-defined]
                                                               using=kwargs.get("using")))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


# What the change log shows for each model: who changed what, when, from what to what, and why.
LOGGED_FIELDS: dict[type, tuple[str, ...]] = {
    Round: ("status", "date"), Game: ("white_id", "black_id", "result"),
    GameSheet: ("status", "sheet_result", "source_name"),
    Entry: ("player_id", "pairing_number", "status", "withdrawn_after_round"),
}
CHOICES: dict[tuple[type, str], type[models.TextChoices]] = {
    (Round, "status"): RoundStatus, (GameSheet, "status"): SheetStatus, (Entry, "status"): EntryStatus,
}


class _Names:
    """Players, rounds and boards as an appeals committee reads them ("No. 12 Dupont, Jean", "round 3,
    board 7"), never database ids. Looked up in a fixed number of queries for the whole log; an
    entry, round or game deleted since is named from its own history."""

    def __init__(self, records: list[tuple[type, Any]]) -> None:
        entry_ids = {v for m, r in records if m is Game for v in (r.white_id, r.black_id) if v}
        entry_ids |= {r.id for m, r in records if m is Entry}
        game_ids = {r.game_id for m, r in records if m is GameSheet}
        self.games: dict[int, tuple[int, int]] = {
            g["id"]: (g["round_id"], g["board"]) for g in Game.objects.filter(pk__in=game_ids).values(
                "id", "round_id", "board")}
        for g in Game.history.filter(id__in=game_ids - set(self.games)).order_by("history_date").values(
                "id", "round_id", "board"):
            self.games[g["id"]] = (g["round_id"], g["board"])
        round_ids = {r.round_id for m, r in records if m is Game} | {r for r, _b in self.games.values()}
        round_ids |= {r.id for m, r in records if m is Round}
        self.rounds: dict[int, int] = dict(Round.objects.filter(pk__in=round_ids).values_list("id", "number"))
        for rid, number in Round.history.filter(id__in=round_ids - set(self.rounds)).values_list("id", "number"):
            self.rounds[rid] = number
        self.entries: dict[int, str] = {
            e.pk: self._entry(e.pairing_number, e.player) for e in
            Entry.objects.filter(pk__in=entry_ids).select_related("player")}
        gone = entry_ids - set(self.entries)
        if gone:
            last = {h.id: h for h in Entry.history.filter(id__in=gone).order_by("history_date")}
            players = Player.objects.in_bulk({h.player_id for h in last.values()})
            for eid, h in last.items():
                self.entries[eid] = self._entry(h.pairing_number, players.get(h.player_id))
        # An entry whose player was changed: every player it ever named, by name.
        self.players: dict[int, str] = {
            pk: p.full_name for pk, p in Player.objects.in_bulk(
                {r.player_id for m, r in records if m is Entry and r.player_id}).items()}

    @staticmethod
    def _entry(number: int, player: Player | None) -> str:
        return _("No. %(n)s %(name)s") % {"n": number, "name": player.full_name if player else "?"}

    def entry(self, entry_id: int | None) -> str:
        return "–" if entry_id is None else self.entries.get(entry_id, _("No. ? (deleted)"))

    def board(self, round_id: int, board: int) -> str:
        return _("round %(r)s, board %(b)s") % {"r": self.rounds.get(round_id, "?"), "b": board}

    def label(self, model: type, rec: Any, fallback: str) -> str:
        if model is Game:
            return self.board(rec.round_id, rec.board)
        if model is GameSheet:
            round_id, board = self.games.get(rec.game_id, (0, 0))
            return _("sheet of %(board)s") % {"board": self.board(round_id, board)}
        if model is Round:
            return _("round %(n)s") % {"n": rec.number}
        if model is Entry:
            return self.entry(rec.id)
        return fallback.format(obj=rec)

    def value(self, model: type, field: str, value: object) -> str:
        if value in (None, ""):
            return "–"
        if field in ("white_id", "black_id"):
            return self.entry(value)  # type: ignore[arg-type]
        if model is Entry and field == "player_id":
            return self.players.get(value, _("player no longer on file"))  # type: ignore[call-overload]
        choices = CHOICES.get((model, field))
        if choices is not None and value in choices.values:
            return str(choices(value).label)
        if model is Game and field == "result" and value in Result._value2member_map_:
            return result_label(value)
        return str(value)


def _field_name(model: type, field: str) -> str:
    return str(model._meta.get_field(field.removesuffix("_id")).verbose_name)


def _who(user: Any) -> str:
    if user is None:
        return str(_("(system)"))
    return user.get_full_name() or user.get_username()


def reason_words(reason: str) -> str:
    """A reason the services keep in the history, in the reader's language; an arbiter's own reason as typed.

    The services store their reasons in English (the history is data, read by the command line too); the
    criteria they list stay as the checker's codes and pairing numbers."""
    fixed = {"taken back to draft": gettext("taken back to draft"),
             "pairing numbers set by rating": gettext("pairing numbers set by rating"),
             "pairing numbers kept as set by hand": gettext("pairing numbers kept as set by hand")}
    if reason in fixed:
        return fixed[reason]
    lot = re.fullmatch(r"pairing numbers drawn by lot \(seed (\d+)\)", reason)
    if lot:
        return gettext("pairing numbers drawn by lot (seed %(seed)s)") % {"seed": lot.group(1)}
    merged = re.fullmatch(r"merged (with|into) #(\d+) (.*)", reason, re.S)
    if merged:  # tournaments.players.merge: the kept record, and the removed one's last line
        words = (gettext("merged with #%(id)s %(name)s") if merged.group(1) == "with"
                 else gettext("merged into #%(id)s %(name)s"))
        return words % {"id": merged.group(2), "name": merged.group(3)}
    moved = re.fullmatch(r"player record #(\d+) merged into #(\d+)", reason)
    if moved:
        return gettext("player record #%(removed)s merged into #%(kept)s") % {"removed": moved.group(1),
                                                                             "kept": moved.group(2)}
    found = re.match(r"published with (\d+) broken absolute criteria, confirmed by ([^:]*): ?(.*)", reason, re.S)
    if found:
        n = int(found.group(1))
        return ngettext("published with %(n)s broken absolute criterion, confirmed by %(who)s: %(codes)s",
                        "published with %(n)s broken absolute criteria, confirmed by %(who)s: %(codes)s", n) \
            % {"n": n, "who": found.group(2), "codes": found.group(3)}
    return reason


def change_log(histories: list[tuple[type, str, QuerySet[Any]]], limit: int = 200) -> str:
    """An HTML table of history records, newest first; each line diffs a record against the previous one.

    It names players by pairing number and name, games by round and board, the arbiter by his name,
    and shows the reason kept with the change (simple_history's history_change_reason). `label` is
    used only for a model it does not know.
    """
    loaded: list[tuple[type, str, Any]] = []
    for model, label, qs in histories:
        loaded.extend((model, label, rec) for rec in
                      qs.select_related("history_user").order_by("id", "history_date", "history_id"))
    names = _Names([(model, rec) for model, _label, rec in loaded])
    lines = []
    previous: dict[tuple[type, int], Any] = {}
    for model, label, rec in loaded:
        fields = LOGGED_FIELDS[model]
        before = previous.get((model, rec.id))
        changes = [(f, getattr(before, f) if before else None, getattr(rec, f))
                   for f in fields if before is None or getattr(before, f) != getattr(rec, f)]
        previous[(model, rec.id)] = rec
        if before is not None and not changes and rec.history_type == "~":
            continue  # a save that changed none of the shown fields (e.g. the version alone)
        what = {"+": _("created"), "~": _("changed"), "-": _("deleted")}[rec.history_type]
        text = "; ".join(f"{_field_name(model, f)}: {names.value(model, f, old)} → {names.value(model, f, new)}"
                         for f, old, new in changes if not (before is None and new in (None, "")))
        lines.append((rec.history_date, names.label(model, rec, label), what, _who(rec.history_user), text,
                      reason_words(rec.history_change_reason or "")))
    lines.sort(key=lambda line: line[0], reverse=True)
    if not lines:
        return str(_("No change recorded."))
    rows = format_html_join(
        "", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        ((localtime(d).strftime("%Y-%m-%d %H:%M:%S"), obj, what, who, text, reason)
         for d, obj, what, who, text, reason in lines[:limit]))
    return format_html("<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
                       "</tr></thead><tbody>{}</tbody></table>", _("when"), _("what"), _("change"), _("who"),
                       _("before → after"), _("reason"), rows)
