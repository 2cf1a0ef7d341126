"""The game viewer in words: the move just played and the position, for a reader who cannot see it."""

from __future__ import annotations

from django.utils import translation

from rules import Board
from tournaments.public import viewer
from tournaments.sheets.line import Ply, line_from_moves, line_from_pdn


def test_start_and_a_quiet_move() -> None:
    line = line_from_moves(["32-28", "19-23"])
    assert viewer.announcement(line, 0) == "Starting position"
    assert viewer.announcement(line, 1) == "Move 1, White 32-28"
    assert viewer.announcement(line, 2) == "Move 1, Black 19-23"


def test_a_capture_names_the_pieces_taken() -> None:
    line = line_from_moves(["32-28", "19-23", "28x19", "14x23"])
    assert viewer.announcement(line, 3) == "Move 2, White 28x19, 1 piece captured: 23"
    assert viewer.announcement(line, 4) == "Move 2, Black 14x23, 1 piece captured: 19"


def test_a_multiple_capture_counts_them_by_square() -> None:
    line = line_from_moves(["37x17"], start=Board("W:W37,K5:B32,22,K46"))
    assert viewer.announcement(line, 1) == "Move 1, White 37x17, 2 pieces captured: 22, 32"
    assert viewer.captured_squares(line.start, line.plies[0].code, True) == [22, 32]


def test_position_in_words_men_kings_and_who_moves() -> None:
    line = line_from_moves(["37x17"], start=Board("W:W37,K5:B32,22,K46"))
    assert viewer.position_text(line, 0) == (
        "White: men 37; kings 5. Black: men 22, 32; kings 46. White to move.")
    assert viewer.position_text(line, 1) == (
        "White: men 17; kings 5. Black: no men; kings 46. Black to move.")


def test_initial_position_in_words() -> None:
    text = viewer.position_text(line_from_moves([]), 0)
    assert text.startswith("White: men 31, 32, 33,") and "no kings" in text
    assert "Black: men 1, 2, 3," in text and "to move" not in text  # no move: the sheet does not say


def test_an_irregular_move_that_stands_says_so() -> None:
    line = line_from_moves(["32-28"])
    line.plies[0] = Ply(1, True, "32-28", line.plies[0].code, (32, 28), note="art. 5.4: ...")
    assert viewer.announcement(line, 1) == "Move 1, White 32-28, irregular move that stands"


def test_the_words_are_french_on_a_french_page() -> None:
    line = line_from_pdn('[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n')
    with translation.override("fr"):
        assert viewer.announcement(line, 0) == "Position de départ"
        assert viewer.announcement(line, 4) == "Coup 2, Noirs 14x23, 1 pièce prise : 19"
        assert viewer.position_text(line, 4).endswith("Trait aux Blancs.")
        words = viewer.viewer_words()
    assert all("%(" not in v or v.count("%(") == v.count(")s") for v in words.values())
