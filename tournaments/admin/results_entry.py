"""The round page's result form: one row per board, the slip box, the reason for a correction.

A wrong value never costs the arbiter what he typed: the form is checked as a whole before anything is
written (all or nothing, as one slip is one decision), and comes back with every value as typed, the
wrong rows marked and named. A board another arbiter changed meanwhile is refused once with its new
value shown; saving again records the arbiter's value over it, knowingly.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.forms.models import BaseInlineFormSet
from django.http import QueryDict
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.numbers import number_or_none
from tournaments import sheets, words
from tournaments.admin import warnings as warnings_screen
from tournaments.conformance.policy import Level, Warning, unconfirmed
from tournaments.errors import DomainError
from tournaments.models import Game, Round, RoundStatus, SheetStatus
from tournaments.players import requested_byes
from tournaments.results import SINGLE_PLAYER_RESULTS, TWO_PLAYER_RESULTS, Result
from tournaments.rounds import postponed
from tournaments.rounds import slip as slips
from tournaments.rounds.result_entry import ResultEntry, TypedResult

PREFIX = "games"  # the games inline's formset prefix (Game.round's related name)

# The choices' words, in the arbiter's language: the shared labels (tournaments.words), with the played results
# spelled out for the key legend; the stored values stay the FMJD notation.
RESULT_LABELS: dict[Result, Any] = {
    **words.RESULT_LABELS,
    Result.WHITE_WINS: _("2-0 (White wins)"),
    Result.DRAW: _("1-1 (draw)"),
    Result.BLACK_WINS: _("0-2 (Black wins)"),
}
# In the menus the played results are the notation alone, so that a phone's narrow menu shows them whole;
# the key legend above the table says what each one means.
SHORT = {Result.WHITE_WINS: "2-0", Result.DRAW: "1-1", Result.BLACK_WINS: "0-2",
         # The requested byes as the bye grid names them: the long words were cut in the menu.
         Result.EXCUSED_DRAW: _("Requested bye +1"), Result.EXCUSED_WIN: _("Requested bye +2")}


# A sheet's status in words and a sign, so that neither colour nor a hover title is needed to read it.
# The words are the sheet statuses' own labels, so the round page and the sheet pages say the same thing.
SHEET_LABELS: dict[str, tuple[str, Any]] = {
    SheetStatus.VERIFIED: ("✓", SheetStatus.VERIFIED.label),
    SheetStatus.NOT_VERIFIABLE: ("○", SheetStatus.NOT_VERIFIABLE.label),
    SheetStatus.IRREGULAR: ("⚠", SheetStatus.IRREGULAR.label), SheetStatus.MISMATCH: ("⚠", SheetStatus.MISMATCH.label),
    sheets.MISSING: ("–", _("missing")),
}


@dataclass(frozen=True)
class SheetCell:
    status: str  # the css class: dm-sheet-<status>
    sign: str
    label: str
    detail: str  # the sheet's summary, or the recorded and the sheet's result when they differ
    url: str


def sheet_cell(game: Game) -> SheetCell | None:
    status = sheets.game_sheet_status(game)
    if not status:
        return None
    sign, label = SHEET_LABELS.get(status, ("", status.replace("_", " ")))
    sheet = game.sheet if status != sheets.MISSING else None
    detail = ""
    if sheet is not None and sheet.sheet_result and sheet.sheet_result != game.result:
        detail = gettext("recorded %(recorded)s, sheet %(sheet)s") % {"recorded": game.result or "–",
                                                                 "sheet": sheet.sheet_result}
    elif sheet is not None and sheet.needs_look and status not in sheets.NEEDS_LOOK:
        detail = gettext("needs a look")
    return SheetCell(status, sign, str(label), detail, reverse("admin:tournaments_game_sheet", args=[game.pk]))


def allowed_results(game: Game) -> list[Result]:
    """What the service accepts on this board: single-player results on a bye, the others on a game."""
    if game.is_bye:
        return [*SINGLE_PLAYER_RESULTS, Result.NOT_PLAYED]
    # "not played" (a withdrawal's) last, after the arbiter's rulings, the games not rated and postponed
    return [r for r in TWO_PLAYER_RESULTS if r is not Result.NOT_PLAYED] + [Result.NOT_PLAYED]


def result_warnings(game: Game, typed: str) -> list[Warning]:
    """The checklist's warnings the typed result would give (a postponed game that is not a draw, a requested
    bye); a refusal (a player excluded from byes worth a draw) raises DomainError."""
    if not typed or typed not in Result._value2member_map_:
        return []
    new = Result(typed)
    warnings = postponed.result_warnings(game, new)
    if new.is_requested_bye and game.is_bye:
        warnings += requested_byes.bye_warnings(game.white, game.round.number, new, game_id=game.pk)
    return warnings


def stored_result(form: forms.ModelForm) -> str:  # type: ignore[type-arg]
    """The result the board had when the page was made (a bound form has already changed its instance)."""
    return str(form.initial.get("result", form.instance.result) or "")


def players_of(game: Game) -> str:
    black = game.black.player if game.black_id and game.black else gettext("bye")
    return f"{game.white.player} – {black}"


def kind_of(game: Game) -> str:
    return gettext("a bye") if game.is_bye else gettext("a game between two players")


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
        game = self.instance
        if not game.pk:
            return
        self.initial["loaded_version"] = game.version
        self.initial["loaded_result"] = "=" + game.result
        names = {"board": game.board, "players": players_of(game)}
        if "result" in self.fields:
            result = self.fields["result"]
            result.choices = [("", gettext("no result"))] + [(r.value, SHORT.get(r, RESULT_LABELS[r]))
                                                              for r in allowed_results(game)]
            result.error_messages["invalid_choice"] = gettext(
                "Board %(board)s: “%%(value)s” is not a result for %(kind)s.") % {
                    "board": game.board, "kind": kind_of(game)}
            result.widget.attrs.update({
                "class": "dm-result", "data-board": str(game.board), "data-bye": "1" if game.is_bye else "",
                # A screen reader names the menu by its board and players, not "combo box, ---".
                "aria-label": gettext("Board %(board)s: %(players)s, result") % names,
                "aria-describedby": "dm-keys",
            })
        for side, label in (("white", gettext("Board %(board)s, White") % names),
                            ("black", gettext("Board %(board)s, Black") % names)):
            if side in self.fields:
                field = self.fields[side]
                # The plain menu, without the admin's add/change links: they would sit between two boards.
                field.widget = getattr(field.widget, "widget", field.widget)
                field.widget.attrs["aria-label"] = label

    def _post_clean(self) -> None:
        # A board the arbiter did not touch is not saved: checking its row against the model again would cost
        # queries a board (its constraints) on every save of a hundred-board round.
        if self.instance.pk and not self.has_changed():
            return
        super()._post_clean()

    @cached_property
    def sheet(self) -> SheetCell | None:
        return sheet_cell(self.instance) if self.instance.pk else None

    def typed_result(self) -> str | None:
        """The result the arbiter changed on this page, or None when he left the board alone."""
        if "result" not in self.fields or "result" not in self.changed_data:
            return None
        data = getattr(self, "cleaned_data", {})
        if "result" not in data:
            return None
        value = data["result"] or ""
        loaded = data.get("loaded_result") or ""
        if loaded.startswith("=") and loaded[1:] == value:
            return None  # unchanged on this page: what another arbiter saved meanwhile stands
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = self.instance
        if not game.pk or "result" not in self.fields:
            return data
        typed = self.typed_result()
        loaded_version = data.get("loaded_version")
        stale = loaded_version is not None and loaded_version != game.version
        if typed is None:
            if stale and isinstance(self.data, QueryDict) and self.data._mutable:
                # Show what the other arbiter saved rather than the old value this page was loaded with.
                self.data[self.add_prefix("result")] = game.result
                self._loaded_now(game)
            return data
        if typed == "" and game.round.status == RoundStatus.COMPLETED:
            self.add_error("result", gettext("Board %(board)s: a completed round keeps a result on every board; "
                                        "choose the corrected one.") % {"board": game.board})
        elif stale:
            self.add_error("result", gettext(
                "Board %(board)s was changed by someone else since you opened the page (now %(now)s). Your "
                "value is kept here: save again to record it over theirs.") % {
                    "board": game.board, "now": game.result or gettext("no result")})
            self._loaded_now(game)
        return data

    def _loaded_now(self, game: Game) -> None:
        # The arbiter has now seen the other arbiter's value: the next save is checked against it.
        if isinstance(self.data, QueryDict) and self.data._mutable:
            self.data[self.add_prefix("loaded_version")] = str(game.version)
            self.data[self.add_prefix("loaded_result")] = "=" + game.result


@dataclass
class SlipOutcome:
    """What the slip box did to the posted table: values moved in, and what stays in the box."""

    applied: int = 0
    errors: list[str] = field(default_factory=list)  # one per item that stays in the box
    row_errors: dict[int, str] = field(default_factory=dict)  # form index -> message
    leftover: str = ""


def apply_slip(post: QueryDict, rnd: Round) -> tuple[QueryDict, SlipOutcome]:
    """The slip's results written into the posted table (a copy); items that cannot go in stay in the box."""
    data = post.copy()
    outcome = SlipOutcome()
    games = {g.pk: g for g in rnd.games.select_related("white__player", "black__player")}
    rows: dict[int, tuple[int, Game]] = {}
    for key in post:
        match = re.fullmatch(rf"{PREFIX}-([0-9]+)-id", key)
        pk, row = number_or_none(post[key]), number_or_none(match.group(1)) if match else None
        if row is not None and pk in games:
            game = games[pk]
            rows[game.board] = (row, game)
    left: list[str] = []

    def refuse(item: slips.SlipItem, message: str, index: int | None = None) -> None:
        left.append(item.text)
        outcome.errors.append(message)
        if index is not None:
            outcome.row_errors[index] = message

    for item in slips.parse_slip(post.get("slip", "")):
        quoted = {"item": item.text, "board": item.board}
        if item.error == slips.UNREADABLE:
            refuse(item, gettext("Slip: “%(item)s” is not “board result” (e.g. “3 2-0”).") % quoted)
            continue
        if item.error == slips.UNKNOWN_RESULT:
            refuse(item, gettext("Slip: “%(item)s”: not a result (2-0, 1-1, 0-2, 2F-0F, 0F-2F, 0F-0F).") % quoted)
            continue
        if item.board not in rows:
            refuse(item, gettext("Slip: “%(item)s”: this round has no board %(board)s.") % quoted)
            continue
        index, game = rows[item.board]
        if item.error == slips.TWICE:
            refuse(item, gettext("Slip: board %(board)s is given twice with different results.") % quoted, index)
            continue
        assert item.result is not None
        if rnd.status == RoundStatus.DRAFT:
            refuse(item, gettext("Slip: round %(round)s is a draft: publish it before entering results.")
                   % {"round": rnd.number})
            continue
        if item.result not in allowed_results(game):
            refuse(item, gettext("Board %(board)s: the slip says “%(result)s”, which is not a result for %(kind)s.")
                   % {"board": item.board, "result": item.result.value, "kind": kind_of(game)}, index)
            continue
        name = f"{PREFIX}-{index}-result"
        table = post.get(name, game.result)
        loaded = post.get(f"{PREFIX}-{index}-loaded_result") or ("=" + game.result)
        if table not in (loaded[1:], item.result.value):
            refuse(item, gettext("Board %(board)s: the slip says %(slip)s but the table says %(table)s; keep one.")
                   % {"board": item.board, "slip": item.result.value, "table": table}, index)
            continue
        data[name] = item.result.value
        outcome.applied += 1
    outcome.leftover = ", ".join(left)
    data["slip"] = outcome.leftover
    return data, outcome


class _LoadedGame(forms.ModelChoiceField):
    """A board's hidden id: the formset has already loaded every game of the round, so the id is looked up
    there, not with a query a board (a hundred boards made a hundred queries on every save)."""

    def __init__(self, known: dict[str, Game], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = known

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        found = self.known.get(str(value))
        return found if found is not None else super().to_python(value)


class GameFormSet(BaseInlineFormSet):
    """The boards of one round, checked together: the table, the slip (its results moved into the table, its
    refusals on their rows), a correction's reason. `entry()` is what was read, for the service to save."""

    def __init__(self, data: QueryDict | None = None, *args: Any, **kwargs: Any) -> None:
        self.slip = SlipOutcome()
        rnd = kwargs.get("instance")
        if data is not None:
            # The formset reads its own copy: the request's POST stays as it was posted.
            data = data.copy()
            if isinstance(rnd, Round) and rnd.pk and (data.get("slip") or "").strip():
                data, self.slip = apply_slip(data, rnd)
        super().__init__(data, *args, **kwargs)
        self.reason_error = ""
        self.confirm_error = ""
        self.warnings: list[Warning] = []  # what the typed results break (checked again by the service)
        self.to_confirm = SafeString("")  # the one warning screen, when a warning waits for its box

    @property
    def confirmed(self) -> list[str]:
        """The warnings' codes the arbiter ticked (the page asked him): the result warnings' boxes ("confirm")
        and the conformance corrections' ("confirmed", tournaments/admin/confirm.py)."""
        if not (self.is_bound and hasattr(self.data, "getlist")):
            return []
        return list(dict.fromkeys([*self.data.getlist("confirm"), *self.data.getlist("confirmed")]))

    @property
    def notices(self) -> list[warnings_screen.Row]:
        return [row for row in warnings_screen.rows(self.warnings) if row.level == Level.NOTICE]

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        name = self.model._meta.pk.name
        field = form.fields.get(name)
        if self.is_bound and type(field) is forms.ModelChoiceField:
            if not hasattr(self, "_known"):
                self._known = {str(game.pk): game for game in self.get_queryset()}
            form.fields[name] = _LoadedGame(self._known, field.queryset, initial=field.initial, required=False,
                                            widget=field.widget)

    @property
    def reason(self) -> str:
        return (self.data.get("correction_reason") or "").strip() if self.is_bound else ""

    @property
    def slip_text(self) -> str:
        return (self.data.get("slip") or "") if self.is_bound else ""

    def clean(self) -> None:
        super().clean()
        # The page changes the round's own boards and adds none (no extra form): a posted row without its
        # stored game (a game of another round, a row posted as new) is a forged or broken page.
        # (changed_data, not has_changed(): the admin says a new row without the add permission is unchanged)
        if any(f.changed_data and (f.instance.pk is None or f.instance.round_id != self.instance.pk)
               for f in self.forms):
            raise forms.ValidationError(gettext(
                "A row of the page is not a board of this round (the page was changed or is out of date): "
                "nothing was saved. Open the round again."))
        for index, message in self.slip.row_errors.items():
            if index < len(self.forms) and not self.forms[index].errors.get("result"):
                self.forms[index].add_error("result" if "result" in self.forms[index].fields else None, message)
        errors = [m for i, m in enumerate(self.slip.errors) if m not in self.slip.row_errors.values()]
        # a postponed game's result is no correction: it needs no reason, even in a completed round
        changed = any(getattr(f, "typed_result", lambda: None)() is not None
                      and stored_result(f) != Result.POSTPONED.value for f in self.forms)
        self._check_warnings(errors)
        if self.instance.status == RoundStatus.COMPLETED and changed and not self.reason:
            self.reason_error = gettext("Round %(round)s is completed: give the reason for the correction; the "
                                   "history keeps it.") % {"round": self.instance.number}
            errors.append(self.reason_error)
        # Every refusal of the page at once: a correction missing its reason and its confirmation comes back
        # once, with both named, not once for each.
        try:
            self.ask_conformance()
        except forms.ValidationError as exc:
            errors += exc.messages
        if errors:
            raise forms.ValidationError(errors)

    def moved_forms(self) -> list[forms.Form]:
        """The rows of a draft round whose players the arbiter changed."""
        return [f for f in self.forms if {"white", "black"} & set(f.changed_data)]

    def entry(self) -> ResultEntry:
        """What the valid page says to save: the results typed (table and slip), the boards re-paired."""
        results = []
        for form in self.forms:
            typed = form.typed_result()
            if typed is not None:
                results.append(TypedResult(form.instance, typed, form.cleaned_data.get("loaded_version")))
        boards = {f.instance.board: (f.cleaned_data["white"], f.cleaned_data.get("black")) for f in self.moved_forms()}
        return ResultEntry(results=results, boards=boards, reason=self.reason, rating_only=self.rating_only,
                           confirmed=self.confirmed)

    @property
    def rating_only(self) -> bool:
        return self.is_bound and self.data.get("rating_only") == "1"

    def ask_conformance(self) -> None:
        """In the conformance mode, a correction of the previous round asks a confirmation, one of an older
        round takes the tournament out of the mode, a correction for the rating report only asks one too."""
        from tournaments.admin import confirm
        from tournaments.rounds import corrections

        pending = []
        for form in self.forms:
            typed = getattr(form, "typed_result", lambda: None)()
            if typed is None or not form.instance.pk:
                continue
            # The stored game: the form has already put the typed value on its instance.
            stored = Game.objects.select_related("round__tournament").get(pk=form.instance.pk)
            if stored.result == Result.POSTPONED.value and not self.rating_only:
                continue  # a postponed game's real result completes the round; it corrects nothing
            pending += (corrections.rating_warnings(stored, typed) if self.rating_only
                        else corrections.warnings_for(stored, typed))
        confirm.ask(self, pending + self.round_robin_warnings())

    def round_robin_warnings(self) -> list[Warning]:
        """A round robin's draft re-paired on this page: the round robin's guard (rr_guard) on the round as
        it will stand, asked here so the page comes back with what was typed; the service asks it again."""
        from tournaments.rounds import rr_guard

        rnd = self.instance
        moved = [f for f in self.forms if hasattr(f, "cleaned_data") and {"white", "black"} & set(f.changed_data)]
        if rnd.status != RoundStatus.DRAFT or not moved or not rnd.tournament.is_round_robin:
            return []
        boards = rr_guard.round_boards(rnd)
        for form in moved:
            white, black = form.cleaned_data.get("white"), form.cleaned_data.get("black")
            if white is None:
                continue  # the form itself says White is missing
            boards[form.instance.board] = (white.pairing_number, black.pairing_number if black else None)
        try:
            return rr_guard.warnings_for(rnd, boards).warnings
        except DomainError as exc:
            raise forms.ValidationError(str(exc)) from None

    def _check_warnings(self, errors: list[str]) -> None:
        """A result the checklist warns about is saved only once each warning is confirmed: the page comes
        back with every value as typed and a box to tick per warning (level 3 and 4); a notice is shown."""
        self.warnings = []
        for form in self.forms:
            typed = form.typed_result() if hasattr(form, "cleaned_data") else None
            if typed is None or not form.instance.pk:
                continue
            # the form has already put the typed value on its instance: the warnings look at the stored one
            stored = copy.copy(form.instance)
            stored.result = stored_result(form)
            try:
                self.warnings += result_warnings(stored, typed)
            except DomainError as exc:
                form.add_error("result", str(exc))
        missing = unconfirmed(self.warnings, set(self.confirmed))
        if missing:
            self.to_confirm = warnings_screen.block(
                None, [w for w in self.warnings if w.level in (Level.CONFIRM, Level.LEAVE)], field="confirm",
                ticked=self.confirmed)
            self.confirm_error = gettext("Nothing was saved yet: confirm each warning below (tick its box), then "
                                         "save again.")
            errors.append(self.confirm_error)

    def full_clean(self) -> None:
        super().full_clean()
        for form in self.forms:
            if form.errors and "result" in form.fields and form.instance.pk:
                # The menu itself says it is wrong, and reads out why.
                form.fields["result"].widget.attrs.update({
                    "aria-invalid": "true", "aria-describedby": f"dm-err-{form.instance.board} dm-keys"})

    def error_summary(self) -> list[tuple[str, str]]:
        """(anchor, message) for every error of the page, so the top of the page links to each one."""
        out: list[tuple[str, str]] = []
        if not self.is_bound:
            return out
        from tournaments.admin.confirm import pending_message

        waiting = pending_message()
        for message in self.non_form_errors():
            target = ("id_correction_reason" if message == self.reason_error else
                      "dm-confirm" if message in (waiting, self.confirm_error) else "id_slip")
            out.append((target, str(message)))
        for form in self.forms:
            for name, messages in form.errors.items():
                target = form.add_prefix(name if name in form.fields else "result")
                out.extend((f"id_{target}", str(m)) for m in messages)
        return out
