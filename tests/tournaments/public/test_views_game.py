"""The game page's parts: the SVG diagram, the positions stepped from a sheet, and the performance rating."""

from __future__ import annotations

import pytest

from rules import Board
from tournaments.public.diagram import board_svg, square_xy
from tournaments.sheets.line import line_from_moves, line_from_pdn, position_code


def test_squares_sit_on_the_dark_diagonals_black_at_the_top() -> None:
    # Art. 2.1-2.3: square 1 is the top row's first dark square (second cell), 46 the bottom-left corner.
    assert square_xy(1) == (1, 0) and square_xy(5) == (9, 0)
    assert square_xy(6) == (0, 1) and square_xy(46) == (0, 9) and square_xy(50) == (8, 9)
    assert all((col + row) % 2 == 1 for col, row in map(square_xy, range(1, 51)))
    assert len({square_xy(sq) for sq in range(1, 51)}) == 50
    assert square_xy(1, flipped=True) == (8, 9)


def test_initial_position_code_and_svg() -> None:
    code = position_code(Board())
    assert code == "b" * 20 + "e" * 10 + "w" * 20
    svg = board_svg(code, highlight=[32, 28], label="start")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="p b"') == 20 and svg.count('class="p w"') == 20 and svg.count('class="p e"') == 10
    assert svg.count('class="dark lit"') == 2 and 'aria-label="start"' in svg
    with pytest.raises(ValueError):
        board_svg("w" * 49)


def test_kings_get_their_own_class() -> None:
    board = Board("W:WK3,30:BK47,10")
    code = position_code(board)
    assert code[2] == "W" and code[46] == "B" and code[29] == "w" and code[9] == "b"
    assert 'class="p W" data-sq="3"' in board_svg(code)


def test_line_from_moves_numbers_and_positions() -> None:
    line = line_from_moves(["32-28", "19-23", "28x19", "14x23"])
    assert [(p.number, p.white, p.text) for p in line.plies] == [
        (1, True, "32-28"), (1, False, "19-23"), (2, True, "28x19"), (2, False, "14x23")]
    assert line.plies[2].squares == (28, 19)
    last = line.plies[-1].code
    assert last[32 - 1] == "e" and last[19 - 1] == "e" and last[14 - 1] == "e" and last[23 - 1] == "b"
    assert line.problem is None and line.unplayable == []


def test_an_illegal_move_stops_the_line_and_keeps_the_rest() -> None:
    line = line_from_moves(["32-28", "19-23", "31-27", "23x32"])
    assert len(line.plies) == 2  # 31-27 leaves a capture untaken (art. 4.2): White must take 28x19
    assert line.problem and line.problem.startswith("31-27")
    assert line.unplayable == ["31-27", "23x32"]


def test_pdn_sheet_with_a_setup_and_black_to_move() -> None:
    text = '[FEN "B:W28,33:B19,22"]\n[Result "0-2"]\n1... 22-27 2. 33-29 19-24 0-2\n'
    line = line_from_pdn(text)
    assert line.start == position_code(Board("B:W28,33:B19,22"))
    assert [(p.number, p.white) for p in line.plies] == [(1, False), (2, True), (2, False)]
    assert line.headers["Result"] == "0-2"


def test_an_irregularity_that_stands_is_stepped_over_and_marked() -> None:
    # 2... 12-18 ignores the compulsory capture 23x32 (art. 5.4.6); White plays on, so it stands (5.7).
    text = '[Event "x"]\n1. 32-28 18-23 2. 33-29 12-18 3. 37-32 *\n'
    line = line_from_pdn(text)
    assert line.problem is None and len(line.plies) == 5
    irregular = [p for p in line.plies if p.note]
    assert [p.text for p in irregular] == ["12-18"] and "5.4.6" in irregular[0].note
    assert line.plies[3].squares == (12, 18)
    final = line.plies[-1].code
    assert final[12 - 1] == "e" and final[18 - 1] == "b" and final[32 - 1] == "w" and final[37 - 1] == "e"
    assert [p.number for p in line.plies] == [1, 1, 2, 2, 3]
