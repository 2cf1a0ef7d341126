"""The PDN GameType tag and the alphanumeric notation of the 10x10 board.

GameType (PDN 3.0, doc/gametype.rst of the standard) is
``Type[,Start colour,Board width,Board height,Notation+corner[,Invert flag]]``; international draughts
is ``20,W,10,10,N2,0``: type 20, White starts, 10x10, numeric notation with square 1 top left
(corner 2), the bottom-left corner a playing square (flag 0).

What is refused is another game (a type other than 20) or another board (not 10x10): its moves would
mean something else. Everything else only says how the sheet is written, and real files get it wrong:
PlayOK writes ``20,W,10,10,N1,0`` over games in plain FMJD numbers. Such a tag is read as
international draughts with a warning that names it; the moves decide (they replay legally or they are
reported move by move as any other sheet's).

Alphanumeric notation (``A0``: square a1 bottom left from White's side, files a-j left to right,
ranks 1-10 bottom to top) maps to the FMJD numbers as the standard's diagram shows: a1 = 46,
j10 = 5, b10 = 1, i1 = 50, so that d4-e5 is 32-28. `square_number` is that mapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.geometry import square_at

INTERNATIONAL_GAME_TYPE = 20
STANDARD = "20,W,10,10,N2,0"

# PDN game types (doc/gametype.rst of the standard), named so that a refusal says what the file holds.
GAME_TYPE_NAMES: dict[int, str] = {
    0: "chess", 1: "Chinese chess", 20: "international draughts", 21: "English draughts (checkers)",
    22: "Italian draughts", 23: "American pool checkers", 24: "Spanish draughts", 25: "Russian draughts",
    26: "Brazilian draughts", 27: "Canadian draughts", 28: "Portuguese draughts", 29: "Czech draughts",
    30: "Turkish draughts", 31: "Thai draughts", 40: "Frisian draughts", 41: "Spantsiretti draughts",
    50: "Othello",
}

# Lenient form of the standard's regular expression: spaces allowed, letters in either case.
_FULL = re.compile(r"(\d{1,5})(?:,([WB]),(\d{1,3}),(\d{1,3}),([ANS])([0-3])(?:,([01]))?)?", re.IGNORECASE)
_ALPHA_SQUARE = re.compile(r"([a-j])(10|[1-9])", re.IGNORECASE)


@dataclass(frozen=True)
class GameType:
    """What a GameType value means for reading the game."""

    refusal: str | None = None  # why the game is not international draughts
    alphanumeric: bool = False  # the moves are written a1-j10
    warnings: list[str] = field(default_factory=list)  # what the tag gets wrong, named


def read_game_type(value: str) -> GameType:
    text = value.replace(" ", "")
    found = _FULL.fullmatch(text)
    if found is None:
        if text.lower().startswith("international"):
            return GameType()
        head = re.match(r"\d{1,5}", text)
        if head is None:
            return GameType(f"GameType {value!r} is not a PDN game type; only international draughts (20) "
                            "is read")
        found = None
        kind = int(head.group(0))
    else:
        kind = int(found.group(1))
    if kind != INTERNATIONAL_GAME_TYPE:
        name = GAME_TYPE_NAMES.get(kind, "an unknown game")
        return GameType(f"GameType {value!r} is {name}, not international draughts (20): the game is refused, "
                        "not read as international draughts")
    if found is None:
        return GameType(warnings=[f"GameType {value!r} is not of the form {STANDARD!r}; read as international "
                                  "draughts (type 20) in FMJD numbers"])
    if found.group(2) is None:
        return GameType()  # "20" alone: the standard's short form
    colour, width, height, kind_letter, corner, invert = found.groups()[1:]
    if (int(width), int(height)) != (10, 10):
        return GameType(f"GameType {value!r} describes a {width}x{height} board, not the 10x10 board of "
                        "international draughts: the game is refused")
    notes: list[str] = []
    alpha = kind_letter.upper() == "A"
    if colour.upper() != "W":
        notes.append("Black to start")
    if alpha and corner != "0":
        notes.append(f"square a1 in corner {corner} (the standard is corner 0, bottom left)")
    if not alpha and corner != "2":
        notes.append(f"square 1 in corner {corner} (FMJD numbering has it in corner 2, top left)")
    if kind_letter.upper() == "S":
        notes.append("short-form notation (S)")
    if invert not in (None, "0"):
        notes.append("the bottom-left corner not a playing square")
    if not notes:
        return GameType(alphanumeric=alpha)
    how = "in alphanumeric notation (a1 bottom left)" if alpha else "in FMJD numbers"
    warning = (f"GameType {value!r} declares {', '.join(notes)}; international draughts is {STANDARD!r}: the "
               f"moves are read as international draughts {how}")
    return GameType(alphanumeric=alpha, warnings=[warning])


def square_number(name: str) -> int | None:
    """'a1' -> 46, 'j10' -> 5, 'd4' -> 32; None for a light square or a name off the 10x10 board."""
    found = _ALPHA_SQUARE.fullmatch(name)
    if found is None:
        return None
    file = ord(found.group(1).lower()) - ord("a")
    rank = int(found.group(2))
    if (file + rank) % 2 == 0:  # a1 (file 0, rank 1) is dark: the dark squares have file + rank odd
        return None
    return square_at(10 - rank, file)


def alpha_squares(text: str) -> list[str]:
    return [m.group(0) for m in _ALPHA_SQUARE.finditer(text)]


def beyond_8x8(text: str) -> bool:
    """True when a square of the move is off an 8x8 board (file i or j, rank 9 or 10): only 10x10 fits."""
    return any(m.group(1).lower() in "ij" or int(m.group(2)) > 8 for m in _ALPHA_SQUARE.finditer(text))


def to_numeric(text: str) -> tuple[str, str | None]:
    """'d4-e5' -> ('32-28', None); ('', why) when a square is not a playing square of the 10x10 board."""
    out = []
    for part in re.split(r"([-x:])", text):
        if part in ("-", "x", ":"):
            out.append("x" if part == ":" else part)
            continue
        number = square_number(part)
        if number is None:
            return "", f"{part} is not a dark square of the 10x10 board"
        out.append(str(number))
    return "".join(out), None
