"""The tie-break registry: each tournament picks and orders names from TIEBREAKS.

Source of the Solkoff family: FMJD Annexes (2024), 4.2 a-e, as quoted in the comments of a public
analysis script (github: "Compute Arbiter Pro Statistics", citing FMJD_Annexes_2024_4_2):
  a. Solkoff (Buchholz): the sum of the scores of all opponents; an opponent's bye score is 0.
  b. Solkoff median: a, minus the highest and the lowest opponent's score.
  c. Short truncated Solkoff: a, minus the lowest opponent's score.
  d. Full truncated Solkoff: a minus the lowest; if equal, a minus the two lowest; and so on.
  e. Solkoff plus: the sum of the opponents' Solkoffs.
Sonneborn-Berger, number of wins, mutual result and average opponent rating are the usual
definitions, adapted to 2/1/0 scoring as said at each function.

How each kind of round counts, the same way in every Solkoff variant and in Sonneborn-Berger:
- an over-the-board game: the opponent, with his score in these standings;
- a forfeit, won, lost or double (5.7, 5.8): the paired opponent counts like an over-the-board one
  (FMJD 4.2 speaks of "all opponents" and makes an exception only for the bye);
- a bye or an excused round: a virtual opponent scoring 0 (FMJD 4.2 a "opponent's bye score is 0"),
  so it is the lowest score the truncated variants drop first. The reading that an opponent's own
  bye points should be taken out of his score was considered and rejected: the quoted text and the
  script that quotes it give the bye itself a 0;
- a withdrawn opponent: in a Swiss (5.9 B) and after more than half his games in a round robin
  (5.9 A.b, his later games 0F) he counts with the score he has; when his results are cancelled
  (5.9 A.a) the games against him no longer exist, for every tie-break;
- a NOT_PLAYED game counts for nothing, as if the round had no game.
An opponent's score is his total in the same standings (bye points included, cut at the same round).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from tournaments.standings.rating_rounds import TieBreakRatings
from tournaments.standings.records import SWISS, Encounter, StandingPlayer, TieBreakValue


@dataclass(frozen=True)
class TieBreakContext:
    players: Mapping[int, StandingPlayer]
    points: Mapping[int, int]
    encounters: Mapping[int, list[Encounter]]
    # Unrated players and ratings per round (rating_rounds.py); None: each player's rating, unrated dropped.
    ratings: TieBreakRatings | None = None
    # The rounds the standings count (1..rounds) and the system: FIDE C.07 (fide_c07.py) counts every round,
    # a round without a game too, and treats a round robin apart (its Article 15).
    rounds: int = 0
    system: str = SWISS
    _solkoff: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    cache: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def opponent_scores(self, pid: int) -> list[int]:
        return [self.points[e.opponent] if e.opponent is not None else 0 for e in self.encounters[pid]]

    def rating(self, pid: int, game_round: int) -> int | None:
        """What a player met in `game_round` counts at in a rating-based tie-break (None: left out)."""
        if self.ratings is None:
            return self.players[pid].rating
        return self.ratings.rating(pid, game_round)

    def solkoff(self, pid: int) -> int:
        if pid not in self._solkoff:
            self._solkoff[pid] = sum(self.opponent_scores(pid))
        return self._solkoff[pid]


# A tie-break sees the player, the whole context and the group he is tied with at this step
# (same points, same values of every earlier tie-break); only the mutual result needs the group.
TieBreakFunction = Callable[[int, TieBreakContext, frozenset[int]], TieBreakValue]


class TieBreak(NamedTuple):
    """A registry entry; its name for people is made at the edge (tournaments.words)."""

    function: TieBreakFunction


def solkoff(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    return ctx.solkoff(pid)


def solkoff_median(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    scores = ctx.opponent_scores(pid)
    if len(scores) < 3:
        return 0  # nothing is left once the highest and the lowest are dropped
    return sum(scores) - max(scores) - min(scores)


def solkoff_short_truncated(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    scores = ctx.opponent_scores(pid)
    return sum(scores) - min(scores) if scores else 0


def solkoff_full_truncated(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> tuple[int, ...]:
    """(sum minus the lowest, minus the two lowest, ...), compared left to right. A player with fewer
    games (a withdrawn Swiss player) has a shorter tuple and loses a tie on every common step."""
    scores = sorted(ctx.opponent_scores(pid))
    remaining = sum(scores)
    steps: list[int] = []
    for score in scores[:-1]:
        remaining -= score
        steps.append(remaining)
    return tuple(steps)


def solkoff_plus(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    return sum(ctx.solkoff(e.opponent) for e in ctx.encounters[pid] if e.opponent is not None)


def sonneborn_berger(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Sum over his games of (his points in the game x the opponent's score): a win counts the
    opponent's score twice, a draw once, so the figure is the chess one doubled and stays an integer.
    Byes add nothing (points x 0)."""
    return sum(e.points * ctx.points[e.opponent] for e in ctx.encounters[pid] if e.opponent is not None)


def wins(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Games won, over the board or by forfeit (5.7 gives a forfeit the points of a win); not byes."""
    return sum(1 for e in ctx.encounters[pid] if e.won)


def mutual_result(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int | None:
    """Points scored against the other players of the tied group, all games between them counted.

    Applies only when every pair of the group has met at least once (a game that counts: over the
    board or forfeit); otherwise None for everyone, which separates nobody. A player alone in his
    group gets None too.
    """
    if len(group) < 2 or pid not in group:
        return None
    met: set[frozenset[int]] = set()
    for member in group:
        for e in ctx.encounters[member]:
            if e.opponent in group:
                met.add(frozenset((member, e.opponent)))
    if len(met) < len(group) * (len(group) - 1) // 2:
        return None
    return sum(e.points for e in ctx.encounters[pid] if e.opponent in group)


def ranking_order(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> tuple[int, ...] | None:
    """Results in ranking order (FMJD round robin, KNDB championships): his points against the best
    placed player outside the tied group, then against the next, and so on, compared left to right.

    "Ranking order" of the others is taken as points, then pairing number: the full order of the
    players below or above on equal points would need the very tie-breaks being computed, and it
    matters only when two of them are tied as well. Points against one opponent are summed over the
    games with him (a double round robin). An opponent he did not meet (a cancelled game, 5.9 A.a)
    counts as no points. None for a player alone in his group (it separates nobody).
    """
    if len(group) < 2 or pid not in group:
        return None
    others = sorted((p for p in ctx.players if p not in group),
                    key=lambda p: (-ctx.points[p], ctx.players[p].pairing_number))
    against: dict[int, int] = {}
    for e in ctx.encounters[pid]:
        if e.opponent is not None:
            against[e.opponent] = against.get(e.opponent, 0) + e.points
    return tuple(against.get(o, 0) for o in others)


def average_rating(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> Fraction | None:
    """Exact mean rating of the opponents met over the board (forfeits and byes excluded: no rating
    was faced); an unrated opponent counts as the tournament says (ctx.rating), left out by default.
    None when no opponent counts."""
    ratings = [
        rating for e in ctx.encounters[pid]
        if e.opponent is not None and e.over_the_board
        and (rating := ctx.rating(e.opponent, e.round)) is not None
    ]
    return Fraction(sum(ratings), len(ratings)) if ratings else None


def external_value(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int | None:
    """A value the arbiter typed for the player, computed outside Damier (checklist question 207: e.g. a
    tie-break the event's regulations define and Damier does not); higher is better, None where none is
    typed (below any value)."""
    return ctx.players[pid].external


TIEBREAKS: dict[str, TieBreak] = {
    "solkoff": TieBreak(solkoff),
    "solkoff_median": TieBreak(solkoff_median),
    "solkoff_short_truncated": TieBreak(solkoff_short_truncated),
    "solkoff_full_truncated": TieBreak(solkoff_full_truncated),
    "solkoff_plus": TieBreak(solkoff_plus),
    "sonneborn_berger": TieBreak(sonneborn_berger),
    "wins": TieBreak(wins),
    "mutual_result": TieBreak(mutual_result),
    "average_rating": TieBreak(average_rating),
    "ranking_order": TieBreak(ranking_order),
    "external": TieBreak(external_value),
}

# Tie-breaks whose value depends on the tied group, computed while ranking rather than up front.
GROUP_TIEBREAKS = frozenset({"mutual_result", "ranking_order"})


def sort_key(value: TieBreakValue) -> tuple[bool, object]:
    """Higher is better; None (does not apply) sorts below any value and ties with other None."""
    return (value is not None, value if value is not None else 0)
