"""What the PDN reader found wrong, as data: a code and its values, with the place in the file.

The reader never writes sentences for people: `ReadError.code` names the problem and `values` carries
what was read (the text, a tag's name and value, a square...). The English words here serve the command
line (`python -m rules replay`) and the logs; the pages word the same codes in the reader's language
(the sheet pages of tournaments/, with gettext).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.types import Severity

# GameType numbers of the PDN standard (doc/gametype.rst), named for the English words.
GAME_TYPE_NAMES: dict[int, str] = {
    0: "chess", 1: "Chinese chess", 20: "international draughts", 21: "English draughts (checkers)",
    22: "Italian draughts", 23: "American pool checkers", 24: "Spanish draughts", 25: "Russian draughts",
    26: "Brazilian draughts", 27: "Canadian draughts", 28: "Portuguese draughts", 29: "Czech draughts",
    30: "Turkish draughts", 31: "Thai draughts", 40: "Frisian draughts", 41: "Spantsiretti draughts",
    50: "Othello",
}
STANDARD_GAME_TYPE = "20,W,10,10,N2,0"

#: The codes, each with its English template (str.format over the values).
ENGLISH: dict[str, str] = {
    "variation_open_at_tag": "variation not closed before the next game's tags",
    "variation_open_at_end": "variation not closed at the end of the file",
    "malformed_tag": "malformed tag pair {text!r}",
    "duplicate_tag": "tag {name} given twice; the later value {value!r} is kept",
    "nag_out_of_range": "NAG {text} out of range $0-$255",
    "nag_before_move": "NAG {text} before any move",
    "strength_without_move": "move strength {text!r} without a move",
    "nested_too_deep": "variations nested too deep",
    "unmatched_paren": "')' without a matching '('",
    "unreadable_text": "unreadable text {text!r}",
    "not_a_move": "{text!r} is not a move",
    "comment_not_closed": "comment opened with '{{' is never closed",
    "nested_comment": "nested comment: '{{' inside the comment opened at line {line}, column {column}; PDN "
                      "forbids comments inside comments",
    "bad_setup": "setup {text!r} is not of the form /FEN \"...\"/",
    "alpha_8x8": "{text!r} is in the alphanumeric notation of an 8x8 board (no square beyond h8) and no "
                 "GameType says 10x10 (A0)",
    "alpha_without_game_type": "moves in alphanumeric notation (a1-j10) without a GameType saying so: read as "
                               "the 10x10 board, since a square beyond h8 fits no smaller board",
    "not_dark_square": "{text!r} is unreadable: {square} is not a dark square of the 10x10 board",
    "bad_result_tag": "Result tag {value!r} is not a draughts result (2-0, 1-1, 0-2, 0-0, *)",
    "game_type_unknown": "GameType {value!r} is not a PDN game type; only international draughts (20) is read",
    "game_type_other": "GameType {value!r} is {name}, not international draughts (20): the game is refused, not "
                       "read as international draughts",
    "game_type_board": "GameType {value!r} describes a {width}x{height} board, not the 10x10 board of "
                       "international draughts: the game is refused",
    "game_type_form": "GameType {value!r} is not of the form '" + STANDARD_GAME_TYPE + "'; read as international "
                      "draughts (type 20) in FMJD numbers",
    "game_type_declares": "GameType {value!r} declares {notes}; international draughts is '" + STANDARD_GAME_TYPE
                          + "': the moves are read as international draughts {how}",
}

#: What a GameType may declare against the standard (the `notes` of game_type_declares): code -> English.
GAME_TYPE_NOTES: dict[str, str] = {
    "black_starts": "Black to start",
    "a1_corner": "square a1 in corner {corner} (the standard is corner 0, bottom left)",
    "square1_corner": "square 1 in corner {corner} (FMJD numbering has it in corner 2, top left)",
    "short_form": "short-form notation (S)",
    "inverted": "the bottom-left corner not a playing square",
}


@dataclass(frozen=True)
class Problem:
    """A problem without a place yet (the GameType reader does not know where the tag stands)."""

    code: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReadError:
    """A problem found while reading; `severity` is ERROR (the game is damaged) or WARNING."""

    line: int
    column: int
    code: str
    values: Mapping[str, Any] = field(default_factory=dict)
    severity: Severity = Severity.ERROR

    @property
    def message(self) -> str:
        """The English words (command line, logs); pages word `code` and `values` themselves."""
        return english(self.code, self.values)

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "code": self.code, "values": dict(self.values),
                "severity": str(self.severity)}

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


def english(code: str, values: Mapping[str, Any]) -> str:
    """The English sentence of a reading problem."""
    values = dict(values)
    if code == "game_type_other":
        values["name"] = GAME_TYPE_NAMES.get(values.get("type", -1), "an unknown game")
    elif code == "game_type_declares":
        values["notes"] = ", ".join(GAME_TYPE_NOTES[note].format(**values) for note in values.get("notes", ()))
        values["how"] = ("in alphanumeric notation (a1 bottom left)" if values.get("alphanumeric")
                         else "in FMJD numbers")
    return ENGLISH[code].format(**values)
