"""Match scores from board results, the standings of a league, and the decision of a drawn cup match.

Board results are the codes of `tournaments.results`, White's score first; which team had White on
a board follows the competition's colour setting, so each board's points are turned to the
first-named (home) team's side here, once. A whole-match forfeit carries no board results: the
present team scores the setting's forfeit board points on every board.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.results import Result
from tournaments.teams.settings import Criterion, CupTie, TeamSettings

# Results a single player has never stand on a board between two teams; NOT_PLAYED (a withdrawn
# player's game) neither: a board with nobody on one side or both is a forfeit (2F-0F, 0F-0F).
_NOT_A_BOARD = frozenset({Result.BYE, Result.EXCUSED, Result.EXCUSED_DRAW, Result.EXCUSED_WIN,
                          Result.NOT_PLAYED})


class Forfeit(enum.StrEnum):
    """A whole-match forfeit: which team did not play the match at all."""

    NONE = "none"
    HOME = "home"  # the first-named team forfeits
    AWAY = "away"
    BOTH = "both"


class CupReason(enum.StrEnum):
    """Why a cup match went to the team it went to."""

    BOARD_POINTS = "board_points"
    FORFEIT = "forfeit"
    BOARD_COUNT = "board_count"
    ELIMINATE_LOWEST = "eliminate_lowest"
    BARRAGE = "barrage"
    LOTS = "lots"
    UNDECIDED = "undecided"  # the rule stops at a barrage that has not been played yet


@dataclass(frozen=True)
class Match:
    """A match between two teams: board 1 first. `home` is the first-named team."""

    home: str
    away: str
    boards: tuple[Result, ...] = ()
    forfeit: Forfeit = Forfeit.NONE


@dataclass(frozen=True)
class MatchScore:
    home_board_points: int
    away_board_points: int
    home_match_points: int  # after any deduction
    away_match_points: int
    home_deduction: int
    away_deduction: int
    winner: str | None  # None for a drawn match or a double forfeit
    home_board_scores: tuple[int, ...]  # per board, home side; empty for a whole-match forfeit
    away_board_scores: tuple[int, ...]


def board_scores(match: Match, settings: TeamSettings) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(home, away) points per board, after turning each White-Black code to the teams' sides."""
    if match.forfeit is not Forfeit.NONE:
        if match.boards:
            raise ValueError(f"{match.home}-{match.away}: a forfeited match has no board results")
        return (), ()
    if len(match.boards) != settings.boards:
        raise ValueError(
            f"{match.home}-{match.away}: {len(match.boards)} board results for a {settings.boards}-board match")
    home: list[int] = []
    away: list[int] = []
    for number, result in enumerate(match.boards, start=1):
        if not isinstance(result, Result) or result in _NOT_A_BOARD:
            raise ValueError(f"{match.home}-{match.away}, board {number}: {result!r} is not a board result")
        white, black = result.points()
        if settings.first_is_white(number):
            home.append(white)
            away.append(black)
        else:
            home.append(black)
            away.append(white)
    return tuple(home), tuple(away)


def score_match(match: Match, settings: TeamSettings) -> MatchScore:
    """The match's board points and match points. The team with more board points wins the match."""
    if match.home == match.away:
        raise ValueError(f"{match.home} cannot play itself")
    home_boards, away_boards = board_scores(match, settings)
    s = settings
    if match.forfeit is Forfeit.NONE:
        home_bp, away_bp = sum(home_boards), sum(away_boards)
        if home_bp > away_bp:
            home_mp, away_mp, winner = s.match_win, s.match_loss, match.home
        elif away_bp > home_bp:
            home_mp, away_mp, winner = s.match_loss, s.match_win, match.away
        else:
            home_mp, away_mp, winner = s.match_draw, s.match_draw, None
        return MatchScore(home_bp, away_bp, home_mp, away_mp, 0, 0, winner, home_boards, away_boards)
    full = s.forfeit_board_points * s.boards
    if match.forfeit is Forfeit.AWAY:
        return MatchScore(full, 0, s.match_win, s.match_loss - s.forfeit_deduction, 0, s.forfeit_deduction,
                          match.home, (), ())
    if match.forfeit is Forfeit.HOME:
        return MatchScore(0, full, s.match_loss - s.forfeit_deduction, s.match_win, s.forfeit_deduction, 0,
                          match.away, (), ())
    loss = s.match_loss - s.forfeit_deduction
    return MatchScore(0, 0, loss, loss, s.forfeit_deduction, s.forfeit_deduction, None, (), ())


@dataclass(frozen=True)
class Row:
    """One team's line of the standings. `values` holds each criterion of the settings' order."""

    team: str
    rank: int
    shared: bool  # True when another team has the same rank
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    board_points: int
    deductions: int
    values: dict[Criterion, int] = field(default_factory=dict)


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    board_points: int = 0
    deductions: int = 0


def standings(teams: Sequence[str], matches: Sequence[Match], settings: TeamSettings) -> list[Row]:
    """The ranked rows. Teams equal on every criterion share a rank and are listed in `teams` order.

    A forfeited match counts as played for both teams: it stands in the schedule and is scored (the
    forfeiting team loses it). SB_TEAMS takes each opponent's final match points after deductions, so a
    win over a team with a negative total counts against the winner, as the product says. MUTUAL is
    computed within each group of teams equal on every earlier criterion of the order, from the match
    points of the matches between them.
    """
    if len(set(teams)) != len(teams):
        raise ValueError("teams: a team is listed twice")
    known = set(teams)
    tally = {t: _Tally() for t in teams}
    scored: list[tuple[Match, MatchScore]] = []
    for index, match in enumerate(matches, start=1):
        for side in (match.home, match.away):
            if side not in known:
                raise ValueError(f"match {index}: {side!r} is not a team of this competition")
        score = score_match(match, settings)
        scored.append((match, score))
        for team, bp, mp, ded in ((match.home, score.home_board_points, score.home_match_points,
                                   score.home_deduction),
                                  (match.away, score.away_board_points, score.away_match_points,
                                   score.away_deduction)):
            row = tally[team]
            row.played += 1
            row.board_points += bp
            row.match_points += mp
            row.deductions += ded
            if score.winner is None:
                if match.forfeit is Forfeit.BOTH:
                    row.lost += 1
                else:
                    row.drawn += 1
            elif score.winner == team:
                row.won += 1
            else:
                row.lost += 1

    values: dict[str, dict[Criterion, int]] = {t: {} for t in teams}
    for position, criterion in enumerate(settings.order):
        if criterion is Criterion.MUTUAL:
            groups: dict[tuple[int, ...], set[str]] = {}
            for t in teams:
                groups.setdefault(tuple(values[t][c] for c in settings.order[:position]), set()).add(t)
            for group in groups.values():
                for t in group:
                    values[t][criterion] = _mutual(t, group, scored)
        else:
            for t in teams:
                values[t][criterion] = _value(criterion, t, tally, scored)

    keyed = sorted(teams, key=lambda t: (tuple(-values[t][c] for c in settings.order), teams.index(t)))
    rows: list[Row] = []
    for position, t in enumerate(keyed):
        key = tuple(values[t][c] for c in settings.order)
        rank = position + 1
        if rows and tuple(rows[-1].values[c] for c in settings.order) == key:
            rank = rows[-1].rank
        tied = sum(1 for other in teams if tuple(values[other][c] for c in settings.order) == key) > 1
        r = tally[t]
        rows.append(Row(t, rank, tied, r.played, r.won, r.drawn, r.lost, r.match_points, r.board_points,
                        r.deductions, dict(values[t])))
    return rows


def _value(criterion: Criterion, team: str, tally: dict[str, _Tally],
           scored: list[tuple[Match, MatchScore]]) -> int:
    if criterion is Criterion.MATCH_POINTS:
        return tally[team].match_points
    if criterion is Criterion.BOARD_POINTS:
        return tally[team].board_points
    if criterion is Criterion.WINS:
        return tally[team].won
    total = 0  # SB_TEAMS
    for match, score in scored:
        if match.home == team:
            total += tally[match.away].match_points * score.home_board_points
        elif match.away == team:
            total += tally[match.home].match_points * score.away_board_points
    return total


def _mutual(team: str, group: set[str], scored: list[tuple[Match, MatchScore]]) -> int:
    if len(group) < 2:
        return 0
    total = 0
    for match, score in scored:
        if match.home in group and match.away in group:
            if match.home == team:
                total += score.home_match_points
            elif match.away == team:
                total += score.away_match_points
    return total


@dataclass(frozen=True)
class CupDecision:
    winner: str | None
    reason: CupReason


def cup_winner(match: Match, settings: TeamSettings, lots_seed: int | None = None,
               barrage: Match | None = None) -> CupDecision:
    """The team that goes through, and why. A drawn match goes through the settings' cup_tie steps in
    order; a step that does not separate the teams passes to the next. BARRAGE with no barrage given
    stops at UNDECIDED; LOTS needs the recorded seed, so the draw can be repeated and checked."""
    score = score_match(match, settings)
    if match.forfeit is not Forfeit.NONE:
        return CupDecision(score.winner, CupReason.FORFEIT)
    if score.winner is not None:
        return CupDecision(score.winner, CupReason.BOARD_POINTS)
    home, away = score.home_board_scores, score.away_board_scores
    win = 2  # a won board on the FMJD scale
    for step in settings.cup_tie:
        if step is CupTie.BOARD_COUNT:
            home_count = sum(n for n, p in enumerate(home, start=1) if p == win)
            away_count = sum(n for n, p in enumerate(away, start=1) if p == win)
            if home_count != away_count:
                return CupDecision(match.home if home_count < away_count else match.away, CupReason.BOARD_COUNT)
        elif step is CupTie.ELIMINATE_LOWEST:
            for kept in range(len(home) - 1, 0, -1):
                h, a = sum(home[:kept]), sum(away[:kept])
                if h != a:
                    return CupDecision(match.home if h > a else match.away, CupReason.ELIMINATE_LOWEST)
        elif step is CupTie.BARRAGE:
            if barrage is None:
                return CupDecision(None, CupReason.UNDECIDED)
            if {barrage.home, barrage.away} != {match.home, match.away}:
                raise ValueError(f"the barrage {barrage.home}-{barrage.away} is not between "
                                 f"{match.home} and {match.away}")
            decided = score_match(barrage, settings).winner
            if decided is not None:
                return CupDecision(decided, CupReason.BARRAGE)
        elif step is CupTie.LOTS:
            if lots_seed is None:
                raise ValueError("lots: the seed of the draw must be recorded before lots are drawn")
            return CupDecision(random.Random(lots_seed).choice(sorted((match.home, match.away))), CupReason.LOTS)
    return CupDecision(None, CupReason.UNDECIDED)
