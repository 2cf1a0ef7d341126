"""The game-sheet parts of the arbiter's admin, as mixins the round, game and tournament admins take in.

Every view and action here checks the arbiter through the scoped admin's own helpers (`_allowed`,
`check_objects`, `get_queryset`), so an arbiter reaches only his tournaments' sheets. Writes go through
tournaments.sheets; a refused upload or acceptance becomes a message and stores nothing.

A round's upload is two steps: the preview (nothing stored) and the confirmation, which stores the
matched games. Between the two the file's decoded text travels in a signed hidden field, so the
confirmed text is exactly the one previewed and cannot be altered in the browser.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.numbers import number_or_none
from tournaments import sheets
from tournaments.admin.base import run_service
from tournaments.models import Game, GameSheet, Round, Tournament
from tournaments.permissions import can_manage_or_list
from tournaments.sheets.words import issue_message, issue_where, sentence, severity_label, status_label

# A sign beside the words, so the status never rests on colour (the colours: static/damier/admin-a11y.css).
_STATUS_SIGNS = {"verified": "✓", "not_verifiable": "○", "irregular": "⚠", "mismatch": "⚠", sheets.MISSING: "–"}


def status_badge(game: Game) -> str:
    """The sheet's status, with the recorded result and the sheet's side by side when they differ."""
    status = sheets.game_sheet_status(game)
    if not status:
        return "–"
    sheet = game.sheet if status != sheets.MISSING else None
    label = status_label(status)
    if sheet is not None and sheet.needs_look and status not in sheets.NEEDS_LOOK:
        label += " ⚑ " + gettext("to look at")
    extra = ""
    if sheet is not None and sheet.sheet_result and sheet.sheet_result != game.result:
        extra = " " + gettext("(recorded %(recorded)s, sheet %(sheet)s)") % {
            "recorded": game.result or "–", "sheet": sheet.sheet_result}
    title = sentence(sheet.report) if sheet is not None else _("No sheet uploaded for this game.")
    return format_html('<span class="dm-status dm-status-{}" title="{}"><span aria-hidden="true">{}</span> {}</span>{}',
                       status, title, _STATUS_SIGNS.get(status, ""), label, extra)


# --- Forms -------------------------------------------------------------------------------------


class SheetUploadForm(forms.Form):
    file = forms.FileField(label=_("PDN file"), required=False)
    text = forms.CharField(label=_("or paste the PDN text"), required=False,
                           widget=forms.Textarea(attrs={"rows": 10, "cols": 80,
                                                        # never wider than a phone's screen
                                                        "style": "max-width:100%;box-sizing:border-box"}))
    replace = forms.BooleanField(label=_("Replace the sheet already stored"), required=False)
    assign = forms.BooleanField(
        label=_("Store it for this board even if the names on the sheet do not match (you assign it)"),
        required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a file or paste the PDN text."))
        return data

    def payload(self) -> tuple[bytes | str, str]:
        upload = self.cleaned_data.get("file")
        if upload:
            limit = sheets.max_bytes()
            return upload.read(limit + 1), upload.name  # one byte over the limit is enough to refuse
        return self.cleaned_data["text"], gettext("pasted text")


class RoundUploadForm(forms.Form):
    file = forms.FileField(label=_("PDN file with the round's games"))
    replace = forms.BooleanField(label=_("Replace sheets already stored"), required=False)


def _signer(rnd: Round) -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=f"damier.sheets.round.{rnd.pk}")


def _pack(rnd: Round, preview: sheets.RoundImport, replace: bool) -> str:
    upload = preview.upload
    return _signer(rnd).sign_object({"t": upload.text, "n": upload.source_name, "e": upload.encoding,
                                     "r": replace}, compress=True)


def _unpack(request: HttpRequest, rnd: Round) -> dict[str, Any] | None:
    """The file a signed preview carries; None, with the message, when it expired or was altered."""
    try:
        packed: dict[str, Any] = _signer(rnd).unsign_object(request.POST.get("payload", ""), max_age=3600)
    except signing.BadSignature:
        messages.error(request, gettext("The preview expired or was altered: upload the file again."))
        return None
    return packed


def _preview_again(rnd: Round, packed: dict[str, Any]) -> sheets.RoundImport:
    return sheets.round_import_preview(round=rnd, data=packed["t"], source_name=packed["n"], replace=bool(packed["r"]))


def _assignments(request: HttpRequest) -> dict[int, int]:
    """{game index in the file: board} from the preview's "give to board" choices."""
    out = {}
    for key, value in request.POST.items():
        index, board = number_or_none(key[7:]), number_or_none(value)
        if key.startswith("assign-") and index is not None and board is not None:
            out[index] = board
    return out


PREVIEW_PAGE = 200  # rows of the preview on one page: an 80,000-game file must not make a 17 MB page


def _preview_page(request: HttpRequest, preview: sheets.RoundImport | None) -> Any:
    """The rows to show: every unmatched game first (each needs the arbiter), then the matched, paged."""
    if preview is None:
        return None
    rows = preview.unmatched + preview.matched
    number = request.POST.get("page") or request.GET.get("page") or 1
    return Paginator(rows, PREVIEW_PAGE).get_page(number)


def _free_boards(rnd: Round, preview: sheets.RoundImport) -> list[Game]:
    """Boards an unmatched game can be given to: games of the round (not byes) no game of the file took."""
    taken = {item.match.game_id for item in preview.matched}
    return [g for g in rnd.games.select_related("white__player", "black__player").order_by("board")
            if g.black_id is not None and g.pk not in taken]


# --- Mixins for the ModelAdmins ----------------------------------------------------------------


class GameSheetInline(admin.StackedInline):
    """The game's sheet on the game page, read only: it changes by upload, never by hand."""

    model = GameSheet
    extra = 0
    can_delete = False
    fields = ("status", "sheet_result", "summary", "source_name", "encoding", "uploaded_at", "uploaded_by", "text")
    readonly_fields = fields

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_manage_or_list(request.user, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class NeedsLookFilter(admin.SimpleListFilter):
    title = _("game sheet")
    parameter_name = "sheet"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("look", _("Needs a look")), ("verified", _("Verified")),
                ("not_verifiable", _("Not verifiable")), ("irregular", _("Irregular")),
                ("mismatch", _("Mismatch")), ("missing", _("Missing"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if value == "look":
            return queryset.filter(sheets.needs_look_q())
        if value == "missing":
            return queryset.filter(sheet__isnull=True, black__isnull=False).exclude(
                result__in=sheets.NO_BOARD_RESULTS)
        if value:
            return queryset.filter(sheet__status=value)
        return queryset


class _ExtraActions:
    """Adds this mixin's actions without touching the ModelAdmin's own `actions` list."""

    sheet_actions: tuple[str, ...] = ()

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)  # type: ignore[misc]
        if actions is not None and self.has_view_permission(request):  # type: ignore[attr-defined]
            for name in self.sheet_actions:
                action = self.get_action(name)  # type: ignore[attr-defined]
                if action is not None:
                    actions[name] = action
        return actions


def _pdn_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/x-pdn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class GameInlineSheetMixin:
    """The sheet status column of the games on the round page."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_fields(request, obj), "sheet_column"]  # type: ignore[misc]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "sheet_column"]  # type: ignore[misc]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("sheet")  # type: ignore[misc]

    @admin.display(description=_("game sheet"))
    def sheet_column(self, obj: Game) -> str:
        if not obj.pk:
            return "–"
        link = reverse("admin:tournaments_game_sheet", args=[obj.pk])
        return format_html('{} · <a href="{}">{}</a>', status_badge(obj), link, _("sheet"))


class GameSheetsMixin(_ExtraActions):
    """Game pages: status column, the "needs a look" filter, the sheet page, accepting the sheet's result."""

    sheet_actions = ("accept_sheet_result",)

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        return [*super().get_list_display(request), "sheet_status"]  # type: ignore[misc]

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return [NeedsLookFilter, *super().get_list_filter(request)]  # type: ignore[misc]

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[Any]:
        return [*super().get_inlines(request, obj), GameSheetInline]  # type: ignore[misc]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("sheet")  # type: ignore[misc]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_fields(request, obj), "sheet_link"]  # type: ignore[misc]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "sheet_link"]  # type: ignore[misc]

    @admin.display(description=_("game sheet"))
    def sheet_status(self, obj: Game) -> str:
        return status_badge(obj)

    @admin.display(description=_("game sheet"))
    def sheet_link(self, obj: Game) -> str:
        link = reverse("admin:tournaments_game_sheet", args=[obj.pk])
        return format_html('{} · <a href="{}">{}</a>', status_badge(obj), link, _("upload, compare, accept"))

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.sheet_view)  # type: ignore[attr-defined]
        return [path("<int:pk>/sheet/", view, name="tournaments_game_sheet"), *super().get_urls()]  # type: ignore[misc]

    def sheet_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        game = get_object_or_404(self.get_queryset(request).select_related(  # type: ignore[attr-defined]
            "round__tournament", "white__player", "black__player"), pk=pk)
        if not self._allowed(request, game):  # type: ignore[attr-defined]
            raise PermissionDenied
        form = SheetUploadForm()
        if request.method == "POST" and "rule" in request.POST:
            version = request.POST.get("sheet_version", "")
            run_service(request, lambda: sheets.sheet_accept_verdict(
                game=game, expected_version=number_or_none(version), user=request.user),
                gettext("Board %(board)s: verdict accepted; the public game page now shows it.")
                % {"board": game.board},
                refused=gettext("Not accepted: %(why)s"))
            return HttpResponseRedirect(request.path)
        if request.method == "POST" and "accept" in request.POST:
            version = request.POST.get("version", "")
            run_service(request, lambda: sheets.sheet_accept_result(
                game=game, expected_version=number_or_none(version), user=request.user),
                gettext("Board %(board)s: the sheet's result is now the recorded result.") % {"board": game.board},
                refused=gettext("Not accepted: %(why)s"))
            return HttpResponseRedirect(request.path)
        if request.method == "POST":
            form = SheetUploadForm(request.POST, request.FILES)
            if form.is_valid():
                data, name = form.payload()
                if run_service(request, lambda: sheets.sheet_upload(
                        game=game, data=data, source_name=name, user=request.user,
                        replace=form.cleaned_data["replace"], assign=form.cleaned_data["assign"]),
                        lambda sheet: gettext("Sheet stored for board %(board)s: %(status)s.")
                        % {"board": game.board, "status": status_label(sheet.status)},
                        refused=gettext("Nothing stored: %(why)s")):
                    return HttpResponseRedirect(request.path)
        game = Game.objects.select_related("round__tournament", "white__player", "black__player", "sheet").get(pk=pk)
        sheet = game.sheet if sheets.game_sheet_status(game) not in ("", sheets.MISSING) else None
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,  # type: ignore[attr-defined]
                   "game": game, "sheet": sheet, "form": form, "badge": status_badge(game),
                   "verdict": sentence(sheet.report) if sheet else "",
                   "issues": [{**i, "where": issue_where(i), "severity": severity_label(i.get("severity", "")),
                               "message": issue_message(i)}
                              for i in (sheet.report.get("replay", {}).get("issues", []) if sheet else [])],
                   "title": f"{game} – {_('game sheet')}"}
        return render(request, "admin/tournaments/game/sheet.html", context)

    @admin.action(description=_("Accept the sheet's result (competition rules 5.5)"))
    def accept_sheet_result(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        """A confirmation page first, listing what each board's result becomes; its form carries the
        version of each game as shown, so a result changed meanwhile by another arbiter is refused for that
        board (as the single save does), never overwritten."""
        self.check_objects(request, queryset)  # type: ignore[attr-defined]
        games = list(queryset.select_related("round", "sheet", "white__player", "black__player")
                     .order_by("round__number", "board"))
        if "confirm_accept" not in request.POST:
            context = {**self.admin_site.each_context(request), "opts": self.model._meta,  # type: ignore[attr-defined]
                       "games": games, "action": "accept_sheet_result",
                       "title": _("Accept the sheet's result (competition rules 5.5)"),
                       "selected": [g.pk for g in games]}
            return render(request, "admin/tournaments/game/accept_sheets.html", context)
        for game in games:
            version = number_or_none(request.POST.get(f"version-{game.pk}"))
            if version is None:
                messages.error(request, _("Board %(board)s of round %(round)s: not accepted, the page did not "
                                          "say which version was shown; try again.")
                               % {"board": game.board, "round": game.round.number})
                continue
            run_service(request, lambda g=game, v=version: sheets.sheet_accept_result(game=g, expected_version=v),
                        _("Board %(board)s of round %(round)s: the sheet's result is now the recorded result.")
                        % {"board": game.board, "round": game.round.number},
                        refused=gettext("Not accepted: %(why)s"))
        return None


_WITH_SHEET_COLUMN: dict[type, type] = {}


def _with_sheet_column(inline: type) -> type:
    # A subclass, so the column is added whatever the games inline itself overrides.
    if inline not in _WITH_SHEET_COLUMN:
        _WITH_SHEET_COLUMN[inline] = type(f"{inline.__name__}WithSheets", (GameInlineSheetMixin, inline), {})
    return _WITH_SHEET_COLUMN[inline]


class RoundSheetsMixin(_ExtraActions):
    """Round pages: the sheet column of the games, the round's PDN upload (preview, then confirm), export."""

    sheet_actions = ("export_round_pdn",)

    def get_inlines(self, request: HttpRequest, obj: Any) -> list[Any]:
        inlines = super().get_inlines(request, obj)  # type: ignore[misc]
        return [_with_sheet_column(i) if getattr(i, "model", None) is Game else i for i in inlines]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = [*super().get_fields(request, obj)]  # type: ignore[misc]
        return [*fields, "sheets_panel"] if obj is not None else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "sheets_panel"]  # type: ignore[misc]

    @admin.display(description=_("game sheets"))
    def sheets_panel(self, obj: Round) -> str:
        look = obj.games.filter(sheets.needs_look_q()).count()
        counts = _("%(sheets)s with a sheet, %(look)s need a look") % {
            "sheets": obj.games.filter(sheet__isnull=False).count(), "look": look}
        return format_html(
            '{} · <a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>', counts,
            reverse("admin:tournaments_round_sheets", args=[obj.pk]), _("upload the round's PDN"),
            reverse("admin:tournaments_game_changelist") + f"?round__id__exact={obj.pk}&sheet=look",
            _("games needing a look"),
            reverse("admin:tournaments_round_pdn", args=[obj.pk]), _("export PDN"))

    def get_urls(self) -> list[Any]:
        site = self.admin_site  # type: ignore[attr-defined]
        return [path("<int:pk>/sheets/", site.admin_view(self.sheets_view), name="tournaments_round_sheets"),
                path("<int:pk>/games.pdn", site.admin_view(self.pdn_view), name="tournaments_round_pdn"),
                *super().get_urls()]  # type: ignore[misc]

    def _round(self, request: HttpRequest, pk: int) -> Round:
        rnd = get_object_or_404(self.get_queryset(request).select_related("tournament"), pk=pk)  # type: ignore[attr-defined]
        if not self._allowed(request, rnd):  # type: ignore[attr-defined]
            raise PermissionDenied
        return rnd

    def pdn_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        rnd = self._round(request, pk)
        text = sheets.export_pdn(rnd.tournament, round=rnd, public_only=False)
        return _pdn_response(text, f"{rnd.tournament.slug}-round-{rnd.number}.pdn")

    def sheets_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        rnd = self._round(request, pk)
        form = RoundUploadForm()
        preview = None
        signed = ""
        assigned: dict[int, int] = {}
        signed_post = request.method == "POST" and ("confirm" in request.POST or "payload" in request.POST)
        packed = _unpack(request, rnd) if signed_post else None
        if signed_post and packed is None:
            return HttpResponseRedirect(request.path)  # the preview expired or was altered (said by _unpack)
        if packed is not None and "confirm" in request.POST:
            assigned = _assignments(request)
            ran = run_service(request, lambda: sheets.round_import_store(
                round=rnd, data=packed["t"], source_name=packed["n"], replace=bool(packed["r"]), user=request.user,
                assignments=assigned), lambda done: gettext("%(n)s sheet(s) stored for round %(round)s.")
                % {"n": len(done[1]), "round": rnd.number}, refused=gettext("Nothing stored: %(why)s"))
            if not ran or ran.value is None:
                # The preview is shown again with the arbiter's choices, and what went wrong.
                preview = _preview_again(rnd, packed)
                signed = request.POST.get("payload", "")
            else:
                preview = ran.value[0]
                if preview.skipped:
                    messages.warning(request, gettext("Not stored, a sheet arrived since the preview: board(s) "
                                                      "%(boards)s.") % {"boards": ", ".join(map(str, preview.skipped))})
                return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[rnd.pk]))
        elif packed is not None:
            # Another page of the preview: the same signed text, read again.
            preview = _preview_again(rnd, packed)
            signed = request.POST.get("payload", "")
        elif request.method == "POST":
            form = RoundUploadForm(request.POST, request.FILES)
            if form.is_valid():
                upload = form.cleaned_data["file"]
                preview = run_service(request, lambda: sheets.round_import_preview(
                    round=rnd, data=upload.read(sheets.max_bytes() + 1), source_name=upload.name,
                    replace=form.cleaned_data["replace"]), refused=gettext("Nothing stored: %(why)s")).value
                if preview is not None:
                    signed = _pack(rnd, preview, form.cleaned_data["replace"]) if preview.items else ""
        page = _preview_page(request, preview)
        boards = [] if preview is None else _free_boards(rnd, preview)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,  # type: ignore[attr-defined]
                   "round": rnd, "form": form, "preview": preview, "payload": signed, "page": page,
                   "boards": boards, "assigned": assigned,
                   "title": gettext("%(round)s – upload the game sheets") % {"round": rnd}}
        return render(request, "admin/tournaments/round/sheets.html", context)

    @admin.action(description=_("Export the round's games (PDN)"))
    def export_round_pdn(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse:
        self.check_objects(request, queryset)  # type: ignore[attr-defined]
        parts = [sheets.export_pdn(rnd.tournament, round=rnd, public_only=False)
                 for rnd in queryset.select_related("tournament").order_by("tournament", "number")]
        return _pdn_response("\n".join(p for p in parts if p), "rounds.pdn")


class TournamentSheetsMixin(_ExtraActions):
    sheet_actions = ("export_tournament_pdn",)

    @admin.action(description=_("Export the games (PDN)"))
    def export_tournament_pdn(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        self.check_objects(request, queryset)  # type: ignore[attr-defined]
        parts = [sheets.export_pdn(t, public_only=False) for t in queryset]
        name = f"{queryset[0].slug}.pdn" if len(parts) == 1 else "tournaments.pdn"
        return _pdn_response("\n".join(p for p in parts if p), name)
