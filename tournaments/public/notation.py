"""The crosstable's notation in the reader's language, for the web page and the PDF alike.

The selectors hand each cell over as codes (the opponent's line number, his colour, the result and the
points it adds); here they become the short marks an arbiter reads, with a legend naming only the marks a
table uses. Forfeits keep the FMJD notation: "Les parties non jouées sont considérées comme forfait et
indiquées "0F" et "2F" dans le tableau final" (FMJD competition rules 5.9 A.b).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.results import Result
from tournaments.selectors import CrossCell, PlayerRound

# A round without a game: a late entrant's round before he came, a withdrawn player's round after he left,
# a game a withdrawal left unplayed.
NO_GAME = "–"


def colour_letter(colour: str) -> str:
    """The one letter of a colour in a Swiss crosstable cell ("12w2")."""
    return _letters(get_language())[colour == "white"]


@functools.lru_cache(maxsize=16)
def _letters(language: str | None) -> tuple[str, str]:
    # Read once per language: a crosstable of 1,000 players asks for a letter in every one of its cells.
    # Translators: the one letter of Black in a crosstable cell ("12b0").
    black = _("b")
    # Translators: the one letter of White in a crosstable cell ("12w2"), as arbiters write it.
    return black, _("w")


def bye_mark(result: Result, points: int = 0) -> str:
    """A round without an opponent, as short as a cell: "+2 bye" (`points`: the pairing bye's value), "+1 req"
    (a requested bye, worth what its kind says), "0 abs"."""
    if result is Result.BYE:
        return _("+%(points)s bye") % {"points": points}
    if result is Result.EXCUSED:
        return _("0 abs")
    return _("+%(points)s req") % {"points": result.points()[0]}


# Read once: a crosstable asks these of every cell, and an enum member looked up is slow.
_SINGLE = frozenset(r for r in Result if r.is_single_player)
_NOT_PLAYED = Result.NOT_PLAYED


def _no_game(cell: CrossCell) -> bool:
    """The cell reads NO_GAME (cell_text's own test, without making its words)."""
    return cell.result not in _SINGLE and (cell.result is _NOT_PLAYED or not cell.opponent)


def cell_text(cell: CrossCell) -> str:
    """A Swiss crosstable cell: "12w2", "7b0F", "12w" (no result yet), a bye's mark, or "–"."""
    if cell.result in _SINGLE:
        return bye_mark(cell.result, cell.points)  # type: ignore[arg-type]
    if _no_game(cell):
        return NO_GAME
    return f"{cell.opponent}{colour_letter(cell.colour or 'white')}{cell.side}"


def legend(cells: Iterable[CrossCell], *, round_robin: bool) -> list[str]:
    """What the marks of this table mean, one line each, in the order a reader meets them."""
    cells = list(cells)
    results = {c.result for c in cells}
    texts = {c.text for c in cells}
    lines: list[str] = []
    if round_robin:
        lines.append(_("2 win, 1 draw, 0 loss; F forfeit (5.7, 5.8)."))
    else:
        lines.append(_("12%(white)s2: against the player on line 12, with White (%(white)s) or Black (%(black)s), "
                       "scoring 2 (win), 1 (draw) or 0 (loss); 2F / 0F won / lost by forfeit (5.7, 5.8).")
                     % {"white": colour_letter("white"), "black": colour_letter("black")})
    points = {c.points for c in cells if c.result is Result.BYE}
    for p in sorted(points):
        lines.append(_("%(mark)s: a bye given by the pairing, worth %(points)s.") % {"mark": bye_mark(Result.BYE, p),
                                                                                  "points": p})
    for result in (Result.EXCUSED_DRAW, Result.EXCUSED_WIN):
        if result in results:
            lines.append(_("%(mark)s: a bye the player asked for, worth %(points)s.")
                         % {"mark": bye_mark(result), "points": result.points()[0]})
    if Result.EXCUSED in results:
        lines.append(_("%(mark)s: absent, excused in advance: 0 points.") % {"mark": bye_mark(Result.EXCUSED, 0)})
    missed = any(NO_GAME in t for t in texts) if round_robin else any(_no_game(c) for c in cells)
    if missed:
        lines.append(_("%(mark)s: no game that round (not yet entered, or withdrawn).") % {"mark": NO_GAME})
    return lines


def bye_words(result: Result, points: int = 0) -> str:
    """A round without an opponent in words, where there is room: "Bye (+2)", "Requested bye (+1)",
    "Absent, excused (0)"."""
    if result is Result.BYE:
        # a round robin's free round scores nothing for anyone: no value to give
        return _("Bye (+%(points)s)") % {"points": points} if points else _("Bye")
    if result is Result.EXCUSED:
        return _("Absent, excused (0)")
    return _("Requested bye (+%(points)s)") % {"points": result.points()[0]}


def round_text(r: PlayerRound) -> str:
    """A player's round on his own page: his side of the result, a bye in words, or "–"."""
    if r.result is not None and r.result.is_single_player:
        return bye_words(r.result, r.points)
    if r.result is Result.NOT_PLAYED:
        return NO_GAME
    return r.text or NO_GAME
