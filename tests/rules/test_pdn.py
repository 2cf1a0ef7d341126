"""The PDN reader: syntax of the PDN 3.0 standard and what real files contain."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.pdn import DecodeError, PdnError, decode_pdn, normalize_result, read_file, read_game, read_games


def texts(game_moves: list) -> list[str]:  # type: ignore[type-arg]
    return [m.text for m in game_moves]


def test_tags_moves_and_result_after_moves() -> None:
    game = read_game('[Event "Test"]\n[White "A"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n')
    assert game.headers == {"Event": "Test", "White": "A", "Result": "2-0"}
    assert texts(game.moves) == ["32-28", "19-23", "28x19", "14x23"]
    assert [m.number for m in game.moves] == [1, None, 2, None]
    assert game.result_token == "2-0" and game.declared_result == "2-0"
    assert game.errors == []


def test_positions_are_file_line_and_column() -> None:
    game = read_game('[Event "x"]\n\n1. 32-28  19-23\n2.\t28x19 *')
    assert [(m.line, m.column) for m in game.moves] == [(3, 4), (3, 11), (4, 4)]
    assert (game.result_line, game.result_column) == (4, 10)


def test_several_games_are_split_by_tags_even_without_result_token() -> None:
    text = '[Event "a"]\n1. 32-28 19-23\n\n[Event "b"]\n1. 33-29 17-21 1-1\n[Event "c"]\n*\n'
    games = read_games(text, source="three.pdn")
    assert [g.headers["Event"] for g in games] == ["a", "b", "c"]
    assert [g.index for g in games] == [1, 2, 3]
    assert [g.line for g in games] == [1, 4, 6]
    assert games[0].result_token is None and games[1].result_token == "1-1"
    assert all(g.source == "three.pdn" for g in games)


@pytest.mark.parametrize(
    ("written", "normal"),
    [("2-0", "2-0"), ("0-2", "0-2"), ("1-1", "1-1"), ("0-0", "0-0"), ("*", "*"),
     ("1-0", "2-0"), ("0-1", "0-2"), ("1/2-1/2", "1-1"), ("\u00bd-\u00bd", "1-1")],
)
def test_every_result_spelling(written: str, normal: str) -> None:
    game = read_game(f"1. 32-28 {written}")
    assert game.result_token == normal
    assert normalize_result(written) == normal


def test_result_only_in_tag_or_only_after_moves() -> None:
    assert read_game('[Result "1/2-1/2"]\n1. 32-28 19-23').declared_result == "1-1"
    assert read_game("1. 32-28 19-23 0-1").declared_result == "0-2"
    assert read_game('[Result "*"]\n1. 32-28 19-23 2-0').declared_result == "2-0"


def test_a_move_like_1_10_is_not_read_as_result_1_1() -> None:
    game = read_game('[FEN "W:W1:B10"]\n1-10 *')  # a made-up position: only the tokenizer matters
    assert texts(game.moves) == ["1-10"]


def test_padded_moves_colon_captures_and_full_paths() -> None:
    game = read_game("17. 43-39  1- 6  52. 46-41 47x 9  53.  4x 1 12:23 47x38x24x13x36")
    assert texts(game.moves) == ["43-39", "1-6", "46-41", "47x9", "4x1", "12x23", "47x38x24x13x36"]
    assert game.moves[1].raw == "1- 6"
    assert game.errors == []


def test_whitespace_before_a_token_is_not_part_of_it() -> None:
    # The reader takes the whitespace in front of a token in the same match; none of it may leak into
    # what is kept, nor shift a position.  Tabs, CRLF and a no-break space included.
    text = ("[Event \"x\"]\r\n\r\n1.\t32-28 \t$1\u00a0 {note}\r\n  ! 19-23  ?? \n  /FEN \"W:W28:B19\"/ "
            "28x19\t\u00a0@ \t 1-1 \t\r\n  ")
    game = read_game(text)
    first, second, third = game.moves
    assert (first.raw, first.nags, first.comments, first.strength) == ("32-28", [1], ["note"], "!")
    assert (first.line, first.column) == (3, 4)
    assert (second.raw, second.strength, (second.line, second.column)) == ("19-23", "??", (4, 5))
    assert [(s.fen, s.line, s.column) for s in game.setups] == [("W:W28:B19", 5, 3)]
    assert (third.raw, (third.line, third.column)) == ("28x19", (5, 21))
    assert [(e.line, e.column, e.message) for e in game.errors] == [(5, 28, "unreadable text '@'")]
    assert (game.result_raw, game.result_line, game.result_column) == ("1-1", 5, 32)


def test_black_move_numbers_and_ellipsis() -> None:
    game = read_game("23... 20-25 24. 33-28 1. ... 7-12")
    assert [(m.number, m.black_number) for m in game.moves] == [(23, True), (24, False), (1, True)]


def test_comments_line_comments_nags_strengths_and_clocks() -> None:
    text = (
        "% Board game: International Draughts 10x10\n"
        "{ before } 1. 32-28! $1 {[%clock w0:00:10 B0:00:03]} 19-23?! "
        "2. 28x19 (?) 14x23 $14 {Optional [%clk 1:05:23] trailing}\n"
    )
    game = read_game(text)
    assert game.comments == [" before "]
    first, second, third, fourth = game.moves
    assert (first.strength, first.nags, first.clocks) == ("!", [1], ["[%clock w0:00:10 B0:00:03]"])
    assert second.strength == "?!"
    assert third.strength == "(?)" and third.variations == []  # a strength, not an empty variation
    assert fourth.nags == [14] and fourth.clocks == ["[%clk 1:05:23]"]


def test_parenthesised_strength_directly_after_move() -> None:
    game = read_game("1.32-28!? 19-23(!?!!!) 2.28x19 *")
    assert [m.strength for m in game.moves] == ["!?", "(!?!!!)", ""]
    assert game.errors == []


def test_variations_are_kept_apart_and_nested() -> None:
    game = read_game("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    assert texts(game.moves) == ["32-28", "19-23", "28x19", "14x23"]
    (variation,) = game.moves[1].variations
    assert texts(variation) == ["18-23", "38-32", "12-18"]
    (inner,) = variation[1].variations
    assert texts(inner) == ["37-32", "23-29"]
    assert inner[1].comments == [" Black wins "]


def test_setups_first_one_is_the_initial_position_later_ones_are_kept_with_their_ply() -> None:
    game = read_game('/FEN "W:W31-50:B1-20"/\n/FEN "B:W28,31-36,38-50:B1-20"/\n01... 20-25 *')
    assert game.initial_fen == "W:W31-50:B1-20" and game.fen_origin == "setup"
    (setup,) = game.setups
    assert (setup.fen, setup.before_ply, setup.line) == ("B:W28,31-36,38-50:B1-20", 0, 2)
    assert texts(game.moves) == ["20-25"] and game.moves[0].number == 1


def test_fen_tag_is_the_initial_position() -> None:
    game = read_game('[FEN "W:W31,29,K15:B14,13,12,9"]\n*')
    assert game.initial_fen == "W:W31,29,K15:B14,13,12,9" and game.fen_origin == "tag"


def test_escaped_quote_in_tag() -> None:
    game = read_game('[White "This is a string with an escaped character \\""] 32-28')
    assert game.headers["White"] == 'This is a string with an escaped character "'


def test_nested_comment_is_a_clear_error_with_position() -> None:
    game = read_game("1. 33-29 19-23 2. 35-30 { nested { comment } } \r\n")
    (error,) = game.errors
    assert (error.line, error.column) == (1, 34)
    assert "nested comment" in error.message and "column 25" in error.message
    assert texts(game.moves) == ["33-29", "19-23", "35-30"]


def test_broken_game_does_not_lose_the_others() -> None:
    text = (
        '[Event "one"]\n1. 32-28 19-23 2-0\n\n'
        '[Event "two"]\n1. 32-28 { never closed 19-23\n\n'
        '[Event "three"]\n1. 33-29 17-21 ??? @@ 0-2\n\n'
        '[Event "four" \n1. 31-27 *\n'
        '[Event "five"]\n1. 34-30 ) 20-25 *\n'
    )
    games = read_games(text)
    assert [g.headers.get("Event") for g in games] == ["one", "two", "three", None, "five"]
    assert games[0].errors == []
    assert games[1].errors[0].line == 5 and "never closed" in games[1].errors[0].message
    assert any("@@" in e.message and e.line == 8 for e in games[2].errors)
    assert "malformed tag" in games[3].errors[0].message and games[3].errors[0].line == 10
    assert texts(games[3].moves) == ["31-27"]
    assert "')'" in games[4].errors[0].message and texts(games[4].moves) == ["34-30", "20-25"]


def test_other_game_type_is_refused_with_a_clear_message() -> None:
    game = read_game('[GameType "21"]\n1. 11-15 23-19 *')
    assert game.refused is not None and "English draughts" in game.refused
    assert not game.ok and "not international draughts" in game.errors[0].message
    assert read_game('[GameType "20,W,10,10,N2,0"]\n*').refused is None
    assert read_game('[GameType "20"]\n*').refused is None
    assert read_game('[GameType "40,W,10,10,N2,0"]\n*').refused is not None  # Frisian: same board
    assert read_game('[GameType "20,W,8,8,A0,0"]\n*').refused is not None


def test_decoding_policy() -> None:
    assert decode_pdn("\ufeff[Event \"x\"]") == ('[Event "x"]', "utf-8-sig")
    assert decode_pdn(b"\xef\xbb\xbf[White \"G\xc3\xa9rard\"]") == ('[White "G\u00e9rard"]', "utf-8-sig")
    assert decode_pdn('[White "Gérard"]'.encode()) == ('[White "G\u00e9rard"]', "utf-8")
    assert decode_pdn(b'[White "G\xe9rard \x80"]') == ('[White "G\u00e9rard \u20ac"]', "windows-1252")
    game = read_game(b'[White "G\xe9rard"]\r\n1. 32-28 *')
    assert game.encoding == "windows-1252" and game.headers["White"] == "G\u00e9rard"


def test_crlf_and_bom_do_not_disturb_positions() -> None:
    game = read_game(b"\xef\xbb\xbf[Event \"x\"]\r\n1. 32-28 19-23\r\n")
    assert [(m.line, m.column) for m in game.moves] == [(2, 4), (2, 10)]


def test_non_text_input_raises_only_pdn_error() -> None:
    with pytest.raises(PdnError):
        read_games(12345)  # type: ignore[arg-type]
    with pytest.raises(PdnError):
        read_game("   \n% nothing here\n")
    with pytest.raises(PdnError):
        read_file("/nonexistent/file.pdn")


def test_duplicate_tag_is_a_warning() -> None:
    game = read_game('[Result "2-0"]\n[Result "0-2"]\n*')
    assert game.headers["Result"] == "0-2"
    assert [e.severity for e in game.errors] == ["warning"]


def test_shared_corpus_reads_without_errors(corpus_dir: Path) -> None:
    counts = {}
    for path in sorted(corpus_dir.glob("*.pdn")):
        games = read_file(path)
        counts[path.name] = len(games)
        for game in games:
            assert game.errors == [], (path.name, game.index, game.errors)
            assert game.declared_result in {"2-0", "1-1", "0-2"}
    assert counts == {"DUTCH96H.pdn": 13, "PROF2.pdn": 16, "candidate95.pdn": 8, "nk2003-amsterdam.pdn": 33}
    # The file really ends with the tags of a game whose moves were never written down.
    last = read_file(corpus_dir / "nk2003-amsterdam.pdn")[-1]
    assert (last.headers["White"], last.moves, last.line) == ("Auke Scholma", [], 812)


def test_shared_syntax_samples_parse(corpus_dir: Path) -> None:
    for path in sorted((corpus_dir / "syntax").glob("*.pdn")):
        games = read_file(path)
        assert games, path.name
        errors = [e for g in games for e in g.errors]
        if path.name.startswith("fail-"):
            assert errors and "nested comment" in errors[0].message
        else:
            assert errors == [], (path.name, errors)
    assert read_file(corpus_dir / "syntax" / "unicode.pdn")[0].headers["Black"] == "\u9ad8\u6587\u9f99"


def test_one_decoding_policy_lenient_and_strict() -> None:
    """The reader and an upload decode alike; strict refuses, with a code, what lenient replaces."""
    utf16 = '[White "Gérard"]'.encode("utf-16")
    assert decode_pdn(utf16) == decode_pdn(utf16, strict=True) == ('[White "Gérard"]', "utf-16")
    assert decode_pdn(b'[White "\x81"]') == ('[White "\ufffd"]', "windows-1252")
    with pytest.raises(DecodeError) as refused:
        decode_pdn(b'[White "\xe9\x81"]', strict=True)
    assert (refused.value.code, refused.value.values) == ("unknown_encoding", {"byte": "0x81", "offset": 9})
    with pytest.raises(DecodeError) as binary:
        decode_pdn(b"[White \x00]", strict=True)
    assert binary.value.code == "binary"
    with pytest.raises(DecodeError) as broken:
        decode_pdn(b"\xff\xfe[\x00W", strict=True)
    assert broken.value.code == "bad_utf16"
