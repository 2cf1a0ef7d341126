"""The rules of a team competition as data: one frozen value per competition, chosen by the arbiter.

Nothing here is a federation's rule by default unless its text is quoted in
docs/research/team-competitions.md; where the texts are silent or were not found, the value is a
setting with a neutral default and the arbiter sets it from the competition's own regulations.

Board points are the FMJD game scores of `tournaments.results` (2 a win, 1 a draw, 0 a loss, 2F-0F
a forfeit): a match of n boards shares 2n board points when every board is played.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Criterion(enum.StrEnum):
    """A named ranking criterion, compared from the largest value down.

    MATCH_POINTS: match points after deductions. BOARD_POINTS: the sum of the team's board points.
    MUTUAL: match points scored in the matches between the teams still tied on every criterion
    before it (FIDE's "direct encounter" applied to teams). SB_TEAMS: for each match, the opponent's
    final match points times the team's own board points in that match, summed (the Olympiad
    Sonneborn-Berger as the stored descriptions define it). WINS: matches won.
    """

    MATCH_POINTS = "match_points"
    BOARD_POINTS = "board_points"
    MUTUAL = "mutual"
    SB_TEAMS = "sb_teams"
    WINS = "wins"


class Colours(enum.StrEnum):
    """Who has White on which board. The first-named team is the home team of a league fixture."""

    FIRST_WHITE_ON_ODD = "first_white_on_odd"  # board 1, 3, 5…: first-named team White
    FIRST_WHITE_ON_EVEN = "first_white_on_even"  # board 2, 4, 6…: first-named team White


class CupTie(enum.StrEnum):
    """One step of the rule that decides a drawn cup match, applied in the order the settings list.

    BOARD_COUNT: the sum of the numbers of the boards each team won; the lower sum goes through.
    ELIMINATE_LOWEST: drop the lowest board and compare the board points of the rest, again and
    again until one team leads or one board is left. BARRAGE: the result of a further match played
    at the competition's named time control. LOTS: a draw of lots from a recorded seed.
    """

    BOARD_COUNT = "board_count"
    ELIMINATE_LOWEST = "eliminate_lowest"
    BARRAGE = "barrage"
    LOTS = "lots"


@dataclass(frozen=True)
class TeamSettings:
    """The competition's rules. `order` ranks the standings: its first criterion is the main score.

    forfeit_board_points: the board score each board of a whole-match forfeit gives the team that
    was present (2 by default, the FMJD forfeit 2F-0F on every board). forfeit_deduction: match
    points taken from a team that forfeits a whole match, over and above losing it.
    """

    boards: int
    match_win: int = 2
    match_draw: int = 1
    match_loss: int = 0
    order: tuple[Criterion, ...] = (Criterion.MATCH_POINTS, Criterion.BOARD_POINTS)
    forfeit_board_points: int = 2
    forfeit_deduction: int = 0
    colours: Colours = Colours.FIRST_WHITE_ON_ODD
    cup_tie: tuple[CupTie, ...] = field(default=(CupTie.LOTS,))

    def __post_init__(self) -> None:
        if self.boards < 1:
            raise ValueError(f"boards: a match needs at least 1 board, not {self.boards}")
        if not self.order:
            raise ValueError("order: the ranking needs at least one criterion")
        if len(set(self.order)) != len(self.order):
            raise ValueError(f"order: a criterion is listed twice in {[c.value for c in self.order]}")
        for name in ("order", "cup_tie"):
            values = getattr(self, name)
            kind = Criterion if name == "order" else CupTie
            for value in values:
                if not isinstance(value, kind):
                    raise ValueError(f"{name}: {value!r} is not a {kind.__name__}")
        if not isinstance(self.colours, Colours):
            raise ValueError(f"colours: {self.colours!r} is not a Colours")
        if not 0 <= self.forfeit_board_points <= 2:
            raise ValueError(f"forfeit_board_points: a board scores 0, 1 or 2, not {self.forfeit_board_points}")
        if self.forfeit_deduction < 0:
            raise ValueError(f"forfeit_deduction: a deduction is not negative ({self.forfeit_deduction})")
        if not self.match_win > self.match_draw >= self.match_loss:
            raise ValueError(
                f"match points: a win ({self.match_win}) must beat a draw ({self.match_draw}), "
                f"which must not score less than a loss ({self.match_loss})")
        if self.cup_tie and CupTie.LOTS in self.cup_tie[:-1]:
            raise ValueError("cup_tie: lots always decide, so they can only be the last step")

    def first_is_white(self, board: int) -> bool:
        """True when the first-named (home) team has White on `board` (numbered from 1)."""
        if not 1 <= board <= self.boards:
            raise ValueError(f"board {board} is outside 1..{self.boards}")
        odd = board % 2 == 1
        return odd if self.colours is Colours.FIRST_WHITE_ON_ODD else not odd


def idf_settings(boards: int) -> TeamSettings:
    """IDF-64 world team championship: "Team places are determined by the highest amount of points
    scored by all team members" (the 2022 announcement): board points only."""
    return TeamSettings(boards=boards, order=(Criterion.BOARD_POINTS,))
