"""The manual pairing phase in the admin: one page per round.

"Edit the pairing" opens the phase; the page then holds every board as two selects (White, Black), a
"Swap colours" button per board and the bye, all in one form that posts as it is (no script needed, by
keyboard, on a phone). A change that adds a breach comes back with the warnings, each with its level, its
consequence and a checkbox, the typed pairing kept; "Validate" compares the round with the engine's pairing
side by side and asks to confirm a difference. A round the engine cannot pair is created empty from the
control room (`by_hand_view`), behind its own confirmation.

The warnings are the one warning screen of the admin (tournaments/admin/warnings.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.numbers import number_or_none
from tournaments.admin import warnings
from tournaments.admin.base import run_service
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.conformance.words import describe
from tournaments.errors import DomainError
from tournaments.models import Entry, Round, RoundStatus, Tournament
from tournaments.pairing.state import build_states
from tournaments.permissions import can_manage
from tournaments.rounds import manual_pairing as mp
from tournaments.rounds import pairing_bridge


def warnings_block(request: HttpRequest, exc: events.NeedsConfirmation) -> SafeString:
    """The one warning screen, a box per breach: its key names the breach and its players (a rematch of 3
    and 8), so that confirming one rematch does not confirm the next."""
    return warnings.block(request, exc.warnings, field="confirm", required=True,
                          keys=getattr(exc, "keys", None) or [str(w.code) for w in exc.warnings])


class ManualPairingMixin:
    """Adds the manual pairing page and the by-hand round creation to RoundAdmin."""

    admin_site: Any
    model: type[Round]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<path:object_id>/pairing/", view(self.manual_pairing_view), name="tournaments_round_pairing"),
            path("by-hand/<int:tournament_pk>/", view(self.by_hand_view), name="tournaments_round_by_hand"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    # --- helpers ---------------------------------------------------------------------------------

    def _mp_round(self, request: HttpRequest, object_id: str) -> Round:
        rnd = self.get_object(request, unquote(object_id))  # type: ignore[attr-defined]
        if rnd is None:
            raise Http404(_("This round no longer exists."))
        if not self.has_change_permission(request, rnd):  # type: ignore[attr-defined]
            raise PermissionDenied
        return rnd

    def _mp_context(self, request: HttpRequest, rnd: Round, **extra: Any) -> dict[str, Any]:
        tournament = rnd.tournament
        return {**self.admin_site.each_context(request), "opts": self.model._meta, "round": rnd,
                "tournament": tournament, "is_nav_sidebar_enabled": False,
                "control_url": reverse("admin:tournaments_tournament_control", args=[tournament.pk]),
                "round_url": reverse("admin:tournaments_round_change", args=[rnd.pk]),
                "pairing_url": reverse("admin:tournaments_round_pairing", args=[rnd.pk]), **extra}

    def _mp_sheet(self, rnd: Round, typed: tuple[list[tuple[str, str]], str] | None = None) -> dict[str, Any]:
        """What the form shows: the boards (as stored, or as typed), the players' choices, who is left out."""
        entries = mp.entries_of(rnd.tournament)
        request = mp.request_for(rnd, entries)
        states = build_states(request)
        allowed = set(mp.to_pair(request))
        by_number = {e.pairing_number: e for e in entries}
        choices = [(str(by_number[n].pk), _player_label(by_number[n], states[n].score)) for n in sorted(allowed)]
        current = mp.current_pairing(rnd)
        if typed is None:
            rows = [(str(by_number[w].pk), str(by_number[b].pk)) for w, b in current.boards]
            bye = str(by_number[current.bye].pk) if current.bye is not None else ""
        else:
            rows, bye = typed
        size = max(len(allowed) // 2, len(rows))
        rows = rows + [("", "")] * (size - len(rows))
        placed = {v for row in rows for v in row if v} | ({bye} if bye else set())
        left_out = [label for value, label in choices if value not in placed]
        fixed = [g for g in rnd.games.select_related("white__player").order_by("board") if g.result in mp._FIXED]
        names = mp.names_of(entries)
        found = [describe(b.warning) for b in mp.breaches(request, current, names)] if typed is None else []
        return {"rows": [{"board": i, "white": w, "black": b} for i, (w, b) in enumerate(rows, start=1)],
                "bye": bye, "needs_bye": len(allowed) % 2 == 1, "choices": choices, "left_out": left_out,
                "fixed": fixed, "breaches": found, "n_rows": len(rows)}

    # --- the page --------------------------------------------------------------------------------

    def manual_pairing_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        rnd = self._mp_round(request, object_id)
        if rnd.tournament.is_round_robin:
            messages.error(request, _("A round robin follows the Berger tables; its pairing is not edited here."))
            return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[rnd.pk]))
        if request.method == "POST":
            return self._mp_post(request, rnd)
        return self._mp_page(request, rnd)

    def _mp_page(self, request: HttpRequest, rnd: Round, *, typed: Any = None, warnings: SafeString | None = None,
              version: int | None = None, status: int = 200) -> HttpResponse:
        context = self._mp_context(request, rnd, editing=mp.is_editing(rnd), is_draft=rnd.status == RoundStatus.DRAFT,
                                version=rnd.version if version is None else version, warnings=warnings or "",
                                title=_("Round %(n)s: the pairing by hand") % {"n": rnd.number})
        if rnd.status == RoundStatus.DRAFT:
            try:
                context.update(self._mp_sheet(rnd, typed))
            except DomainError as exc:  # an earlier round lacks a result: the engine's view cannot be built
                context["sheet_error"] = str(exc)
        return render(request, "admin/tournaments/manual_pairing.html", context, status=status)

    def _mp_post(self, request: HttpRequest, rnd: Round) -> HttpResponse:
        action = request.POST.get("action", "")
        version = _int(request.POST.get("version"))
        confirmed = request.POST.getlist("confirm")
        swap = _int(request.POST.get("swap"))
        if swap is not None:
            action = "save"
        typed = None

        def step() -> HttpResponse | None:
            nonlocal typed
            if action == "start":
                mp.manual_edit_start(round=rnd, expected_version=version, user=request.user)
                messages.success(request, _("Round %(n)s: the pairing is open for editing by hand. Validate it "
                                            "when it is done.") % {"n": rnd.number})
                return HttpResponseRedirect(request.path)
            if action == "stop":
                mp.manual_edit_stop(round=rnd, expected_version=version, user=request.user)
                messages.success(request, _("Round %(n)s: editing stopped; the round has the engine's pairing.")
                                 % {"n": rnd.number})
                return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[rnd.pk]))
            if action == "save":
                typed = _typed(request)
                if swap is not None and 1 <= swap <= len(typed[0]):
                    w, b = typed[0][swap - 1]
                    typed[0][swap - 1] = (b, w)
                boards, bye = self._mp_entries(rnd, typed)
                mp.manual_edit_save(round=rnd, boards=boards, bye=bye, confirmed=confirmed,
                                    expected_version=version, user=request.user)
                messages.success(request, _("Round %(n)s: pairing saved (still being edited).") % {"n": rnd.number})
                return HttpResponseRedirect(request.path + (f"#board-{swap}" if swap else ""))
            if action == "validate":
                result = mp.manual_edit_validate(round=rnd, confirmed=confirmed, expected_version=version,
                                                 user=request.user)
                if result.comparison.differs:
                    messages.success(request, _("Round %(n)s: the pairing is validated. It differs from the "
                                                "engine's pairing; the difference is recorded in the tournament's "
                                                "history and its TRF file.") % {"n": rnd.number})
                else:
                    messages.success(request, _("Round %(n)s: the pairing is validated. It is the engine's own "
                                                "pairing: nothing to record.") % {"n": rnd.number})
                return HttpResponseRedirect(reverse("admin:tournaments_tournament_control",
                                                    args=[rnd.tournament_id]))
            return None

        try:
            ran = run_service(request, step, refused=_("Nothing was saved: %(why)s"),
                              passes=(events.NeedsConfirmation,))
        except events.NeedsConfirmation as exc:
            if action == "validate":
                return self._mp_validate_page(request, rnd, exc, version)
            return self._mp_page(request, rnd, typed=typed, warnings=warnings_block(request, exc), version=version,
                                status=409)
        if ran.value is not None:
            return ran.value
        if not ran:
            if typed is not None:  # what the arbiter typed stays on the page
                return self._mp_page(request, rnd, typed=typed, version=version, status=400)
            return HttpResponseRedirect(request.path)
        messages.error(request, _("Unknown action: nothing was done."))
        return HttpResponseRedirect(request.path)

    def _mp_entries(self, rnd: Round, typed: tuple[list[tuple[str, str]], str]) -> tuple[list[Any], Entry | None]:
        by_pk = {str(e.pk): e for e in rnd.tournament.entries.select_related("player")}

        def entry(value: str) -> Entry | None:
            if not value:
                return None
            if value not in by_pk:
                raise DomainError(_("A chosen player is not entered in %(tournament)s; reload the page.")
                                  % {"tournament": rnd.tournament})
            return by_pk[value]

        rows, bye = typed
        return [(entry(w), entry(b)) for w, b in rows], entry(bye)

    def _mp_validate_page(self, request: HttpRequest, rnd: Round, exc: events.NeedsConfirmation,
                       version: int | None) -> HttpResponse:
        entries = mp.entries_of(rnd.tournament)
        comparison = mp.compare(mp.request_for(rnd, entries), mp.current_pairing(rnd))
        names = mp.names_of(entries)
        rows = [{"board": board, "engine": _board_words(e, names), "engine_differs": ed,
                 "round": _board_words(r, names), "round_differs": rd} for board, e, ed, r, rd in comparison.rows]
        unpaired = "; ".join(names.get(n, str(n)) for n in comparison.engine_unpaired)
        return render(request, "admin/tournaments/manual_pairing_validate.html", self._mp_context(
            request, rnd, title=_("Round %(n)s: validate the pairing made by hand") % {"n": rnd.number},
            comparison=comparison, rows=rows, unpaired=unpaired, warnings=warnings_block(request, exc),
            version=rnd.version if version is None else version), status=409)

    # --- a round the engine cannot pair -------------------------------------------------------------

    def by_hand_view(self, request: HttpRequest, tournament_pk: int) -> HttpResponse:
        tournament = get_object_or_404(Tournament, pk=tournament_pk)
        if not can_manage(request.user, tournament):
            raise PermissionDenied
        control = reverse("admin:tournaments_tournament_control", args=[tournament.pk])
        number = mp.engine_cannot_pair(tournament)
        if number is None:
            messages.error(request, _("The next round is not due, or the engine can pair it: nothing to pair by hand "
                                      "from scratch."))
            return HttpResponseRedirect(control)
        entries = mp.entries_of(tournament)
        _engine, unpaired = mp.engine_pairing(pairing_bridge.pairing_request(tournament, entries, number))
        names = mp.names_of(entries)
        error = ""
        if request.method == "POST":
            try:
                created = run_service(request, lambda: mp.round_create_by_hand(
                    tournament=tournament, expected_number=_int(request.POST.get("round")) or 0,
                    confirmed=request.POST.getlist("confirm"), user=request.user),
                    _("Round %(n)s is created empty: pair it by hand below, then validate it.") % {"n": number},
                    refused=_("Nothing was done: %(why)s"), passes=(events.NeedsConfirmation,))
            except events.NeedsConfirmation:
                error = _("Tick the box to confirm, or cancel.")
            else:
                if created.value is None:
                    return HttpResponseRedirect(control)
                return HttpResponseRedirect(reverse("admin:tournaments_round_pairing", args=[created.value.pk]))
        warning = Warning(Code.ENGINE_CANNOT_PAIR, {"round": number, "players": list(unpaired)})
        return render(request, "admin/tournaments/manual_pairing_create.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "number": number, "control_url": control, "error": error, "is_nav_sidebar_enabled": False,
            "unpaired": [names.get(n, str(n)) for n in unpaired],
            "title": _("Round %(n)s: pair it by hand") % {"n": number},
            "warnings": warnings.block(request, [warning], field="confirm", required=True),
        }, status=409 if error else 200)


def _typed(request: HttpRequest) -> tuple[list[tuple[str, str]], str]:
    n = min(_int(request.POST.get("rows")) or 0, 500)
    rows = [(request.POST.get(f"board-{i}-white", ""), request.POST.get(f"board-{i}-black", ""))
            for i in range(1, n + 1)]
    return rows, request.POST.get("bye", "")


def _player_label(entry: Entry, score: int) -> str:
    points = ngettext("%(n)s point", "%(n)s points", score) % {"n": score}
    return f"{entry} ({points})"


def _board_words(item: str, names: dict[int, str]) -> str:
    if not item:
        return ""
    white, black = (int(x) for x in item.split("-"))
    if black == 0:
        return _("%(player)s: bye") % {"player": names.get(white, str(white))}
    return f"{names.get(white, str(white))} – {names.get(black, str(black))}"


def _int(value: str | None) -> int | None:
    return number_or_none(value)
