"""Art. 6: drawn endings.  Games are played with real moves; `wander` picks quiet king moves that
neither repeat a position nor allow a capture, so that only the rule under test can end the game."""

from __future__ import annotations

import pytest

from rules import WHITE, Board, Move


def _quiet_king_moves(board: Board) -> list[Move]:
    return [m for m in board.legal_moves()
            if not m.is_capture and (p := board.piece_at(m.start)) is not None and p.king]


def _no_capture_after(board: Board, move: Move) -> bool:
    board.push(move)
    try:
        return not any(m.is_capture for m in board.legal_moves())
    finally:
        board.pop()


def _safe(board: Board, move: Move) -> bool:
    """After `move` the opponent cannot capture, and has a reply that leaves us the same comfort."""
    if not _no_capture_after(board, move):
        return False
    board.push(move)
    try:
        for reply in _quiet_king_moves(board):
            if _no_capture_after(board, reply):
                board.push(reply)
                ok = any(_no_capture_after(board, m) for m in _quiet_king_moves(board))
                board.pop()
                if ok:
                    return True
        return False
    finally:
        board.pop()


def wander(board: Board, plies: int) -> None:
    """Play `plies` quiet king moves, preferring positions seen least, never allowing a capture."""
    seen: dict[tuple[int, int, int, bool], int] = {}
    for key, _ in board._history():
        seen[key] = seen.get(key, 0) + 1
    for _ in range(plies):

        def repeats(move: Move) -> int:
            board.push(move)
            count = seen.get(board.key(), 0)
            board.pop()
            return count

        options = sorted(_quiet_king_moves(board), key=repeats)
        move = next((m for m in options if _safe(board, m)), None)
        assert move is not None, f"no safe quiet king move in {board.fen()}"
        board.push(move)
        seen[board.key()] = seen.get(board.key(), 0) + 1


def test_6_1_third_repetition_with_the_same_side_to_move_is_a_draw() -> None:
    board = Board("W:WK50,35:BK1,16")
    shuffle = ["50-44", "1-7", "44-50", "7-1"]
    for text in shuffle * 2:
        assert board.outcome() is None
        board.push_notation(text)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.1" and outcome.winner is None and outcome.ply == 8


def test_6_1_same_placement_with_the_other_side_to_move_does_not_count() -> None:
    board = Board("W:WK50,35:BK1,16")
    start = board.key()
    # White loses a tempo with a three-square cycle on one diagonal: 50-44-39-50.
    for text in ["50-44", "1-7", "44-39", "7-1", "39-50", "1-7", "50-44", "7-1", "44-50"]:
        board.push_notation(text)
    same_placement = board.key()
    assert same_placement[:3] == start[:3] and same_placement[3] != start[3]
    assert board.outcome() is None


def test_6_2_twenty_five_moves_each_of_kings_only_is_a_draw() -> None:
    board = Board("W:WK47,K48,36:BK3,K4,15")
    wander(board, 49)
    assert board.outcome() is None
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.2" and outcome.ply == 50


def test_6_2_a_man_move_restarts_the_count() -> None:
    board = Board("W:WK47,K48,36:BK3,K4,15")
    wander(board, 20)
    board.push_notation("36-31")
    wander(board, 49)
    assert board.outcome() is None
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.2"


@pytest.mark.parametrize("fen", ["W:WK46,K47,K48:BK3", "W:WK46,K47,37:BK3", "W:WK46,36,37:BK3",
                                 "B:WK3:BK46,K47,K48"])
def test_6_3_sixteen_moves_each_in_three_pieces_against_a_king(fen: str) -> None:
    board = Board(fen)
    wander(board, 31)
    assert board.outcome() is None
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.3" and outcome.ply == 32


def test_6_3_does_not_apply_to_three_men_against_a_king() -> None:
    board = Board("W:WK46,K47,K48,K49:BK3")
    wander(board, 40)
    assert board.outcome() is None


@pytest.mark.parametrize("fen", ["W:WK46,K47:BK3", "W:WK46,36:BK3", "W:WK46:BK3"])
def test_6_4_five_moves_each_in_two_kings_king_and_man_or_king_against_a_king(fen: str) -> None:
    board = Board(fen)
    wander(board, 9)
    assert board.outcome() is None
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.4" and outcome.ply == 10


def _play_until_capture(board: Board, after_ply: int, then_playable: bool = True) -> None:
    """Wander, then let the side to move put a king en prise; the other side captures it, which
    brings the game to `after_ply` plies.  With `then_playable`, the capture chosen leaves the game
    playable by `wander`."""
    wander(board, after_ply - 2)

    def offers(move: Move) -> bool:
        board.push(move)
        try:
            return any(m.is_capture for m in board.legal_moves())
        finally:
            board.pop()

    def playable(move: Move) -> bool:
        if not then_playable:
            return True
        board.push(move)
        try:
            return any(_safe(board, m) for m in _quiet_king_moves(board))
        finally:
            board.pop()

    for offer in filter(offers, board.legal_moves()):
        board.push(offer)
        capture = next((m for m in board.legal_moves() if playable(m)), None)
        if capture is not None:
            board.push(capture)
            break
        board.pop()
    assert board.move_stack[-1].is_capture and len(board.move_stack) == after_ply


def test_6_3_to_6_4_transition_the_sixteen_move_limit_keeps_running() -> None:
    """A capture on Black's 13th move starts a 5-move count (ply 26 + 10 = 36), but the 16-move count
    started at ply 0 ends first, at ply 32: that earlier limit applies (art. 6.3)."""
    board = Board("W:WK46,K47,K48:BK3")
    _play_until_capture(board, 26)
    wander(board, 5)
    assert board.outcome() is None and len(board.move_stack) == 31
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.3" and outcome.ply == 32


def test_6_3_to_6_4_transition_an_early_capture_gives_five_moves_from_the_capture() -> None:
    board = Board("W:WK46,K47,K48:BK3")
    _play_until_capture(board, 4)
    wander(board, 9)
    assert board.outcome() is None
    wander(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "6.4" and outcome.ply == 14


def test_a_win_on_the_last_counted_move_is_a_win_not_a_draw() -> None:
    """White takes the lone black king with the move that completes the 5-move count of 6.4."""
    board = Board("B:WK46,K47:BK3")
    _play_until_capture(board, 10, then_playable=False)
    outcome = board.outcome()
    assert outcome is not None and outcome.article == "7.2.3" and outcome.winner is WHITE
    assert outcome.ply == 10


@pytest.mark.parametrize(("fen", "kind"), [
    ("W:WK1,K2,K3:BK50", "6.3"), ("W:WK1,K2,30:BK50", "6.3"), ("W:WK1,29,30:BK50", "6.3"),
    ("B:WK50:BK1,K2,K3", "6.3"), ("B:WK50:BK1,21,22", "6.3"),
    ("W:WK1,K2:BK50", "6.4"), ("W:WK1,30:BK50", "6.4"), ("W:WK1:BK50", "6.4"), ("W:WK50:BK1,K2", "6.4"),
    ("W:W28,29,30:BK50", None),         # three men, no king
    ("W:W29,30:BK50", None),            # two men, no king
    ("W:WK1,K2,K3,K4:BK50", None),      # four pieces
    ("W:WK1,K2,K3:B50", None),          # the lone piece is a man
    ("W:WK1,K2:BK50,K49", None),        # two kings each
    ("W:WK1,K2,K3:BK50,45", None),      # king and man on the weaker side
])
def test_material_of_6_3_and_6_4(fen: str, kind: str | None) -> None:
    from rules import draws

    board = Board(fen)
    names = {draws.SIXTEEN: "6.3", draws.FIVE: "6.4", draws.NONE: None}
    white, black, kings, _ = board.key()
    assert names[draws.category(white, black, kings)] == kind
