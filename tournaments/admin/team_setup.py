"""Team competitions, teams and rosters in the admin: the set-up (line-ups and results are the rounds').
A new competition is made with its tournament by tournaments.competitions.setup.competition_create; its
rules change through changes.competition_settings_set, which checks the version the form was read at and
refuses what would change a played match's meaning. Teams and rosters are changed on the competition's own
pages (team_pages.py, team_roster.py); their admin lists read."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import ArbiterScopedAdmin
from tournaments.admin.team_forms import SOURCES, CompetitionCreateForm, RulesForm
from tournaments.admin.team_pages import CompetitionPagesMixin
from tournaments.competitions import changes, setup
from tournaments.models import RosterMember, Team, TeamCompetition
from tournaments.permissions import can_manage_or_list

RULE_FIELDSETS = [
    (_("The competition"), {"fields": ["kind", "boards", "home_and_away"], "description": SOURCES}),
    (_("Scoring and ranking"), {"fields": ["match_win", "match_draw", "match_loss",
                                           ("order_1", "order_2", "order_3", "order_4", "order_5"),
                                           "forfeit_board_points", "forfeit_deduction"]}),
    (_("Boards and line-ups"), {"fields": ["colours", "lineup_rule", "one_team_per_player", "licence_required"]}),
    (_("A drawn cup match"), {"fields": [("tie_1", "tie_2", "tie_3", "tie_4"), "barrage_time_control",
                                         "seen_version"]}),
]


def tournament_scoped(obj: Any) -> Any:
    """The tournament an object of a team competition belongs to (permissions ask about tournaments)."""
    if isinstance(obj, TeamCompetition):
        return obj.tournament
    if isinstance(obj, Team):
        return obj.competition.tournament
    if isinstance(obj, RosterMember):
        return obj.team.competition.tournament
    return obj


class TeamScopedAdmin(ArbiterScopedAdmin):
    def _allowed(self, request: HttpRequest, obj: object | None) -> bool:
        return can_manage_or_list(request.user, tournament_scoped(obj) if obj is not None else None)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # Teams and rosters are removed through their services (a played player stays), never in bulk.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    # The delete permission stays the base's (a superuser's), so that a tournament's own delete page may take
    # its team competition whole, with the delete guard's words for what was played. Each object's own delete
    # page sends to the page whose service removes it, with what that service checks.
    def delete_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
                    ) -> HttpResponse:
        obj = self.get_object(request, object_id)
        if obj is None:
            return HttpResponseRedirect(reverse("admin:index"))
        if isinstance(obj, TeamCompetition):
            messages.info(request, gettext("A team competition goes with its tournament: delete the tournament."))
            return HttpResponseRedirect(reverse("admin:tournaments_tournament_delete", args=[obj.tournament_id]))
        team = obj if isinstance(obj, Team) else obj.team
        messages.info(request, gettext("Teams and roster members are removed on the team's page."))
        return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_team",
                                            args=[team.competition_id, team.pk]))


@admin.register(TeamCompetition)
class TeamCompetitionAdmin(CompetitionPagesMixin, TeamScopedAdmin):
    list_display = ("__str__", "teams_page", "kind", "boards", "team_count")
    search_fields = ("tournament__name", "tournament__slug")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).select_related("tournament").annotate(
            n_teams=Count("teams", distinct=True))

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        kwargs["form"] = RulesForm if obj is not None else CompetitionCreateForm
        kwargs["fields"] = None
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None:
            return RULE_FIELDSETS
        return [(None, {"fields": ["name", "slug", ("start_date", "end_date")]}), *RULE_FIELDSETS]

    @admin.display(description=_("team count"), ordering="n_teams")
    def team_count(self, obj: TeamCompetition) -> int:
        return getattr(obj, "n_teams", 0)

    @admin.display(description=_("teams and schedule"))
    def teams_page(self, obj: TeamCompetition) -> str:
        return format_html('<a class="damier-control-link" href="{}">{}</a>',
                           reverse("admin:tournaments_teamcompetition_teams", args=[obj.pk]),
                           gettext("Teams and schedule"))

    def save_model(self, request: HttpRequest, obj: TeamCompetition, form: Any, change: bool) -> None:
        if not change:
            data = form.cleaned_data
            made = setup.competition_create(name=data["name"], slug=data["slug"], start_date=data.get("start_date"),
                                            user=request.user, **form.rules())
            if data.get("end_date"):
                made.tournament.end_date = data["end_date"]
                made.tournament.full_clean()
                made.tournament.save(update_fields=["end_date"])
            obj.pk, obj.tournament, obj.version = made.pk, made.tournament, made.version
            return
        # The form wrote its values onto the object; the service reads them from the stored row, checks the
        # version the arbiter read and refuses a change a played match forbids.
        _competition, notes = changes.competition_settings_set(
            competition=obj, values=form.rules(), expected_version=seen if (
                seen := form.cleaned_data.get("seen_version")) is not None else -1, user=request.user)
        for note in notes:
            messages.warning(request, note)

    def response_add(self, request: HttpRequest, obj: TeamCompetition, post_url_continue: str | None = None
                     ) -> HttpResponse:
        messages.success(request, gettext("%(competition)s is made: add its teams.") % {"competition": obj})
        return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_teams", args=[obj.pk]))

    def response_change(self, request: HttpRequest, obj: TeamCompetition) -> HttpResponse:
        messages.success(request, gettext("The rules of %(competition)s are saved.") % {"competition": obj})
        return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_teams", args=[obj.pk]))


@admin.register(Team)
class TeamAdmin(TeamScopedAdmin):
    """The list of teams; a team is added and changed on its competition's pages."""

    tournament_lookup = "competition__tournament"
    list_display = ("name", "competition", "seed", "club", "federation", "captain")
    search_fields = ("name", "club")
    list_select_related = ("competition__tournament", "captain")

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        team = self.get_object(request, object_id)
        if team is not None and self.has_view_permission(request, team):
            return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_team",
                                                args=[team.competition_id, team.pk]))
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(RosterMember)
class RosterMemberAdmin(TeamScopedAdmin):
    """Who is on which roster, to look up; the rosters are changed on each team's page."""

    tournament_lookup = "team__competition__tournament"
    list_display = ("team", "position", "player", "reserve", "licence")
    list_select_related = ("team__competition__tournament", "entry__player")
    search_fields = ("entry__player__surname", "entry__player__given_name", "team__name", "licence")

    @admin.display(description=_("player"))
    def player(self, obj: RosterMember) -> str:
        return str(obj.entry.player)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
