"""Art. 8.2 notation and the PDN 3.0 long form for ambiguous captures."""

from __future__ import annotations

import pytest

from rules import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move

# The PDN 3.0 example (doc/grammar.rst): 47x36 does not say which black pieces were captured.
PDN_EXAMPLE = "W:WK47:B42,29,19,14,27"


def test_8_2_quiet_move_is_start_dash_end() -> None:
    board = Board()
    assert [board.notation(m) for m in board.legal_moves()][:2] == ["31-26", "31-27"]


def test_8_2_capture_is_start_x_end() -> None:
    board = Board("W:W32:B27")
    (move,) = board.legal_moves()
    assert board.notation(move) == "32x21"


def test_ambiguous_capture_is_written_in_long_form() -> None:
    board = Board(PDN_EXAMPLE)
    assert sorted(board.notation(m) for m in board.legal_moves()) == [
        "47x38x20x9x31", "47x38x20x9x36", "47x38x24x13x31", "47x38x24x13x36"]


def test_long_form_names_the_square_right_behind_a_piece_when_going_straight_on() -> None:
    # 38 is right behind 42; the king goes straight on from there over 29.
    board = Board(PDN_EXAMPLE)
    move = board.parse_move("47x38x24x13x36")
    assert move.path == (47, 38, 24, 13, 36)
    assert move.captured == (19, 27, 29, 42)


def test_ambiguous_short_form_lists_the_candidates_in_long_form() -> None:
    board = Board(PDN_EXAMPLE)
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("47x36")
    assert "47x38x20x9x36" in str(info.value) and "47x38x24x13x36" in str(info.value)


def test_unambiguous_capture_stays_short_even_with_several_landing_squares() -> None:
    board = Board("W:WK46:B28")
    assert sorted(board.notation(m) for m in board.legal_moves()) == [
        "46x10", "46x14", "46x19", "46x23", "46x5"]


def test_parse_accepts_long_form_of_an_unambiguous_capture() -> None:
    board = Board("W:W38:B33,23,24")
    assert board.parse_move("38x29x18") == board.parse_move("38x18")
    assert board.parse_move("38x29x18").path == (38, 29, 18)


def test_parse_accepts_dash_colon_and_move_strength() -> None:
    board = Board("W:W32:B27")
    expected = Move((32, 21), (27,))
    for text in ("32x21", "32-21", "32:21", " 32x21! ", "32x21?!", "32X21"):
        assert board.parse_move(text) == expected


def test_parse_unreadable_text_is_invalid() -> None:
    board = Board()
    for text in ("", "32", "32--28", "a3-b4", "32-28-", "x"):
        with pytest.raises(InvalidMoveError):
            board.parse_move(text)


def test_parse_square_out_of_range_is_invalid_and_named() -> None:
    with pytest.raises(InvalidMoveError, match="51"):
        Board().parse_move("51-46")


def test_parse_illegal_move_says_why() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="square 28 is empty"):
        board.parse_move("28-23")
    with pytest.raises(IllegalMoveError, match="black piece"):
        board.parse_move("19-23")
    with pytest.raises(IllegalMoveError, match="legal moves: 31-26"):
        board.parse_move("32-26")


def test_parse_illegal_smaller_capture_cites_4_13() -> None:
    board = Board("W:W32,38:B27,33,23")
    with pytest.raises(IllegalMoveError, match=r"4\.13"):
        board.parse_move("32x21")


def test_notation_of_an_illegal_move_raises() -> None:
    with pytest.raises(IllegalMoveError):
        Board().notation(Move((36, 31)))  # 31 is occupied


def test_push_of_an_illegal_move_raises_and_changes_nothing() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError):
        board.push(Move((32, 23)))
    assert board.move_stack == [] and board.fen() == "W:W31-50:B1-20"


def test_push_accepts_a_capture_given_by_start_end_and_captured_only() -> None:
    board = Board(PDN_EXAMPLE)
    board.push(Move((47, 36), (14, 27, 29, 42)))
    assert board.move_stack[-1].path == (47, 38, 20, 9, 36)
