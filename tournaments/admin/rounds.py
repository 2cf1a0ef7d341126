"""Rounds and games: fast result entry, the draft round's manual override, the pairing check."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin import confirm, team_results
from tournaments.admin import warnings as warnings_screen
from tournaments.admin.base import (
    ArbiterScopedAdmin,
    ScopedInline,
    change_log,
    differs_message,
    report_messages,
    run_service,
)
from tournaments.admin.boards import BoardReportsMixin, boards_context
from tournaments.admin.manual_pairing import ManualPairingMixin
from tournaments.admin.results_entry import PREFIX, GameFormSet, GameInlineForm
from tournaments.admin.sheets import (
    GameSheetsMixin,
    RoundSheetsMixin,
)
from tournaments.boards import codes as board_codes
from tournaments.boards import confirm as board_confirm
from tournaments.models import Entry, Game, GameSheet, Round, RoundStatus
from tournaments.pairing.model import CheckReport
from tournaments.rounds import draft_check, manual_pairing, pairing_bridge, result_entry, services
from tournaments.rounds.slip import KEYS


class GameInline(ScopedInline):
    """Results in a published round; in a draft round the arbiter may also swap or re-pair players."""

    model = Game
    form = GameInlineForm
    formset = GameFormSet
    extra = 0
    can_delete = False
    fields = ("board", "white", "black", "result", "loaded_version", "loaded_result")
    ordering = ("board",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is not None and obj.status == RoundStatus.DRAFT:
            return ("board", "result")  # results wait for the round's publication
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


def _colours(codes: str) -> str:
    letters = {"w": pgettext("colour initial", "W"), "b": pgettext("colour initial", "B")}
    return "".join(letters.get(c, c) for c in codes) or "·"


def _floats(side: draft_check.Side) -> str:
    return " ".join(f"{'↑' if way == 'u' else '↓'}{number}" for number, way in side.floats) or "·"


def check_cells(check: draft_check.BoardCheck | None) -> dict[str, str] | None:
    """A board's pairing check as the draft's table shows it: White – Black in each cell, as the players."""
    if check is None:
        return None

    def pair(text: Callable[[draft_check.Side], str]) -> str:
        return f"{text(check.white)} – {text(check.black) if check.black else '·'}"

    return {"points": pair(lambda s: str(s.points)), "group": str(check.group),
            "colours": pair(lambda s: _colours(s.colours)), "floats": pair(_floats)}


def key_legend() -> list[tuple[str, str]]:
    """The one-key codes as the page explains them (the script reads the same codes from the page)."""
    from tournaments.admin.results_entry import RESULT_LABELS

    return [(key, str(RESULT_LABELS[result])) for key, result in KEYS.items()]


@admin.register(Round)
class RoundAdmin(BoardReportsMixin, ManualPairingMixin, RoundSheetsMixin, ArbiterScopedAdmin):
    """The round page: results first (one key per board, a slip box), the round's details and history below."""

    change_form_template = "admin/tournaments/round/change_form.html"

    class Media:
        css = {"all": ["damier/admin.css"]}
        js = ["damier/round-entry.js"]

    list_display = ("__str__", "number", "date", "status", "game_count", "missing_results", "print_links")
    list_filter = ("tournament", "status")
    list_select_related = ("tournament",)
    inlines = [GameInline]
    # The pairing log and the history are long: the template folds them under the results.
    # The tournament is linked in the page's head (change_form.html): no row of its own.
    fields = ("number", "date", "status", "print_links")
    readonly_fields = ("number", "status", "print_links")
    actions = ["publish", "complete", "reopen", "delete_draft", "check_pairing"]
    broken_pairing = False  # set on a page's own copy (changeform_view) when its save left a broken pairing

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        rnd = self.get_object(request, unquote(object_id)) if object_id else None
        if rnd is None:
            return super().changeform_view(request, object_id, form_url, extra_context)
        context = {**self.round_context(rnd), **(extra_context or {})}
        # One page, one copy of this admin: what the save found (a broken pairing) reaches the page's messages
        # on the copy, never on the request nor on the admin every request shares.
        page = copy.copy(self)
        page.broken_pairing = False
        return super(RoundAdmin, page).changeform_view(request, object_id, form_url, context)

    def render_change_form(self, request: HttpRequest, context: dict[str, Any], add: bool = False,
                           change: bool = False, form_url: str = "", obj: Any = None) -> Any:
        from tournaments.admin.conformance import mark

        formsets = [f.formset for f in context.get("inline_admin_formsets", [])]
        posted = request.method == "POST"
        waiting = confirm.pending(*formsets)
        ticked = confirm.confirmed_codes(request.POST) if posted else frozenset()
        context["confirmation_block"] = confirm.block(request, waiting, ticked=ticked)
        # A completed round offers its correction's confirmation from the start, beside the reason: one save.
        # Once a save was refused for want of it, the refusal's screen (above) names the boards instead.
        context["correction_block"] = "" if obj is None or waiting else warnings_screen.correction_block(
            request, result_entry.correction_confirmations(obj), ticked=ticked)
        if obj is not None:
            context["conformance_mark"] = mark(obj.tournament)
            checks = draft_check.draft_boards(obj)
            context["draft_check"] = bool(checks)
            for formset in formsets[:1]:
                for form in formset.forms:
                    form.draft_check = check_cells(checks.get(form.instance.board))
                if obj.tournament.is_team:  # the boards grouped by match, with the match score
                    context.update(team_results.annotate(obj, formset.forms))
            context["rating_correction_possible"] = obj.status == RoundStatus.COMPLETED and \
                obj.tournament.rounds.filter(number__gt=obj.number).exists()
            context["rating_only_ticked"] = posted and request.POST.get("rating_only") == "1"
        return super().render_change_form(request, context, add, change, form_url, obj)

    def round_context(self, rnd: Round) -> dict[str, Any]:
        """The head of the page: the round's state, what is missing, where the next step is."""
        games = list(rnd.games.order_by("board").values_list("board", "result"))
        missing = [(i, board) for i, (board, result) in enumerate(games) if not result]
        try:
            control = reverse("admin:tournaments_tournament_control", args=[rnd.tournament_id])
        except NoReverseMatch:  # the control room comes with the round-lifecycle branch
            control = ""
        first_missing = ""
        if missing and rnd.status != RoundStatus.DRAFT:
            first_missing = f"id_{PREFIX}-{missing[0][0]}-result"
        return {
            "round": rnd, "round_status": rnd.get_status_display(), "n_games": len(games),
            "n_missing": len(missing), "missing_boards": [b for _i, b in missing][:12],
            "first_missing": first_missing, "control_url": control,
            "is_completed": rnd.status == RoundStatus.COMPLETED, "is_draft": rnd.status == RoundStatus.DRAFT,
            # The Manual link: a draft is checked as a pairing, a published round is where results go in.
            "manual_chapter": "pairing" if rnd.status == RoundStatus.DRAFT else "results",
            # The manual pairing phase: its page, and whether it is open.
            # (a team round has no pairing: its line-ups are on the team round's screen)
            "pairing_url": "" if rnd.tournament.is_round_robin or rnd.tournament.is_team else reverse(
                "admin:tournaments_round_pairing", args=[rnd.pk]),
            "pairing_edited": rnd.manual_edit_started_at is not None,
            # The next step offered where the last result was typed: no trip back to the control room.
            "can_complete": bool(control) and bool(games) and not missing
            and rnd.status == RoundStatus.PUBLISHED,
            "keys": key_legend(), "key_map": {key: result.value for key, result in KEYS.items()},
            "history": self.history_log(rnd), "explanation": manual_pairing.explanation(rnd),
            "tournament_url": reverse("admin:tournaments_tournament_change", args=[rnd.tournament_id]),
            # The models menu would put a dozen Tab stops before the first result; the breadcrumbs stay.
            "is_nav_sidebar_enabled": False,
            **boards_context(rnd),
        }

    def message_user(self, request: HttpRequest, message: Any, level: int = messages.INFO, extra_tags: str = "",
                     fail_silently: bool = False) -> None:
        # A save that leaves a broken pairing is no success: its warning (save_formset) says so instead.
        if level == messages.SUCCESS and self.broken_pairing:
            return
        super().message_user(request, message, level, extra_tags, fail_silently)

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
            '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("tournaments:scoresheets_pdf", args=args), _("score sheets (PDF)"),
            reverse("tournaments:slips_pdf", args=args), _("result slips (PDF)"),
            reverse("tournaments:pairings_pdf", args=args), _("pairings (PDF)"),
            reverse("tournaments:boards_pdf", args=args), _("find your board (PDF)"),
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
        rnd = form.instance
        entry = formset.entry()
        saved = result_entry.round_enter_results(round=rnd, entry=entry, user=request.user)
        board_confirm.reports_settle(saved.games)  # the players' reports: confirmed or overruled by this save
        # The admin's change message reads these three lists.
        formset.new_objects, formset.deleted_objects = [], []
        field = "rating_result" if entry.rating_only else "result"
        formset.changed_objects = [(game, [field]) for game in saved.games]
        for warning in saved.correction_warnings:
            messages.warning(request, warning)
        for notice in formset.notices:  # level 2: said, and kept in the tournament's events
            messages.warning(request, notice.line)
        formset.changed_objects += [(f.instance, ["white", "black"]) for f in formset.moved_forms()]
        if saved.report is not None:
            self._report_draft(request, rnd, saved.report)
        return None

    def _report_draft(self, request: HttpRequest, rnd: Round, report: CheckReport) -> None:
        """After a hand edit: a broken absolute criterion is a warning listing each one, never a success."""
        if not report.violations:
            report_messages(request, rnd, report)
            return
        self.broken_pairing = True
        items = format_html_join("", "<li>{}</li>", ((w,) for w in pairing_bridge.violation_words(rnd.tournament,
                                                                                              report.violations)))
        messages.warning(request, format_html(
            "{}<ul>{}</ul>{}",
            gettext("Round %(n)s saved as a draft, but its pairing breaks %(count)s absolute criteria:")
            % {"n": rnd.number, "count": len(report.violations)},
            items, gettext("Correct these boards before publishing the round.")))
        if report.differs:
            messages.warning(request, differs_message(rnd, report))

    def _each(self, request: HttpRequest, queryset: QuerySet[Round], func: Callable[[Round], object],
              done: Any) -> None:
        """Apply func to each selected round; `done` is the success message, with a %(round)s placeholder."""
        self.check_objects(request, queryset)
        for rnd in queryset.order_by("number"):
            run_service(request, lambda r=rnd: func(r), str(done) % {"round": rnd})

    @admin.action(description=_("Check the pairing (Swiss: absolute criteria, and what the engine would pair)"))
    def check_pairing(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self.check_objects(request, queryset)
        for rnd in queryset.select_related("tournament"):
            if rnd.tournament.is_round_robin:
                messages.info(request, gettext("%(round)s: a round robin follows the Berger tables.") % {"round": rnd})
                continue
            report_messages(request, rnd, pairing_bridge.check_round(rnd.tournament, rnd.number))

    @admin.action(description=_("Publish the round"))
    def publish(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        def publish(rnd: Round) -> Round:
            if rnd.tournament.is_team:  # a team round's games come from its line-ups
                from tournaments.admin.team_lineups import publish_team_round

                published = publish_team_round(rnd, None, request.user)
            else:
                published = services.round_publish(round=rnd)
            board_codes.codes_issue(tournament=rnd.tournament)  # the players' codes for reporting results
            return published

        self._each(request, queryset, publish, _("%(round)s: published."))

    @admin.action(description=_("Complete the round (all results in)"))
    def complete(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_complete(round=r), _("%(round)s: completed."))

    @admin.action(description=_("Reopen the round to correct a result"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_reopen(round=r), _("%(round)s: reopened."))

    @admin.action(description=_("Delete a draft round (to pair it again)"))
    def delete_draft(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        self._each(request, queryset, lambda r: services.round_delete_draft(round=r),
                   _("%(round)s: deleted."))


@admin.register(Game)
class GameAdmin(GameSheetsMixin, ArbiterScopedAdmin):
    tournament_lookup = "round__tournament"
    list_display = ("__str__", "round", "board", "white", "black", "result")
    list_filter = ("round__tournament", "round__number", "result")
    list_select_related = ("round__tournament", "white__player", "black__player")
    search_fields = ("white__player__surname", "black__player__surname")
    # The rating-report correction beside the result that paired and ranked.
    fields = ("round", "board", "white", "black", "result", "rating_result", "history_log")
    readonly_fields = ("round", "board", "white", "black", "result", "rating_result", "history_log")

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

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        # Nothing on this page is typed (results are entered on the round's page, through the services): the
        # row is not written back as it was read, which would undo a result saved in between.
        return None
