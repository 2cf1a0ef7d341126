"""The result slip as arbiters write it (tournaments/rounds/slip.py): read, or refused item by item."""

from __future__ import annotations

import pytest

from tournaments.results import Result
from tournaments.rounds.slip import KEYS, TWICE, UNKNOWN_RESULT, UNREADABLE, parse_slip


def read(text: str) -> list[tuple[int | None, str | None, str]]:
    return [(i.board, i.result.value if i.result else None, i.error) for i in parse_slip(text)]


@pytest.mark.parametrize("text", [
    "1 2-0, 2 1-1, 3 0F-2F",
    "1 2-0\n2 1-1\n3 0F-2F\n",
    "1 2-0; 2 1-1 ;3 0f-2f",
    "1 2-0 2 1-1 3 0F-2F",
    "  1:2 - 0 ,\n 2. 1–1 ;; 3) 0F – 2F  ",
    "board 1 2-0, b2 1-1, table 3 0F-2F",
    "1 2, 2 1, 3 -",
])
def test_the_ways_arbiters_write_a_slip(text: str) -> None:
    assert read(text) == [(1, "2-0", ""), (2, "1-1", ""), (3, "0F-2F", "")]


def test_the_key_codes_and_the_words() -> None:
    assert read("4 +, 5 =, 6 0, 7 bye, 8 excused, 9 not played, 10 exempt, 11 2F-0F") == [
        (4, "2F-0F", ""), (5, "0F-0F", ""), (6, "0-2", ""), (7, "bye", ""), (8, "excused", ""),
        (9, "not played", ""), (10, "bye", ""), (11, "2F-0F", "")]
    assert set(KEYS.values()) == {Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_FORFEIT_WIN,
                                  Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT}


def test_what_cannot_be_read_is_named_and_the_rest_is_read() -> None:
    items = parse_slip("1 2-0, 3 2-O, 4 3-1, 12-0, 5 1-1")
    assert [(i.text, i.board, i.error) for i in items] == [
        ("1 2-0", 1, ""), ("3 2-O", None, UNREADABLE), ("4 3-1", 4, UNKNOWN_RESULT), ("12-0", None, UNREADABLE),
        ("5 1-1", 5, "")]


def test_a_board_given_twice_differently_is_refused_on_both_items() -> None:
    assert read("1 2-0, 1 1-1, 2 0-2, 2 0-2") == [(1, "2-0", TWICE), (1, "1-1", TWICE), (2, "0-2", ""),
                                                  (2, "0-2", "")]


def test_an_empty_slip_is_nothing() -> None:
    assert parse_slip("") == [] and parse_slip(" ,;\n ") == []


@pytest.mark.parametrize("word", ["draw", "Draw", "drawn", "nulle", "remise", "ничья"])
def test_a_draw_in_words(word: str) -> None:
    read = parse_slip(f"4 {word}, 5 2-0")
    assert [(i.board, i.result, i.error) for i in read] == [(4, Result.DRAW, ""), (5, Result.WHITE_WINS, "")]
