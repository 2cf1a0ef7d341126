"""A 10x10 board diagram as SVG, drawn from a rules-engine position, and the game's positions ply by ply.

Pure Python: no Django. The SVG has one piece slot per playable square, each a `<g>` whose class says
what stands there ("w", "b", "W", "B" or "e" for empty), so the game page's script can step through the
positions by changing classes only; the board itself is always the server's drawing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from rules import WHITE, Board, Move, PositionKey, RulesError
from rules.geometry import BIT_OF
from rules.pdn import ParsedGame, read_game
from rules.replay import Report, Severity, replay_game

SQUARE = 40  # user units per square; the SVG scales to its container
EMPTY = "e"


def square_xy(square: int, flipped: bool = False) -> tuple[int, int]:
    """Column and row (0-9, row 0 at the top) of a playable square 1-50, Black at the top by default."""
    row, index = divmod(square - 1, 5)
    # Square 1 is the second cell of the top row (art. 2.1: the board is set with a dark square at the
    # player's left), so even rows start on column 1 and odd rows on column 0.
    col = index * 2 + (1 if row % 2 == 0 else 0)
    if flipped:
        return 9 - col, 9 - row
    return col, row


def position_code(board: Board) -> str:
    """50 characters, one per square 1-50: w/b men, W/B kings, 'e' empty."""
    out = []
    for sq in range(1, 51):
        piece = board.piece_at(sq)
        out.append(piece.symbol() if piece is not None else EMPTY)
    return "".join(out)


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


@dataclass(frozen=True)
class Ply:
    number: int  # move number as printed: 1, 1, 2, 2, ... (adjusted for a black first move)
    white: bool
    text: str  # as written on the sheet
    code: str  # the position after it
    squares: tuple[int, ...]  # from, (via...), to: highlighted on the diagram
    note: str = ""  # an irregular move that stands (art. 5.7): the article and what happened


@dataclass
class GameLine:
    """The main line of a sheet replayed on the board as far as the sheet fixes the positions."""

    start: str
    plies: list[Ply] = field(default_factory=list)
    unplayable: list[str] = field(default_factory=list)  # moves written after the last one we can place
    problem: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


def code_of(position: PositionKey) -> str:
    """The position code (see position_code) of a position key (Board.key()), without a board."""
    white, black, kings, _ = position
    out = []
    for sq in range(1, 51):
        bit = BIT_OF[sq]
        if white & bit:
            out.append("W" if kings & bit else "w")
        elif black & bit:
            out.append("B" if kings & bit else "b")
        else:
            out.append(EMPTY)
    return "".join(out)


def line_from_moves(moves: Iterable[str], start: Board | None = None) -> GameLine:
    """Step a list of moves in notation ("32-28", "19x28"...) from the start position (default initial).
    The first illegal move ends the line; line_from_pdn goes further on a sheet."""
    board = start or Board()
    line = GameLine(start=position_code(board))
    number = 1
    texts = list(moves)
    for index, text in enumerate(texts):
        white = board.turn is WHITE
        try:
            move: Move = board.push_notation(text)
        except RulesError as err:
            line.problem = f"{text}: {err}"
            line.unplayable = texts[index:]
            break
        line.plies.append(Ply(number, white, text, position_code(board), tuple(move.path)))
        if not white:
            number += 1
    return line


def line_from_report(report: Report, game: ParsedGame) -> GameLine:
    """The main line as the replay placed it: the same single pass (rules.replay) that gives the verdict
    and the irregularities. An art. 5.4 irregularity the opponent did not contest stands (art. 5.7): when
    the sheet fixes the position it leaves, the line goes on from there with the ply marked; otherwise the
    line ends at that move and the moves after it are listed as unplayable."""
    line = GameLine(start=position_code(Board()), headers=dict(game.headers))
    if report.start is None:
        why = next((issue.message for issue in report.issues if issue.ply is None and issue.article != "PDN"),
                   "the game is not replayed")
        line.problem = f"starting position: {why}"
        line.unplayable = [m.text for m in game.moves]
        return line
    line.start = code_of(report.start)
    number = game.moves[0].number if game.moves and game.moves[0].number else 1
    for step in report.steps:
        note = ((f"art. {step.article}: " if step.article else "") + step.message) if step.irregular else ""
        line.plies.append(Ply(number, step.white, step.text, code_of(step.position), step.squares, note))
        if not step.white:
            number += 1
    stopped = len(report.steps)
    if stopped < len(game.moves):
        token = game.moves[stopped]
        why = next((issue.message for issue in report.issues if issue.ply == stopped + 1), "")
        line.problem = f"{token.raw}: {why}"
        line.unplayable = [m.text for m in game.moves[stopped:]]
    if game.errors and line.problem is None:
        line.problem = "; ".join(str(e) for e in game.errors if e.severity is Severity.ERROR) or None
    return line


def line_from_pdn(text: str) -> GameLine:
    """Read a one-game PDN sheet and replay its main line once (see line_from_report)."""
    game = read_game(text)
    return line_from_report(replay_game(game), game)
