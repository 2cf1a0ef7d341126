"""Perft against published counts (rhalbersma/dctl test/walk/international, Aart Bik)."""

from __future__ import annotations

import pytest

from rules import INITIAL_FEN, Board, perft

# Every square written out, as published.
ALL_KINGS = ("W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50"
             ":BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20")

PUBLISHED: dict[str, tuple[str, list[int]]] = {
    "initial": (INITIAL_FEN, [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961]),
    "woldouby": ("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                 [6, 12, 30, 73, 215, 590, 1944, 6269, 22369]),
    "random178": ("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                  [14, 55, 1168, 5432, 87195, 629010]),
    "all_kings": (ALL_KINGS, [17, 79, 352, 1399, 7062, 37589, 217575]),
    "men_ten": ("W:W6,7,8,9,10:B41,42,43,44,45", [9, 81, 795, 7578, 86351, 936311]),
}
#: Counts above this run only with the slow marker (CI: make test-slow).
QUICK_LIMIT = 700_000


def _cases(slow: bool) -> list[tuple[str, str, int, int]]:
    out = []
    for name, (fen, counts) in PUBLISHED.items():
        for depth, count in enumerate(counts, start=1):
            if (count > QUICK_LIMIT) == slow:
                out.append((name, fen, depth, count))
    return out


@pytest.mark.parametrize(("name", "fen", "depth", "expected"), _cases(slow=False),
                         ids=lambda v: str(v) if not isinstance(v, str) or len(v) < 20 else "")
def test_perft_quick(name: str, fen: str, depth: int, expected: int) -> None:
    assert perft(Board(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("name", "fen", "depth", "expected"), _cases(slow=True),
                         ids=lambda v: str(v) if not isinstance(v, str) or len(v) < 20 else "")
def test_perft_deep(name: str, fen: str, depth: int, expected: int) -> None:
    assert perft(Board(fen), depth) == expected


def test_perft_depth_zero_is_one() -> None:
    assert perft(Board(), 0) == 1


def test_perft_by_push_and_pop_agrees_with_bulk_counting() -> None:
    """The public push/pop path and the engine's bulk counting must see the same tree."""

    def walk(board: Board, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves():
            board.push(move)
            total += walk(board, depth - 1)
            board.pop()
        return total

    for fen, counts in (PUBLISHED["woldouby"], PUBLISHED["random178"]):
        board = Board(fen)
        assert walk(board, 3) == counts[2]
        assert board.fen() == Board(fen).fen()
