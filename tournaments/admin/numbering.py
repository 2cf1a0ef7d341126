"""The pairing-numbers page and the round-robin round made by hand.

Pairing numbers (one page per tournament): the players with their FMJD, national and tournament ratings;
a notice for each rating changed since the entry (taking note records it); exchanging two numbers;
regenerating them from the ratings, with what moves shown first. A round-robin draft round can be made
by hand on its own page. A write that breaks the rules asks again on the same page, keeping what the
arbiter chose, with the one warning screen of the admin (tournaments/admin/warnings.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.numbers import number_or_none
from tournaments import ratings
from tournaments.admin import warnings
from tournaments.admin.base import run_service
from tournaments.conformance.events import NeedsConfirmation
from tournaments.errors import DomainError
from tournaments.models import Entry, RatingList, RoundStatus, Tournament, numbered
from tournaments.players import numbering, rating_lists
from tournaments.rounds import rr_schedule

LIST_MAX_BYTES = 5 * 1024 * 1024  # as the CSV import: the FMJD list is far smaller


def entry_label(entry: Entry, method: str) -> str:
    rating = ratings.tournament_rating(entry, method)
    return str(entry) + (f" ({rating})" if rating is not None else "")


class ExchangeForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("First player"))
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("Second player"))

    def __init__(self, tournament: Tournament, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player").order_by("pairing_number")
        for name in ("first", "second"):
            field = self.fields[name]
            field.queryset = entries  # type: ignore[attr-defined]
            field.label_from_instance = lambda e: entry_label(e, tournament.rating_method)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("first") is not None and cleaned.get("first") == cleaned.get("second"):
            self.add_error("second", _("Choose another player than the first."))
        return cleaned


class NumbersMixin:
    """Adds the pairing-numbers page and the round-robin hand-made round to TournamentAdmin (which gives
    _tournament and _context through ControlRoomMixin)."""

    admin_site: Any

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/numbers/", view(self.numbers_view), name="tournaments_tournament_numbers"),
            path("<int:pk>/rounds/<int:number>/by-hand/", view(self.rr_hand_view),
                 name="tournaments_tournament_rr_hand"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    # --- Pairing numbers ---------------------------------------------------------------------

    def numbers_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament: Tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        here = reverse("admin:tournaments_tournament_numbers", args=[tournament.pk])
        action = request.POST.get("action", "") if request.method == "POST" else ""
        confirmed = request.POST.getlist("confirmed")
        form = ExchangeForm(tournament, request.POST if action == "exchange" else None)
        pending: dict[str, Any] = {}
        if action == "check_list":
            return self._check_list(request, tournament, form)
        if action in ("compare_list", "change_list"):
            return self._compare_list(request, tournament, form, action, confirmed)
        if action:
            try:
                ran = run_service(request, lambda: self._numbers_action(request, tournament, action, form, confirmed),
                                  refused=_("Nothing was done: %(why)s"), passes=(NeedsConfirmation,))
            except NeedsConfirmation as exc:
                pending = {"action": action, "warnings": warnings.block(request, exc.warnings, required=True),
                           "version": request.POST.get("version", ""), "moves": request.POST.get("moves", "")}
            else:
                if ran.value:
                    return HttpResponseRedirect(here)
        return self._numbers_page(request, tournament, form, pending)

    def _numbers_action(self, request: HttpRequest, tournament: Tournament, action: str, form: ExchangeForm,
                        confirmed: list[str]) -> bool:
        user = request.user
        if action == "exchange":
            if not form.is_valid():
                return False
            a, b = numbering.numbers_exchange(tournament=tournament, first=form.cleaned_data["first"],
                                              second=form.cleaned_data["second"],
                                              expected=request.POST.get("version") or None,
                                              confirmed=confirmed, user=user)
            messages.success(request, _("%(first)s and %(second)s exchanged their pairing numbers: %(first)s is now "
                                        "number %(a)s, %(second)s number %(b)s.")
                             % {"first": a.player.full_name, "second": b.player.full_name, "a": a.pairing_number,
                                "b": b.pairing_number})
        elif action == "regenerate":
            moves = numbering.numbers_regenerate(tournament=tournament, expected=request.POST.get("moves", ""),
                                                 confirmed=confirmed, user=user)
            if moves:
                messages.success(request, _("The pairing numbers were regenerated from the ratings: %(moves)s.")
                                 % {"moves": ", ".join(f"{m.entry.player.full_name} {m.old} → {m.new}"
                                                       for m in moves)})
            else:
                messages.info(request, _("The pairing numbers already follow the ratings: nothing moved."))
        elif action == "apply_list":
            changed = numbering.ratings_apply(tournament=tournament, chosen=request.POST.getlist("apply"),
                                              source=request.POST.get("source", "")[:160] or "CSV", user=user)
            messages.success(request, _("Ratings updated from the list for %(n)s player(s); the changes since the "
                                        "entries are listed below.") % {"n": len(changed)})
        elif action == "pick_other":
            entry = tournament.entries.filter(pk=number_or_none(request.POST.get("entry"))).first()
            if entry is None:
                raise DomainError(_("Choose a player of this tournament."))
            picked = rating_lists.other_rating_pick(tournament=tournament, entry=entry, user=user)
            messages.success(request, _("%(player)s: the tournament now reads his rating of %(rating)s from the "
                                        "other list (recorded).")
                             % {"player": picked, "rating": ratings.entry_rating(picked)})
        elif action == "take_note":
            changes = numbering.ratings_take_note(tournament=tournament, expected=request.POST.get("changes", ""),
                                                  user=user)
            messages.success(request, _("The new ratings are taken on and recorded: %(n)s change(s).")
                             % {"n": len(changes)})
        else:
            messages.error(request, _("Unknown action: nothing was done."))
        return True

    def _check_list(self, request: HttpRequest, tournament: Tournament, form: ExchangeForm) -> HttpResponse:
        upload = request.FILES.get("list")
        diffs: list[numbering.ListDifference] = []
        source = ""
        if upload is None:
            messages.error(request, _("Choose the rating list file (CSV) first."))
        elif upload.size and upload.size > LIST_MAX_BYTES:
            messages.error(request, _("%(file)s is larger than %(limit)s MB: not a rating list.")
                           % {"file": upload.name, "limit": LIST_MAX_BYTES // (1024 * 1024)})
        else:
            source = str(upload.name)[:160]
            read = run_service(request, lambda: numbering.list_differences(tournament, upload.read(), source),
                               refused=_("Nothing was read: %(why)s"))
            if read.value is not None:
                diffs = read.value
                if not diffs:
                    messages.info(request, _("%(file)s: the ratings of this tournament's players are those of the "
                                             "list.") % {"file": source})
        return self._numbers_page(request, tournament, form, {}, list_diffs=diffs, list_source=source)

    def _compare_list(self, request: HttpRequest, tournament: Tournament, form: ExchangeForm, action: str,
                      confirmed: list[str]) -> HttpResponse:
        """The compare-a-list step: the later list's differences, ticked by default; taking the ticked ones
        asks its confirmation on the same page, the ticks kept."""
        chosen = RatingList.objects.filter(pk=number_or_none(request.POST.get("rating_list"))).first()
        if chosen is None:
            messages.error(request, _("Choose a later rating list first."))
            return self._numbers_page(request, tournament, form, {})
        ticked = request.POST.getlist("take")
        pending: dict[str, Any] = {}
        if action == "change_list":
            try:
                ran = run_service(request, lambda: rating_lists.list_change(
                    tournament=tournament, rating_list=chosen, chosen=ticked,
                    expected=request.POST.get("signature") or None, confirmed=confirmed, user=request.user),
                    refused=_("Nothing was done: %(why)s"), passes=(NeedsConfirmation,))
            except NeedsConfirmation as exc:
                pending = {"action": action, "warnings": warnings.block(request, exc.warnings, required=True)}
            else:
                if ran.value is not None:
                    messages.success(request, _("The tournament is now rated on %(list)s: %(n)s player(s) took "
                                                "its values, the others keep theirs (recorded).")
                                     % {"list": chosen, "n": len(ran.value)})
                    return HttpResponseRedirect(reverse("admin:tournaments_tournament_numbers",
                                                        args=[tournament.pk]))
        try:
            rating_lists.check_later_list(tournament, chosen)
        except DomainError as exc:
            messages.error(request, str(exc))
            return self._numbers_page(request, tournament, form, {})
        changes = rating_lists.list_comparison(tournament, chosen)
        if action == "compare_list":
            ticked = [c.token for c in changes]
            if not changes:
                messages.info(request, _("%(list)s gives this tournament's players the values they hold.")
                              % {"list": chosen})
        return self._numbers_page(request, tournament, form, pending, compared={
            "list": chosen, "changes": changes, "signature": rating_lists.comparison_signature(changes),
            "ticked": set(ticked)})

    def _numbers_page(self, request: HttpRequest, tournament: Tournament, form: ExchangeForm,
                      pending: dict[str, Any], **extra: Any) -> HttpResponse:
        entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
        changes = ratings.rating_changes(tournament)
        now = {c.entry.pk: c.now for c in changes}
        rows = [{"entry": e, "rating": ratings.tournament_rating(e, tournament.rating_method),
                 "changed": e.pk in now, "now": now.get(e.pk)} for e in entries]
        for e in entries:
            e.tournament = tournament
        pickable = [e for e in entries if rating_lists.can_pick(e, tournament.rating_method)]
        finished = ratings.is_finished(tournament)
        closed = numbering.numbers_open(tournament)
        moves = [] if closed else numbering.regeneration_moves(tournament)
        return render(request, "admin/tournaments/tournament/numbers.html", self._context(  # type: ignore[attr-defined]
            request, tournament, _("Pairing numbers: %(tournament)s") % {"tournament": tournament},
            rows=rows, closed=closed, form=form, pending=pending, moves=moves,
            moves_signature=numbering.moves_signature(moves), version=numbering.numbers_version(tournament),
            changes=changes, changes_signature=numbering.changes_signature(changes),
            method_label=tournament.get_rating_method_display(), tie_label=tournament.get_tie_order_display(),
            paired=tournament.rounds.exists(), fixed_from=numbering.FIXED_FROM_ROUND,
            held_lists=[rl for rl in (tournament.fmjd_list, tournament.national_list) if rl is not None],
            later_lists=[] if finished else rating_lists.later_lists(tournament),
            pickable=[] if finished else pickable, finished=finished, **extra))

    # --- Round robin: a round made by hand ---------------------------------------------------

    def rr_hand_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament: Tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        control = reverse("admin:tournaments_tournament_control", args=[tournament.pk])
        rnd = tournament.rounds.filter(number=number).first()
        if rnd is None or not tournament.is_round_robin or rnd.status != RoundStatus.DRAFT:
            messages.error(request, _("Only a draft round of a round robin can be made by hand: round %(n)s is not "
                                      "one.") % {"n": number})
            return HttpResponseRedirect(control)
        entries = {e.pairing_number: e for e in tournament.entries.select_related("player")}
        names = {n: e.player.full_name for n, e in entries.items()}
        current = rr_schedule.round_boards(rnd)
        chosen, errors = current, []
        asked = SafeString("")
        later: list[str] = []
        if request.method == "POST":
            chosen, errors = _posted_boards(request, current, set(entries))
            if not errors:
                try:
                    check = rr_schedule.rr_round_by_hand(
                        round=rnd, boards=chosen, expected_version=_int(request.POST.get("version")),
                        confirmed=request.POST.getlist("confirmed"), user=request.user)
                except NeedsConfirmation as exc:
                    asked = warnings.block(request, exc.warnings, required=True)
                    later = _later_words(rr_schedule.check_hand_round(tournament, number, chosen, names), names)
                except DomainError as exc:
                    errors.append(str(exc))
                else:
                    messages.success(request, _("Round %(n)s is set as you made it: look at it, then publish it.")
                                     % {"n": number} if check.differs else
                                     _("Round %(n)s is the table's round: nothing changed.") % {"n": number})
                    for text in _later_words(check, names):
                        messages.warning(request, text)
                    return HttpResponseRedirect(control)
        odd = len(entries) % 2 == 1
        players = [(n, numbered(n, names[n])) for n in sorted(entries)]
        boards = [{"board": b, "white": w, "black": bl} for b, (w, bl) in sorted(chosen.items())]
        return render(request, "admin/tournaments/tournament/rr_hand.html", self._context(  # type: ignore[attr-defined]
            request, tournament, _("Round %(n)s made by hand: %(tournament)s") % {"n": number,
                                                                                 "tournament": tournament},
            round=rnd, boards=boards, players=players, odd=odd, warnings=asked, later=later, errors=errors))


def _int(value: str | None) -> int | None:
    return number_or_none(value)


def _posted_boards(request: HttpRequest, current: rr_schedule.NumberBoards,
                   numbers: set[int]) -> tuple[rr_schedule.NumberBoards, list[str]]:
    """The boards as posted, and what is wrong with them (each naming its board); what was typed is kept."""
    chosen: rr_schedule.NumberBoards = {}
    errors: list[str] = []
    for board in sorted(current):
        white = _int(request.POST.get(f"board-{board}-white"))
        black_text = request.POST.get(f"board-{board}-black", "")
        black = _int(black_text)
        if white is None or white not in numbers:
            errors.append(_("Board %(board)s: choose the player with White.") % {"board": board})
            white = current[board][0]
        if black_text and (black is None or black not in numbers):
            errors.append(_("Board %(board)s: choose the player with Black, or the free round.") % {"board": board})
            black = current[board][1]
        chosen[board] = (white, black)
    return chosen, errors


def _later_words(check: rr_schedule.HandCheck, names: dict[int, str]) -> list[str]:
    out = []
    for f in check.later:
        who = " – ".join(names.get(p, str(p)) for p in f.players)
        if f.code == "repeat":
            out.append(_("Round %(round)s of the table would pair %(pair)s again (they meet in round %(earlier)s): "
                         "make that round by hand too.") % {"round": f.round, "pair": who, "earlier": f.earlier})
        else:
            out.append(_("Round %(round)s of the table would give %(player)s the same colour a third time in a "
                         "row.") % {"round": f.round, "player": who})
    return out


def rating_change_message(player: Any) -> Any:
    """After a player's ratings were edited: the running tournaments where his tournament rating is no
    longer the one the entry holds, each with a link to its pairing-numbers page (empty when there is none);
    a finished tournament keeps its ratings and is not named."""
    links = []
    for entry in Entry.objects.filter(player=player).select_related("tournament"):
        method = entry.tournament.rating_method
        held, now = ratings.tournament_rating(entry, method), ratings.tournament_rating(player, method)
        if held != now and not ratings.is_finished(entry.tournament):
            links.append(format_html('<a href="{}">{}</a> ({} → {})',
                                     reverse("admin:tournaments_tournament_numbers", args=[entry.tournament_id]),
                                     entry.tournament, held if held is not None else "–",
                                     now if now is not None else "–"))
    if not links:
        return ""
    return format_html(_("Notice: the tournament rating of {player} is no longer the one he was entered with, in: "
                         "{tournaments}. Each keeps the rating he was entered with until it is taken on, on its "
                         "pairing-numbers page."),
                       player=player.full_name, tournaments=format_html_join(", ", "{}", ((link,) for link in links)))
