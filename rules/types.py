"""Value objects of the public API: colours, pieces, moves, outcomes and the error classes."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class RulesError(ValueError):
    """Base class of every error raised by the rules package."""


class InvalidFenError(RulesError):
    """A FEN string that cannot be read; the message names the faulty part."""


class InvalidMoveError(RulesError):
    """Move text that cannot be read at all (syntax, or a square outside 1-50)."""


class IllegalMoveError(RulesError):
    """A readable move that the rules do not allow in the position."""


class AmbiguousMoveError(RulesError):
    """A short capture notation that matches several legal moves; the message lists them in long form."""


class Severity(enum.StrEnum):
    """How much a problem on a game sheet weighs: an error damages the game or its verdict, a warning is
    said and read past, a note only informs. A str, so that reports stay plain JSON."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Color(enum.Enum):
    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    def __invert__(self) -> Color:
        return self.opponent

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK


@dataclass(frozen=True, slots=True)
class Piece:
    color: Color
    king: bool = False

    def symbol(self) -> str:
        """One letter as in diagrams: w/b for men, W/B for kings."""
        letter = self.color.value
        return letter if self.king else letter.lower()


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """A move as a value.

    `path` is every square visited, start and end included; for a capture it holds one landing square
    per captured piece (the turning square, or the square right behind the captured piece when the
    piece goes straight on), so `len(path) == len(captured) + 1`.  `captured` is sorted.

    Equality and hash ignore the route: two paths with the same start, end and set of captured pieces
    are one move (the Woldouby position), so `path` is only the route this object happens to carry.
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = field(default=())
    # (start, end, captured): what equality and hash compare, computed once.
    _key: tuple[int, int, tuple[int, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        path = tuple(self.path)
        if len(path) < 2:
            raise InvalidMoveError(f"a move needs at least two squares, got path {path!r}")
        for sq in (*path, *self.captured):
            if not isinstance(sq, int) or not 1 <= sq <= 50:
                raise InvalidMoveError(f"square {sq!r} is outside 1-50")
        captured = tuple(sorted(set(self.captured)))
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "captured", captured)
        object.__setattr__(self, "_key", (path[0], path[-1], captured))

    @classmethod
    def _trusted(cls, path: tuple[int, ...], captured: tuple[int, ...]) -> Move:
        """Constructor for the engine, whose squares are valid and captures already sorted."""
        move = object.__new__(cls)
        object.__setattr__(move, "path", path)
        object.__setattr__(move, "captured", captured)
        object.__setattr__(move, "_key", (path[0], path[-1], captured))
        return move

    @classmethod
    def quiet(cls, start: int, end: int) -> Move:
        return cls((start, end))

    @classmethod
    def from_path(cls, path: tuple[int, ...] | list[int], captured: tuple[int, ...] | list[int] = ()) -> Move:
        return cls(tuple(path), tuple(sorted(captured)))

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def short(self) -> str:
        """Start and end only (art. 8.2)."""
        return f"{self.start}{'x' if self.captured else '-'}{self.end}"

    def long(self) -> str:
        """Every landing square, as PDN 3.0 writes an ambiguous capture."""
        return ("x" if self.captured else "-").join(str(sq) for sq in self.path)

    def __str__(self) -> str:
        return self.short()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is None for a draw; `article` names the FMJD rule applied."""

    winner: Color | None
    article: str
    reason: str
    ply: int

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result(self) -> str:
        """The score in international notation: 2-0, 1-1 or 0-2 (White's points first)."""
        if self.winner is None:
            return "1-1"
        return "2-0" if self.winner is WHITE else "0-2"
