"""From results to ranked rows and crosstable cells: pure functions, no ORM."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.results import Result
from tournaments.standings.fide_c07 import FMJD, check_convention, tiebreak_function
from tournaments.standings.rating_rounds import TieBreakRatings
from tournaments.standings.records import (
    Colour,
    Encounter,
    StandingGame,
    StandingPlayer,
    StandingRow,
    TieBreakValue,
    Withdrawal,
    encounters_by_player,
    game_points,
    totals,
)
from tournaments.standings.tiebreaks import GROUP_TIEBREAKS, TIEBREAKS, TieBreakContext, sort_key
from tournaments.standings.withdrawals import (
    WithdrawalRuling,
    cut_off,
    effective_games,
    rulings,
    withdrawals_in_effect,
)


def compute_standings(
    players: Sequence[StandingPlayer],
    games: Sequence[StandingGame],
    *,
    system: str,
    rounds_total: int,
    tiebreaks: Sequence[str],
    bye_points: int = 2,
    after_round: int | None = None,
    ratings: TieBreakRatings | None = None,
    convention: str = FMJD,
) -> list[StandingRow]:
    """Ranked rows, best first, then the players not ranked (5.9 A.a, or expelled) by pairing number.

    Order: points, then each tie-break in the given order, higher first; players still equal share
    the rank (1, 2, 2, 4) and are listed by pairing number. `games` are the games with a result;
    5.9 is applied here (see withdrawals.py), so pass them as recorded. `after_round` cuts the table
    at that round (games of later rounds are ignored); default: the last round present. `ratings`: how
    the rating-based tie-breaks count unrated players and later ratings (default: each player's rating).
    `convention`: how the tie-breaks count a round without a game over the board, FMJD's (tiebreaks.py)
    or FIDE's (fide_c07.py).
    """
    check_convention(convention)
    by_id = _players_by_id(players, tiebreaks)
    last = cut_off(games, after_round, rounds_total)
    effective = effective_games(players, games, system, rounds_total, after_round=last)
    encounters = encounters_by_player(by_id, effective, bye_points)
    facts = _Facts(
        players=by_id, tiebreaks=tiebreaks, encounters=encounters,
        ctx=TieBreakContext(players=by_id, points=totals(encounters), encounters=encounters, ratings=ratings,
                            rounds=last, system=system),
        convention=convention,
        rulings=rulings(players, [g for g in games if g.round <= last], system, last),
        withdrawn=withdrawals_in_effect(players, last),
    )
    facts.values = _individual_values(facts)
    by_number = sorted(players, key=lambda p: p.pairing_number)
    # An expelled player's games count for his opponents (their points and tie-breaks are computed with
    # him, above), but he takes no place: checklist questions 197-198.
    unranked = {pid for pid, ruling in facts.rulings.items() if ruling.cancelled} | {
        p.id for p in players if p.expelled}
    classes: list[list[int]] = []
    for group in _runs([p.id for p in by_number if p.id not in unranked], lambda pid: facts.ctx.points[pid]):
        classes.extend(_refine(group, 0, tiebreaks, facts.ctx, facts.values))
    rows: list[StandingRow] = []
    for tie_class in classes:
        rank = len(rows) + 1
        rows.extend(facts.row(pid, rank, len(tie_class) > 1) for pid in tie_class)
    rows.extend(facts.row(p.id, None, False) for p in by_number if p.id in unranked)
    return rows


def _players_by_id(players: Sequence[StandingPlayer], tiebreaks: Sequence[str]) -> dict[int, StandingPlayer]:
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {', '.join(unknown)}; known: {', '.join(TIEBREAKS)}")
    by_id = {p.id: p for p in players}
    if len(by_id) != len(players):
        raise ValueError("two players share an id")
    return by_id


@dataclass
class _Facts:
    """What the rows are made of, once 5.9 is applied and the individual tie-breaks are computed."""

    players: dict[int, StandingPlayer]
    tiebreaks: Sequence[str]
    encounters: dict[int, list[Encounter]]
    ctx: TieBreakContext
    rulings: dict[int, WithdrawalRuling]
    withdrawn: dict[int, int]
    convention: str = FMJD
    values: dict[int, dict[str, TieBreakValue]] = field(default_factory=dict)

    def row(self, pid: int, rank: int | None, shared: bool) -> StandingRow:
        ruling = self.rulings.get(pid)
        note = ruling.withdrawal if ruling is not None else (
            Withdrawal("5.9 B", self.withdrawn[pid]) if pid in self.withdrawn else None)
        return StandingRow(
            rank=rank,
            player=self.players[pid],
            points=self.ctx.points[pid],
            played=sum(1 for e in self.encounters[pid] if e.over_the_board),
            wins=sum(1 for e in self.encounters[pid] if e.won),
            tiebreaks={name: self.values[pid][name] for name in self.tiebreaks},
            withdrawn=pid in self.withdrawn,
            not_ranked_reason=ruling.reason if ruling is not None and ruling.cancelled else None,
            shared_rank=shared,
            withdrawal_note=note.english() if note is not None else None,
            withdrawal=note,
            expelled=self.players[pid].expelled,
        )


def _individual_values(facts: _Facts) -> dict[int, dict[str, TieBreakValue]]:
    """Each player's value of each tie-break that does not depend on the tied group; the group ones (mutual
    result, ranking order) stay None here and are filled in while ranking (None for the unranked)."""
    values: dict[int, dict[str, TieBreakValue]] = {pid: {} for pid in facts.players}
    for name in dict.fromkeys(facts.tiebreaks):
        for pid in facts.players:
            values[pid][name] = (None if name in GROUP_TIEBREAKS
                                 else tiebreak_function(name, facts.convention)(pid, facts.ctx, frozenset()))
    return values


def _runs(ids: list[int], key: Callable[[int], Any]) -> list[list[int]]:
    """Split ids into runs of equal key, best (highest) first; stable, so pairing order is kept."""
    keyed = sorted(ids, key=key, reverse=True)
    out: list[list[int]] = []
    previous: Any = None
    for pid in keyed:
        k = key(pid)
        if not out or k != previous:
            out.append([])
        out[-1].append(pid)
        previous = k
    return out


def _refine(
    group: list[int], level: int, order: Sequence[str], ctx: TieBreakContext,
    values: dict[int, dict[str, TieBreakValue]],
) -> list[list[int]]:
    # Singletons go down every level too, so each row shows a value for every tie-break.
    if level == len(order):
        return [group]
    name = order[level]
    if name in GROUP_TIEBREAKS:
        members = frozenset(group)
        for pid in group:
            values[pid][name] = TIEBREAKS[name].function(pid, ctx, members)
    out: list[list[int]] = []
    for run in _runs(group, lambda pid: sort_key(values[pid][name])):
        out.extend(_refine(run, level + 1, order, ctx, values))
    return out


@dataclass(frozen=True)
class CrosstableCell:
    round: int
    opponent: int | None  # player id; None for a bye, an excused round or no game
    colour: Colour | None
    result: Result | None  # None: no game this round (or not yet played)
    text: str  # '2', '1', '0', '2F', '0F', 'bye', 'excused'; '' for not played or no game
    points: int  # what the cell adds to his total (0 when it does not count)
    counts: bool
    cancelled: bool  # 5.9 A.a: printed in the final table, counted for nobody
    forfeit_after_withdrawal: bool


def crosstable_cells(
    players: Sequence[StandingPlayer],
    games: Sequence[StandingGame],
    *,
    system: str,
    rounds_total: int,
    bye_points: int = 2,
    after_round: int | None = None,
) -> dict[int, list[CrosstableCell]]:
    """player id -> one cell per round 1..last round, the games as they count under 5.9."""
    last = cut_off(games, after_round, rounds_total)
    effective = effective_games(players, games, system, rounds_total, after_round=last)
    found: dict[tuple[int, int], StandingGame] = {}
    for game in effective:
        for pid in (game.white, game.black):
            if pid is not None:
                found[(pid, game.round)] = game
    out: dict[int, list[CrosstableCell]] = {}
    for player in sorted(players, key=lambda p: p.pairing_number):
        out[player.id] = [_cell(player.id, rnd, found.get((player.id, rnd)), bye_points)
                          for rnd in range(1, last + 1)]
    return out


def _cell(pid: int, rnd: int, game: StandingGame | None, bye_points: int) -> CrosstableCell:
    if game is None:
        return CrosstableCell(rnd, None, None, None, "", 0, False, False, False)
    single = game.result.is_single_player or game.black is None
    white = pid == game.white
    if game.result is Result.NOT_PLAYED:
        text = ""
    elif single:
        text = game.result.value
    else:
        text = game.result.cell(white)
    points = game_points(game, pid, bye_points) if game.counts else 0
    return CrosstableCell(
        round=rnd,
        opponent=None if single else (game.black if white else game.white),
        colour=None if single else ("white" if white else "black"),
        result=game.result,
        text=text,
        points=points,
        counts=game.counts,
        cancelled=game.cancelled,
        forfeit_after_withdrawal=game.forfeit_after_withdrawal,
    )
