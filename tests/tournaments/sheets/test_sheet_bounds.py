"""What a game sheet may hold, and what it costs the pages: moves written after the game ended (art. 6,
7.2) never make a sheet verified, a sheet holds at most MAX_PLIES plies however it arrives (one game, a
round's file, a transfer file), and the PDN export reads each sheet once per sheet version, not at every
saved result."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Game, GameSheet, SheetStatus, Tournament
from tournaments.rounds import services
from tournaments.sheets import line as line_module
from tournaments.sheets import round_import_preview, sheet_upload, sheets_replay
from tournaments.sheets.export import export_pdn
from tournaments.sheets.line import MAX_PLIES
from tournaments.sheets.upload import SheetUploadError

pytestmark = pytest.mark.django_db

SHUFFLE = ["50-44", "1-7", "44-50", "7-1"]  # two kings, drawn at the third repetition (art. 6.1, ply 8)


def shuffling(plies: int, result: str = "1-1", tags: str = "") -> str:
    moves = " ".join(f"{i // 2 + 1}. {SHUFFLE[i % 4]}" if i % 2 == 0 else SHUFFLE[i % 4] for i in range(plies))
    return f'{tags}[FEN "W:WK50:BK1"]\n{moves} {result}\n'


@pytest.fixture
def played(make_tournament: Any) -> tuple[Tournament, Game]:
    t = make_tournament(4)
    play_round(t, {1: "1-1", 2: "2-0"})
    game = Game.objects.select_related("white__player", "black__player").get(round__number=1, board=1)
    return t, game


def test_moves_after_the_draw_leave_the_sheet_irregular_not_verified(played: tuple[Tournament, Game]) -> None:
    _, game = played
    ended = sheet_upload(game=game, data=shuffling(8))
    assert ended.status == SheetStatus.VERIFIED and not ended.needs_look
    sheet = sheet_upload(game=game, data=shuffling(400), replace=True)
    assert sheet.status == SheetStatus.IRREGULAR and sheet.needs_look
    assert sheet.report["replay"]["status"] == "played_on"
    assert "after the end of the game" in sheet.summary and "competition rules 5.4" in sheet.summary


def test_a_sheet_over_the_bound_is_refused_one_game_or_a_round_file(played: tuple[Tournament, Game]) -> None:
    t, game = played
    assert sheet_upload(game=game, data=shuffling(MAX_PLIES)).line is not None  # the bound itself is kept
    with pytest.raises(SheetUploadError, match=f"{MAX_PLIES + 1} moves written.*more than the {MAX_PLIES}"):
        sheet_upload(game=game, data=shuffling(MAX_PLIES + 1), replace=True)
    white, black = game.white.player.full_name, game.black.player.full_name
    round_file = shuffling(10, tags=f'[White "{white}"]\n[Black "{black}"]\n') + "\n" + shuffling(
        MAX_PLIES + 2, tags='[White "A"]\n[Black "B"]\n')
    with pytest.raises(SheetUploadError, match=r"game 2 \(A - B\)"):
        round_import_preview(round=t.rounds.get(number=1), data=round_file)
    assert GameSheet.objects.get(game=game).text == shuffling(MAX_PLIES)


def test_the_2_mb_sheet_of_230000_plies_is_refused(played: tuple[Tournament, Game]) -> None:
    _, game = played
    data = shuffling(230_000)
    assert 1_900_000 < len(data) < 2 * 1024 * 1024
    with pytest.raises(SheetUploadError, match="230000 moves written"):
        sheet_upload(game=game, data=data)
    assert not GameSheet.objects.filter(game=game).exists()


def test_a_long_sheet_stored_before_the_bound_costs_its_pages_nothing(played: tuple[Tournament, Game]) -> None:
    """Stored by an older Damier, or carried by a transfer file (which keeps no line): the game page
    says the line is too long instead of drawing every ply, and the export leaves its moves out."""
    t, game = played
    GameSheet.objects.create(game=game, text=shuffling(MAX_PLIES * 20), status=SheetStatus.VERIFIED,
                             ruling=SheetStatus.VERIFIED, line=None)
    url = reverse("tournaments:game", args=[t.slug, game.pk])
    page = Client().get(url)
    assert page.status_code == 200 and len(page.content) < 200_000
    assert GameSheet.objects.get(game=game).line["problem"].startswith(f"{MAX_PLIES * 20} plies written")
    exported = export_pdn(t)
    assert exported.count("[Event ") == 2 and "50-44" not in exported
    # Judged again (replay_sheets): the verdict is made, the line kept stays empty.
    sheets_replay(GameSheet.objects.filter(game=game))
    sheet = GameSheet.objects.get(game=game)
    assert sheet.status == SheetStatus.IRREGULAR and sheet.line["plies"] == [] and sheet.line["pdn"] is None


def test_the_export_reads_no_sheet_it_writes_from_the_kept_line(played: tuple[Tournament, Game],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sheet's movetext is made with its line, once per sheet version: an export after a saved
    result neither reads nor replays a sheet, and loads no sheet's text."""
    t, game = played
    sheet_upload(game=game, data=shuffling(8))
    first = export_pdn(t)
    assert "50-44" in first

    def no_reading(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a sheet was read again")

    monkeypatch.setattr(line_module, "read_game", no_reading)
    monkeypatch.setattr(line_module, "movetext", no_reading)
    rnd2 = play_round(t, {1: "2-0"}, complete=False)
    services.game_record_result(game=rnd2.games.get(board=1), result="0-2")
    with CaptureQueriesContext(connection) as queries:
        second = export_pdn(t)
    assert second != first and second.count("50-44") == first.count("50-44")
    assert len(queries) == 1 and "PDN text" not in str(queries.captured_queries)
    assert not any('"text"' in q["sql"] for q in queries.captured_queries)
    monkeypatch.undo()
    # A new version of the sheet comes with its own line; a line of an older format is rebuilt once.
    sheet_upload(game=game, data=shuffling(6), replace=True)
    assert "7-1" in export_pdn(t)
    GameSheet.objects.filter(game=game).update(line={"format": 2})
    assert export_pdn(t) == export_pdn(t) and GameSheet.objects.get(game=game).line["pdn"]["tokens"]
