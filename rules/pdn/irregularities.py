"""What an illegal move on a game sheet is, in the terms of Annexe I art. 5.4 and art. 8, and where the
game stands after it when the sheet fixes that (art. 5.7). Used by `rules.replay`.

Built only on the engine's public API (piece_at / set_piece / set_turn / quiet_moves / capture_moves /
legal_moves / parse_move): the engine plays legal moves; playing an irregular one is done here by hand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.board import Board
from rules.notation import read_squares, traversed
from rules.numbers import number_or_none
from rules.pdn.reader import MoveToken
from rules.types import WHITE, Color, InvalidMoveError, Move, Piece, RulesError, Severity

# How many following plies must replay for one reading of a doubtful move to be preferred.
LOOKAHEAD = 2


@dataclass(frozen=True)
class Irregular:
    """The judgement of a move the board did not accept as written."""

    article: str | None
    message: str
    severity: Severity
    after: Board | None  # the position after the move when the sheet fixes it, else None
    legal: bool = False  # True when the move was legal after all (an ambiguity the next moves resolve)
    irregularity: bool = True  # an art. 5.4 irregularity (False: a notation fault)
    moved_man: bool = True
    capture: bool = False


def parse_token(board: Board, token: MoveToken) -> Move | None:
    """The legal move the token names, or None when it names none or several."""
    try:
        return board.parse_move(token.text)
    except RulesError:
        return None


def fits(board: Board, rest: Sequence[MoveToken], depth: int = LOOKAHEAD) -> bool:
    """True when the next `depth` moves of the sheet are legal from `board` (which is left unchanged)."""
    probe = board.copy()
    for token in rest[:depth]:
        move = parse_token(probe, token)
        if move is None:
            return False
        probe.push(move)
    return True


def _name(color: Color) -> str:
    return "White" if color is WHITE else "Black"


def _matches(board: Board, move: Move, squares: list[int]) -> bool:
    if move.start != squares[0] or move.end != squares[-1]:
        return False
    if len(squares) == 2:
        return True
    routes = board.legal_routes(move) or [move.path]
    return any(_on_route(squares, traversed(route)) for route in routes)


def _on_route(squares: list[int], route: list[int]) -> bool:
    it = iter(route)
    return all(square in it for square in squares)


def _played(board: Board, start: int, end: int, captured: Sequence[int] = ()) -> Board:
    """The board after the piece on `start` went to `end` taking `captured`, played by hand."""
    after = board.copy()
    piece = board.piece_at(start)
    assert piece is not None
    promotes = not piece.king and (end <= 5 if piece.color is WHITE else end >= 46)
    after.set_piece(start, None)
    for square in captured:
        after.set_piece(square, None)
    after.set_piece(end, Piece(piece.color, piece.king or promotes))
    after.set_turn(piece.color.opponent)
    return after


def _readable(token: MoveToken) -> list[int] | Irregular:
    try:
        return read_squares(token.text)
    except InvalidMoveError as err:
        bad = [n.lstrip("0")[:12] or "0" for n in re.findall(r"[0-9]+", token.text)
               if number_or_none(n, low=1, high=50) is None]
        if bad:
            return Irregular("8.1", f"square {bad[0]} does not exist: squares are numbered 1 to 50", Severity.ERROR,
                             None, irregularity=False)
        return Irregular("8.2", f"unreadable move: {err}", Severity.ERROR, None, irregularity=False)


def classify_illegal(board: Board, token: MoveToken, rest: Sequence[MoveToken]) -> Irregular:
    """Why the token is not a legal move in `board`, and the position after it when that is fixed."""
    squares = _readable(token)
    if isinstance(squares, Irregular):
        return squares
    start, end = squares[0], squares[-1]
    turn = board.turn
    if not board.pieces(turn):
        return Irregular("7.2.3", f"{_name(turn)} has no pieces left: the game was already over", Severity.ERROR, None)
    legal = board.legal_moves()
    candidates = [m for m in legal if _matches(board, m, squares)]
    if len(candidates) > 1:
        return _ambiguous(board, token, candidates, rest)
    piece = board.piece_at(start)
    if piece is None:
        return Irregular("5.4.2", f"there is no piece on {start} ({_name(turn)} to move)", Severity.ERROR, None)
    if piece.color is not turn:
        return _wrong_side(board, token, squares, piece, rest)
    kind = "king" if piece.king else "man"
    written_capture = "x" in token.text or len(squares) > 2
    if legal and legal[0].is_capture:
        most = len(legal[0].captured)
        forms = ", ".join(board.notation(m) for m in legal)
        shorter = [m for m in board.capture_moves(turn) if _matches(board, m, squares)]
        if shorter:
            fitting = [m for m in shorter if fits(_played(board, m.start, m.end, m.captured), rest)]
            chosen = fitting if len(fitting) == 1 else shorter
            taken = len(chosen[0].captured)
            message = (f"{_name(turn)} captured {taken} piece(s) where {most} had to be taken (the capture "
                       f"of the most pieces is compulsory, art. 4.13); legal: {forms}")
            after = _played(board, start, end, chosen[0].captured) if len(chosen) == 1 else None
            return Irregular("5.4.8", message, Severity.ERROR, after, moved_man=not piece.king, capture=True)
        stopped = _stopped(board, squares, legal)
        if stopped is not None:
            message = (f"{_name(turn)} stopped the capture on {end} after taking {len(stopped)} piece(s) where "
                       f"{most} had to be taken (art. 4.10; fewer pieces than possible, 5.4.8); legal: {forms}")
            return Irregular("5.4.9", message, Severity.ERROR, _played(board, start, end, stopped),
                             moved_man=not piece.king, capture=True)
        if any(m.end == end for m in board.quiet_moves(turn) if m.start == start):
            message = f"{_name(turn)} moved {start}-{end} while a capture was compulsory (legal: {forms})"
            return Irregular("5.4.6", message, Severity.ERROR, _played(board, start, end), moved_man=not piece.king)
        message = f"irregular {kind} move {start}-{end}, and a capture was compulsory (legal: {forms})"
        after = None if written_capture or board.piece_at(end) is not None else _played(board, start, end)
        return Irregular("5.4.2", message, Severity.ERROR, after, moved_man=not piece.king)
    if not legal:
        message = f"{_name(turn)} has no legal move: the game was already over"
        return Irregular("7.2.2", message, Severity.ERROR, None)
    if written_capture:
        message = f"{_name(turn)}'s {kind} on {start} has no capture to {end}: no capture is possible here"
        return Irregular("5.4.2", message, Severity.ERROR, None, moved_man=not piece.king)
    if board.piece_at(end) is not None:
        message = f"irregular {kind} move {start}-{end}: square {end} is occupied"
        return Irregular("5.4.2", message, Severity.ERROR, None)
    return Irregular("5.4.2", f"irregular {kind} move {start}-{end}: a {kind} cannot move so", Severity.ERROR,
                     _played(board, start, end), moved_man=not piece.king)


def _stopped(board: Board, squares: list[int], legal: list[Move]) -> list[int] | None:
    """The pieces taken when the written capture ends on a landing square inside a legal capture."""
    end = squares[-1]
    for move in legal:
        if move.start != squares[0]:
            continue
        for route in board.legal_routes(move) or [move.path]:
            if end not in route[1:-1]:
                continue
            passed = traversed(route[: route.index(end) + 1])
            if _on_route(squares, passed):
                own = board.turn
                return [sq for sq in passed[1:-1] if (p := board.piece_at(sq)) is not None and p.color is not own]
    return None


def _ambiguous(board: Board, token: MoveToken, candidates: list[Move],
               rest: Sequence[MoveToken]) -> Irregular:
    forms = " or ".join("x".join(str(s) for s in (board.legal_routes(m) or [m.path])[0]) for m in candidates)
    fitting = []
    for move in candidates:
        probe = board.copy()
        probe.push(move)
        if fits(probe, rest):
            fitting.append((move, probe))
    if len(fitting) == 1:
        move, after = fitting[0]
        return Irregular("8.2", f"ambiguous capture written short: it can be {forms}; the moves that follow "
                         f"show it was {board.notation(move)}", Severity.WARNING, after, legal=True,
                         irregularity=False, moved_man=not _king(board, move.start), capture=True)
    return Irregular("8.2", f"ambiguous capture written short: it can be {forms}, and the moves that follow "
                     "do not tell which", Severity.ERROR, None, irregularity=False)


def _king(board: Board, square: int) -> bool:
    piece = board.piece_at(square)
    return piece is not None and piece.king


def _wrong_side(board: Board, token: MoveToken, squares: list[int], piece: Piece,
                rest: Sequence[MoveToken]) -> Irregular:
    """A move of the side that is not to move: 5.4.1 (it moved twice) or 5.4.5 (its piece was moved)."""
    turn, other = board.turn, piece.color
    start, end = squares[0], squares[-1]
    twice = board.copy()
    twice.set_turn(other)
    again = parse_token(twice, token)
    if again is not None:
        twice.push(again)
    opponent_piece: Board | None = None
    if "x" not in token.text and len(squares) == 2 and board.piece_at(end) is None:
        opponent_piece = _played(board, start, end)
        opponent_piece.set_turn(other)  # the opponent's piece was moved by the side to move
    double = (f"{_name(other)} plays twice in a row: {_name(turn)} had the move (or the sheet misses a "
              f"{_name(turn)} move)")
    moved = f"{_name(turn)} moves {_name(other)}'s piece {start}-{end}"
    if again is not None and fits(twice, rest):
        return Irregular("5.4.1", double, Severity.ERROR, twice, moved_man=not piece.king, capture=again.is_capture)
    if opponent_piece is not None and fits(opponent_piece, rest):
        return Irregular("5.4.5", moved, Severity.ERROR, opponent_piece, moved_man=not piece.king)
    if again is not None:
        return Irregular("5.4.1", double, Severity.ERROR, twice, moved_man=not piece.king, capture=again.is_capture)
    return Irregular("5.4.5", f"{moved} ({_name(other)}'s own move would not be legal either)", Severity.ERROR, None)
