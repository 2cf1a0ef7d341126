"""The control room of one tournament: every round with its state and missing results, the
prints, and one button for the next step. Each step is a POST to the step URL carrying the round and the
version the page was read at; the services refuse a step made on a stale page, and the arbiter lands
where the following step is.

Where each step lands: pair, pair again, numbering, complete and take back -> the control room (the
draft's boards and its pairing check are shown there, right above "Publish", so looking costs no click);
publish -> the round page, where the results are typed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.numbers import number_or_none
from tournaments import selectors
from tournaments.admin import byes, checkin, federation_report, warnings
from tournaments.admin.base import run_service
from tournaments.admin.round_schedule import schedule_context
from tournaments.boards import codes
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import PublishNeedsConfirmation
from tournaments.hall import screen_services as hall_services
from tournaments.hall.checkin import AbsenteesQuestion, pair_round
from tournaments.models import Numbering, Round, RoundStatus, Tournament
from tournaments.players import roster
from tournaments.public.notation import bye_words
from tournaments.ratings import entry_rating, rating_changes
from tournaments.results import Result
from tournaments.rounds import manual_pairing, round_control, services, under_way

# The words of each step's button, by step name; %(n)s is the round.
STEP_LABELS = {
    "number": gettext_lazy("Number the players by rating now"),
    "draw": gettext_lazy("Draw the pairing numbers by lot"),
    "keep": gettext_lazy("Keep the pairing numbers as they are"),
    "pair": gettext_lazy("Pair round %(n)s"),
    "publish": gettext_lazy("Publish round %(n)s"),
    "pair_again": gettext_lazy("Pair round %(n)s again"),
    "delete_draft": gettext_lazy("Delete the draft of round %(n)s"),
    "results": gettext_lazy("Enter the results of round %(n)s"),
    "complete": gettext_lazy("Complete round %(n)s"),
    "unpublish": gettext_lazy("Take round %(n)s back to draft"),
    "wait": gettext_lazy("Enter the players"),
    # The manual pairing phase (tournaments/admin/manual_pairing.py).
    "edit": gettext_lazy("Edit the pairing of round %(n)s by hand"),
    "manual": gettext_lazy("Continue editing the pairing of round %(n)s"),
    "done": gettext_lazy("See the final standings"),
    # The hall (tournaments/hall/screens.py): the round clock the screens show.
    "clocks": gettext_lazy("Start the clocks of round %(n)s"),
    "clocks_restart": gettext_lazy("Start the clocks of round %(n)s again"),
}
# How the numbers were set, once round 1 fixed them.
FIXED_NUMBERING = {
    Numbering.AUTO: gettext_lazy("set by rating, fixed since round 1 was paired"),
    Numbering.MANUAL: gettext_lazy("set by hand, fixed since round 1 was paired"),
    Numbering.LOT: gettext_lazy("drawn by lot, fixed since round 1 was paired"),
}
POSTED_STEPS = {"number", "draw", "keep", "pair", "publish", "pair_again", "complete", "unpublish", "edit",
                "delete_draft", "clocks", "clocks_restart"}


# A team competition's rounds are its schedule's matches: never paired, its players never numbered.
TEAM_REFUSED_STEPS = {"number", "draw", "keep", "pair", "pair_again", "edit"}


def team_pages(tournament: Tournament) -> str:
    """A team competition's control room: its teams and its schedule."""
    return reverse("admin:tournaments_teamcompetition_teams", args=[tournament.team_competition.pk])


def team_refusal(tournament: Tournament) -> str:
    return _("%(tournament)s is a team competition: its rounds are the matches of its schedule, made on its "
             "teams' page; nothing was done.") % {"tournament": tournament}


def mark(tournament: Tournament) -> str:
    from tournaments.admin.conformance import mark as conformance_mark

    return conformance_mark(tournament)


def step_label(name: str, number: int) -> str:
    return str(STEP_LABELS[name]) % {"n": number}


def numbering_label(tournament: Tournament) -> str:
    """How the numbers stand, in words: a round robin is never numbered by rating on its own (its numbers
    are drawn by lot or kept before round 1, the control room's step "draw")."""
    if tournament.is_round_robin and tournament.numbering == Numbering.AUTO:
        return str(_("As entered, until they are drawn by lot or kept"))
    return str(tournament.get_numbering_display())


class ControlRoomMixin:
    """Adds the control room, its step URL and the round robin's schedule to TournamentAdmin."""

    admin_site: Any
    model: type[Tournament]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/control/", view(self.control_view), name="tournaments_tournament_control"),
            path("<int:pk>/control/step/", view(self.step_view), name="tournaments_tournament_step"),
            path("<int:pk>/schedule/", view(self.schedule_view), name="tournaments_tournament_schedule"),
            path("<int:pk>/rating-preview/", view(self.rating_preview_view),
                 name="tournaments_tournament_rating_preview"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    def _tournament(self, request: HttpRequest, pk: int) -> Tournament:
        tournament: Tournament = get_object_or_404(self.get_queryset(request), pk=pk)  # type: ignore[attr-defined]
        if not self.has_change_permission(request, tournament):  # type: ignore[attr-defined]
            raise PermissionDenied(_("You are not an arbiter of %(tournament)s.") % {"tournament": tournament})
        return tournament

    def _context(self, request: HttpRequest, tournament: Tournament, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
                "title": title, **extra}

    def control_view(self, request: HttpRequest, pk: int, schedule_form: Any = None) -> HttpResponse:
        tournament = self._tournament(request, pk)
        if tournament.is_team:
            return HttpResponseRedirect(team_pages(tournament))
        room = round_control.control_room(tournament)
        room, stale = byes.with_stale_draft(tournament, room)
        step = room.step
        return render(request, "admin/tournaments/tournament/control.html", self._context(
            request, tournament, _("Control room: %(tournament)s") % {"tournament": tournament},
            room=room, step=step, step_text=step_label(step.name, step.round),
            step_posts=step.name in POSTED_STEPS, step_href=self._step_href(tournament, room),
            alternatives=[(s, step_label(s.name, s.round)) for s in room.alternatives],
            numbering_auto=tournament.numbering == Numbering.AUTO,
            numbering_label=numbering_label(tournament),
            numbering_fixed=FIXED_NUMBERING[tournament.numbering] if room.rounds else "",
            conformance_mark=mark(tournament),
            setup_notices=warnings.block(request, under_way.setup_notices(tournament, room.players),
                                         block_id="dm-setup-notice"),
            rating_changes=rating_changes(tournament),
            **hall_lines(tournament),
            **byes.control_room_lines(tournament, room, stale),
            **checkin.control_room_lines(tournament),
            **schedule_context(tournament, schedule_form),
            **federation_report.control_room_lines(tournament),
            # A draft's board: Black, or for a player without an opponent his bye's kind and value, in the
            # public pages' words.
            draft_rows=[(g, str(g.black) if g.black_id is not None else bye_words(
                g.parsed_result or Result.BYE, selectors.bye_points_for(tournament))) for g in room.draft_games],
        ))

    def _step_href(self, tournament: Tournament, room: round_control.ControlRoom) -> str:
        step = room.step
        if step.name == "results":
            rnd = next(line.round for line in room.rounds if line.round.number == step.round)
            return reverse("admin:tournaments_round_change", args=[rnd.pk])
        if step.name == "wait":
            return reverse("admin:tournaments_tournament_enter_players", args=[tournament.pk])
        if step.name == "manual":
            rnd = next(line.round for line in room.rounds if line.round.number == step.round)
            return reverse("admin:tournaments_round_pairing", args=[rnd.pk])
        if step.name == "done":
            return reverse("admin:tournaments_tournament_standings", args=[tournament.pk])
        return ""

    def schedule_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """A round robin's whole Berger schedule on today's numbers: a page to print before round 1."""
        tournament = self._tournament(request, pk)
        return render(request, "admin/tournaments/tournament/schedule.html", self._context(
            request, tournament, _("Schedule of all rounds: %(tournament)s") % {"tournament": tournament},
            schedule=round_control.berger_table(tournament),
            numbering_label=numbering_label(tournament),
        ))

    def rating_preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The rating-change preview per player, under the system chosen (?system=fmjd, kndb or ffjd)."""
        tournament = self._tournament(request, pk)
        return render(request, "admin/tournaments/tournament/rating_preview.html", self._context(
            request, tournament, _("Rating preview: %(tournament)s") % {"tournament": tournament},
            **federation_report.preview_context(tournament, request.GET.get("system"))))

    def step_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)
        control = reverse("admin:tournaments_tournament_control", args=[tournament.pk])
        if request.method != "POST":
            return HttpResponseRedirect(control)
        name = request.POST.get("step", "")
        number = _int(request.POST.get("round"))
        version = _int(request.POST.get("version"))
        confirmed = request.POST.get("confirmed") == "1"
        if tournament.is_team and name in TEAM_REFUSED_STEPS:
            messages.error(request, team_refusal(tournament))
            return HttpResponseRedirect(control)
        if name not in POSTED_STEPS or number is None or number < 1:
            messages.error(request, _("Unknown step: nothing was done."))
            return HttpResponseRedirect(control)
        rnd = tournament.rounds.filter(number=number).first()
        if name in {"publish", "pair_again", "complete", "unpublish", "edit", "delete_draft", "clocks",
                    "clocks_restart"} and rnd is None:
            messages.error(request, _("Round %(n)s no longer exists (someone else deleted it): nothing was done.")
                           % {"n": number})
            return HttpResponseRedirect(control)
        if name in ("unpublish", "clocks_restart") and not confirmed:
            question = (_("Take round %(n)s back to draft?") if name == "unpublish"
                        else _("Start the clocks of round %(n)s again?")) % {"n": number}
            return render(request, "admin/tournaments/tournament/confirm_step.html", self._context(
                request, tournament, question, round=rnd,
                step=name, version=version, violations=[], button=step_label(name, number)))
        try:
            ran = run_service(request, lambda: self._run_step(request, tournament, name, number, version, rnd,
                                                              confirmed, control),
                              refused=_("Nothing was done: %(why)s"),
                              passes=(PublishNeedsConfirmation, AbsenteesQuestion))
        except AbsenteesQuestion as exc:  # check-in is open: what do the players not checked in get?
            return checkin.question(request, self._context(request, tournament, ""), exc)
        except PublishNeedsConfirmation as exc:
            return render(request, "admin/tournaments/tournament/confirm_step.html", self._context(
                request, tournament, _("Publish round %(n)s although its pairing breaks the rules?") % {"n": number},
                round=rnd, step=name, version=version, violations=exc.violations,
                button=_("Publish round %(n)s anyway") % {"n": number}))
        if ran.value is not None:
            return ran.value
        if name == "pair" and manual_pairing.engine_cannot_pair(tournament) == number:
            # The engine cannot pair it: the round can be created empty and paired by hand.
            return HttpResponseRedirect(reverse("admin:tournaments_round_by_hand", args=[tournament.pk]))
        return HttpResponseRedirect(control)

    def _run_step(self, request: HttpRequest, tournament: Tournament, name: str, number: int,
                  version: int | None, rnd: Round | None, confirmed: bool, control: str) -> HttpResponse:
        if name == "number":
            entries = roster.entries_number_by_rating(tournament=tournament)
            messages.success(request, _("Pairing numbers set by rating: %(list)s.") % {"list": _first(entries)})
        elif name == "draw":
            entries = roster.entries_draw_lots(tournament=tournament)
            tournament.refresh_from_db()
            messages.success(request, _("Pairing numbers drawn by lot (seed %(seed)s, kept in the history): "
                                        "%(list)s.") % {"seed": tournament.numbering_seed, "list": _first(entries)})
        elif name == "keep":
            roster.entries_keep_numbers(tournament=tournament)
            messages.success(request, _("The pairing numbers stay as they are (set by hand)."))
        elif name == "pair":
            auto = number == 1 and not tournament.is_round_robin and tournament.numbering == Numbering.AUTO
            pair_round(tournament=tournament, expected_number=number, answer=request.POST.get("absentees") or None,
                       read_at=request.POST.get("absentees_read"), user=request.user)
            if auto:
                entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
                messages.info(request, _("Before pairing round 1, the players were numbered by rating (then "
                                         "title, then name): %(list)s.") % {"list": _first(entries)})
            messages.success(request, _("Round %(n)s is paired as a draft: look at it below (or change it on "
                                        "the round page), then publish it.") % {"n": number})
            for event in tournament.conformance_events.filter(round_number=number, code__in=checkin.ABSENT_CODES):
                messages.info(request, warnings.rows([Warning(Code(event.code), event.values)])[0].texts[0])
            for event in tournament.conformance_events.filter(round_number=number, code=Code.PAIRED_WITH_POSTPONED):
                # the checklist's level-2 notice (Q168): said here, kept in the events and the TRF
                for row in warnings.rows([Warning(Code.PAIRED_WITH_POSTPONED, event.values)]):
                    messages.warning(request, row.line + " " + manual_pairing.listed(event.values.get("games")))
        elif name == "pair_again":
            assert rnd is not None
            services.round_pair_again(round=rnd, expected_version=version)
            messages.success(request, _("Round %(n)s was deleted and paired again on today's players: look at "
                                        "it below, then publish it.") % {"n": number})
        elif name == "delete_draft":
            assert rnd is not None
            services.round_delete_draft(round=rnd, expected_version=version)
            messages.success(request, _("The draft of round %(n)s is deleted; nothing else changed. Pair it when "
                                        "the players are set.") % {"n": number})
        elif name == "edit":
            assert rnd is not None
            manual_pairing.manual_edit_start(round=rnd, expected_version=version, user=request.user)
            return HttpResponseRedirect(reverse("admin:tournaments_round_pairing", args=[rnd.pk]))
        elif name == "publish":
            assert rnd is not None
            if tournament.is_team:  # a team round's games come from its line-ups
                from tournaments.admin.team_lineups import publish_team_round

                rnd = publish_team_round(rnd, version, request.user)
            else:
                rnd = services.round_publish(round=rnd, expected_version=version, confirmed_violations=confirmed,
                                             user=request.user)
            codes.codes_issue(tournament=tournament)  # the players' codes for reporting results from the boards
            messages.success(request, format_html(
                _("Round {n} is published. Type its results here; when all are in, complete it here or from "
                  "the {link}."), n=number, link=format_html('<a href="{}">{}</a>', control, _("control room"))))
            return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[rnd.pk]))
        elif name == "complete":
            assert rnd is not None
            services.round_complete(round=rnd, expected_version=version)
            total = selectors.rounds_total(tournament)
            messages.success(request, _("Round %(n)s is completed.") % {"n": number} + " " + (
                _("Next: pair round %(next)s.") % {"next": number + 1} if number < total
                else _("That was the last round.")))
        elif name in ("clocks", "clocks_restart"):
            assert rnd is not None
            rnd = hall_services.clocks_start(round=rnd, expected_version=version, user=request.user,
                                            restart=name == "clocks_restart")
            messages.success(request, _("The clocks of round %(n)s started at %(time)s: the hall screens show the "
                                        "time elapsed.") % {"n": number,
                                                            "time": localtime(rnd.clock_started_at).strftime("%H:%M")})
        elif name == "unpublish":
            assert rnd is not None
            services.round_unpublish(round=rnd, expected_version=version)
            messages.success(request, _("Round %(n)s is a draft again and no longer public: change it on the "
                                        "round page, or delete it and pair it again.") % {"n": number})
        return HttpResponseRedirect(control)


def hall_lines(tournament: Tournament) -> dict[str, Any]:
    """The hall's part of the control room: the published round's clock, and the screens' addresses."""
    rnd = tournament.rounds.filter(status=RoundStatus.PUBLISHED).order_by("-number").first()
    return {"clock_round": rnd, "hall_screens": list(tournament.hall_screens.all())}


def _int(value: str | None) -> int | None:
    return number_or_none(value)


def _first(entries: list[Any], shown: int = 5) -> str:
    """"1. Name (2430), 2. ..." for the first few: enough to see the order was applied."""
    ordered = sorted(entries, key=lambda e: e.pairing_number)
    text = ", ".join(str(e)
                     + (f" ({rating})" if (rating := entry_rating(e)) else "") for e in ordered[:shown])
    more = len(ordered) - shown
    return text + (_(" and %(n)s more") % {"n": more} if more > 0 else "")
