"""Sheet verdicts and services: verified, not verifiable, irregular, mismatch, early draw, missing;
one game's upload, replay of stored sheets and accepting the sheet's result."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from rules import Board
from rules.pdn.writer import game_from_board, write_game
from tests.tournaments.play import play_round
from tournaments.errors import DomainError
from tournaments.models import Game, GameSheet, RoundStatus
from tournaments.sheets import (
    MISSING,
    SheetUploadError,
    decode_upload,
    game_sheet_status,
    needs_look_q,
    round_import_confirm,
    round_import_preview,
    sheet_accept_result,
    sheet_replay,
    sheet_upload,
)


def finished_game(result: str, seed: int = 0) -> Board:
    """A random legal game that ends on the board with `result` (7.2.2/7.2.3, or a draw of art. 6)."""
    rng = random.Random(seed)
    for _ in range(500):
        board = Board()
        while board.outcome() is None and len(board.move_stack) < 300:
            board.push(rng.choice(board.legal_moves()))
        outcome = board.outcome()
        if outcome is not None and outcome.result() == result:
            return board
    raise AssertionError(f"no random game ended {result}")


def sheet_text(game: Game, board: Board, result: str) -> str:
    headers = {"White": game.white.player.full_name, "Black": game.black.player.full_name,
               "Round": str(game.round.number)}
    return write_game(game_from_board(board, headers, result))


@pytest.fixture
def game(make_tournament) -> Game:
    t = make_tournament(4)
    rnd = play_round(t, {1: "2-0"}, complete=False)
    return rnd.games.select_related("white__player", "black__player", "round").get(board=1)


@pytest.mark.django_db
def test_verified_when_the_board_confirms_the_recorded_result(game: Game) -> None:
    board = finished_game("2-0")
    sheet = sheet_upload(game=game, data=sheet_text(game, board, "2-0").encode(), source_name="b1.pdn")
    assert sheet.status == "verified" and not sheet.needs_look
    assert sheet.report["replay"]["board_article"] in ("7.2.2", "7.2.3")
    assert game_sheet_status(Game.objects.get(pk=game.pk)) == "verified"


@pytest.mark.django_db
def test_mismatch_when_sheet_or_board_differs_and_accepting_the_sheet(game: Game) -> None:
    board = finished_game("0-2", seed=3)
    sheet = sheet_upload(game=game, data=sheet_text(game, board, "0-2"), source_name="b1.pdn")
    assert sheet.status == "mismatch" and sheet.needs_look and sheet.sheet_result == "0-2"
    assert sheet.summary == ("The board shows 0-2 (Black wins) at move 37, Black: White has no piece left "
                             "(art. 7.2.3); the sheet declares 0-2 (Black wins); 2-0 (White wins) is recorded.")
    assert Game.objects.get(pk=game.pk).result == "2-0"  # the upload changed nothing
    with pytest.raises(DomainError, match="changed by someone else"):
        sheet_accept_result(game=Game.objects.get(pk=game.pk), expected_version=game.version - 1)
    updated = sheet_accept_result(game=Game.objects.get(pk=game.pk), expected_version=game.version)
    assert updated.result == "0-2" and updated.version == game.version + 1
    assert GameSheet.objects.get(game=game).status == "verified"


@pytest.mark.django_db
def test_accepting_respects_the_round_status(game: Game) -> None:
    sheet_upload(game=game, data=sheet_text(game, finished_game("0-2", seed=3), "0-2"))
    game.round.status = RoundStatus.COMPLETED
    game.round.save(update_fields=["status"])  # a plain save() never writes the state (services only)
    with pytest.raises(DomainError, match="Round 1 is completed"):
        sheet_accept_result(game=Game.objects.get(pk=game.pk))
    assert Game.objects.get(pk=game.pk).result == "2-0"


@pytest.mark.django_db
def test_irregular_names_article_and_ply(game: Game) -> None:
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
            '[Result "2-0"]\n\n1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41 2-0\n')
    sheet = sheet_upload(game=game, data=text)
    assert sheet.status == "irregular" and sheet.needs_look
    assert sheet.summary.startswith("Move 2, White: a move while a capture was compulsory "
                                    "(art. 5.4.6); the game is not over on the board after move 4, White")
    assert "ply" not in sheet.summary
    assert sheet.report["irregular"][0]["article"] == "5.4.6"


@pytest.mark.django_db
def test_early_draw_is_flagged(make_tournament) -> None:
    t = make_tournament(4)
    rnd = play_round(t, complete=False)  # every game drawn
    game = rnd.games.select_related("white__player", "black__player").get(board=1)
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
            '[Result "1-1"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-1\n')
    sheet = sheet_upload(game=game, data=text)
    assert sheet.status == "not_verifiable" and sheet.needs_look
    assert sheet.summary.endswith("The draw was agreed after 2 moves; a draw may be proposed only after 40 "
                                  "(competition rules 5.3).")
    assert Game.objects.filter(needs_look_q(), pk=game.pk).exists()


@pytest.mark.django_db
def test_single_upload_refusals(game: Game) -> None:
    other = Game.objects.exclude(pk=game.pk).filter(round=game.round).select_related(
        "white__player", "black__player").first()
    assert other is not None
    wrong = sheet_text(other, finished_game("2-0"), "2-0")
    with pytest.raises(SheetUploadError, match=f"the sheet is for board {other.board}"):
        sheet_upload(game=game, data=wrong)
    two = sheet_text(game, finished_game("2-0"), "2-0") * 2
    with pytest.raises(SheetUploadError, match="2 games in the file"):
        sheet_upload(game=game, data=two)
    with pytest.raises(SheetUploadError, match="Russian draughts"):
        sheet_upload(game=game, data='[GameType "25"]\n1. c3-d4 *\n')
    with pytest.raises(SheetUploadError, match="the Round tag says round 4, this is round 1"):
        sheet_upload(game=game, data=sheet_text(game, finished_game("2-0"), "2-0").replace('"1"]', '"4"]'))
    # A sheet naming nobody is taken for the game it is uploaded on.
    anonymous = "1. 32-28 19-23 2. 28x19 14x23 2-0\n"
    assert sheet_upload(game=game, data=anonymous).status == "not_verifiable"
    with pytest.raises(SheetUploadError, match="already has a sheet"):
        sheet_upload(game=game, data=anonymous)
    assert sheet_upload(game=game, data=anonymous, replace=True).game == game
    assert GameSheet.objects.count() == 1


def test_decode_upload_encodings() -> None:
    assert decode_upload("Lefèvre".encode("cp1252")).encoding == "windows-1252"
    assert decode_upload("Lefèvre".encode("cp1252")).text == "Lefèvre"
    assert decode_upload("\ufeffLefèvre".encode()).text == "Lefèvre"
    assert decode_upload("Lefèvre".encode("utf-16")).encoding == "utf-16"
    assert decode_upload(b"a\r\nb", "../../etc/passwd").source_name == "passwd"


@pytest.mark.django_db
def test_missing_and_the_replay_command(game: Game, capsys) -> None:
    others = list(Game.objects.filter(round=game.round).exclude(pk=game.pk))
    assert {game_sheet_status(g) for g in others} == {MISSING}
    sheet = sheet_upload(game=game, data=sheet_text(game, finished_game("2-0"), "2-0"))
    assert sheet.status == "verified"
    # The recorded result changes afterwards: a replay judges the unchanged text against it.
    Game.objects.filter(pk=game.pk).update(result="1-1")
    call_command("replay_sheets", "t")
    assert "Replayed 1 sheet(s): 1 mismatch; 1 changed status." in capsys.readouterr().out
    stored = GameSheet.objects.get(pk=sheet.pk)
    assert stored.text == sheet.text and stored.status == "mismatch"
    Game.objects.filter(pk=game.pk).update(result="2-0")
    assert sheet_replay(sheet=GameSheet.objects.select_related("game").get(pk=sheet.pk)).status == "verified"


@pytest.mark.django_db
def test_round_preview_colours_reversed_and_players_not_in_round(game: Game) -> None:
    swapped = (f'[White "{game.black.player.full_name}"]\n[Black "{game.white.player.full_name}"]\n'
               '[Round "1"]\n\n1. 32-28 *\n\n[White "Someone, Else"]\n[Black "Other, An"]\n\n1. 32-28 *\n')
    preview = round_import_preview(round=game.round, data=swapped, source_name="r1.pdn")
    assert preview.matched == []
    reasons = [item.match.reason for item in preview.unmatched]
    assert "colours reversed" in reasons[0]
    assert "'Someone, Else' is not a player of this round" in reasons[1]
    assert preview.missing_boards == [1, 2]
    assert "not matched" in preview.text()


@pytest.mark.django_db
def test_a_sheet_stored_between_preview_and_confirm_is_not_overwritten(game: Game) -> None:
    text = sheet_text(game, finished_game("2-0"), "2-0")
    preview = round_import_preview(round=game.round, data=text, source_name="r1.pdn")
    assert [item.match.board for item in preview.matched] == [1]
    first = sheet_upload(game=game, data="1. 32-28 19-23 2-0\n", source_name="other.pdn")
    assert round_import_confirm(preview=preview) == []
    assert preview.skipped == [1]
    assert GameSheet.objects.get(game=game).source_name == first.source_name == "other.pdn"
