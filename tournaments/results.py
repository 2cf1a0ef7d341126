"""Game results and their points: pure Python, shared by the models, pairing and standings.

FMJD competition rules: 5.6 a win scores 2, a draw 1, a loss 0;
5.7 the player present when the opponent is absent scores 2 by forfeit (written 2F / 0F);
5.8 a double forfeit scores 0-0. A pairing-allocated bye scores the tournament's bye points
(2 by default, FFJD "marque 2 points d'office"); an excused player (one round off, asked for in
advance) scores 0. A game that will not be played because a player withdrew is NOT_PLAYED.
"""

from __future__ import annotations

import enum


class Result(enum.StrEnum):
    WHITE_WINS = "2-0"
    DRAW = "1-1"
    BLACK_WINS = "0-2"
    WHITE_FORFEIT_WIN = "2F-0F"  # Black absent
    BLACK_FORFEIT_WIN = "0F-2F"  # White absent
    DOUBLE_FORFEIT = "0F-0F"
    BYE = "bye"  # pairing-allocated bye; no black player
    EXCUSED = "excused"  # zero-point bye asked for in advance; no black player
    NOT_PLAYED = "not played"  # after a withdrawal; never counts for anyone

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)

    @property
    def is_played(self) -> bool:
        """True when the game was played over the board (a sheet can exist for it)."""
        return self in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)

    @property
    def is_single_player(self) -> bool:
        return self in (Result.BYE, Result.EXCUSED)

    def points(self, bye_points: int = 2) -> tuple[int, int]:
        """(white points, black points). For BYE and EXCUSED the second number is meaningless (0)."""
        if self is Result.BYE:
            return (bye_points, 0)
        return _POINTS[self]

    def cell(self, white: bool) -> str:
        """A crosstable cell for one side: '2', '1', '0', '2F', '0F'."""
        left, right = self.value.split("-") if "-" in self.value else (self.value, "")
        return left if white else right


_POINTS: dict[Result, tuple[int, int]] = {
    Result.WHITE_WINS: (2, 0),
    Result.DRAW: (1, 1),
    Result.BLACK_WINS: (0, 2),
    Result.WHITE_FORFEIT_WIN: (2, 0),
    Result.BLACK_FORFEIT_WIN: (0, 2),
    Result.DOUBLE_FORFEIT: (0, 0),
    Result.EXCUSED: (0, 0),
    Result.NOT_PLAYED: (0, 0),
}

_LABELS: dict[Result, str] = {
    Result.WHITE_WINS: "2-0",
    Result.DRAW: "1-1",
    Result.BLACK_WINS: "0-2",
    Result.WHITE_FORFEIT_WIN: "2F-0F (Black absent)",
    Result.BLACK_FORFEIT_WIN: "0F-2F (White absent)",
    Result.DOUBLE_FORFEIT: "0F-0F (double forfeit)",
    Result.BYE: "Bye",
    Result.EXCUSED: "Excused (0)",
    Result.NOT_PLAYED: "Not played",
}

TWO_PLAYER_RESULTS = [r for r in Result if not r.is_single_player]
SINGLE_PLAYER_RESULTS = [Result.BYE, Result.EXCUSED]
