"""Reads of a team competition: its rules as the pure engine's value, each match as the engine scores it,
the standings. Never a write."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Game, Match, MatchBoard, MatchForfeit, RoundStatus, TeamCompetition
from tournaments.results import Result
from tournaments.teams import scoring
from tournaments.teams.settings import Colours, Criterion, CupTie, TeamSettings


def settings_of(competition: TeamCompetition) -> TeamSettings:
    return TeamSettings(
        boards=competition.boards, match_win=competition.match_win, match_draw=competition.match_draw,
        match_loss=competition.match_loss, order=tuple(Criterion(c) for c in competition.order or
                                                       ("match_points", "board_points")),
        forfeit_board_points=competition.forfeit_board_points, forfeit_deduction=competition.forfeit_deduction,
        colours=Colours(competition.colours), cup_tie=tuple(CupTie(c) for c in competition.cup_tie))


def _empty_board(home_there: bool, away_there: bool, home_white: bool) -> Result:
    """A board a team left unfilled: the other side wins it by forfeit; nobody on it, a double forfeit."""
    if not home_there and not away_there:
        return Result.DOUBLE_FORFEIT
    white_there = home_there if home_white else away_there
    return Result.WHITE_FORFEIT_WIN if white_there else Result.BLACK_FORFEIT_WIN


@dataclass(frozen=True)
class MatchState:
    """A match as the pages read it: `scored` is the engine's value once every board has its result (or the
    match is forfeited), None while it is under way; `results` is each board's result code so far."""

    match: Match
    boards: tuple[MatchBoard, ...]
    results: tuple[str, ...]  # "" while a board has no result
    scored: scoring.Match | None
    score: scoring.MatchScore | None


def match_states(competition: TeamCompetition, round_number: int | None = None) -> list[MatchState]:
    """Every match (of one round, or all), board by board, in two queries whatever the number of matches."""
    settings = settings_of(competition)
    matches = competition.matches.select_related("home", "away", "winner").order_by("round_number", "table")
    if round_number is not None:
        matches = matches.filter(round_number=round_number)
    matches = list(matches)
    published = set(competition.tournament.rounds.exclude(status=RoundStatus.DRAFT).values_list("number", flat=True))
    boards: dict[int, list[MatchBoard]] = {}
    for b in (MatchBoard.objects.filter(match__in=matches).select_related(
            "home_entry__player", "away_entry__player", "game").order_by("number")):
        boards.setdefault(b.match_id, []).append(b)
    states = []
    for match in matches:
        mine = tuple(boards.get(match.pk, ()))
        states.append(_state(match, mine, settings, match.round_number in published))
    return states


def _state(match: Match, boards: tuple[MatchBoard, ...], settings: TeamSettings, published: bool) -> MatchState:
    home, away = match.home.name, match.away.name if match.away_id else ""
    if match.away_id is None:
        return MatchState(match, boards, (), None, None)
    if match.forfeit != MatchForfeit.NONE:
        scored = scoring.Match(home, away, (), scoring.Forfeit(match.forfeit))
        return MatchState(match, boards, (), scored, scoring.score_match(scored, settings))
    by_number = {b.number: b for b in boards}
    results: list[str] = []
    for number in range(1, settings.boards + 1):
        b = by_number.get(number)
        game: Game | None = b.game if b is not None and b.game_id else None
        if game is not None:
            results.append(game.result)
        elif published:
            results.append(_empty_board(bool(b and b.home_entry_id), bool(b and b.away_entry_id),
                                        settings.first_is_white(number)).value)
        else:
            results.append("")
    if not published or "" in results:
        return MatchState(match, boards, tuple(results), None, None)
    scored = scoring.Match(home, away, tuple(Result(r) for r in results))
    return MatchState(match, boards, tuple(results), scored, scoring.score_match(scored, settings))


def standings(competition: TeamCompetition) -> list[scoring.Row]:
    """The league's standings on the matches whose every board has its result (a match under way counts
    once it is complete); barrages never count."""
    teams = [t.name for t in competition.teams.order_by("seed")]
    played = [s.scored for s in match_states(competition) if s.scored is not None and s.match.barrage_of_id is None]
    return scoring.standings(teams, played, settings_of(competition))
