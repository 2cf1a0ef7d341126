"""A team competition's control room: its rules in short, its teams (added here with their captain from the
register), the schedule made by one button and shown round by round. Each write posts the version the page
was read at (the competition's, or the team's); a refusal comes back as the page with what was typed."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.translation import gettext as _

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.admin.team_forms import CRITERIA, CUP_STEPS, TeamForm
from tournaments.admin.team_roster import RosterPagesMixin
from tournaments.competitions import changes, setup
from tournaments.models import CompetitionKind, RoundStatus, Team, TeamCompetition
from tournaments.teams.schedule import LRAJD_8_TEAMS

BERGER, LRAJD = "berger", "lrajd"


def version_of(request: HttpRequest, name: str = "version") -> int | None:
    """The version a page was read at; a form without one is refused as stale by the services (-1)."""
    value = number_or_none(request.POST.get(name))
    return -1 if value is None else value


def rules_summary(competition: TeamCompetition) -> list[tuple[str, str]]:
    criteria, steps = dict(CRITERIA), dict(CUP_STEPS)
    lines = [
        (_("Kind"), competition.get_kind_display()),
        (_("Boards per match"), str(competition.boards)),
        (_("Match points"), _("%(win)s a win, %(draw)s a draw, %(loss)s a loss") % {
            "win": competition.match_win, "draw": competition.match_draw, "loss": competition.match_loss}),
        (_("Ranking"), ", ".join(str(criteria.get(c, c)) for c in competition.order or [])),
        (_("Colours per board"), competition.get_colours_display()),
        (_("Line-up rule"), competition.get_lineup_rule_display()),
        (_("A forfeited match"), _("%(points)s board points a board to the team present; %(deduction)s match "
                                   "points deducted") % {"points": competition.forfeit_board_points,
                                                         "deduction": competition.forfeit_deduction}),
    ]
    if competition.kind == CompetitionKind.LEAGUE:
        lines.insert(2, (_("Home and away"), _("yes") if competition.home_and_away else _("no")))
    else:
        lines.append((_("A drawn cup match"), ", ".join(str(steps.get(c, c)) for c in competition.cup_tie or [])))
    return lines


class CompetitionPagesMixin(RosterPagesMixin):
    """Adds the competition's control room and its writes to TeamCompetitionAdmin."""

    admin_site: Any
    model: type[TeamCompetition]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/teams/", view(self.teams_view), name="tournaments_teamcompetition_teams"),
            path("<int:pk>/make-schedule/", view(self.make_schedule_view),
                 name="tournaments_teamcompetition_make_schedule"),
            *super().get_urls(),
        ]

    def _competition(self, request: HttpRequest, pk: int) -> TeamCompetition:
        competition: TeamCompetition = get_object_or_404(
            self.get_queryset(request).select_related("tournament"), pk=pk)  # type: ignore[attr-defined]
        if not self.has_change_permission(request, competition):  # type: ignore[attr-defined]
            raise PermissionDenied(_("You are not an arbiter of %(tournament)s.")
                                   % {"tournament": competition.tournament})
        return competition

    def teams_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        competition = self._competition(request, pk)
        if request.method != "POST":
            return self._teams_page(request, competition, TeamForm())
        form = TeamForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            ran = run_service(request, lambda: changes.team_create(
                competition=competition, expected_version=version_of(request), name=data["name"],
                club=data["club"], federation=data["federation"], captain=data["captain"]),
                lambda team: _("%(team)s is added as number %(seed)s: fill its roster.") % {
                    "team": team, "seed": team.seed}, refused=_("Nothing was added: %(why)s"))
            if ran:
                return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_teams", args=[pk]))
        else:
            messages.error(request, _("Nothing was added: correct the fields marked below."))
        competition.refresh_from_db()
        return self._teams_page(request, competition, form, status=400)

    def make_schedule_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        competition = self._competition(request, pk)
        page = reverse("admin:tournaments_teamcompetition_teams", args=[pk])
        if request.method != "POST":
            return HttpResponseRedirect(page)
        table = request.POST.get("table", BERGER)
        if table not in (BERGER, LRAJD):
            messages.error(request, _("Unknown table of matches: nothing was done."))
            return HttpResponseRedirect(page)
        run_service(request, lambda: setup.schedule_make(
            competition=competition, fixed_table=LRAJD_8_TEAMS if table == LRAJD else None,
            expected_version=version_of(request)),
            lambda made: _("The schedule is made: %(matches)s matches in %(rounds)s rounds.") % {
                "matches": len(made), "rounds": len({m.round_number for m in made})},
            refused=_("No schedule was made: %(why)s"))
        return HttpResponseRedirect(page + "#schedule")

    def _teams_page(self, request: HttpRequest, competition: TeamCompetition, form: TeamForm,
                    status: int = 200) -> HttpResponse:
        tournament = competition.tournament
        teams = list(competition.teams.select_related("captain").annotate(
            regulars=Count("roster", filter=Q(roster__reserve=False)),
            reserves=Count("roster", filter=Q(roster__reserve=True))).order_by("seed"))
        matches = list(competition.matches.select_related("home", "away").order_by("round_number", "table"))
        rounds: dict[int, list[Any]] = {}
        for match in matches:
            rounds.setdefault(match.round_number, []).append(match)
        states = dict(tournament.rounds.values_list("number", "status"))
        league = competition.kind == CompetitionKind.LEAGUE
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "competition": competition,
            "tournament": tournament, "title": _("Teams and schedule: %(competition)s") % {"competition": competition},
            "rules": rules_summary(competition), "teams": teams, "form": form, "media": form.media,
            "rounds": [(n, ms, states.get(n, ""), states.get(n) not in (None, RoundStatus.DRAFT))
                       for n, ms in rounds.items()],
            "can_schedule": len(teams) >= 2 and not tournament.rounds.exists(),
            "lrajd_offered": league and len(teams) == 8 and not competition.home_and_away,
            "team_add_closed": bool(matches),
        }
        return render(request, "admin/tournaments/teamcompetition/teams.html", context, status=status)

    # --- One team: its details, its code, its removal (its roster: roster.py) ----------------------------

    def _team(self, request: HttpRequest, pk: int, team_id: int) -> tuple[TeamCompetition, Team]:
        competition = self._competition(request, pk)
        team = get_object_or_404(Team.objects.select_related("captain"), competition=competition, pk=team_id)
        team.competition = competition
        return competition, team

    def team_edit_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        competition, team = self._team(request, pk, team_id)
        page = reverse("admin:tournaments_teamcompetition_team", args=[pk, team_id])
        if request.method != "POST":
            return HttpResponseRedirect(page)
        form = TeamForm(request.POST, instance=Team.objects.get(pk=team.pk))
        if form.is_valid():
            data = form.cleaned_data
            ran = run_service(request, lambda: changes.team_edit(
                team=team, expected_version=version_of(request, "seen_version"), name=data["name"],
                club=data["club"], federation=data["federation"], captain=data["captain"], user=request.user),
                _("The team is saved."), refused=_("Nothing saved: %(why)s"))
            if ran:
                return HttpResponseRedirect(page)
        else:
            messages.error(request, _("Nothing saved: correct the fields marked below."))
        return self._team_page(request, competition, team, team_form=form, status=400)

    def team_code_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        _competition, team = self._team(request, pk, team_id)
        page = reverse("admin:tournaments_teamcompetition_team", args=[pk, team_id])
        if request.method != "POST":
            return HttpResponseRedirect(page)
        if request.POST.get("action") == "revoke":
            run_service(request, lambda: changes.captain_code_revoke(
                team=team, expected_version=version_of(request), user=request.user),
                _("The captain's code is revoked: it no longer works."), refused=_("Nothing was done: %(why)s"))
        else:
            run_service(request, lambda: changes.captain_code_issue(
                team=team, expected_version=version_of(request), user=request.user),
                _("A new captain's code is issued; a former one no longer works."),
                refused=_("Nothing was done: %(why)s"))
        return HttpResponseRedirect(page + "#code")

    def team_remove_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        _competition, team = self._team(request, pk, team_id)
        page = reverse("admin:tournaments_teamcompetition_team", args=[pk, team_id])
        if request.method != "POST":
            return HttpResponseRedirect(page)
        ran = run_service(request, lambda: changes.team_remove(team=team, expected_version=version_of(request)),
                          lambda name: _("%(team)s is removed.") % {"team": name},
                          refused=_("Nothing was removed: %(why)s"))
        return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_teams", args=[pk]) if ran else page)
