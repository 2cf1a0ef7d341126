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
from rules.pdn.problems import Problem

INTERNATIONAL_GAME_TYPE = 20

# Lenient form of the standard's regular expression: spaces allowed, letters in either case.
_FULL = re.compile(r"([0-9]{1,5})(?:,([WB]),([0-9]{1,3}),([0-9]{1,3}),([ANS])([0-3])(?:,([01]))?)?", re.IGNORECASE)
_ALPHA_SQUARE = re.compile(r"([a-j])(10|[1-9])", re.IGNORECASE)


@dataclass(frozen=True)
class GameType:
    """What a GameType value means for reading the game."""

    refusal: Problem | None = None  # why the game is not international draughts
    alphanumeric: bool = False  # the moves are written a1-j10
    warnings: list[Problem] = field(default_factory=list)  # what the tag gets wrong, named


def read_game_type(value: str) -> GameType:
    text = value.replace(" ", "")
    found = _FULL.fullmatch(text)
    if found is None:
        if text.lower().startswith("international"):
            return GameType()
        head = re.match(r"[0-9]{1,5}", text)
        if head is None:
            return GameType(Problem("game_type_unknown", {"value": value}))
        found = None
        kind = int(head.group(0))
    else:
        kind = int(found.group(1))
    if kind != INTERNATIONAL_GAME_TYPE:
        return GameType(Problem("game_type_other", {"value": value, "type": kind}))
    if found is None:
        return GameType(warnings=[Problem("game_type_form", {"value": value})])
    if found.group(2) is None:
        return GameType()  # "20" alone: the standard's short form
    colour, width, height, kind_letter, corner, invert = found.groups()[1:]
    if (int(width), int(height)) != (10, 10):
        return GameType(Problem("game_type_board", {"value": value, "width": int(width), "height": int(height)}))
    notes: list[str] = []
    alpha = kind_letter.upper() == "A"
    if colour.upper() != "W":
        notes.append("black_starts")
    if alpha and corner != "0":
        notes.append("a1_corner")
    if not alpha and corner != "2":
        notes.append("square1_corner")
    if kind_letter.upper() == "S":
        notes.append("short_form")
    if invert not in (None, "0"):
        notes.append("inverted")
    if not notes:
        return GameType(alphanumeric=alpha)
    declared = {"value": value, "notes": tuple(notes), "corner": corner, "alphanumeric": alpha}
    return GameType(alphanumeric=alpha, warnings=[Problem("game_type_declares", declared)])


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


def beyond_8x8(text: str) -> bool:
    """True when a square of the move is off an 8x8 board (file i or j, rank 9 or 10): only 10x10 fits."""
    return any(m.group(1).lower() in "ij" or int(m.group(2)) > 8 for m in _ALPHA_SQUARE.finditer(text))


def to_numeric(text: str) -> tuple[str, str | None]:
    """'d4-e5' -> ('32-28', None); ('', square) when a square is not a playing square of the 10x10 board."""
    out = []
    for part in re.split(r"([-x:])", text):
        if part in ("-", "x", ":"):
            out.append("x" if part == ":" else part)
            continue
        number = square_number(part)
        if number is None:
            return "", part
        out.append(str(number))
    return "".join(out), None
