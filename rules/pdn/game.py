"""A game sheet as the PDN reader gives it: tags, the main line of moves (still text), setups, variations,
comments, the result and what was found wrong (`errors`, data: see rules.pdn.problems). Pure data; the
reader (rules.pdn.reader) fills it, the replay (rules.replay) and the writer (rules.pdn.writer) read it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.pdn.problems import ReadError
from rules.types import Severity

SEVEN_TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


# Every result spelling seen in draughts files, mapped to the FMJD form (2 points a win).
RESULTS: dict[str, str] = {
    "2-0": "2-0", "0-2": "0-2", "1-1": "1-1", "0-0": "0-0", "*": "*",
    "1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "\u00bd-\u00bd": "1-1",
}


class PdnError(Exception):
    """The reader's only exception: input that cannot be read as PDN text at all."""


class DecodeError(PdnError):
    """Bytes the strict decoding refuses (rules.pdn.reader.decode_pdn): a code and its values, for the edge
    to word: bad_utf16 {position}, binary {}, unknown_encoding {byte, offset}."""

    def __init__(self, code: str, values: dict[str, object]) -> None:
        self.code, self.values = code, values
        super().__init__(f"cannot decode the text ({code}: {values})")


@dataclass
class MoveToken:
    """One move as written on the sheet, with where it stands in the file and what annotates it."""

    text: str  # normalised: padding removed, ':' read as 'x' ("47x 9" -> "47x9")
    raw: str  # exactly as written
    line: int
    column: int
    number: int | None = None  # the move number written just before it, if any
    black_number: bool = False  # the number was written "n..." (a black move)
    strength: str = ""  # art. 9 signs: ! ? !! ?? !? ?! (or * for a forced move, art. 9.1.9)
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # comments after the move, text without braces
    clocks: list[str] = field(default_factory=list)  # "[%clock ...]" / "[%clk ...]" found in those comments
    variations: list[list[MoveToken]] = field(default_factory=list)  # alternatives to this move
    alpha: bool = False  # written in alphanumeric notation (d4-e5); `text` is numeric once it is read


@dataclass(frozen=True)
class Setup:
    """A `/FEN "..."/` setup met in the main line, before the move of index `before_ply`."""

    fen: str
    before_ply: int
    line: int
    column: int


@dataclass
class ParsedGame:
    source: str
    index: int  # 1-based position of the game in its file
    line: int  # where the game starts in the file
    encoding: str
    headers: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    setups: list[Setup] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # comments before the first move
    leading_variations: list[list[MoveToken]] = field(default_factory=list)  # "(...)" before any move
    result_token: str | None = None  # normalised result written after the moves
    result_raw: str | None = None
    result_line: int = 0
    result_column: int = 0
    errors: list[ReadError] = field(default_factory=list)
    initial_fen: str | None = None  # None: the standard initial position
    fen_origin: str | None = None  # "tag" or "setup"
    refusal: ReadError | None = None  # why the game is not international draughts, when it is not
    alphanumeric: bool = False  # the GameType tag says the moves are written a1-j10
    # The first text of the main line that is no move (e.g. 8x8 "c3-d4"): the sheet cannot be followed
    # from there. None when every token of the main line is read.
    unreadable: ReadError | None = None
    unreadable_text: str = ""  # that text as written
    # Where the game stands in the decoded text: text[start:end] is the game, from its first token to its
    # result (or to the next game's first tag): what a round upload stores on a board.
    start: int = 0
    end: int = 0

    @property
    def tag_result(self) -> str | None:
        value = self.headers.get("Result")
        return None if value is None else normalize_result(value)

    @property
    def declared_result(self) -> str | None:
        """The result the sheet claims: the token after the moves, else the Result tag ('*' = none)."""
        for value in (self.result_token, self.tag_result):
            if value is not None and value != "*":
                return value
        return self.result_token or self.tag_result

    def main_line(self) -> Iterator[MoveToken | Setup]:
        """The main line as typed events, in the order of the sheet: each move, and a setup just before the
        move it precedes (the last one when several stand there; one after the last move sets up nothing)."""
        setups = {setup.before_ply: setup for setup in self.setups}
        if not setups:
            yield from self.moves
            return
        for index, token in enumerate(self.moves):
            if index in setups:
                yield setups[index]
            yield token

    @property
    def refused(self) -> str | None:
        """The refusal in English words (the command line's), None when the game is read."""
        return None if self.refusal is None else self.refusal.message

    @property
    def ok(self) -> bool:
        return not any(e.severity is Severity.ERROR for e in self.errors)


def normalize_result(text: str) -> str:
    """'1-0' -> '2-0', '1/2-1/2' -> '1-1', ...; unknown spellings come back stripped but unchanged."""
    compact = text.replace(" ", "")
    return RESULTS.get(compact, text.strip())
