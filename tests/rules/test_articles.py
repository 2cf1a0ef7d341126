"""One test per article of Annexe I (rules of play), named after the article it checks."""

from __future__ import annotations

from rules import BLACK, INITIAL_FEN, WHITE, Board, IllegalMoveError, Move, Piece


def moves(board: Board) -> set[str]:
    return {board.notation(m) for m in board.legal_moves()}


def test_2_6_squares_are_numbered_1_to_50_with_5_and_46_the_corners_of_the_long_diagonal() -> None:
    board = Board("W:WK46:BK1")
    # The long diagonal runs from the corner 46 to the corner 5 (2.6.3).
    assert {m.end for m in board.legal_moves()} == {41, 37, 32, 28, 23, 19, 14, 10, 5}
    # Left column 6-16-26-36-46 (2.6.2): a man there has only one forward square.
    assert moves(Board("W:W36:BK1")) == {"36-31"}
    assert moves(Board("B:WK50:B15")) == {"15-20"}


def test_2_8_initial_position() -> None:
    board = Board()
    assert board.fen() == INITIAL_FEN
    for sq in range(1, 21):
        assert board.piece_at(sq) == Piece(BLACK, False)
    for sq in range(21, 31):
        assert board.piece_at(sq) is None
    for sq in range(31, 51):
        assert board.piece_at(sq) == Piece(WHITE, False)


def test_3_3_white_moves_first_then_turns_alternate() -> None:
    board = Board()
    assert board.turn is WHITE
    board.push_notation("32-28")
    assert board.turn is BLACK


def test_3_4_man_moves_one_square_diagonally_forward_onto_an_empty_square() -> None:
    assert moves(Board("W:W28:BK1")) == {"28-22", "28-23"}
    assert moves(Board("B:WK50:B23")) == {"23-28", "23-29"}
    # Blocked forward squares leave no move, and a man never steps backwards.
    assert moves(Board("W:W28,22:BK1")) == {"28-23", "22-17", "22-18"}


def test_3_5_man_reaching_the_far_row_becomes_king() -> None:
    board = Board("W:W6:B15")
    board.push_notation("6-1")
    assert board.piece_at(1) == Piece(WHITE, True)
    board.push_notation("15-20")
    assert board.piece_at(20) == Piece(BLACK, False)


def test_3_5_black_man_promoted_on_46_to_50() -> None:
    board = Board("B:WK1:B42")
    board.push_notation("42-47")
    assert board.piece_at(47) == Piece(BLACK, True)


def test_3_9_king_flies_over_free_squares_forwards_and_backwards() -> None:
    board = Board("W:WK28:BK1")
    # Stops at the edge; 1 is occupied by the black king but not on these diagonals.
    assert {m.end for m in board.legal_moves()} == {
        22, 17, 11, 6, 23, 19, 14, 10, 5, 32, 37, 41, 46, 33, 39, 44, 50}
    blocked = Board("W:WK28,37:BK1")
    assert 41 not in {m.end for m in blocked.legal_moves() if m.start == 28}


def test_4_1_capture_is_compulsory() -> None:
    board = Board("W:W32,45:B27")
    assert moves(board) == {"32x21"}
    try:
        board.parse_move("45-40")
    except IllegalMoveError as err:
        assert "compulsory" in str(err)
    else:
        raise AssertionError("a quiet move was accepted while a capture is possible")


def test_4_1_no_capture_of_own_pieces() -> None:
    assert moves(Board("W:W32,27:BK1")) == {"27-21", "27-22", "32-28"}


def test_4_2_man_captures_backwards_too() -> None:
    board = Board("W:W22:B27")  # 27 is behind White's man on 22
    assert [(m.path, m.captured) for m in board.legal_moves()] == [((22, 31), (27,))]


def test_4_3_king_captures_at_distance_and_chooses_its_landing_square() -> None:
    board = Board("W:WK46:B28")
    assert {m.end for m in board.legal_moves()} == {23, 19, 14, 10, 5}
    assert all(m.captured == (28,) for m in board.legal_moves())


def test_4_5_man_multiple_capture_must_be_completed() -> None:
    board = Board("W:W38:B33,23,24")
    # 38x29 over 33, then over 23 or 24 from 29: a man may not stop half-way.
    assert {(m.end, m.captured) for m in board.legal_moves()} == {(18, (23, 33)), (20, (24, 33))}


def test_4_6_king_multiple_capture_turns_and_lands_where_it_chooses() -> None:
    board = Board("W:WK46:B37,22")
    # Over 37 along the long diagonal, turn on 28 over 22, land on 17, 11 or 6.
    assert {(m.path, m.captured) for m in board.legal_moves()} == {
        ((46, 28, 17), (22, 37)), ((46, 28, 11), (22, 37)), ((46, 28, 6), (22, 37))}


def test_4_7_no_jumping_over_own_pieces() -> None:
    board = Board("W:WK46,37:B28")
    assert not any(m.is_capture for m in board.legal_moves())


def test_4_8_and_4_11_turkish_strike_captured_pieces_stay_and_block() -> None:
    """46x37x22x21 ends on 26: going on to 42 would cross 37, still on the board (4.11), a second time."""
    board = Board("W:WK46:B37,22,21,42")
    legal = board.legal_moves()
    assert [(m.path, m.captured) for m in legal] == [((46, 28, 17, 26), (21, 22, 37))]
    board.push(legal[0])
    assert board.piece_at(42) == Piece(BLACK, False)
    assert board.piece_at(26) == Piece(WHITE, True)
    assert all(board.piece_at(sq) is None for sq in (21, 22, 37, 46))


def test_4_8_a_square_may_be_crossed_twice_when_it_is_empty() -> None:
    # A man capturing around a diamond comes back to its start square (it was vacated).
    board = Board("W:W32:B27,17,28,18")
    assert [(m.path, m.captured) for m in board.legal_moves()] == [((32, 21, 12, 23, 32), (17, 18, 27, 28))]


def test_4_13_capture_of_the_most_pieces_is_compulsory() -> None:
    board = Board("W:W32,38:B27,33,23")
    # 32x21 would take one piece; 38x29x18 takes two and is the only legal move.
    assert {(m.path, m.captured) for m in board.legal_moves()} == {((38, 29, 18), (23, 33))}
    assert {m.start for m in board.capture_moves()} == {32, 38}
    assert board.capture_moves(maximal_only=True) == board.legal_moves()


def test_4_13_a_king_counts_as_one_piece() -> None:
    # One man can take a king, another man can take two men: the two men must be taken.
    board = Board("W:W32,38:BK27,33,23")
    assert {(m.start, m.captured) for m in board.legal_moves()} == {(38, (23, 33))}


def test_4_14_free_choice_among_captures_of_equal_size() -> None:
    board = Board("W:W32,34:BK27,29")
    assert {(m.start, m.captured) for m in board.legal_moves()} == {(32, (27,)), (34, (29,))}


def test_4_15_man_passing_over_the_far_row_during_a_capture_stays_a_man() -> None:
    board = Board("W:W11:B7,8")
    (move,) = board.legal_moves()
    assert move.path == (11, 2, 13)
    board.push(move)
    assert board.piece_at(13) == Piece(WHITE, False)


def test_4_15_man_ending_a_capture_on_the_far_row_is_promoted() -> None:
    board = Board("W:W12:B7")
    board.push_notation("12x1")
    assert board.piece_at(1) == Piece(WHITE, True)


def test_woldouby_two_paths_same_start_end_and_captures_are_one_move() -> None:
    board = Board("B:W27-30,32,34,35,37,38:B12,13,16,18,19,21,23-26")
    legal = board.legal_moves()
    doubles = [m for m in legal if len(board.legal_routes(m)) > 1]
    assert len(doubles) == 1
    move = doubles[0]
    assert (move.start, move.end) == (24, 33) and move.captured == (27, 28, 29, 37, 38)
    assert sorted(board.legal_routes(move)) == [(24, 33, 22, 31, 42, 33), (24, 33, 42, 31, 22, 33)]
    # Both routes are accepted and name the same move.
    assert board.parse_move("24x33x22x31x42x33") == board.parse_move("24x33x42x31x22x33") == move
    assert Move((24, 33, 42, 31, 22, 33), (27, 28, 29, 37, 38)) == Move((24, 33, 22, 31, 42, 33),
                                                                      (38, 37, 29, 28, 27))


def test_7_2_2_side_to_move_without_legal_move_loses() -> None:
    board = Board("W:W46:B41,37")
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is BLACK and outcome.article == "7.2.2"


def test_7_2_3_side_without_pieces_loses() -> None:
    board = Board("W:W32:B27")
    assert board.outcome() is None
    board.push_notation("32x21")
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is WHITE and outcome.article == "7.2.3"
    assert outcome.ply == 1 and outcome.result() == "2-0"
    assert board.is_game_over()
