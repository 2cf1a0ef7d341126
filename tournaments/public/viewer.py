"""The game viewer in words, for a reader who cannot see the board: the move just played and the position.

The page says it once when it is drawn (here) and static/damier/game.js says it again at every step from
the same sentences (`viewer_words`), so both read alike; tests/tournaments/public/test_viewer.py and the browser
test compare them.

Wording: "Move 12, White 32-28" as the sheet writes the move, then the pieces it took,
counted and by square ("2 pieces captured: 22, 23"), since a capture's notation names only where the piece
went; an irregular move that stands adds the arbiter's note. The position: each side's men and kings by
square, then who moves.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.sheets.line import EMPTY, GameLine

WHITE_PIECES, BLACK_PIECES = "wW", "bB"


def captured_squares(before: str, after: str, white_moved: bool) -> list[int]:
    """Squares where the opponent of the side that moved had a piece before the ply and none after."""
    theirs = BLACK_PIECES if white_moved else WHITE_PIECES
    return [sq for sq in range(1, 51) if before[sq - 1] in theirs and after[sq - 1] == EMPTY]


def viewer_words() -> dict[str, str]:
    """Every sentence the viewer builds, translated, with %(name)s slots (game.js fills them the same way)."""
    return {
        "start": _("Starting position"),
        "move": _("Move %(number)s, %(side)s %(move)s"),
        "white": _("White"),
        "black": _("Black"),
        "captured_one": _("1 piece captured: %(squares)s"),
        "captured_many": _("%(count)s pieces captured: %(squares)s"),
        "irregular": _("irregular move that stands"),
        "side": _("%(side)s: %(men)s; %(kings)s."),
        "men": _("men %(squares)s"),
        "no_men": _("no men"),
        "kings": _("kings %(squares)s"),
        "no_kings": _("no kings"),
        "to_move": _("%(side)s to move."),
        "board": _("Board, %(what)s"),
        "ply": _("Half-move %(n)s of %(total)s"),
    }


def fill(template: str, **values: Any) -> str:
    return template % {k: str(v) for k, v in values.items()}


def announcement(line: GameLine, ply: int) -> str:
    """The move that led to position `ply` (0 = the start), in words; without the irregularity note, which
    is the sheet's own text and shown beside it."""
    words = viewer_words()
    if ply == 0:
        return words["start"]
    p = line.plies[ply - 1]
    before = line.start if ply == 1 else line.plies[ply - 2].code
    text = fill(words["move"], number=p.number, side=words["white" if p.white else "black"], move=p.text)
    taken = captured_squares(before, p.code, p.white)
    if taken:
        key = "captured_one" if len(taken) == 1 else "captured_many"
        text += ", " + fill(words[key], count=len(taken), squares=", ".join(str(s) for s in taken))
    if p.note:
        text += ", " + words["irregular"]
    return text


def position_text(line: GameLine, ply: int) -> str:
    """Men and kings of each side by square, then who is to move (when the sheet tells)."""
    words = viewer_words()
    code = line.start if ply == 0 else line.plies[ply - 1].code
    parts = []
    for side, man, king in (("white", "w", "W"), ("black", "b", "B")):
        men = [str(sq) for sq in range(1, 51) if code[sq - 1] == man]
        kings = [str(sq) for sq in range(1, 51) if code[sq - 1] == king]
        parts.append(fill(words["side"], side=words[side],
                          men=fill(words["men"], squares=", ".join(men)) if men else words["no_men"],
                          kings=fill(words["kings"], squares=", ".join(kings)) if kings else words["no_kings"]))
    mover = _next_mover(line, ply)
    if mover is not None:
        parts.append(fill(words["to_move"], side=words["white" if mover else "black"]))
    return " ".join(parts)


def _next_mover(line: GameLine, ply: int) -> bool | None:
    """True for White, False for Black, None when the sheet does not say (no moves at all)."""
    if ply < len(line.plies):
        return line.plies[ply].white
    if line.plies:
        return not line.plies[-1].white
    return None
