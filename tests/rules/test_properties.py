"""Property tests over random playouts (hypothesis): pop restores exactly, FEN and notation round-trip."""

from __future__ import annotations

from hypothesis import given, settings

from rules import INITIAL_FEN, Board
from tests.rules.playouts import play
from tests.rules.playouts import playouts as random_playouts

STARTS = [
    INITIAL_FEN,
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "W:W6,7,8,9,10:B41,42,43,44,45",
    "W:WK47:B42,29,19,14,27,8,3",
]

playouts = random_playouts(STARTS)


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_pop_restores_the_exact_position(playout: tuple[str, list[int]]) -> None:
    start, choices = playout
    board = Board(start)
    keys = [board.key()]
    fens = [board.fen()]
    for choice in choices:
        moves = board.legal_moves()
        if not moves:
            break
        board.push(moves[choice % len(moves)])
        keys.append(board.key())
        fens.append(board.fen())
    while board.move_stack:
        keys.pop()
        fens.pop()
        board.pop()
        assert board.key() == keys[-1]
        assert board.fen() == fens[-1]
    assert board.key() == Board(start).key()


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_fen_round_trips(playout: tuple[str, list[int]]) -> None:
    board = play(*playout)
    again = Board(board.fen())
    assert again.key() == board.key()
    assert again.fen() == board.fen()
    assert again.legal_moves() == board.legal_moves()


@settings(max_examples=60, deadline=None)
@given(playouts)
def test_notation_round_trips(playout: tuple[str, list[int]]) -> None:
    board = play(*playout)
    for move in board.legal_moves():
        text = board.notation(move)
        parsed = board.parse_move(text)
        assert parsed == move
        assert board.notation(parsed) == text
        # The long form of every route is accepted too.
        for route in board.legal_routes(move):
            assert board.parse_move("x".join(map(str, route)) if move.captured else text) == move


@settings(max_examples=40, deadline=None)
@given(playouts)
def test_push_notation_replays_a_game_written_in_notation(playout: tuple[str, list[int]]) -> None:
    board = play(*playout)
    record: list[str] = []
    replay = Board(playout[0])
    for move in board.move_stack:
        record.append(replay.notation(move))
        replay.push(move)
    fresh = Board(playout[0])
    for text in record:
        fresh.push_notation(text)
    assert fresh.key() == board.key()
    assert fresh.outcome() == board.outcome()
