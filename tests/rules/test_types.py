"""The value objects of the flat API."""

from __future__ import annotations

import pytest

import rules
from rules import BLACK, WHITE, Board, Color, InvalidMoveError, Move, Outcome, Piece, RulesError


def test_flat_api_exports() -> None:
    for name in ("Board", "Move", "Color", "WHITE", "BLACK", "Piece", "Outcome", "RulesError", "InvalidFenError",
                 "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError", "INITIAL_FEN", "perft"):
        assert hasattr(rules, name), name
    for error in (rules.InvalidFenError, rules.InvalidMoveError, rules.IllegalMoveError, rules.AmbiguousMoveError):
        assert issubclass(error, RulesError) and issubclass(error, ValueError)


def test_color_opponent() -> None:
    assert WHITE.opponent is BLACK and BLACK.opponent is WHITE
    assert ~WHITE is BLACK
    assert Color("W") is WHITE


def test_move_equality_ignores_the_route_and_the_order_of_captures() -> None:
    a = Move((24, 33, 22, 31, 42, 33), (38, 37, 29, 28, 27))
    b = Move((24, 33, 42, 31, 22, 33), (27, 28, 29, 37, 38))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.captured == (27, 28, 29, 37, 38)
    assert (a.start, a.end, a.is_capture) == (24, 33, True)
    assert Move((32, 28)) != Move((32, 27))
    assert not Move.quiet(32, 28).is_capture
    assert Move.from_path([28, 19], [23]) == Move((28, 19), (23,))


def test_move_is_frozen() -> None:
    move = Move((32, 28))
    with pytest.raises(AttributeError):
        move.path = (1, 2)  # type: ignore[misc]


@pytest.mark.parametrize(("path", "captured"), [((32,), ()), ((32, 51), ()), ((0, 5), ()), ((32, 21), (60,))])
def test_move_with_bad_squares_is_invalid(path: tuple[int, ...], captured: tuple[int, ...]) -> None:
    with pytest.raises(InvalidMoveError):
        Move(path, captured)


def test_piece_symbols() -> None:
    assert [Piece(WHITE).symbol(), Piece(WHITE, True).symbol(), Piece(BLACK).symbol(), Piece(BLACK, True).symbol()] == [
        "w", "W", "b", "B"]


def test_outcome_result() -> None:
    assert Outcome(WHITE, "7.2.3", "x", 3).result() == "2-0"
    assert Outcome(BLACK, "7.2.2", "x", 3).result() == "0-2"
    assert Outcome(None, "6.1", "x", 3).result() == "1-1" and Outcome(None, "6.1", "x", 3).is_draw


def test_set_piece_and_set_turn_change_nothing_else() -> None:
    board = Board()
    board.push_notation("32-28")
    board.set_piece(28, None)
    board.set_piece(27, Piece(WHITE, True))
    board.set_turn(WHITE)  # White plays twice (art. 5.4.1), kept by the opponent
    assert [m.path for m in board.move_stack] == [(32, 28)]
    assert board.piece_at(27) == Piece(WHITE, True) and board.turn is WHITE
    board.push_notation("27-21")
    board.pop()
    assert board.piece_at(27) == Piece(WHITE, True) and board.turn is WHITE
    board.pop()
    assert board.fen() == "W:W31-50:B1-20"


def test_copy_is_independent() -> None:
    board = Board()
    other = board.copy()
    other.push_notation("32-28")
    assert board.move_stack == [] and board.fen() == "W:W31-50:B1-20"
    assert other.move_stack == [Move((32, 28))]


def test_bad_square_for_piece_at_raises() -> None:
    with pytest.raises(RulesError, match="51"):
        Board().piece_at(51)


def test_package_docstring_example_runs() -> None:
    import doctest

    assert doctest.testmod(rules).failed == 0


def test_board_is_not_hashable_but_its_key_is() -> None:
    board = Board()
    with pytest.raises(TypeError):
        hash(board)
    assert {board.key(): 1}[Board().key()] == 1
