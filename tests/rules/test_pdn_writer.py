"""Canonical PDN output, and reading what was written gives the same game back."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import Board, Move, RulesError
from rules.pdn import ParsedGame, PdnError, read_file, read_game, read_games
from rules.pdn.writer import canonical_date, game_from_board, write_game, write_games


def played(game: ParsedGame) -> list[Move]:
    board = Board(game.initial_fen)
    moves = []
    for token in game.moves:
        moves.append(board.push_notation(token.text))
    return moves


def test_canonical_form() -> None:
    text = (
        '[Black "B"]\n[Date "13-01-1996"]\n[White "A"]\n[Result "1-0"]\n[GameType "20,W,10,10,N2,0"]\n'
        '[Annotator "me"]\n\n  1. 32-28 19-23  2. 28x19 14x23  3. 37-32  1- 6\n1-0\n'
    )
    assert write_game(read_game(text)) == (
        '[Event "?"]\n[Site "?"]\n[Date "1996.01.13"]\n[Round "?"]\n[White "A"]\n[Black "B"]\n'
        '[Result "2-0"]\n[GameType "20"]\n[Annotator "me"]\n\n'
        "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 1-6 2-0\n"
    )


def test_full_path_only_when_ambiguous_and_fen_only_when_not_initial() -> None:
    fen = "W:WK15,48,49:B23,13,20,37,30,1,2"
    written = write_game(read_game(f'[FEN "{fen}"]\n1. 15x29x18x4 37-42 *'))
    assert '[FEN "W:WK15,48,49:B1,2,13,20,23,30,37"]' in written
    assert "1. 15x29x18x4 37-42 *" in written
    # A needlessly long capture is written short; a start from the initial position has no FEN tag.
    written = write_game(read_game("1. 32-28 19-23 2. 28x23x19 *"))
    assert "2. 28x19 *" in written and "FEN" not in written
    assert "FEN" not in write_game(read_game('[FEN "W:W31-50:B1-20"]\n1. 32-28 *'))


def test_black_to_move_and_annotations() -> None:
    game = read_game('[FEN "B:W28,31-36,38-50:B1-20"]\n1... 20-25! $3 {good} (1... 19-23? 28x19) 2. 28-22 *')
    written = write_game(game)
    assert "1... 20-25! $3 {good} (1... 19-23? 2. 28x19) 2. 28-22 *" in written
    again = read_game(written)
    assert again.moves[0].nags == [3] and again.moves[0].comments == ["good"]
    assert [m.text for m in again.moves[0].variations[0]] == ["19-23", "28x19"]


def test_a_refused_game_is_not_written_as_international_draughts() -> None:
    with pytest.raises(PdnError, match="English draughts"):
        write_game(read_game('[GameType "21"]\n1. 11-15 23-19 *'))


def test_game_from_board() -> None:
    board = Board()
    for text in ("32-28", "19-23", "28x19", "14x23"):
        board.push_notation(text)
    game = game_from_board(board, {"White": "A", "Black": "B"}, result="1-1")
    written = write_game(game)
    assert written.endswith("\n\n1. 32-28 19-23 2. 28x19 14x23 1-1\n")
    assert played(read_game(written)) == board.move_stack


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [("13-01-1996", "1996.01.13"), ("1970.4.2", "1970.04.02"), ("2003.03.??", "2003.03.??"),
     ("1995.11.1", "1995.11.01"), ("1996", "1996.??.??"), ("somewhen", "somewhen")],
)
def test_dates(raw: str, canonical: str) -> None:
    assert canonical_date(raw) == canonical


def test_round_trip_of_the_shared_corpus(corpus_dir: Path) -> None:
    for path in sorted(corpus_dir.glob("**/*.pdn")):
        games = read_file(path)
        written = write_games(games)
        again = read_games(written, source=path.name)
        assert len(again) == len(games), path.name
        for before, after in zip(games, again, strict=True):
            assert after.errors == [], (path.name, after.index, after.errors)
            assert write_game(after) == write_game(before)  # canonical output is a fixed point
            if replayable(before):
                assert played(after) == played(before)  # the same moves, however they were written
            else:
                assert [m.text for m in after.moves] == [m.text for m in before.moves]
            assert after.declared_result == (before.declared_result or "*")
            for name, value in before.headers.items():
                if name not in ("Date", "Result", "GameType", "FEN"):
                    assert after.headers[name] == value


def replayable(game: ParsedGame) -> bool:
    try:
        played(game)
    except RulesError:
        return False
    return True
