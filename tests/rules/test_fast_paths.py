"""The replay fast paths agree with the full ones.

Board.parse_move reads plain `a-b` / `axb` / `axcxb` text against the raw generator and builds only the
chosen move; Board._parse_by_table (rules.notation) reads against the whole legal move table.  Board.outcome keeps the
draw counts on push and pop instead of rescanning the game.  Both must give exactly what the full
paths give: the same Move (route included, which Move equality ignores), the same error type and
message, the same Outcome.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidFenError,
    Move,
    Outcome,
    RulesError,
    draws,
)
from rules.board import _raw
from rules.geometry import BIT_OF
from rules.pdn import read_games
from rules.replay import replay_game
from tests.rules.playouts import play
from tests.rules.playouts import playouts as random_playouts

STARTS = [
    "W:W31-50:B1-20",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "W:W6,7,8,9,10:B41,42,43,44,45",
    "W:WK47:B42,29,19,14,27,8,3",
    "W:WK47:B42,29,19,14,27",  # the PDN 3.0 example: four captures share start and end
    "W:W28,K46:BK5,15,K30",
    "B:WK2,K49,33:BK23,K44",
]

playouts = random_playouts(STARTS)


def exact(move: Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What a Move carries, route included."""
    return move.path, move.captured


def full_path(board: Board, text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | tuple[type, str]:
    try:
        return exact(board._parse_by_table(text))
    except RulesError as err:
        return type(err), str(err)


def fast_path(board: Board, text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | tuple[type, str]:
    try:
        return exact(board.parse_move(text))
    except RulesError as err:
        return type(err), str(err)


@settings(max_examples=80, deadline=None)
@given(playouts)
def test_every_legal_move_is_read_as_the_full_path_reads_it(playout: tuple[str, list[int]]) -> None:
    board = play(*playout)
    table = board.legal_moves()
    for move in table:
        unique_ends = sum(1 for m in table if m.start == move.start and m.end == move.end) == 1
        texts = [move.short(), board.notation(move)]
        texts += ["x".join(map(str, route)) for route in board.legal_routes(move)] if move.captured else []
        for text in texts:
            expected = full_path(board, text)
            assert fast_path(board, text) == expected, text
            if unique_ends or text != move.short():
                # Only an ambiguous short capture needs the table; the fast path answers the rest itself.
                fast = board._parse_fast(text)
                assert fast is not None and exact(fast[0]) == expected, text
                # push applies this raw form without looking the move up again.
                assert fast[1] == _raw(fast[0])


# Random plain texts: mostly illegal, sometimes legal, sometimes ambiguous or out of range.
squares = st.integers(min_value=0, max_value=52)
texts = st.builds(lambda sqs, seps: "".join(f"{sep}{sq}" for sep, sq in zip(seps, sqs, strict=False))[1:],
                  st.lists(squares, min_size=2, max_size=5), st.lists(st.sampled_from("-xX:"), min_size=5, max_size=5))


@settings(max_examples=120, deadline=None)
@given(playouts, st.lists(texts, min_size=1, max_size=8))
def test_any_plain_text_gives_the_same_move_or_the_same_error(playout: tuple[str, list[int]],
                                                              inputs: list[str]) -> None:
    board = play(*playout)
    for text in inputs:
        assert fast_path(board, text) == full_path(board, text), text


def test_an_ambiguous_short_capture_still_raises_with_the_long_forms() -> None:
    board = Board("W:WK47:B42,29,19,14,27")
    assert board._parse_fast("47x36") is None
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("47x36")
    assert str(info.value) == full_path(board, "47x36")[1]


def test_an_illegal_move_still_says_why() -> None:
    board = Board()
    for text in ("28-23", "19-23", "32-26", "46-41"):
        assert board._parse_fast(text) is None
        with pytest.raises(IllegalMoveError) as info:
            board.parse_move(text)
        assert (IllegalMoveError, str(info.value)) == full_path(board, text)


def test_a_parsed_move_is_checked_again_once_the_position_changed() -> None:
    # push trusts the move parse_move just found, but only in the position it was found in.
    board = Board()
    move = board.parse_move("32-28")
    board.set_piece(32, None)
    with pytest.raises(IllegalMoveError):
        board.push(move)
    board = Board()
    move = board.parse_move("32-28")
    board.push(move)
    board.pop()
    board.set_turn(board.turn.opponent)
    with pytest.raises(IllegalMoveError):
        board.push(move)


def test_push_of_an_equal_move_with_another_route_still_takes_the_known_route() -> None:
    board = Board("W:WK47:B42,29,19,14,27")
    board.parse_move("47x38x20x9x36")
    board.push(Move((47, 36), (14, 27, 29, 42)))
    assert board.move_stack[-1].path == (47, 38, 20, 9, 36)


# -- draw bookkeeping ------------------------------------------------------------------------------


def rescanned_outcome(board: Board) -> Outcome | None:
    """Board.outcome as it was before the counts were kept incrementally: a scan of the whole game."""
    ply = len(board.move_stack)
    turn = board.turn
    if not board.pieces(turn):
        return Outcome(turn.opponent, "7.2.3", f"{turn.name.capitalize()} has no pieces left.", ply)
    if not board.pieces(turn.opponent):
        return Outcome(turn, "7.2.3", f"{turn.opponent.name.capitalize()} has no pieces left.", ply)
    if not board.legal_moves():
        return Outcome(turn.opponent, "7.2.2", f"{turn.name.capitalize()} is to move and has no legal move.", ply)
    history = board._history()
    if sum(1 for key, _ in history if key == history[-1][0]) >= 3:
        return Outcome(None, "6.1", "The same position occurred for the third time with the same side "
                       "to move.", ply)
    kings_only = 0
    for key, move in reversed(history[:-1]):
        assert move is not None
        if move.captured or not key[2] & BIT_OF[move.start]:
            break
        kings_only += 1
    if kings_only >= draws.KINGS_ONLY_PLIES:
        return Outcome(None, "6.2", "Only kings moved, without capture, for 25 moves by each player.", ply)
    start16: int | None = None
    start5: int | None = None
    for i, (key, _) in enumerate(history):
        kind = draws.category(key[0], key[1], key[2])
        if kind == draws.SIXTEEN:
            start5 = None
            start16 = i if start16 is None else start16
        elif kind == draws.FIVE:
            start5 = i if start5 is None else start5
        else:
            start16 = start5 = None
    limits = []
    if start16 is not None:
        limits.append((start16 + 32, "6.3", "Each player has played 16 moves in an ending of art. 6.3."))
    if start5 is not None:
        limits.append((start5 + 10, "6.4", "Each player has played 5 moves in an ending of art. 6.4."))
    if limits and ply >= min(limits)[0]:
        limit, article, reason = min(limits)
        return Outcome(None, article, reason, ply)
    return None


ENDINGS = [
    "W:WK46,K47,K48:BK5",  # 6.3 from the start
    "W:WK46,K47:BK5",  # 6.4
    "W:WK46,K47,K48,K49:BK5,K4",  # kings only: 6.2 and repetitions
    "W:W28,K46:BK5,15,K30",  # captures lead into 6.3 / 6.4
    "B:WK2,K49,33:BK23,K44",
    "W:WK47:B42,29,19,14,27,8,3",
]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(ENDINGS),
       st.lists(st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=5)),
                max_size=120))
def test_kept_counts_give_the_outcome_a_rescan_gives(start: str, steps: list[tuple[int, int]]) -> None:
    board = Board(start)
    for choice, action in steps:
        if action == 0 and board.move_stack:
            board.pop()
        else:
            moves = board.legal_moves()
            if not moves:
                break
            board.push(moves[choice % len(moves)])
        if action <= 3:
            # Asked now and then, so that the repetition counts are first built at any point of a game.
            assert board.copy().outcome() == rescanned_outcome(board)
            assert board.outcome() == rescanned_outcome(board), board.fen()


def test_positions_set_by_hand_are_counted_from_where_they_are_pushed() -> None:
    board = Board("W:WK46,K47:BK5,K4")
    board.push(board.legal_moves()[0])
    board.set_piece(4, None)  # now a 6.4 ending, reached by hand, not by a move
    board.set_turn(board.turn.opponent)
    assert board.outcome() == rescanned_outcome(board)
    while board.outcome() is None:
        board.push(board.legal_moves()[-1])
        assert board.outcome() == rescanned_outcome(board)
    assert board.outcome() == rescanned_outcome(board) is not None


# -- positions read once per FEN string ------------------------------------------------------------


def test_boards_from_the_same_fen_are_independent() -> None:
    first = Board("W:W32,K46:B19")
    first.push_notation("32-28")
    first.set_piece(46, None)
    again = Board("W:W32,K46:B19")
    assert again.fen() == "W:W32,K46:B19" and again.move_stack == []


def test_an_unreadable_fen_raises_every_time() -> None:
    for _ in range(2):
        with pytest.raises(InvalidFenError, match="outside 1-50"):
            Board("W:W51:B1")


# -- the replay stays on the fast paths (counted, not timed) --------------------------------------


def test_replaying_the_corpus_builds_almost_no_move_table(corpus_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    rescans: list[int] = []
    full_table = Board._legal_table

    def counted(board: Board) -> dict[Move, list[tuple[int, ...]]]:
        built.append(len(board.move_stack))
        return full_table(board)

    monkeypatch.setattr(Board, "_legal_table", counted)
    monkeypatch.setattr(Board, "_history", lambda board: rescans.append(1))
    plies = 0
    for path in sorted(corpus_dir.glob("*.pdn")):
        for game in read_games(path.read_bytes(), source=path.name):
            plies += replay_game(game).plies
    assert plies > 5000
    # Only the odd move that is not plain (a capture written with '-', an irregularity) needs the table.
    assert len(built) <= plies // 100
    assert rescans == []
