"""The fast path of Board.parse_move: a plain `32-28`, `28x19` or `47x38x24x13x36` read against the
raw generator, building only the chosen move.

Replaying a game sheet reads one move per ply, and building the whole legal move table for that
(every Move object, sorted, hashed) cost most of the replay time.  Here a quiet move is checked
against the one piece on its start square, and a capture against the raw capture sequences: Move
objects are made only for the move that is found.

`read_plain` answers only when the text names exactly one legal move; for anything else (another
spelling, an ambiguous short capture, an illegal move) it returns None and rules.notation decides,
with its error messages.  When it answers, it gives the very Move Board._parse_by_table (rules.notation) would:
the same route (the first one the generator finds for a short capture) and the same captures.
tests/rules/test_fast_paths.py checks that over random games.
"""

from __future__ import annotations

import re

from rules import core
from rules.geometry import BIT_OF, INDEX_OF, RAYS, SQUARE_OF, VALID, squares_of
from rules.types import Move

_SHORT_RE = re.compile(r"([0-9][0-9]?)[-xX:]([0-9][0-9]?)")
_LONG_RE = re.compile(r"[0-9][0-9]?(?:[-xX:][0-9][0-9]?){2,}")
_SEPARATOR_RE = re.compile(r"[-xX:]")

# Short texts already read, "32-28" -> (32, 28).  Only texts naming two squares 1-50 are kept, which
# bounds it: 59 spellings of a square ("5" and "05") squared, times four separators, under 14,000.
_SHORT_TEXTS: dict[str, tuple[int, int]] = {}
# One Move per quiet (start, end), shared: a Move is an immutable value.
_QUIET: dict[tuple[int, int], tuple[Move, core.RawMove]] = {}


def read_plain(text: str, white: bool, own: int, opp: int, kings: int) -> tuple[Move, core.RawMove] | None:
    """The legal move `text` names for the side `own` (White if `white`), with its raw form; None when
    the text is not plain or does not name exactly one legal move."""
    ends = _SHORT_TEXTS.get(text)
    squares: list[int] | None = None
    if ends is None:
        short = _SHORT_RE.fullmatch(text)
        if short is not None:
            ends = int(short[1]), int(short[2])
            if not (1 <= ends[0] <= 50 and 1 <= ends[1] <= 50):
                return None
            _SHORT_TEXTS[text] = ends
        elif _LONG_RE.fullmatch(text):
            squares = [int(part) for part in _SEPARATOR_RE.split(text)]
            if not all(1 <= sq <= 50 for sq in squares):
                return None
            ends = squares[0], squares[-1]
        else:
            return None
    start, end = ends
    frm = BIT_OF[start]
    if not own & frm:
        return None
    empty = VALID & ~(own | opp)
    own_kings = own & kings
    men = own ^ own_kings
    if not core.has_capture(men, own_kings, opp, empty):
        if squares is None and _quiet_reaches(white, frm, BIT_OF[end], own_kings, empty):
            return _quiet(start, end)
        return None
    # The same generator, in the same order, as Board._legal_table: a short capture gets the same route.
    first, last = INDEX_OF[start], INDEX_OF[end]
    matching = [(cap, routes)
                for (i, j, cap), routes in core.maximal(core.capture_sequences(men, own_kings, opp, empty)).items()
                if i == first and j == last]
    if squares is None:
        if len(matching) != 1:
            return None
        cap, routes = matching[0]
        path = tuple(SQUARE_OF[i] for i in routes[0])
    else:
        wanted = tuple(INDEX_OF[sq] for sq in squares)
        exact = [cap for cap, routes in matching if wanted in routes]
        if len(exact) != 1:
            return None
        cap, path = exact[0], tuple(squares)
    return Move._trusted(path, tuple(squares_of(cap))), (frm, BIT_OF[end], cap)


def _quiet_reaches(white: bool, frm: int, to: int, own_kings: int, empty: int) -> bool:
    """Whether the piece on `frm` has a quiet move to `to` (3.4 for a man, 3.9 for a king)."""
    if not empty & to:
        return False
    if not own_kings & frm:
        # Ghost squares make a diagonal step the same shift everywhere (rules.geometry).
        steps = (frm >> 5) | (frm >> 6) if white else (frm << 5) | (frm << 6)
        return bool(steps & to)
    for ray in RAYS[frm.bit_length() - 1]:
        for bit, _ in ray:
            if not empty & bit:
                break
            if bit == to:
                return True
    return False


def _quiet(start: int, end: int) -> tuple[Move, core.RawMove]:
    found = _QUIET.get((start, end))
    if found is None:
        found = _QUIET[(start, end)] = Move._trusted((start, end), ()), (BIT_OF[start], BIT_OF[end], 0)
    return found
