"""Sheets as they really arrive: PlayOK's GameType, unreadable move text, a1-j10 notation, --summary.

Each test reads a small file made for it (tests/rules/pdn_files/).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.__main__ import main
from rules.board import Board
from rules.pdn import read_file
from rules.pdn.gametype import read_game_type, square_number
from rules.replay import replay_game

FILES = Path(__file__).parent / "pdn_files"


def test_playok_game_type_replays_with_a_warning_naming_the_tag() -> None:
    game = read_file(FILES / "playok.pdn")[0]
    assert game.refused is None
    report = replay_game(game)
    assert report.legal and report.plies == 9 and report.status == "not_verifiable"
    warnings = [i for i in report.issues if i.severity == "warning"]
    assert len(warnings) == 1 and "GameType '20,W,10,10,N1,0'" in warnings[0].message
    assert not report.has_error


def test_game_types_that_are_another_game_or_board_are_still_refused() -> None:
    assert read_game_type("21,B,8,8,N1,0").refusal is not None  # English draughts
    assert read_game_type("40,W,10,10,N2,0").refusal is not None  # Frisian: same board, other game
    assert read_game_type("20,W,8,8,A0,0").refusal is not None  # 8x8 board
    assert read_game_type("20,W,10,10,N2,0") == read_game_type("20") == read_game_type(" 20 ")
    assert not read_game_type("20,W,10,10,N2,0").warnings
    assert read_game_type("20,B,10,10,N2,0").warnings  # Black to start: read, but said


def test_an_8x8_game_without_game_type_is_unreadable_with_token_and_line(capsys: pytest.CaptureFixture[str]) -> None:
    report = replay_game(read_file(FILES / "eight_by_eight.pdn")[0])
    assert report.status == "unreadable" and not report.legal and report.has_error
    assert report.unreadable == {"text": "c3-d4", "line": 6, "column": 4, "message": report.unreadable["message"]}
    assert "all legal" not in report.text() and "unreadable at line 6, column 4" in report.text()
    main(["replay", "--json", str(FILES / "eight_by_eight.pdn")])
    data = json.loads(capsys.readouterr().out)[0]
    assert data["legal"] is False and data["status"] == "unreadable" and data["unreadable"]["text"] == "c3-d4"


def test_alphanumeric_square_mapping_of_the_pdn_standard() -> None:
    # A0: a1 bottom left seen from White; FMJD numbers run from 1 (b10) to 50 (i1).
    assert [square_number(s) for s in ("a1", "c1", "i1", "b2", "j2", "b10", "j10", "a9")] == [
        46, 47, 50, 41, 45, 1, 5, 6]
    assert square_number("a2") is None and square_number("k1") is None  # light square, off the board
    # Known position: the initial position has White's men on the dark squares of ranks 1-4 and
    # Black's on ranks 7-10.
    board = Board()
    for rank in range(1, 11):
        for file in "abcdefghij":
            number = square_number(f"{file}{rank}")
            if number is None:
                continue
            piece = board.piece_at(number)
            assert (piece is not None and piece.color.name.lower() == "white") == (rank <= 4)
            assert (piece is not None and piece.color.name.lower() == "black") == (rank >= 7)


def test_alphanumeric_sheets_are_read_when_tagged_or_when_only_10x10_fits() -> None:
    twin = replay_game(read_file(FILES / "numeric_twin.pdn")[0])
    tagged = replay_game(read_file(FILES / "alpha_tagged.pdn")[0])
    untagged = replay_game(read_file(FILES / "alpha_untagged.pdn")[0])
    assert tagged.legal and tagged.plies == 5 and not tagged.issues
    assert untagged.legal and untagged.plies == 5 and untagged.final_fen == twin.final_fen
    assert any("without a GameType" in i.message for i in untagged.issues)
    assert [t.text for t in read_file(FILES / "alpha_untagged.pdn")[0].moves] == [
        "32-28", "19-23", "28x19", "14x23", "35-30"]


def test_summary_prints_one_line_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(FILES / name) for name in ("playok.pdn", "eight_by_eight.pdn", "alpha_tagged.pdn")]
    status = main(["replay", "--summary", *paths])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1  # the unreadable game is an error
    assert lines[0] == f"{paths[0]}: 1 games, 9 plies, 1 legal, 0 irregular, 0 unreadable, 0 refused"
    assert lines[1] == f"{paths[1]}: 1 games, 0 plies, 0 legal, 0 irregular, 1 unreadable, 0 refused"
    assert lines[3].startswith("total: 3 games, 14 plies, 2 legal, 0 irregular, 1 unreadable, 0 refused in 3 file(s)")


def test_alphanumeric_sheets_are_written_in_fmjd_numbers() -> None:
    from rules.pdn.writer import write_game

    text = write_game(read_file(FILES / "alpha_tagged.pdn")[0])
    assert '[GameType "20"]' in text and "1. 32-28 19-23 2. 28x19 14x23 3. 37-32" in text
    assert "d4" not in text and "A0" not in text
