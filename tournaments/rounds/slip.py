"""A result slip as arbiters write it: board number, then result ("1 2-0, 2 1-1, 3 0F-2F").

Pure Python: returns what was read as data (board, result, or an error code); the admin puts it into
words. Items are separated by commas, semicolons, line breaks or simply by the next board number
("1 2-0 2 1-1"); a board is followed by a space, ':' '.' or ')'; a result is written as stored
(2-0, 1-1, 0-2, 2F-0F, 0F-2F, 0F-0F, bye, excused, not played, in any case, with any dash and spaces
around it), a draw in words (draw, nulle, remise, ничья) or as the round page's keys: 2, 1, 0 (white
wins, draw, black wins), + (Black absent), - (White absent), = (both absent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tournaments.results import Result

# The one-key codes of the round page, shared with its script (static/damier/round-entry.js).
KEYS: dict[str, Result] = {
    "2": Result.WHITE_WINS, "1": Result.DRAW, "0": Result.BLACK_WINS,
    "+": Result.WHITE_FORFEIT_WIN, "-": Result.BLACK_FORFEIT_WIN, "=": Result.DOUBLE_FORFEIT,
}

# A draw as arbiters write it on a slip: English, French (nulle), Dutch and French (remise), Russian.
DRAW_WORDS = frozenset({"draw", "drawn", "nulle", "remise", "ничья"})

_DASH = "-\u2013\u2014\u2212:"  # hyphen, en dash, em dash, minus sign, colon
_SCORE = rf"[0-9]\s*[fF]?\s*[{_DASH}]\s*[0-9]\s*[fF]?"
_WORD = r"bye|excused|not\s+played|exempt|draw|drawn|nulle|remise|ничья"
_RESULT = rf"(?:{_SCORE}|{_WORD}|[012+=\-\u2212])(?=\s|[,;]|$)"
_ITEM = re.compile(rf"\s*(?:board|b|table|t)?\s*([0-9]{{1,3}})(?:\s*[:.)]\s*|\s+)({_RESULT})\s*[,;]?", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;\n]+")

UNREADABLE = "unreadable"  # neither "board result" nor a known result
UNKNOWN_RESULT = "unknown_result"  # a score that is no draughts result, e.g. 3-1
TWICE = "twice"  # the same board twice with different results


@dataclass(frozen=True)
class SlipItem:
    text: str  # the item as written, to quote it back
    board: int | None = None
    result: Result | None = None
    error: str = ""  # one of the codes above, "" when read


def _result(token: str) -> Result | None:
    text = re.sub(r"\s+", " ", token.strip().lower())
    if text in ("\u2212",):
        text = "-"
    if text in KEYS:
        return KEYS[text]
    if text == "exempt":  # the French word for a bye
        return Result.BYE
    if text in DRAW_WORDS:
        return Result.DRAW
    compact = re.sub(rf"\s*([{_DASH}])\s*", "-", text).replace(" ", "")
    compact = re.sub(rf"[{_DASH}]", "-", compact)
    for r in Result:
        if compact == r.value.lower().replace(" ", "") or text == r.value.lower():
            return r
    return None


def parse_slip(text: str) -> list[SlipItem]:
    """Every item of the slip in order, read or not; a board given twice differently is an error on both."""
    items: list[SlipItem] = []
    for chunk in _SEPARATORS.split(text):
        pos = 0
        chunk = chunk.strip()
        while pos < len(chunk):
            match = _ITEM.match(chunk, pos)
            if match is None or match.end() == pos:
                items.append(SlipItem(text=chunk[pos:].strip(), error=UNREADABLE))
                break
            written = match.group(0).strip().rstrip(",;").strip()
            result = _result(match.group(2))
            board = int(match.group(1))
            items.append(SlipItem(text=written, board=board, result=result,
                                  error="" if result is not None else UNKNOWN_RESULT))
            pos = match.end()
    seen: dict[int, Result] = {}
    twice: set[int] = set()
    for item in items:
        if item.board is None or item.result is None:
            continue
        if item.board in seen and seen[item.board] != item.result:
            twice.add(item.board)
        seen.setdefault(item.board, item.result)
    return [SlipItem(i.text, i.board, i.result, TWICE) if i.board in twice and not i.error else i for i in items]
