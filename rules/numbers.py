"""Whole numbers read from outside: a URL, a form field, a cell of a file, a tag of a game sheet.

Python's own tests let through what its `int()` then refuses or takes for a number: `"²".isdigit()` and
`"①".isdigit()` are true but `int()` raises on them; `re`'s `\\d` and `int()` both take Arabic-Indic and
other Unicode digits; `int()` of more than 4,300 digits raises, and a number that fits Python may not fit
the database. One reading for all of them: ASCII digits only (an optional leading `-` where the caller
allows a sign), at most `MAX_LENGTH` characters, inside the range the caller gives. It raises one error,
`NumberError` (a ValueError), whose `code` says what was wrong, so each caller words it in its own terms
(or answers 404); `number_or_none` is the same reading for callers that only need "a number or not".

Standard library only: `rules` and every part of `tournaments`, pure or not, may import it.
"""

from __future__ import annotations

ASCII_DIGITS = frozenset("0123456789")
# The database's integer column (PostgreSQL `integer`, signed 32 bits): the widest range a caller gets by
# default, so a number read here can always be looked up or stored.
INT_MAX = 2**31 - 1
# Leading zeros are allowed (fixed-width columns pad with them), but not without end.
MAX_LENGTH = 32

EMPTY = "empty"
NOT_DIGITS = "not_digits"
TOO_LONG = "too_long"
TOO_SMALL = "too_small"
TOO_LARGE = "too_large"


class NumberError(ValueError):
    """A text that is not a whole number in the range asked for. `code` is one of EMPTY, NOT_DIGITS,
    TOO_LONG, TOO_SMALL, TOO_LARGE; `text` is what was read (cut to 40 characters); `low`/`high` the range."""

    def __init__(self, code: str, text: str, low: int, high: int) -> None:
        self.code, self.text, self.low, self.high = code, text[:40], low, high
        super().__init__(self.describe())

    def describe(self) -> str:
        """English, for command lines and logs; pages word `code` in the reader's language."""
        shown = repr(self.text) + ("..." if self.code == TOO_LONG else "")
        if self.code == EMPTY:
            return "no number given"
        if self.code in (TOO_SMALL, TOO_LARGE):
            return f"{shown} is outside {self.low}-{self.high}"
        if self.code == TOO_LONG:
            return f"{shown} is too long for a number"
        return f"{shown} is not a whole number"


def parse_number(text: str | None, *, low: int = 0, high: int = INT_MAX, signed: bool = False) -> int:
    """The whole number `text` writes, in low..high; raises NumberError saying what was wrong.

    Surrounding whitespace is not read as part of the number: callers strip what their format pads."""
    if text is None or text == "":
        raise NumberError(EMPTY, "", low, high)
    if not isinstance(text, str):
        raise NumberError(NOT_DIGITS, repr(text), low, high)
    if len(text) > MAX_LENGTH:
        raise NumberError(TOO_LONG, text, low, high)
    digits = text[1:] if signed and text[0] == "-" else text
    if not digits or not set(digits) <= ASCII_DIGITS:
        raise NumberError(NOT_DIGITS, text, low, high)
    value = int(text)
    if value < low:
        raise NumberError(TOO_SMALL, text, low, high)
    if value > high:
        raise NumberError(TOO_LARGE, text, low, high)
    return value


def number_or_none(text: str | None, *, low: int = 0, high: int = INT_MAX, signed: bool = False) -> int | None:
    """parse_number, with None for anything that is not a number in range."""
    try:
        return parse_number(text, low=low, high=high, signed=signed)
    except NumberError:
        return None
