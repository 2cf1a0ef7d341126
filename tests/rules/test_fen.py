"""FEN as in the PDN 3.0 standard (doc/fen.rst)."""

from __future__ import annotations

import pytest

from rules import BLACK, WHITE, Board, InvalidFenError, Piece


def test_initial_fen_is_canonical() -> None:
    assert Board().fen() == "W:W31-50:B1-20"
    assert Board(None).fen() == Board.from_fen("W:W31-50:B1-20").fen()


@pytest.mark.parametrize("text", [
    "W:W31-50:B1-20",
    "W:B1-20:W31-50",
    "W:W31-50:B1-20.",
    " W:W31-50:B1-20 ",
    "W:W31,32,33,34,35,36-50:B1-20",
    "W:W31-40,41-50:B1-10,11-20",
    '"W:W31-50:B1-20"',
])
def test_equivalent_spellings_read_the_same(text: str) -> None:
    assert Board(text).fen() == "W:W31-50:B1-20"


def test_kings_side_to_move_and_king_ranges() -> None:
    board = Board("B:WK10,28:BK1-3,20")
    assert board.turn is BLACK
    assert board.piece_at(10) == Piece(WHITE, True)
    assert board.piece_at(28) == Piece(WHITE, False)
    assert [board.piece_at(sq) for sq in (1, 2, 3)] == [Piece(BLACK, True)] * 3
    assert board.fen() == "B:WK10,28:BK1,K2,K3,20"


def test_empty_sections_are_allowed() -> None:
    assert Board("W:W:B1").fen() == "W:W:B1"


def test_canonical_fen_uses_ranges_for_three_or_more_men() -> None:
    assert Board("W:W31,32,34,35,36:B1,2,3").fen() == "W:W31,32,34-36:B1-3"


@pytest.mark.parametrize(("text", "named"), [
    ("", "empty"),
    ("X:W31:B1", "side to move"),
    ("W:W31", "section"),
    ("W:W31:B1:W2", "section"),
    ("W:W31:W32", "twice"),
    ("W:W31:X1", "must start with W or B"),
    ("W:W51:B1", "51"),
    ("W:W0:B1", "0"),
    ("W:W31:B31", "31"),
    ("W:Wab:B1", "ab"),
    ("W:W31,,32:B1", "empty item"),
    ("W:W40-31:B1", "backwards"),
    ("W:W31-:B1", "31-"),
])
def test_bad_fen_says_what_is_wrong(text: str, named: str) -> None:
    with pytest.raises(InvalidFenError, match=named.replace("(", r"\(")) as info:
        Board(text)
    assert isinstance(info.value, ValueError)


def test_fen_round_trip_keeps_the_exact_position() -> None:
    fen = "B:WK17,K24,6,9,10,11:BK31,33,37,41,42,43,44,46"
    board = Board(fen)
    assert Board(board.fen()) == board
    assert Board(board.fen()).fen() == board.fen()
