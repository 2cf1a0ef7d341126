"""rules.numbers, the one reading of a whole number from outside, and the rules package's doors that read
numbers: FEN squares, move texts, PDN tags and moves, and `python -m rules moves/replay`. Unicode digits
("²", "①", Arabic-Indic), and numbers past Python's 4,300-digit limit, are refused with the package's own
error, never a ValueError traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Board, InvalidFenError, InvalidMoveError
from rules.__main__ import main
from rules.notation import read_squares
from rules.numbers import (
    EMPTY,
    INT_MAX,
    NOT_DIGITS,
    TOO_LARGE,
    TOO_LONG,
    TOO_SMALL,
    NumberError,
    number_or_none,
    parse_number,
)
from rules.pdn import read_games
from rules.replay import replay_game

# What `str.isdigit()` or `re`'s `\d` let through and `int()` then refuses or misreads.
BAD = {"superscript": "²", "circled": "①", "arabic": "١٢", "fullwidth": "１２", "long": "9" * 5000,
       "huge": "9" * 40}


@pytest.mark.parametrize(("text", "code"), [
    ("", EMPTY), (None, EMPTY), ("²", NOT_DIGITS), ("①", NOT_DIGITS), ("١٢", NOT_DIGITS), ("１２", NOT_DIGITS),
    (" 12", NOT_DIGITS), ("12 ", NOT_DIGITS), ("+1", NOT_DIGITS), ("-1", NOT_DIGITS), ("1_000", NOT_DIGITS),
    ("0x10", NOT_DIGITS), ("9" * 5000, TOO_LONG), ("9" * 33, TOO_LONG), ("9" * 20, TOO_LARGE),
    (str(INT_MAX + 1), TOO_LARGE),
])
def test_what_is_not_a_number_is_named(text: str | None, code: str) -> None:
    with pytest.raises(NumberError) as caught:
        parse_number(text)
    assert caught.value.code == code and str(caught.value).strip()
    assert isinstance(caught.value, ValueError)  # callers that caught int()'s ValueError still catch it
    assert number_or_none(text) is None


def test_ascii_numbers_in_range_are_read() -> None:
    assert parse_number("0") == 0 and parse_number("007") == 7 and parse_number(str(INT_MAX)) == INT_MAX
    assert parse_number("-3", low=-5, signed=True) == -3
    with pytest.raises(NumberError) as caught:
        parse_number("-", signed=True)
    assert caught.value.code == NOT_DIGITS
    with pytest.raises(NumberError) as caught:
        parse_number("4", low=5, high=9)
    assert caught.value.code == TOO_SMALL and "5-9" in str(caught.value)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.integers().map(str), st.text(st.characters(categories=["Nd", "No"]))))
def test_parse_number_reads_only_ascii_digits(text: str) -> None:
    try:
        value = parse_number(text, signed=True, low=-(10**12), high=10**12)
    except NumberError as exc:
        assert exc.code in (EMPTY, NOT_DIGITS, TOO_LONG, TOO_SMALL, TOO_LARGE)
        return
    assert set(text.lstrip("-")) <= set("0123456789") and value == int(text)


# --- FEN and moves ---------------------------------------------------------------------------------

@pytest.mark.parametrize("square", BAD.values(), ids=BAD.keys())
def test_a_fen_square_that_is_no_ascii_number_is_an_invalid_fen(square: str) -> None:
    """Before: '²', '①' and 5,000 digits raised ValueError from int(); '١٢' was read as square 12."""
    with pytest.raises(InvalidFenError):
        Board(f"W:W{square}:B1")


@pytest.mark.parametrize("square", BAD.values(), ids=BAD.keys())
def test_a_move_square_that_is_no_ascii_number_is_an_invalid_move(square: str) -> None:
    """Before: 5,000 digits raised ValueError; '١٢-١٧' was read as 12-17."""
    with pytest.raises(InvalidMoveError):
        read_squares(f"{square}-17")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(list(BAD.values())), st.integers(-5, 60).map(str),
                          st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=3)),
                min_size=1, max_size=4))
def test_fen_and_moves_refuse_every_number_with_their_own_error(parts: list[str]) -> None:
    try:
        Board("W:W" + ",".join(parts) + ":B1")
    except InvalidFenError as exc:
        assert str(exc).strip()
    try:
        read_squares("-".join(parts + ["28"]))
    except InvalidMoveError as exc:
        assert str(exc).strip()


# --- PDN -------------------------------------------------------------------------------------------

def _sheet(fen: str = "", moves: str = "1. 32-28 19-23 2-0", round_: str = "1") -> str:
    tags = f'[Round "{round_}"]\n[White "A"]\n[Black "B"]\n[Result "2-0"]\n'
    if fen:
        tags += f'[FEN "{fen}"]\n'
    return tags + "\n" + moves + "\n"


@pytest.mark.parametrize("value", BAD.values(), ids=BAD.keys())
def test_a_sheet_with_such_a_number_is_replayed_to_a_report(value: str) -> None:
    """In the FEN tag, a move, a move number or a NAG: a report names the problem, nothing raises."""
    (refused,) = read_games(_sheet(fen=f"W:W{value},31:B1"))
    assert replay_game(refused).has_error  # before: ValueError out of replay_game for '²', '①', 5,000 digits
    for text in (_sheet(moves=f"1. {value}-28 19-23 2-0"), _sheet(moves=f"{value}. 32-28 19-23 $" + value + " 2-0"),
                 _sheet(round_=value)):
        for game in read_games(text):
            assert replay_game(game).verdict


def test_unicode_digits_are_no_move_on_a_sheet() -> None:
    """Before: '٣٢-٢٨' was read as the move 32-28."""
    game = read_games(_sheet(moves="1. ٣٢-٢٨ 19-23 2-0"))[0]
    assert "٣٢-٢٨" not in [m.text for m in game.moves]


# --- The command line ------------------------------------------------------------------------------

@pytest.mark.parametrize("square", BAD.values(), ids=BAD.keys())
def test_moves_command_refuses_the_fen_in_a_sentence(square: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: a ValueError traceback out of `python -m rules moves`."""
    assert main(["moves", f"W:W{square}:B1"]) != 0
    assert "is not a square number" in capsys.readouterr().err


@pytest.mark.parametrize("square", BAD.values(), ids=BAD.keys())
def test_replay_command_reports_a_sheet_with_such_a_fen(square: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Before: a ValueError traceback out of `python -m rules replay`."""
    path = tmp_path / "g.pdn"
    path.write_text(_sheet(fen=f"W:W{square},31:B1"), encoding="utf-8")
    assert main(["replay", str(path)]) in (0, 1)
    assert main(["replay", "--json", str(path)]) in (0, 1)
    assert main(["replay", "--summary", str(path)]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(st.sampled_from(list(BAD.values())), st.integers(-5, 10**30).map(str),
                       st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=4)),
       where=st.sampled_from(["fen", "move", "number", "round"]))
def test_the_rules_command_line_takes_any_number(value: str, where: str, tmp_path_factory: pytest.TempPathFactory,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    text = {"fen": _sheet(fen=f"W:W{value},31:B1"), "move": _sheet(moves=f"1. {value}-28 2-0"),
            "number": _sheet(moves=f"{value}. 32-28 2-0"), "round": _sheet(round_=value)}[where]
    path = tmp_path_factory.mktemp("pdn") / "g.pdn"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", "--json", str(path)]) in (0, 1)
    assert main(["moves", f"W:W{value}:B1"]) in (0, 1)
    capsys.readouterr()
