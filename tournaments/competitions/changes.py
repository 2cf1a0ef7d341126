"""Changes to a team competition once it is set up: its rules, its teams, their rosters, the captains' codes.

Each write is one transaction under the tournament's lock (setup.locked_competition), checks the version the
arbiter read (the competition's for its rules, its teams and its schedule; the team's for its roster and its
code) and raises DomainError in the arbiter's words. What a played match was played under is never changed
afterwards: the boards per match and the colours per board once a round is published, the rule that decided a
drawn cup match once one was decided, a player who played or is lined up stays on his roster.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.boards import codes
from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import check_entry_delete
from tournaments.models import (
    Game,
    MatchBoard,
    Player,
    RosterMember,
    RoundStatus,
    Team,
    TeamCompetition,
)
from tournaments.teams.settings import Criterion, CupTie

from . import setup

# The rules an arbiter may set; `tournament` and `version` are the services' own.
RULES = ("kind", "boards", "home_and_away", "match_win", "match_draw", "match_loss", "order",
         "forfeit_board_points", "forfeit_deduction", "colours", "cup_tie", "barrage_time_control",
         "lineup_rule", "one_team_per_player", "licence_required")


def rules_problems(values: Mapping[str, Any]) -> dict[str, str]:
    """What is wrong with a set of rules taken together, by field, in the reader's language (the pure
    engine's own checks, tournaments.teams.settings.TeamSettings, said for the arbiter)."""
    problems: dict[str, str] = {}
    win, draw, loss = values.get("match_win"), values.get("match_draw"), values.get("match_loss")
    if None not in (win, draw, loss) and not win > draw >= loss:
        problems["match_win"] = _("A won match must score more than a drawn one (%(win)s, %(draw)s), and a drawn "
                                  "one no less than a lost one (%(loss)s).") % {"win": win, "draw": draw, "loss": loss}
    order = list(values.get("order") or [])
    if not order:
        problems["order"] = _("The ranking needs at least one criterion.")
    elif len(set(order)) != len(order):
        problems["order"] = _("A criterion of the ranking is chosen twice.")
    elif any(c not in Criterion._value2member_map_ for c in order):
        problems["order"] = _("Unknown ranking criterion.")
    tie = list(values.get("cup_tie") or [])
    if len(set(tie)) != len(tie):
        problems["cup_tie"] = _("A step of the rule for a drawn cup match is chosen twice.")
    elif any(c not in CupTie._value2member_map_ for c in tie):
        problems["cup_tie"] = _("Unknown step of the rule for a drawn cup match.")
    elif CupTie.LOTS.value in tie[:-1]:
        problems["cup_tie"] = _("Lots always decide: they can only be the last step.")
    elif CupTie.BARRAGE.value in tie and not str(values.get("barrage_time_control") or "").strip():
        problems["barrage_time_control"] = _("A barrage is one of the steps: name its time control.")
    return problems


def is_published(competition: TeamCompetition) -> bool:
    return competition.tournament.rounds.exclude(status=RoundStatus.DRAFT).exists()


@transaction.atomic
def competition_settings_set(*, competition: TeamCompetition, values: Mapping[str, Any],
                             expected_version: int | None, user: Any = None) -> tuple[TeamCompetition, list[str]]:
    """The competition's rules as the arbiter sets them from its regulations; gives the competition and what
    the change did besides (a schedule removed). Refused, naming each field, where a change would alter what
    a played match was played under:
    - boards per match: once a round is published (its games' board numbers and the board points a match
      shares follow it), and once a line-up is entered (it has the former number of boards);
    - colours per board: once a round is published (its games were given their colours by it);
    - kind and home and away: once a round exists (the schedule is made from them); before, a schedule
      already made is removed with the change, to be made again;
    - the rule for a drawn cup match: once a drawn match was decided by it.
    Match points, the ranking order and the forfeit's scores are how the standings read the results: they
    may be corrected at any time, and the change is kept in the competition's history."""
    competition = setup.locked_competition(competition, expected_version)
    unknown = set(values) - set(RULES)
    if unknown:
        raise DomainError(_("Unknown setting: %(names)s.") % {"names": ", ".join(sorted(unknown))})
    changed = {name: value for name, value in values.items() if getattr(competition, name) != value}
    merged = {name: changed.get(name, getattr(competition, name)) for name in RULES}
    problems = rules_problems(merged)
    if problems:
        raise DomainError(" ".join(problems.values()))
    refusals: list[str] = []
    published = is_published(competition)
    if "boards" in changed and published:
        refusals.append(_("Boards per match: a round is published, and its games were numbered and scored on "
                          "%(boards)s boards.") % {"boards": competition.boards})
    elif "boards" in changed and MatchBoard.objects.filter(match__competition=competition).exists():
        refusals.append(_("Boards per match: line-ups are entered on %(boards)s boards; clear them first.")
                        % {"boards": competition.boards})
    if "colours" in changed and published:
        refusals.append(_("Colours per board: a round is published, and its games were given their colours by "
                          "this rule."))
    rounds_exist = competition.tournament.rounds.exists()
    for name in ("kind", "home_and_away"):
        if name in changed and rounds_exist:
            refusals.append(_("%(setting)s: a round is made, and the schedule follows this setting.")
                            % {"setting": str(TeamCompetition._meta.get_field(name).verbose_name).capitalize()})
    if "cup_tie" in changed and competition.matches.exclude(decided_by="").exists():
        refusals.append(_("The rule for a drawn cup match: a drawn match was already decided by it."))
    if refusals:
        raise DomainError(_("Nothing was changed.") + " " + " ".join(refusals))
    notes: list[str] = []
    if ({"kind", "home_and_away"} & set(changed)) and competition.matches.exists():
        competition.matches.all().delete()
        notes.append(_("The schedule was made for the former setting: it is removed; make it again."))
    if not changed:
        return competition, notes
    for name, value in changed.items():
        setattr(competition, name, value)
    competition.version += 1
    competition.full_clean(exclude=["tournament"])
    if user is not None:
        competition._history_user = user  # type: ignore[attr-defined]
    competition.save()
    return competition, notes


# --- Teams -------------------------------------------------------------------------------------------


def _locked_team(team: Team, expected_version: int | None) -> tuple[TeamCompetition, Team]:
    competition = setup.locked_competition(team.competition)
    locked = Team.objects.select_for_update().filter(pk=team.pk).first()
    if locked is None:
        raise StaleEditError(_("This team no longer exists: someone else removed it; look at the teams again."))
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(_("%(team)s was changed by someone else since you read it: nothing was done; look at "
                               "it again.") % {"team": locked})
    locked.competition = competition
    return competition, locked


def _bump_team(team: Team, user: Any = None) -> None:
    team.version += 1
    if user is not None:
        team._history_user = user  # type: ignore[attr-defined]
    team.save(update_fields=["version"])


@transaction.atomic
def team_create(*, competition: TeamCompetition, expected_version: int | None, name: str, club: str = "",
                federation: str = "", captain: Player | None = None) -> Team:
    """setup.team_add on the competition as the arbiter read it."""
    setup.locked_competition(competition, expected_version)
    return setup.team_add(competition=competition, name=name, club=club, federation=federation, captain=captain)


@transaction.atomic
def team_edit(*, team: Team, expected_version: int | None, name: str, club: str = "", federation: str = "",
              captain: Player | None = None, user: Any = None) -> Team:
    """A team's name, club, federation and captain."""
    competition, team = _locked_team(team, expected_version)
    name = name.strip()
    if not name:
        raise DomainError(_("A team needs a name."))
    if competition.teams.filter(name=name).exclude(pk=team.pk).exists():
        raise DomainError(_("%(competition)s already has a team named “%(name)s”.")
                          % {"competition": competition, "name": name})
    team.name, team.club, team.federation, team.captain = name, club.strip(), federation.strip().upper(), captain
    team.full_clean(exclude=["competition"])
    team.version += 1
    if user is not None:
        team._history_user = user  # type: ignore[attr-defined]
    team.save()
    setup.bump(competition)
    return team


@transaction.atomic
def team_remove(*, team: Team, expected_version: int | None) -> str:
    """A team and its roster, while the schedule is not made (its matches name it); the entries of its
    players listed in no other team go with it. Gives the team's name."""
    competition, team = _locked_team(team, expected_version)
    if competition.matches.filter(Q(home=team) | Q(away=team)).exists():
        raise DomainError(_("%(team)s has matches in the schedule: it cannot be removed now.") % {"team": team})
    entries = [m.entry for m in team.roster.select_related("entry")]
    team.roster.all().delete()
    name = team.name
    team.delete()
    for entry in entries:
        _drop_entry_if_unused(entry)
    setup.bump(competition)
    return name


# --- Rosters -----------------------------------------------------------------------------------------


@transaction.atomic
def roster_member_add(*, team: Team, expected_version: int | None, player: Player, user: Any = None,
                      reserve: bool | None = None, licence: str = "") -> RosterMember:
    """A player at the end of a team's roster (setup.roster_add). Unless said, he is a reserve when the
    regular places (one per board) are already taken."""
    competition, team = _locked_team(team, expected_version)
    if reserve is None:
        reserve = team.roster.filter(reserve=False).count() >= competition.boards
    member = setup.roster_add(team=team, player=player, reserve=reserve, licence=licence, user=user)
    _bump_team(team, user)
    return member


@transaction.atomic
def roster_update(*, team: Team, expected_version: int | None, rows: Mapping[int, tuple[str, bool]],
                  user: Any = None) -> int:
    """Each listed member's licence number and reserve mark (member id -> (licence, reserve)); gives how
    many changed. A member no longer on the roster is refused: the page is stale."""
    competition, team = _locked_team(team, expected_version)
    members = {m.pk: m for m in team.roster.select_related("entry__player")}
    missing = set(rows) - set(members)
    if missing:
        raise StaleEditError(_("The roster of %(team)s changed since you read it: nothing was done; look at it "
                               "again.") % {"team": team})
    changed = 0
    for pk, (licence, reserve) in rows.items():
        member = members[pk]
        licence = licence.strip()
        if member.licence == licence and member.reserve == reserve:
            continue
        member.licence, member.reserve = licence, reserve
        try:
            member.full_clean(exclude=["team", "entry"])
        except ValidationError as exc:  # worded by the model's validators (one line, its length)
            raise DomainError(_("%(player)s: %(why)s") % {"player": member.entry.player,
                                                          "why": " ".join(exc.messages)}) from exc
        if user is not None:
            member._history_user = user  # type: ignore[attr-defined]
        member.save(update_fields=["licence", "reserve"])
        changed += 1
    if changed:
        _bump_team(team, user)
        setup.bump(competition)
    return changed


@transaction.atomic
def roster_move(*, team: Team, expected_version: int | None, member_id: int, up: bool,
                user: Any = None) -> RosterMember:
    """A member one place up (or down) the roster, changing places with his neighbour."""
    competition, team = _locked_team(team, expected_version)
    members = list(team.roster.select_related("entry__player").order_by("position"))
    index = next((i for i, m in enumerate(members) if m.pk == member_id), None)
    if index is None:
        raise StaleEditError(_("This player is no longer on the roster of %(team)s: look at it again.")
                             % {"team": team})
    other = index - 1 if up else index + 1
    member = members[index]
    if not 0 <= other < len(members):
        words = (_("%(player)s is already at the top of the roster.") if up
                 else _("%(player)s is already at the bottom of the roster."))
        raise DomainError(words % {"player": member.entry.player})
    neighbour = members[other]
    first, second = member.position, neighbour.position
    # One place at a time is free: (team, position) is unique at every moment.
    RosterMember.objects.filter(pk=member.pk).update(position=0)
    for m, position in ((neighbour, first), (member, second)):
        m.position = position
        if user is not None:
            m._history_user = user  # type: ignore[attr-defined]
        m.save(update_fields=["position"])
    _bump_team(team, user)
    setup.bump(competition)
    return member


def member_played(member: RosterMember) -> str:
    """Why a member must stay on his roster, in words; "" when he may be removed: he played for the team
    (a board of a published round, or any game in the competition), or he is lined up for it."""
    entry = member.entry
    team = member.team
    boards = MatchBoard.objects.filter(Q(match__home=team, home_entry=entry) | Q(match__away=team, away_entry=entry))
    published = set(team.competition.tournament.rounds.exclude(status=RoundStatus.DRAFT)
                    .values_list("number", flat=True))
    played = sorted({b.match.round_number for b in boards.select_related("match")
                     if b.match.round_number in published or b.game_id is not None})
    if played:
        return _("%(player)s has played for %(team)s (round %(rounds)s): he stays on its roster.") % {
            "player": entry.player, "team": team, "rounds": ", ".join(map(str, played))}
    lined = sorted({b.match.round_number for b in boards.select_related("match")})
    if lined:
        return _("%(player)s is lined up for %(team)s in round %(rounds)s: take him out of the line-up first.") % {
            "player": entry.player, "team": team, "rounds": ", ".join(map(str, lined))}
    return ""


@transaction.atomic
def roster_remove(*, team: Team, expected_version: int | None, member_id: int, user: Any = None) -> str:
    """A member off the roster, the ones after him moving up one; refused once he played for the team or
    while he is lined up (member_played). His entry goes when no other roster lists him and he has no game.
    Gives his name."""
    competition, team = _locked_team(team, expected_version)
    member = team.roster.select_related("entry__player", "team__competition__tournament").filter(
        pk=member_id).first()
    if member is None:
        raise StaleEditError(_("This player is no longer on the roster of %(team)s: look at it again.")
                             % {"team": team})
    why = member_played(member)
    if why:
        raise DomainError(why)
    name, entry, position = str(member.entry.player), member.entry, member.position
    member.delete()
    for later in team.roster.filter(position__gt=position).order_by("position"):
        later.position -= 1
        if user is not None:
            later._history_user = user  # type: ignore[attr-defined]
        later.save(update_fields=["position"])
    _drop_entry_if_unused(entry)
    _bump_team(team, user)
    setup.bump(competition)
    return name


def _drop_entry_if_unused(entry: Any) -> None:
    if entry.roster_places.exists() or MatchBoard.objects.filter(Q(home_entry=entry) | Q(away_entry=entry)).exists():
        return
    if Game.objects.filter(Q(white=entry) | Q(black=entry)).exists():
        return
    check_entry_delete(entry)
    entry.delete()


# --- The captain's code ------------------------------------------------------------------------------


@transaction.atomic
def captain_code_issue(*, team: Team, expected_version: int | None, user: Any = None) -> Team:
    """A new code for the team's captain to give the line-ups without an account; a former code stops
    working."""
    _competition, team = _locked_team(team, expected_version)
    team.captain_token = codes.new_token()  # as long and as random as a player's board code
    team.version += 1
    if user is not None:
        team._history_user = user  # type: ignore[attr-defined]
    team.save(update_fields=["captain_token", "version"])
    return team


@transaction.atomic
def captain_code_revoke(*, team: Team, expected_version: int | None, user: Any = None) -> Team:
    _competition, team = _locked_team(team, expected_version)
    if not team.captain_token:
        raise DomainError(_("%(team)s has no captain's code.") % {"team": team})
    team.captain_token = ""
    team.version += 1
    if user is not None:
        team._history_user = user  # type: ignore[attr-defined]
    team.save(update_fields=["captain_token", "version"])
    return team
