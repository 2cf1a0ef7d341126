"""Game results and their points: pure Python, shared by the models, pairing and standings.

FMJD competition rules: 5.6 a win scores 2, a draw 1, a loss 0;
5.7 the player present when the opponent is absent scores 2 by forfeit (written 2F / 0F);
5.8 a double forfeit scores 0-0. A pairing-allocated bye scores the tournament's bye points
(2 by default, FFJD "marque 2 points d'office"); an excused player (one round off, asked for in
advance) scores 0, or, when the arbiter grants it, a draw (1, TRF "H") or a win (2, TRF "F"): the bye
value is only ever a game score. A game that will not be played because a player withdrew is NOT_PLAYED.

The arbiter's rulings (2.5 c: "perte de la partie, éventuellement pour les deux joueurs") give results
no game can end in: 1-0 and 0-1 (one side a draw's points, the other nothing) and 0-0 (both lose). They
were played over the board: colours and the meeting count for the pairing. A game "not rated" (2-0U,
1-1U, 0-2U; TRF W, D, L) counts for the tournament and is left out of the rating report. A postponed
game counts as a draw until its result is in (the checklist's provisional score), with its colours.
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
    # The rest of the results an arbiter gives: rulings, byes asked for in advance worth 1 or 2.
    WHITE_RULED = "1-0"  # arbiter's ruling: White a draw's points, Black none
    BLACK_RULED = "0-1"
    BOTH_LOSE = "0-0"  # arbiter's ruling: the game lost for both (not a double forfeit: they played)
    WHITE_WINS_UNRATED = "2-0U"  # played, counts here, not sent for rating (TRF W/L/D)
    DRAW_UNRATED = "1-1U"
    BLACK_WINS_UNRATED = "0-2U"
    POSTPONED = "postponed"  # to be played later; a draw for now (TRF "?")
    EXCUSED_DRAW = "excused-1"  # a bye asked for in advance, worth a draw (TRF H)
    EXCUSED_WIN = "excused-2"  # a bye asked for in advance, worth a win (TRF F)

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_forfeit(self) -> bool:
        return self in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)

    @property
    def is_played(self) -> bool:
        """True when the game was played over the board (a sheet can exist for it); a postponed game
        counts as played for now: its colours and its meeting are already fixed."""
        return self in _PLAYED

    @property
    def is_single_player(self) -> bool:
        return self in (Result.BYE, Result.EXCUSED, Result.EXCUSED_DRAW, Result.EXCUSED_WIN)

    @property
    def is_requested_bye(self) -> bool:
        """A bye asked for in advance (0, 1 or 2 points), as opposed to the pairing-allocated one."""
        return self in (Result.EXCUSED, Result.EXCUSED_DRAW, Result.EXCUSED_WIN)

    @property
    def is_ruling(self) -> bool:
        return self in (Result.WHITE_RULED, Result.BLACK_RULED, Result.BOTH_LOSE)

    @property
    def is_unrated(self) -> bool:
        return self in (Result.WHITE_WINS_UNRATED, Result.DRAW_UNRATED, Result.BLACK_WINS_UNRATED)

    @property
    def is_postponed(self) -> bool:
        return self is Result.POSTPONED

    @property
    def is_draw(self) -> bool:
        return self in (Result.DRAW, Result.DRAW_UNRATED)

    def points(self, bye_points: int = 2) -> tuple[int, int]:
        """(white points, black points). For BYE and EXCUSED the second number is meaningless (0)."""
        if self is Result.BYE:
            return (bye_points, 0)
        return _POINTS[self]

    def cell(self, white: bool) -> str:
        """A crosstable cell for one side: '2', '1', '0', '2F', '0F'; '2U' for a game not rated, '?' for a
        postponed one; a single-player result is its own value."""
        if self in _CELLS:
            return _CELLS[self][0 if white else 1]
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
    Result.WHITE_RULED: (1, 0),
    Result.BLACK_RULED: (0, 1),
    Result.BOTH_LOSE: (0, 0),
    Result.WHITE_WINS_UNRATED: (2, 0),
    Result.DRAW_UNRATED: (1, 1),
    Result.BLACK_WINS_UNRATED: (0, 2),
    Result.POSTPONED: (1, 1),
    Result.EXCUSED_DRAW: (1, 0),
    Result.EXCUSED_WIN: (2, 0),
}

_PLAYED = frozenset({
    Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_RULED, Result.BLACK_RULED, Result.BOTH_LOSE,
    Result.WHITE_WINS_UNRATED, Result.DRAW_UNRATED, Result.BLACK_WINS_UNRATED, Result.POSTPONED,
})

_CELLS: dict[Result, tuple[str, str]] = {
    Result.WHITE_WINS_UNRATED: ("2U", "0U"),
    Result.DRAW_UNRATED: ("1U", "1U"),
    Result.BLACK_WINS_UNRATED: ("0U", "2U"),
    Result.POSTPONED: ("?", "?"),
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
    Result.WHITE_RULED: "1-0 (arbiter's ruling)",
    Result.BLACK_RULED: "0-1 (arbiter's ruling)",
    Result.BOTH_LOSE: "0-0 (arbiter's ruling: lost for both)",
    Result.WHITE_WINS_UNRATED: "2-0 not rated",
    Result.DRAW_UNRATED: "1-1 not rated",
    Result.BLACK_WINS_UNRATED: "0-2 not rated",
    Result.POSTPONED: "Postponed (a draw for now)",
    Result.EXCUSED_DRAW: "Requested bye worth a draw (1)",
    Result.EXCUSED_WIN: "Requested bye worth a win (2)",
}

TWO_PLAYER_RESULTS = [r for r in Result if not r.is_single_player]
SINGLE_PLAYER_RESULTS = [Result.BYE, Result.EXCUSED, Result.EXCUSED_DRAW, Result.EXCUSED_WIN]
REQUESTED_BYES = {0: Result.EXCUSED, 1: Result.EXCUSED_DRAW, 2: Result.EXCUSED_WIN}  # points -> result
