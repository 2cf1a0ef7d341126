"""The plain records the standings work on, and what one game is worth to each side.

Scoring (FMJD competition rules): 5.6 a win 2, a draw 1, a loss 0;
5.7 a forfeit win 2 (written 2F, the absent side 0F); 5.8 a double forfeit 0-0. A pairing-allocated
bye scores `bye_points` (the caller passes 0 for the free round of a round robin), an excused
round 0. A game NOT_PLAYED (after a withdrawal) or cancelled under 5.9 A.a counts for nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tournaments.results import Result

ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"
SWISS = "swiss"
SYSTEMS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS)

Colour = Literal["white", "black"]
# int for sums and counts, Fraction for averages, a tuple for the full truncated Solkoff
# (compared left to right), None where a tie-break does not apply to the player.
TieBreakValue = int | Fraction | tuple[int, ...] | None


@dataclass(frozen=True)
class StandingPlayer:
    id: int
    pairing_number: int
    name: str
    rating: int | None
    withdrawn_after_round: int | None = None  # None = active; 0 = withdrew before round 1
    expelled: bool = False  # competition rules 2.6: not ranked; his games still count for his opponents
    external: int | None = None  # a tie-break value computed elsewhere and typed by the arbiter (checklist 207)


@dataclass(frozen=True)
class StandingGame:
    round: int
    white: int
    black: int | None  # None for BYE and EXCUSED
    result: Result
    # Set by effective_games: a result neutralised by 5.9 A.a (kept so the final table can still
    # print it, "à faire figurer au tableau final") and a forfeit written in by 5.9 A.b.
    cancelled: bool = False
    forfeit_after_withdrawal: bool = False

    @property
    def counts(self) -> bool:
        return not self.cancelled and self.result is not Result.NOT_PLAYED

    def involves(self, player_id: int) -> bool:
        return player_id in (self.white, self.black)


@dataclass(frozen=True)
class Withdrawal:
    """What competition rules 5.9 did to a withdrawn player, as data; words are made by the reader's side
    (tournaments.standings_text with gettext, `english()` for the command line and logs)."""

    rule: str  # "5.9 A.a" results cancelled, "5.9 A.b" remaining games forfeited, "5.9 B" Swiss
    after_round: int
    played: int = 0  # round robin: games played over the board, rounds 1..after_round
    scheduled: int = 0  # round robin: games the player was scheduled to play

    def english(self) -> str:
        if self.rule == "5.9 A.a":
            return (f"withdrew after round {self.after_round} having played {self.played} of "
                    f"{self.scheduled} games, not more than half: results cancelled (5.9 A.a)")
        if self.rule == "5.9 A.b":
            return (f"withdrew after round {self.after_round} having played {self.played} of "
                    f"{self.scheduled} games: remaining games forfeited (5.9 A.b)")
        return f"withdrew after round {self.after_round}: results stand, ranked on the games played (5.9 B)"


@dataclass(frozen=True)
class StandingRow:
    rank: int | None  # None = not ranked (5.9 A.a)
    player: StandingPlayer
    points: int
    played: int  # games decided over the board; forfeits, byes and excused rounds excluded
    wins: int  # games won over the board or by forfeit (2F); a bye is not a win
    tiebreaks: dict[str, TieBreakValue]  # keyed by registry name, in the tournament's order
    withdrawn: bool
    not_ranked_reason: str | None
    shared_rank: bool  # tied with another row on points and on every tie-break
    withdrawal_note: str | None = None  # the 5.9 ruling in English (command line, logs): see `withdrawal`
    withdrawal: Withdrawal | None = None  # the 5.9 ruling as data, turned into the reader's words at the edge
    expelled: bool = False  # listed after the ranked rows, unranked; the standings pages leave him out


@dataclass(frozen=True)
class Encounter:
    """One counting game seen from one player's side."""

    round: int
    opponent: int | None  # None: a bye or an excused round (no opponent)
    points: int
    over_the_board: bool
    won: bool
    colour: Colour | None
    bye_requested: bool = False  # a bye asked for in advance (0, 1 or 2 points), not the pairing-allocated one


def game_points(game: StandingGame, player_id: int, bye_points: int) -> int:
    white, black = game.result.points(bye_points)
    return white if player_id == game.white else black


def encounters_by_player(
    player_ids: Iterable[int], games: Iterable[StandingGame], bye_points: int
) -> dict[int, list[Encounter]]:
    """Every counting game of every player, in round order. Rejects games naming unknown players
    and a player twice in a round: a wrong table is better refused than silently ranked."""
    out: dict[int, list[Encounter]] = {pid: [] for pid in player_ids}
    busy: set[tuple[int, int]] = set()
    for game in sorted(games, key=lambda g: g.round):
        sides: list[tuple[int, int | None, Colour | None]]
        if game.result.is_single_player or game.black is None:
            sides = [(game.white, None, None)]
        else:
            sides = [(game.white, game.black, "white"), (game.black, game.white, "black")]
        for pid, opponent, colour in sides:
            if pid not in out or (opponent is not None and opponent not in out):
                raise ValueError(f"round {game.round}: a game names a player who is not in the standings")
            if (pid, game.round) in busy:
                raise ValueError(f"round {game.round}: player {pid} has more than one game")
            busy.add((pid, game.round))
            if not game.counts:
                continue
            points = game_points(game, pid, bye_points)
            out[pid].append(Encounter(
                round=game.round,
                opponent=opponent,
                points=points,
                over_the_board=game.result.is_played,
                won=opponent is not None and points == 2,
                colour=colour,
                bye_requested=game.result.is_requested_bye,
            ))
    return out


def totals(encounters: Mapping[int, list[Encounter]]) -> dict[int, int]:
    return {pid: sum(e.points for e in es) for pid, es in encounters.items()}
