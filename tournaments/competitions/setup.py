"""Writes that build a team competition: the competition and its rules, its teams, their rosters, the
schedule. Each is one transaction under the tournament's lock (tournaments/locks.py) and raises DomainError
in the arbiter's words.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournaments import locks
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import (
    CompetitionKind,
    Entry,
    Match,
    Player,
    RosterMember,
    System,
    Team,
    TeamCompetition,
    Tournament,
)
from tournaments.players import roster as entries
from tournaments.teams import schedule
from tournaments.teams.settings import Criterion, CupTie

DEFAULT_ORDER = [Criterion.MATCH_POINTS.value, Criterion.BOARD_POINTS.value]
DEFAULT_CUP_TIE = [CupTie.BOARD_COUNT.value, CupTie.LOTS.value]


@transaction.atomic
def competition_create(*, name: str, slug: str, kind: str = CompetitionKind.LEAGUE, boards: int = 8,
                       start_date: datetime.date | None = None, user: Any = None,
                       **rules: Any) -> TeamCompetition:
    """A new team competition: its tournament (system "team", the arbiter who makes it its chief) and its
    rules; any field of TeamCompetition may be given in `rules`."""
    if Tournament.objects.filter(slug=slug).exists():
        raise DomainError(_("The address “%(slug)s” is already taken by another tournament.") % {"slug": slug})
    tournament = Tournament.objects.create(
        name=name, slug=slug, system=System.TEAM, start_date=start_date,
        chief_arbiter=user if getattr(user, "is_authenticated", False) else None)
    rules.setdefault("order", list(DEFAULT_ORDER))
    rules.setdefault("cup_tie", list(DEFAULT_CUP_TIE))
    competition = TeamCompetition(tournament=tournament, kind=kind, boards=boards, **rules)
    competition.full_clean()
    competition.save()
    return competition


def locked_competition(competition: TeamCompetition, expected_version: int | None = None) -> TeamCompetition:
    """The competition as stored, its tournament's row locked first (the one lock order), then its own;
    refused when it changed since the arbiter read it at expected_version."""
    locks.lock_tournament(competition.tournament_id)
    locked = TeamCompetition.objects.select_for_update(of=("self",)).select_related("tournament").filter(
        pk=competition.pk).first()
    if locked is None:
        raise StaleEditError(_("This team competition no longer exists: someone else deleted it."))
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(_("%(competition)s was changed by someone else since you read it: nothing was done; "
                               "look at it again.") % {"competition": locked})
    return locked


def bump(competition: TeamCompetition) -> None:
    TeamCompetition.objects.filter(pk=competition.pk).update(version=competition.version + 1)
    competition.version += 1


def has_matches(competition: TeamCompetition) -> bool:
    return competition.matches.exists()


@transaction.atomic
def team_add(*, competition: TeamCompetition, name: str, club: str = "", federation: str = "",
             captain: Player | None = None, seed: int | None = None) -> Team:
    """A team; its number is the next free one unless given. Refused once the schedule is made: a new team
    would have no matches (the schedule is made again from scratch before round 1 is played)."""
    competition = locked_competition(competition)
    if has_matches(competition):
        raise DomainError(_("%(competition)s already has its schedule: a team cannot be added now.")
                          % {"competition": competition})
    name = name.strip()
    if not name:
        raise DomainError(_("A team needs a name."))
    if competition.teams.filter(name=name).exists():
        raise DomainError(_("%(competition)s already has a team named “%(name)s”.")
                          % {"competition": competition, "name": name})
    if seed is None:
        seed = (competition.teams.aggregate(m=Max("seed"))["m"] or 0) + 1
    elif competition.teams.filter(seed=seed).exists():
        raise DomainError(_("Team number %(seed)s is already taken.") % {"seed": seed})
    team = Team(competition=competition, name=name, club=club.strip(), federation=federation.strip().upper(),
                captain=captain, seed=seed)
    team.full_clean(exclude=["competition"])
    team.save()
    bump(competition)
    return team


@transaction.atomic
def roster_add(*, team: Team, player: Player, reserve: bool = False, licence: str = "",
               position: int | None = None, user: Any = None) -> RosterMember:
    """A player on a team's roster, at the end of it unless a place is given (the others move down one).
    He gets an entry in the competition's tournament the first time he is listed on any of its teams."""
    competition = locked_competition(team.competition)
    team = Team.objects.select_for_update().get(pk=team.pk)
    tournament = competition.tournament
    entry = Entry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        entry = entries.entry_add(tournament=tournament, player=player, user=user)
    if team.roster.filter(entry=entry).exists():
        raise DomainError(_("%(player)s is already on the roster of %(team)s.") % {"player": player, "team": team})
    last = team.roster.aggregate(m=Max("position"))["m"] or 0
    if position is None or position > last:
        position = last + 1
    elif position < 1:
        raise DomainError(_("A place in the roster is 1 or more, not %(position)s.") % {"position": position})
    else:
        for member in team.roster.filter(position__gte=position).order_by("-position"):
            member.position += 1
            member.save(update_fields=["position"])
    member = RosterMember(team=team, entry=entry, position=position, reserve=reserve, licence=licence.strip())
    member.full_clean(exclude=["team", "entry"])
    try:
        with transaction.atomic():
            member.save()
    except IntegrityError as exc:
        raise DomainError(_("%(player)s could not be listed: someone else changed the roster of %(team)s at the "
                            "same moment; look at it again.") % {"player": player, "team": team}) from exc
    bump(competition)
    return member


def _team_names(competition: TeamCompetition) -> list[Team]:
    teams = list(competition.teams.order_by("seed"))
    if len(teams) < 2:
        raise DomainError(_("%(competition)s needs at least 2 teams before its schedule is made.")
                          % {"competition": competition})
    return teams


@transaction.atomic
def schedule_make(*, competition: TeamCompetition, fixed_table: Sequence[Sequence[tuple[int, int]]] | None = None,
                  expected_version: int | None = None) -> list[Match]:
    """Every match of a league (the Berger tables with home and away, or a federation's fixed table given by
    team numbers), or the first round of a cup (the bracket by seed, byes to the best seeds). Made again from
    scratch while no round is published; refused after."""
    competition = locked_competition(competition, expected_version)
    tournament = competition.tournament
    if tournament.rounds.exists():
        raise DomainError(_("%(competition)s has a published round: its schedule can no longer be made again.")
                          % {"competition": competition})
    teams = _team_names(competition)
    by_name = {t.name: t for t in teams}
    competition.matches.all().delete()
    made: list[Match] = []
    if competition.kind == CompetitionKind.CUP:
        for table, (home, away) in enumerate(schedule.cup_bracket([t.name for t in teams]), start=1):
            made.append(Match(competition=competition, round_number=1, table=table, home=by_name[home],
                              away=by_name[away] if away else None))
        rounds_total = max(1, (len(teams) - 1).bit_length())
    else:
        names = [t.name for t in teams]
        try:
            fixtures = (schedule.fixed_table(names, fixed_table) if fixed_table is not None
                        else schedule.round_robin(names, double=competition.home_and_away))
        except ValueError as exc:
            raise DomainError(_("The table of matches cannot be used: %(reason)s.") % {"reason": exc}) from exc
        tables: dict[int, int] = {}
        for fixture in fixtures:
            if fixture.away is None:
                continue  # an odd number of teams: the free team has no match this round
            tables[fixture.round] = tables.get(fixture.round, 0) + 1
            made.append(Match(competition=competition, round_number=fixture.round, table=tables[fixture.round],
                              home=by_name[fixture.home], away=by_name[fixture.away]))
        rounds_total = max((f.round for f in fixtures), default=0)
    bulk_create_with_history(made, Match)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_total=rounds_total)
    bump(competition)
    return list(competition.matches.order_by("round_number", "table"))
