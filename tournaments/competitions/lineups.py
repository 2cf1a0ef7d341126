"""Line-ups, whole-match forfeits and the publication of a team round.

A line-up is checked against the team's roster and the competition's rules when it is entered: every
player on the roster, none twice in the round, none who already played for another team when a player
plays for one team only, a licence when one is required, the boards in roster order when the rule says
so. Publishing a round turns each board with two players into a Game of the tournament's round (home
White on the boards the colour setting gives it), so results, sheets and reports follow the same path
as in any tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournaments.errors import DomainError, StaleEditError
from tournaments.models import (
    Entry,
    Game,
    LineupRule,
    Match,
    MatchBoard,
    MatchForfeit,
    RosterMember,
    Round,
    RoundStatus,
    TeamCompetition,
)
from tournaments.rounds import services as round_services

from .selectors import settings_of
from .setup import bump, locked_competition

HOME, AWAY = "home", "away"


def game_board(competition: TeamCompetition, match: Match, number: int) -> int:
    """The board number of a match's board in the tournament's round: the matches' boards one after the other."""
    return (match.table - 1) * competition.boards + number


def _locked_match(match: Match, expected_version: int | None) -> tuple[TeamCompetition, Match]:
    competition = locked_competition(match.competition)
    # of=self: PostgreSQL locks no row of the nullable side of an outer join (a cup bye has no away team).
    locked = Match.objects.select_for_update(of=("self",)).select_related("home", "away").filter(pk=match.pk).first()
    if locked is None:
        raise StaleEditError(_("This match no longer exists: someone else deleted it; look at the round again."))
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(_("The match %(match)s was changed by someone else since you read it: nothing was done; "
                               "look at it again.") % {"match": locked})
    return competition, locked


def _round_of(competition: TeamCompetition, number: int) -> Round | None:
    return Round.objects.filter(tournament_id=competition.tournament_id, number=number).first()


def _refuse_if_published(competition: TeamCompetition, match: Match) -> None:
    rnd = _round_of(competition, match.round_number)
    if rnd is not None and rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(number)s is published: its line-ups are fixed. Take the round back to draft "
                            "first (only while no result is in).") % {"number": match.round_number})


def _save_match(competition: TeamCompetition, match: Match, fields: Sequence[str], user: Any) -> Match:
    match.version += 1
    if user is not None:
        match._history_user = user  # type: ignore[attr-defined]
    match.save(update_fields=[*fields, "version"])
    bump(competition)
    return match


@transaction.atomic
def lineup_set(*, match: Match, side: str, entries: Sequence[Entry | None], expected_version: int | None = None,
               user: Any = None) -> Match:
    """One team's line-up of a match, board 1 first; None leaves a board unfilled (the other team wins it
    by forfeit). Every check is made before anything is written, and all problems are named at once."""
    competition, match = _locked_match(match, expected_version)
    if side not in (HOME, AWAY):
        raise DomainError(_("A line-up is the home team's or the away team's."))
    team = match.home if side == HOME else match.away
    if team is None:
        raise DomainError(_("%(match)s is a bye: it has no line-up.") % {"match": match})
    if match.forfeit != MatchForfeit.NONE:
        raise DomainError(_("%(match)s is recorded as not played (forfeit): take the forfeit back first.")
                          % {"match": match})
    _refuse_if_published(competition, match)
    if len(entries) != competition.boards:
        raise DomainError(_("A line-up has %(boards)s boards, not %(given)s.")
                          % {"boards": competition.boards, "given": len(entries)})
    problems = lineup_problems(competition, match, team.pk, entries)
    if problems:
        raise DomainError(" ".join(problems))
    boards = {b.number: b for b in match.boards.select_for_update()}
    for number, entry in enumerate(entries, start=1):
        board = boards.get(number) or MatchBoard(match=match, number=number)
        setattr(board, f"{side}_entry", entry)
        board.save()
    return _save_match(competition, match, [], user)


def lineup_problems(competition: TeamCompetition, match: Match, team_id: int,
                    entries: Sequence[Entry | None]) -> list[str]:
    """What is wrong with a team's line-up, board by board, in the reader's language; empty when it stands."""
    members = {m.entry_id: m for m in RosterMember.objects.filter(team_id=team_id).select_related("entry__player")}
    problems: list[str] = []
    seen: dict[int, int] = {}
    last_position = 0
    round_boards = (MatchBoard.objects.filter(match__competition=competition, match__round_number=match.round_number)
                    .exclude(match=match).select_related("match__home", "match__away"))
    elsewhere: dict[int, tuple[Match, int]] = {}
    for b in round_boards:
        for entry_id in (b.home_entry_id, b.away_entry_id):
            if entry_id is not None:
                elsewhere[entry_id] = (b.match, b.number)
    played_for: dict[int, int] = {}
    if competition.one_team_per_player:
        for b in (MatchBoard.objects.filter(match__competition=competition, game__isnull=False)
                  .exclude(match__round_number=match.round_number).values("home_entry_id", "away_entry_id",
                                                                        "match__home_id", "match__away_id")):
            for entry_id, played in ((b["home_entry_id"], b["match__home_id"]),
                                     (b["away_entry_id"], b["match__away_id"])):
                if entry_id is not None:
                    played_for.setdefault(entry_id, played)
    team_names = {t.pk: t.name for t in competition.teams.all()}
    for number, entry in enumerate(entries, start=1):
        if entry is None:
            continue
        member = members.get(entry.pk)
        name = str(entry.player)
        values = {"board": number, "player": name}
        if member is None:
            problems.append(_("Board %(board)s: %(player)s is not on the team's roster.") % values)
            continue
        if entry.pk in seen:
            problems.append(_("Board %(board)s: %(player)s is already on board %(first)s.")
                            % {**values, "first": seen[entry.pk]})
            continue
        seen[entry.pk] = number
        if entry.pk in elsewhere:
            other, on = elsewhere[entry.pk]
            problems.append(_("Board %(board)s: %(player)s is already lined up in round %(round)s, match %(match)s, "
                              "board %(on)s.") % {**values, "round": match.round_number, "match": other, "on": on})
        if competition.one_team_per_player and played_for.get(entry.pk, team_id) != team_id:
            problems.append(_("Board %(board)s: %(player)s has already played for %(team)s, and a player plays for "
                              "one team only in this competition.")
                            % {**values, "team": team_names.get(played_for[entry.pk], "?")})
        if competition.licence_required and not member.licence:
            problems.append(_("Board %(board)s: %(player)s has no licence number on the roster, and this competition "
                              "requires one.") % values)
        if competition.lineup_rule == LineupRule.ROSTER_ORDER:
            if member.position < last_position:
                problems.append(_("Board %(board)s: %(player)s is listed before the player of an earlier board in "
                                  "the roster, and the boards follow the roster order.") % values)
            last_position = max(last_position, member.position)
    return problems


@transaction.atomic
def match_forfeit_set(*, match: Match, forfeit: str, expected_version: int | None = None, user: Any = None) -> Match:
    """Record (or take back, with "none") that a team did not play the match at all. Refused once a board of
    the match has a result: the boards that were played stand, and a single board is a board forfeit."""
    competition, match = _locked_match(match, expected_version)
    if forfeit not in MatchForfeit.values:
        raise DomainError(_("Unknown forfeit “%(value)s”.") % {"value": forfeit})
    if match.away_id is None:
        raise DomainError(_("%(match)s is a bye: it cannot be forfeited.") % {"match": match})
    games = Game.objects.filter(match_board__match=match)
    if games.exclude(result="").exists():
        raise DomainError(_("%(match)s has board results: correct them instead (a missing player is a board "
                            "forfeit).") % {"match": match})
    _refuse_if_published(competition, match)
    match.forfeit = forfeit
    return _save_match(competition, match, ["forfeit"], user)


@transaction.atomic
def round_publish(*, competition: TeamCompetition, number: int, expected_version: int | None = None,
                  user: Any = None) -> Round:
    """Publish a team round: every match has both line-ups (or a forfeit, or is a bye); each board with two
    players becomes a Game of the round, the home team White on the boards the colour setting gives it."""
    competition = locked_competition(competition, expected_version)
    matches = list(competition.matches.filter(round_number=number, barrage_of__isnull=True)
                   .select_related("home", "away").order_by("table"))
    matches += list(competition.matches.filter(round_number=number, barrage_of__isnull=False)
                    .select_related("home", "away").order_by("table"))
    if not matches:
        raise DomainError(_("Round %(number)s has no matches.") % {"number": number})
    tournament = competition.tournament
    previous = Round.objects.filter(tournament=tournament, number=number - 1).first() if number > 1 else None
    if number > 1 and (previous is None or previous.status == RoundStatus.DRAFT):
        raise DomainError(_("Round %(previous)s is not published yet: publish the rounds in order.")
                          % {"previous": number - 1})
    missing: list[str] = []
    boards_of: dict[int, list[MatchBoard]] = {}
    for match in matches:
        boards = list(match.boards.order_by("number"))
        boards_of[match.pk] = boards
        if match.away_id is None or match.forfeit != MatchForfeit.NONE:
            continue
        for side, team in ((HOME, match.home), (AWAY, match.away)):
            if not any(getattr(b, f"{side}_entry_id") for b in boards):
                missing.append(_("%(match)s: %(team)s has no line-up; enter it or record the forfeit.")
                               % {"match": match, "team": team})
    if missing:
        raise DomainError(" ".join(missing))
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        rnd = Round.objects.create(tournament=tournament, number=number)
    elif rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(number)s is already published.") % {"number": number})
    for match in matches:
        if match.away_id is None or match.forfeit != MatchForfeit.NONE:
            continue
        games_make(competition, match, boards_of[match.pk], rnd)
    rnd = round_services.round_publish(round=rnd, user=user)
    bump(competition)
    return rnd


def games_make(competition: TeamCompetition, match: Match, boards: Sequence[MatchBoard], rnd: Round) -> list[Game]:
    """The games of a match's boards that have two players and no game yet, in the round: the home team White
    on the boards the colour setting gives it; each board then holds its game."""
    settings = settings_of(competition)
    made: list[tuple[MatchBoard, Game]] = []
    for board in boards:
        if board.game_id is not None or board.home_entry_id is None or board.away_entry_id is None:
            continue
        white, black = ((board.home_entry_id, board.away_entry_id) if settings.first_is_white(board.number)
                        else (board.away_entry_id, board.home_entry_id))
        made.append((board, Game(round=rnd, board=game_board(competition, match, board.number),
                                 white_id=white, black_id=black)))
    bulk_create_with_history([g for _b, g in made], Game)
    saved = {g.board: g for g in Game.objects.filter(round=rnd, board__in=[g.board for _b, g in made])}
    for board, game in made:
        board.game = saved[game.board]
        board.save(update_fields=["game"])
    return [saved[g.board] for _b, g in made]


@transaction.atomic
def round_unpublish(*, competition: TeamCompetition, number: int, user: Any = None) -> Round:
    """Back to draft while no result is in: the round's games go, the line-ups stay and can be changed."""
    competition = locked_competition(competition)
    rnd = _round_of(competition, number)
    if rnd is None:
        raise DomainError(_("Round %(number)s is not published.") % {"number": number})
    rnd = round_services.round_unpublish(round=rnd, expected_version=None)
    MatchBoard.objects.filter(game__round=rnd).update(game=None)
    Game.objects.filter(round=rnd).delete()
    bump(competition)
    return rnd
