"""A team competition built through the services, as the arbiter builds it: teams, rosters from the
register, the schedule. Shared by the competition tests (not a test module)."""

from __future__ import annotations

from typing import Any

from tournaments.competitions import lineups, setup
from tournaments.models import Entry, Match, Player, RosterMember, Team, TeamCompetition


def competition(teams: int = 4, boards: int = 4, reserves: int = 1, slug: str = "league", **rules: Any
                ) -> TeamCompetition:
    comp = setup.competition_create(name=f"League {slug}", slug=slug, boards=boards, **rules)
    for t in range(1, teams + 1):
        team = setup.team_add(competition=comp, name=f"Club {t}", club=f"Club {t}", federation="NED")
        for p in range(1, boards + reserves + 1):
            player = Player.objects.create(given_name=f"P{p}", surname=f"Team{t}", federation="NED",
                                           rating=2000 - 10 * p - t)
            setup.roster_add(team=team, player=player, reserve=p > boards, licence=f"L{t}{p:02}")
    comp.refresh_from_db()
    return comp


def roster(team: Team) -> list[Entry]:
    return [m.entry for m in RosterMember.objects.filter(team=team).select_related("entry__player")
            .order_by("position")]


def line_up_round(comp: TeamCompetition, number: int) -> list[Match]:
    """Both teams of every match of the round line up their first players in roster order."""
    matches = list(comp.matches.filter(round_number=number).select_related("home", "away"))
    for match in matches:
        if match.away_id is None:
            continue
        for side, team in (("home", match.home), ("away", match.away)):
            match.refresh_from_db()
            lineups.lineup_set(match=match, side=side, entries=roster(team)[:comp.boards])
    return matches
