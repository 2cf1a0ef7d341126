"""A 10x10 board diagram as SVG, drawn from a position code (tournaments.sheets.line.position_code).

Pure Python: no Django. The SVG has one piece slot per playable square, each a `<g>` whose class says
what stands there ("w", "b", "W", "B" or "e" for empty), so the game page's script can step through the
positions by changing classes only; the board itself is always the server's drawing.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from rules.geometry import row_col

SQUARE = 40  # user units per square; the SVG scales to its container


def square_xy(square: int, flipped: bool = False) -> tuple[int, int]:
    """Column and row (0-9, row 0 at the top) of a playable square 1-50, Black at the top by default."""
    row, col = row_col(square)
    if flipped:
        return 9 - col, 9 - row
    return col, row


def board_svg(code: str, *, highlight: Iterable[int] = (), flipped: bool = False, numbers: bool = True,
              label: str = "") -> str:
    """The diagram for a 50-character position code (see position_code)."""
    if len(code) != 50:
        raise ValueError("a position code has 50 characters")
    size = 10 * SQUARE
    lit = set(highlight)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" class="board" role="img" '
        f'aria-label="{escape(label)}">',
        # The arrowhead of the last move (the arrow itself is drawn after the pieces, on top of them).
        '<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head"/></marker></defs>',
        f'<rect width="{size}" height="{size}" class="light"/>',
    ]
    for sq in range(1, 51):
        col, row = square_xy(sq, flipped)
        x, y = col * SQUARE, row * SQUARE
        cls = "dark lit" if sq in lit else "dark"
        parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" class="{cls}" data-sq="{sq}"/>')
        cx, cy, r = x + SQUARE // 2, y + SQUARE // 2, SQUARE * 0.4
        # Every slot carries both the man and the crown; CSS shows what the class says.
        parts.append(
            f'<g class="p {code[sq - 1]}" data-sq="{sq}">'
            f'<circle cx="{cx}" cy="{cy}" r="{r:.0f}"/>'
            f'<circle cx="{cx}" cy="{cy}" r="{r * 0.55:.0f}" class="crown"/></g>'
        )
        if numbers:
            # After the piece, so CSS can show the number on empty squares only ("g.p.e + text").
            parts.append(f'<text x="{x + 2}" y="{y + 9}" class="num">{sq}</text>')
    # The last move as an arrow through the squares it visited: a shape, so the move does not rest on the
    # colour of the highlighted squares alone. A light halo under a dark line reads on any square.
    points = arrow_points(list(highlight), flipped)
    parts.append(f'<g class="lastmove"><polyline class="halo" points="{points}"/>'
                 f'<polyline class="line" points="{points}" marker-end="url(#arrowhead)"/></g>')
    parts.append("</svg>")
    return "".join(parts)


def arrow_points(squares: list[int], flipped: bool = False) -> str:
    """SVG polyline points through the centres of the squares (empty for fewer than two)."""
    if len(squares) < 2:
        return ""
    centres = []
    for sq in squares:
        col, row = square_xy(sq, flipped)
        centres.append(f"{col * SQUARE + SQUARE // 2},{row * SQUARE + SQUARE // 2}")
    return " ".join(centres)
