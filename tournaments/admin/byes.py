"""The requested-byes grid: a row per player, a column per round, one menu per cell (plays, absent 0,
bye +1, bye +2 as the player may have them), saved at once through tournaments.players.requested_byes.
Rounds already published are shown, not changed; a draft round can still take a bye (it is then paired
again from the control room). A grid read before another change is refused with what was typed kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from rules.numbers import number_or_none
from tournaments.admin import warnings
from tournaments.conformance import events
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, EntryStatus, Game, RoundStatus, Tournament
from tournaments.players import requested_byes
from tournaments.results import Result
from tournaments.rounds.round_control import Step

PLAYS = ""  # the menu's value for "he plays"
# What a cell says, by points (None: he plays). Short: twelve menus fit a phone's row.
CELL_WORDS = {
    None: gettext_lazy("plays"),
    0: gettext_lazy("absent 0"),
    1: gettext_lazy("bye +1"),
    2: gettext_lazy("bye +2"),
}


@dataclass
class Cell:
    round: int
    name: str  # the form field's name
    value: str  # "" (plays), "0", "1", "2": as stored, or as typed on a refused save
    choices: list[tuple[str, str]] = field(default_factory=list)  # empty: read-only
    text: str = ""  # a read-only cell's words
    changed: bool = False
    first: bool = False  # the grid's first menu: the page opens with the focus there
    past: bool = False  # a published or completed round: hidden on a phone, where only what changes shows


@dataclass
class Row:
    entry: Entry
    cells: list[Cell]


def cell_name(entry: Entry, number: int) -> str:
    return f"bye-{entry.pk}-{number}"


def _value(points: int | None) -> str:
    return PLAYS if points is None else str(points)


# A published round's cell: what the board gave him (a game, a bye of the pairing, a requested bye...).
BOARD_WORDS = {
    Result.BYE: gettext_lazy("pairing bye"),
    Result.EXCUSED: CELL_WORDS[0],
    Result.EXCUSED_DRAW: CELL_WORDS[1],
    Result.EXCUSED_WIN: CELL_WORDS[2],
    Result.NOT_PLAYED: gettext_lazy("not played"),
}


def _boards(tournament: Tournament) -> dict[tuple[int, int], str]:
    """(entry id, round) -> the words of his board in a published or completed round."""
    out: dict[tuple[int, int], str] = {}
    for white, black, number, result, status in Game.objects.filter(round__tournament=tournament).exclude(
            round__status=RoundStatus.DRAFT).values_list("white_id", "black_id", "round__number", "result",
                                                         "round__status"):
        if black is not None:
            out[(white, number)] = out[(black, number)] = str(
                _("played") if status == RoundStatus.COMPLETED else _("paired"))
        else:
            parsed = next((r for r in Result if r.value == result), None)
            out[(white, number)] = str(BOARD_WORDS.get(parsed, CELL_WORDS[None])) if parsed else "–"
    return out


def windows(tournament: Tournament, players: int) -> list[list[int]]:
    """The open rounds in groups small enough for one page's form (Django's field limit, with room for the
    rest of the form): one group unless the field is very large."""
    budget = max(1, settings.DATA_UPLOAD_MAX_NUMBER_FIELDS - 50)
    per = max(1, budget // max(1, players))
    open_ = requested_byes.open_rounds(tournament)
    return [open_[i:i + per] for i in range(0, len(open_), per)] or [[]]


def grid_rows(tournament: Tournament, posted: Any = None, shown: list[int] | None = None) -> list[Row]:
    """The grid as stored, or with the values a refused save posted (what was typed is never lost); `shown`:
    the rounds in view (default all)."""
    status = dict(tournament.rounds.values_list("number", "status"))
    boards = _boards(tournament)
    rows = []
    for entry in tournament.entries.select_related("player").order_by("pairing_number"):
        cells = []
        for number in shown if shown is not None else range(1, (tournament.rounds_total or 0) + 1):
            stored = _value(requested_byes.requested_points(entry, number))
            name = cell_name(entry, number)
            if status.get(number, RoundStatus.DRAFT) != RoundStatus.DRAFT:  # his board, or "–": he missed it
                cells.append(Cell(number, name, stored, text=boards.get((entry.pk, number), "–"), past=True))
            elif entry.gone_before(number):
                cells.append(Cell(number, name, stored, text="–"))
            else:
                allowed = requested_byes.allowed_points(entry)
                # A value stored before the regulations excluded him stays offered: saving the grid keeps it.
                kept = [int(stored)] if stored != PLAYS and int(stored) not in allowed else []
                choices = [(PLAYS, str(CELL_WORDS[None]))] + [
                    (str(p), str(CELL_WORDS[p])) for p in sorted(allowed + kept)]
                value = posted.get(name, stored) if posted is not None else stored
                if value not in {c for c, _w in choices}:
                    value = stored
                cells.append(Cell(number, name, value, choices, changed=value != stored))
        rows.append(Row(entry, cells))
    first = next((c for row in rows for c in row.cells if c.choices), None)
    if first is not None:
        first.first = True
    return rows


def wanted(rows: list[Row], posted: Any) -> dict[int, dict[int, int | None]]:
    """Every editable cell as posted: by entry id, by round, None or the points."""
    out: dict[int, dict[int, int | None]] = {}
    for row in rows:
        for cell in row.cells:
            if cell.choices and cell.name in posted:
                raw = posted[cell.name]
                if raw not in {c for c, _w in cell.choices}:
                    raise DomainError(_("%(player)s, round %(round)s: “%(value)s” is not a choice of this cell.")
                                      % {"player": row.entry.player, "round": cell.round, "value": raw})
                out.setdefault(row.entry.pk, {})[cell.round] = None if raw == PLAYS else int(raw)
    return out


def changes_words(changes: list[requested_byes.Change]) -> str:
    return "; ".join(_("%(player)s, round %(round)s: %(old)s → %(new)s")
                     % {"player": c.entry.player.full_name, "round": c.round, "old": CELL_WORDS[c.old],
                        "new": CELL_WORDS[c.new]} for c in changes)


def out_of_round_line(tournament: Tournament, number: int) -> str:
    """"Out of round 4: Sørensen (+1), Kouadio (+2)": who the pairing of round `number` leaves out."""
    out = requested_byes.out_of_round(tournament, number)
    if not out:
        return ""
    names = ", ".join(f"{e.player.surname} ({'+' if points else ''}{points})" for e, points in out)
    return _("Out of round %(round)s: %(players)s") % {"round": number, "players": names}


def entry_summary(entry: Entry) -> str:
    """The entry page's line: "Round 2: bye +1; round 4: absent 0 · Change on the grid" (a link)."""
    grid = reverse("admin:tournaments_tournament_byes", args=[entry.tournament_id])
    back = reverse("admin:tournaments_entry_change", args=[entry.pk])
    rounds = sorted(entry.excused_rounds or [])
    words = "; ".join(_("round %(round)s: %(bye)s") % {"round": n, "bye": CELL_WORDS[requested_byes.requested_points(
        entry, n)]} for n in rounds) or _("none (he plays every round)")
    if entry.tournament.is_round_robin:
        return words
    return format_html('{} · <a href="{}?next={}">{}</a>', words, grid, back, _("set them on the grid"))


class ByeGridMixin:
    """Adds the requested-byes grid to TournamentAdmin."""

    admin_site: Any
    model: type[Tournament]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [path("<int:pk>/byes/", view(self.byes_view), name="tournaments_tournament_byes"),
                *super().get_urls()]  # type: ignore[misc]

    def byes_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]  # ControlRoomMixin's scoping
        control = reverse("admin:tournaments_tournament_control", args=[tournament.pk])
        posted = request.POST if request.method == "POST" else None
        version = posted.get("version", "") if posted is not None else requested_byes.grid_version(tournament)
        errors: list[str] = []
        to_confirm: Any = ""
        if posted is not None and not tournament.is_round_robin:
            try:
                changes = requested_byes.byes_save_grid(
                    tournament=tournament, wanted=wanted(grid_rows(tournament), posted), read_at=version,
                    confirmed=posted.getlist("confirm"), user=request.user)
            except events.NeedsConfirmation as exc:
                to_confirm = warnings.block(request, exc.warnings, field="confirm",
                                            ticked=posted.getlist("confirm"))
            except StaleEditError as exc:
                errors.append(str(exc))
                version = requested_byes.grid_version(tournament)  # the save again takes what is shown now
            except DomainError as exc:
                errors.append(str(exc))
            else:
                self._said(request, tournament, changes)
                back = posted.get("next", "")
                safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
                return HttpResponseRedirect(back if back and safe else control)
        groups = windows(tournament, tournament.entries.count())
        start = number_or_none((posted or request.GET).get("from")) or (groups[0][0] if groups[0] else 1)
        group = next((g for g in groups if start in g), groups[0])
        status = dict(tournament.rounds.values_list("number", "status"))
        past = [n for n in range(1, (tournament.rounds_total or 0) + 1) if n not in
                {r for g in groups for r in g}]
        shown = sorted(past + group) if len(groups) > 1 else None
        rows = grid_rows(tournament, posted if (errors or to_confirm) else None, shown)
        labels = dict(RoundStatus.choices)
        rounds = [(n, status.get(n, ""), labels.get(status.get(n, ""), ""))
                  for n in (shown or range(1, (tournament.rounds_total or 0) + 1))]
        return render(request, "admin/tournaments/tournament/byes.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "title": _("Requested byes: %(tournament)s") % {"tournament": tournament},
            "rows": rows, "rounds": rounds, "version": version, "errors": errors, "to_confirm": to_confirm,
            "round_robin": tournament.is_round_robin, "control": control,
            "any_past": any(s and s != RoundStatus.DRAFT for _n, s, _label in rounds),
            "next": request.GET.get("next", "") or (posted.get("next", "") if posted is not None else ""),
            "groups": [(g[0], g[-1], g is group) for g in groups] if len(groups) > 1 else [],
            "start": group[0] if group else "",
        })

    def _said(self, request: HttpRequest, tournament: Tournament, changes: list[requested_byes.Change]) -> None:
        if not changes:
            messages.info(request, _("Requested byes: nothing changed."))
            return
        messages.success(request, ngettext("Requested byes saved (%(n)s change): %(list)s.",
                                           "Requested byes saved (%(n)s changes): %(list)s.", len(changes))
                         % {"n": len(changes), "list": changes_words(changes)})
        if any(c.new == 2 for c in changes):
            messages.warning(request, _("A bye worth a win is not described by the competition rules: keep it "
                                        "exceptional. It is recorded in the TRF."))
        draft = tournament.rounds.filter(status=RoundStatus.DRAFT).order_by("-number").first()
        if draft is not None and any(c.round == draft.number for c in changes):
            messages.warning(request, _("Round %(n)s was paired as a draft before this change: pair it again "
                                        "(control room) so the pairing takes it in.") % {"n": draft.number})


# --- The control room's lines: who sits out the next round, a stale draft, the field's size ------------

STALE_WORDS = {
    "bye": gettext_lazy("%(player)s asked to sit out round %(round)s (%(bye)s), but the draft gives him a board."),
    "gone": gettext_lazy("%(player)s has left the tournament, but the draft still pairs him against an opponent."),
    "missing": gettext_lazy("%(player)s has no board in the draft (he entered after it was paired)."),
    "plays": gettext_lazy("%(player)s no longer sits out round %(round)s, but the draft leaves him out."),
}


def with_stale_draft(tournament: Tournament, room: Any) -> tuple[Any, list[str]]:
    """The control room with "Delete the draft" as a step of its own, and, when the draft no longer fits the
    roster (a bye, a withdrawal or an entry made after it was paired), "Pair round N again" first."""
    draft = room.draft
    if draft is None:
        return room, []
    delete = Step("delete_draft", draft.number, draft.version)
    alternatives = [s for s in room.alternatives if s.name != "delete_draft"] + [delete]
    stale = requested_byes.draft_stale(tournament)
    words = [str(STALE_WORDS[code]) % {"player": entry.player.full_name, "round": draft.number,
                                        "bye": CELL_WORDS[requested_byes.requested_points(entry, draft.number)]}
             for code, entry in stale]
    step = room.step
    if stale and step.name == "publish":
        again = next(s for s in alternatives if s.name == "pair_again")
        alternatives = [step] + [s for s in alternatives if s.name != "pair_again"]
        step = again
    return replace(room, step=step, alternatives=alternatives), words


def control_room_lines(tournament: Tournament, room: Any, stale: list[str]) -> dict[str, Any]:
    """What the control room adds for the byes: the grid's link, who is out of the round to pair (or of the
    draft), the draft's staleness, and the field counted without the players who left."""
    entries = list(tournament.entries.only("status"))
    gone = sum(1 for e in entries if e.status != EntryStatus.ACTIVE)
    number = room.draft.number if room.draft is not None else (room.step.round if room.step.name == "pair" else 0)
    return {
        "byes_url": "" if tournament.is_round_robin else reverse("admin:tournaments_tournament_byes",
                                                                 args=[tournament.pk]),
        "out_of_round": out_of_round_line(tournament, number) if number and not tournament.is_round_robin else "",
        "stale_draft": stale,
        "players_active": len(entries) - gone,
        "players_gone": gone,
        "last_round": room.step.round >= room.total,
        "late_entries": ", ".join(_("%(player)s (no. %(number)s)") % e.values for e in
                                  tournament.conformance_events.filter(code="late-entry").order_by("pk")),
    }
