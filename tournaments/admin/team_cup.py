"""Who goes through a cup round: the arbiter's screen after a round's results are in.

Each match of the round shows its score and either who went through and why (`competitions.words`), or
what its rule still needs: a decision (the rule decides with what is recorded), a barrage (made at the
competition's barrage time control, its games added to the round), lots (drawn once, the seed shown
after). Each step is a form carrying the version of the match it was read at, so a stale page changes
nothing and says so; a refused step keeps the page as it was, with the refusal above it. The whole round
is decided in one step, and the next round is made from the winners once every match is decided.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.admin.team_lineups import competition_of
from tournaments.competitions import cup, setup
from tournaments.competitions.selectors import MatchState, match_states, settings_of
from tournaments.competitions.tables import LiveScore, live_score
from tournaments.competitions.words import reason_words
from tournaments.models import Match, RoundStatus, TeamCompetition
from tournaments.teams import scoring
from tournaments.teams.settings import CupTie, TeamSettings

DECIDE, LOTS, BARRAGE = "decide", "lots", "barrage"


@dataclass
class CupCard:
    match: Match
    score: LiveScore | None  # None for a bye
    through: str = ""  # the team that went through, once recorded
    why: str = ""  # why, in words
    need: str = ""  # what the rule needs now, in words
    steps: tuple[str, ...] = ()  # the forms offered: DECIDE, LOTS, BARRAGE
    barrage: Match | None = None
    barrage_score: LiveScore | None = None


def _preview(state: MatchState, settings: TeamSettings, barrage: MatchState | None) -> tuple[str, tuple[str, ...]]:
    """What the rule says with what is recorded, before anything is written: the words and the step that
    records it. Lots are left out (their seed is drawn only when the arbiter asks)."""
    match = state.match
    if match.away_id is None:
        return _("A bye: %(team)s goes through.") % {"team": match.home}, (DECIDE,)
    if state.scored is None:
        return _("Not finished: every board needs its result before the match is decided."), ()
    if barrage is not None and barrage.scored is None:
        return _("The barrage is being played: enter its results, then decide."), ()
    before = dataclasses.replace(settings, cup_tie=tuple(s for s in settings.cup_tie if s is not CupTie.LOTS))
    decision = scoring.cup_winner(state.scored, before, barrage=barrage.scored if barrage else None)
    if decision.winner is not None:
        return (_("%(team)s goes through — %(why)s.") % {"team": decision.winner,
                                                           "why": reason_words(decision.reason.value)}, (DECIDE,))
    if decision.reason is scoring.CupReason.FORFEIT:
        return _("Neither team played: the cup's regulations must say what follows."), ()
    if CupTie.BARRAGE in settings.cup_tie and barrage is None and (
            CupTie.LOTS not in settings.cup_tie
            or settings.cup_tie.index(CupTie.BARRAGE) < settings.cup_tie.index(CupTie.LOTS)):
        return _("Drawn, and the rule goes to a barrage."), (BARRAGE,)
    if CupTie.LOTS in settings.cup_tie:
        return _("Drawn, and the steps of the rule before lots do not separate the teams: lots decide."), (LOTS,)
    return _("Drawn, and the competition's rule does not separate the teams: add a step to it."), ()


def cup_cards(competition: TeamCompetition, number: int) -> list[CupCard]:
    """Every match of the round, each with its barrage, as the screen shows it."""
    settings = settings_of(competition)
    states = match_states(competition, number)
    barrages = {s.match.barrage_of_id: s for s in states if s.match.barrage_of_id is not None}
    out: list[CupCard] = []
    for state in states:
        match = state.match
        if match.barrage_of_id is not None:
            continue
        barrage = barrages.get(match.pk)
        card = CupCard(match, live_score(state, settings) if match.away_id else None,
                       barrage=barrage.match if barrage else None,
                       barrage_score=live_score(barrage, settings) if barrage else None)
        if match.winner_id is not None:
            card.through, card.why = str(match.winner), reason_words(match.decided_by)
        else:
            card.need, card.steps = _preview(state, settings, barrage)
        out.append(card)
    return out


class TeamCupMixin:
    """Adds the cup's decisions of a round to TournamentAdmin."""

    admin_site: Any
    model: Any

    def get_urls(self) -> list[Any]:
        return [path("<int:pk>/team-round/<int:number>/cup/", self.admin_site.admin_view(self.team_cup_view),
                     name="tournaments_tournament_team_cup"),
                *super().get_urls()]  # type: ignore[misc]

    def team_cup_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]  # ControlRoomMixin's scoping
        competition = competition_of(tournament)
        if competition.kind != "cup":
            raise Http404("Not a cup.")
        last = max(competition.matches.values_list("round_number", flat=True), default=0)
        if not 1 <= number <= last:
            raise Http404("No such round.")
        here = reverse("admin:tournaments_tournament_team_cup", args=[tournament.pk, number])
        status = 200
        if request.method == "POST":
            done = self._cup_step(request, competition, number)
            if done is not None:
                return HttpResponseRedirect(done or here)
            status = 400  # refused: the page as it was, the refusal above it
        competition.refresh_from_db()
        rnd = tournament.rounds.filter(number=number).first()
        found = cup_cards(competition, number)
        decided = bool(found) and all(c.match.winner_id for c in found)
        return render(request, "admin/tournaments/tournament/team_cup.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "title": _("Round %(n)s, who goes through: %(competition)s") % {"n": number, "competition": competition},
            "competition": competition, "number": number, "cards": found, "round": rnd,
            "rounds": list(range(1, last + 1)), "decided": decided, "final": decided and len(found) == 1,
            "next_made": number < last, "completed": rnd is not None and rnd.status == RoundStatus.COMPLETED,
            "undecided": any(c.steps == (DECIDE,) for c in found),
            "barrage_time_control": competition.barrage_time_control,
            "lineups_url": reverse("admin:tournaments_tournament_team_round", args=[tournament.pk, number]),
            "results_url": reverse("admin:tournaments_round_change", args=[rnd.pk]) if rnd is not None else "",
            "control": reverse("admin:tournaments_tournament_control", args=[tournament.pk]),
            "is_nav_sidebar_enabled": False,
        }, status=status)

    def _cup_step(self, request: HttpRequest, competition: TeamCompetition, number: int) -> str | None:
        """Run the posted step; the address to go to after it ("" = this page), None when it was refused."""
        action = request.POST.get("action", "")
        version = number_or_none(request.POST.get("version"))
        user = request.user
        if version is None:  # every step is checked against the version its page was read at
            messages.error(request, _("The form carries no version (the page is out of date): nothing was done; "
                                      "look at it again."))
            return None
        if action == "round":
            def decide_round() -> list[tuple[Match, str]]:
                setup.locked_competition(competition, version)  # the page's version: a stale page changes nothing
                return cup.round_decide(competition=competition, number=number, user=user)

            ran = run_service(request, decide_round, refused=_("Nothing was done: %(why)s"))
            if not ran:
                return None
            for _match, why in ran.value or []:
                messages.warning(request, why)
            if not ran.value:
                messages.success(request, _("Every match of round %(n)s is decided.") % {"n": number})
            return ""
        if action == "next":
            ran = run_service(request, lambda: cup.next_round_make(competition=competition, expected_version=version,
                                                                   user=user),
                              lambda made: ngettext("Round %(n)s is made: %(count)s match.",
                                                    "Round %(n)s is made: %(count)s matches.", len(made))
                              % {"n": number + 1, "count": len(made)},
                              refused=_("Nothing was done: %(why)s"))
            return (reverse("admin:tournaments_tournament_team_round", args=[competition.tournament_id, number + 1])
                    if ran else None)
        match = competition.matches.filter(pk=number_or_none(request.POST.get("match")), round_number=number,
                                           barrage_of__isnull=True).first()
        services = {DECIDE: cup.match_decide, LOTS: cup.lots_draw, BARRAGE: cup.barrage_make}
        if match is None or action not in services:
            messages.error(request, _("This match is not one of round %(n)s (the page is out of date): nothing was "
                                      "done.") % {"n": number})
            return None
        service = services[action]
        ran = run_service(request, lambda: service(match=match, expected_version=version, user=user),
                          refused=_("Nothing was done: %(why)s"))
        if not ran:
            return None
        match.refresh_from_db()
        if action == BARRAGE:
            messages.success(request, _("%(match)s: the barrage is made; its games are in the round, to play at "
                                        "%(time)s.") % {"match": match, "time": competition.barrage_time_control})
        elif match.winner_id is not None:
            messages.success(request, _("%(match)s: %(team)s goes through — %(why)s.") % {
                "match": match, "team": match.winner, "why": reason_words(match.decided_by)})
        return ""
