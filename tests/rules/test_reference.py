"""Cross-check of the bitboard generator against a slow, literal reading of art. 3 and 4.

The reference below works on (row, column) coordinates and follows the text directly: a piece jumps
an enemy piece not yet jumped onto an empty square (4.2, 4.3), must go on while it can (4.5, 4.6),
captured pieces stay on the board until the end (4.8, 4.11), the most pieces must be taken (4.13).
It shares no code with rules.core.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import BLACK, WHITE, Board, Color, Piece

Coord = tuple[int, int]
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def coord(square: int) -> Coord:
    row, pos = divmod(square - 1, 5)
    return row, 2 * pos + (1 if row % 2 == 0 else 0)


def square(c: Coord) -> int:
    return c[0] * 5 + c[1] // 2 + 1


def on_board(c: Coord) -> bool:
    return 0 <= c[0] < 10 and 0 <= c[1] < 10


MoveKey = tuple[int, int, frozenset[int]]


def reference_moves(pieces: dict[int, Piece], turn: Color, maximal_only: bool = True) -> set[MoveKey]:
    """Legal moves; with maximal_only=False, every complete capture instead (quiet moves if none)."""
    occupied = {coord(sq): p for sq, p in pieces.items()}
    captures: set[MoveKey] = set()

    def extend(start: Coord, at: Coord, king: bool, taken: frozenset[Coord]) -> None:
        went_on = False
        for dr, dc in DIAGONALS:
            cur = (at[0] + dr, at[1] + dc)
            if king:
                while on_board(cur) and (cur == start or cur not in occupied):
                    cur = (cur[0] + dr, cur[1] + dc)
            if not on_board(cur) or cur == start or cur not in occupied:
                continue
            target = occupied[cur]
            if target.color is turn or cur in taken:
                continue
            land = (cur[0] + dr, cur[1] + dc)
            while on_board(land) and (land == start or land not in occupied):
                went_on = True
                extend(start, land, king, taken | {cur})
                if not king:
                    break
                land = (land[0] + dr, land[1] + dc)
        if not went_on and taken:
            captures.add((square(start), square(at), frozenset(square(t) for t in taken)))

    for sq, piece in pieces.items():
        if piece.color is turn:
            extend(coord(sq), coord(sq), piece.king, frozenset())
    if captures and not maximal_only:
        return captures
    if captures:
        most = max(len(c[2]) for c in captures)
        return {c for c in captures if len(c[2]) == most}
    quiet: set[MoveKey] = set()
    forward = -1 if turn is WHITE else 1
    for sq, piece in pieces.items():
        if piece.color is not turn:
            continue
        at = coord(sq)
        for dr, dc in DIAGONALS:
            if not piece.king and dr != forward:
                continue
            cur = (at[0] + dr, at[1] + dc)
            while on_board(cur) and cur not in occupied:
                quiet.add((sq, square(cur), frozenset()))
                if not piece.king:
                    break
                cur = (cur[0] + dr, cur[1] + dc)
    return quiet


positions = st.tuples(
    st.dictionaries(st.integers(1, 50), st.tuples(st.booleans(), st.integers(0, 3)), max_size=24),
    st.booleans())


@settings(max_examples=400, deadline=None)
@given(positions)
def test_legal_moves_agree_with_the_literal_reference(position: tuple[dict[int, tuple[bool, int]], bool]) -> None:
    raw, white_to_move = position
    # Kings one time in four, so that long king captures come up often.
    pieces = {sq: Piece(WHITE if white else BLACK, kind == 0) for sq, (white, kind) in raw.items()}
    turn = WHITE if white_to_move else BLACK
    board = Board("W:W:B")
    for sq, piece in pieces.items():
        board.set_piece(sq, piece)
    board.set_turn(turn)
    got = {(m.start, m.end, frozenset(m.captured)) for m in board.legal_moves()}
    assert got == reference_moves(pieces, turn)
    assert len(board.legal_moves()) == len(got)
    every = {(m.start, m.end, frozenset(m.captured)) for m in board.capture_moves()}
    if every:
        assert every == reference_moves(pieces, turn, maximal_only=False)


def test_reference_agrees_on_the_woldouby_capture() -> None:
    board = Board("B:W27-30,32,34,35,37,38:B12,13,16,18,19,21,23-26")
    pieces = {sq: p for sq in range(1, 51) if (p := board.piece_at(sq)) is not None}
    assert {(m.start, m.end, frozenset(m.captured)) for m in board.legal_moves()} == reference_moves(pieces, BLACK)
