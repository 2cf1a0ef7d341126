"""FEN as in the PDN 3.0 standard (`W:W31-50:B1-20`).

Reading accepts either colour section first, ranges (`31-50`, also `K1-5` for kings), `K` for kings,
empty sections, spaces around items and a trailing `.`.  Writing is canonical: side to move, then the
White section, then the Black section; squares ascending; a run of three or more consecutive men is
written as a range, everything else (kings always) one by one, so `fen(parse(x))` is stable.
"""

from __future__ import annotations

from rules.numbers import number_or_none
from rules.types import BLACK, WHITE, Color, InvalidFenError, Piece

Placement = dict[int, Piece]


def _square(text: str, item: str, fen: str) -> int:
    sq = number_or_none(text)
    if sq is None:
        raise InvalidFenError(f"FEN {fen!r}: {item!r} is not a square number")
    if not 1 <= sq <= 50:
        raise InvalidFenError(f"FEN {fen!r}: square {sq} in {item!r} is outside 1-50")
    return sq


def parse_fen(fen: str) -> tuple[Color, Placement]:
    """The side to move and the pieces of a FEN; raises InvalidFenError naming the faulty part."""
    if not isinstance(fen, str):
        raise InvalidFenError(f"FEN must be a string, got {type(fen).__name__}")
    text = fen.strip()
    if text.endswith("."):
        text = text[:-1].rstrip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        text = text[1:-1].strip()
    if not text:
        raise InvalidFenError("FEN is empty")
    fields = [f.strip() for f in text.split(":")]
    turn_text = fields[0].upper()
    if turn_text not in ("W", "B"):
        raise InvalidFenError(f"FEN {fen!r}: side to move must be W or B, got {fields[0]!r}")
    turn = WHITE if turn_text == "W" else BLACK
    if len(fields) != 3:
        raise InvalidFenError(
            f"FEN {fen!r}: expected the side to move and two colour sections separated by ':', "
            f"got {len(fields) - 1} section(s)")
    placement: Placement = {}
    seen: set[Color] = set()
    for section in fields[1:]:
        if not section or section[0].upper() not in ("W", "B"):
            raise InvalidFenError(f"FEN {fen!r}: section {section!r} must start with W or B")
        color = WHITE if section[0].upper() == "W" else BLACK
        if color in seen:
            raise InvalidFenError(f"FEN {fen!r}: the {color} section appears twice")
        seen.add(color)
        body = section[1:].strip()
        if not body:
            continue
        for raw in body.split(","):
            item = raw.strip()
            if not item:
                raise InvalidFenError(f"FEN {fen!r}: empty item in section {section!r}")
            king = item[0].upper() == "K"
            rest = item[1:] if king else item
            if "-" in rest:
                low_text, high_text = (part.strip() for part in rest.split("-", 1))
                if high_text[:1].upper() == "K":
                    high_text = high_text[1:]
                low, high = _square(low_text, item, fen), _square(high_text, item, fen)
                if low > high:
                    raise InvalidFenError(f"FEN {fen!r}: range {item!r} runs backwards")
                squares = range(low, high + 1)
            else:
                squares = range(_square(rest.strip(), item, fen), _square(rest.strip(), item, fen) + 1)
            for sq in squares:
                if sq in placement:
                    raise InvalidFenError(f"FEN {fen!r}: square {sq} is given twice")
                placement[sq] = Piece(color, king)
    return turn, placement


def _section(color: Color, placement: Placement) -> str:
    items: list[str] = []
    squares = sorted(sq for sq, p in placement.items() if p.color is color)
    i = 0
    while i < len(squares):
        sq = squares[i]
        if placement[sq].king:
            items.append(f"K{sq}")
            i += 1
            continue
        j = i
        while (j + 1 < len(squares) and squares[j + 1] == squares[j] + 1
               and not placement[squares[j + 1]].king):
            j += 1
        if j - i >= 2:
            items.append(f"{sq}-{squares[j]}")
        else:
            items.extend(str(s) for s in squares[i:j + 1])
        i = j + 1
    return color.value + ",".join(items)


def format_fen(turn: Color, placement: Placement) -> str:
    """Canonical FEN (see the module docstring)."""
    return f"{turn.value}:{_section(WHITE, placement)}:{_section(BLACK, placement)}"
