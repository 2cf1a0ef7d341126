"""Sheets on the arbiter's side: an unmatched game given to a board by hand (round report and game
page), the verdict public only once ruled, the replayed line kept with the sheet, the preview paged."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.errors import DomainError
from tournaments.models import Game, GameSheet
from tournaments.sheets import line as sheet_line
from tournaments.sheets import round_import_confirm, round_import_preview, sheet_accept_verdict, sheet_upload

MOVES = "1. 32-28 19-23 2. 28x19 14x23"


@pytest.fixture
def setup(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = play_round(t, {1: "2-0", 2: "1-1"}, complete=False)
    client = Client()
    client.force_login(arbiter)
    games = {g.board: g for g in rnd.games.select_related("white__player", "black__player")}
    return t, rnd, games, client


def pdn(white: str, black: str, result: str) -> str:
    return f'[Round "1"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{MOVES} {result}\n'


@pytest.mark.django_db
def test_an_unmatched_game_is_given_to_a_board_from_the_round_report(setup) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, client = setup
    g1, g2 = games[1], games[2]
    text = pdn(g1.white.player.full_name, g1.black.player.full_name, "2-0") + "\n" + pdn("Smith, J.", "Doe, X.", "1-1")
    url = reverse("admin:tournaments_round_sheets", args=[rnd.pk])
    page = client.post(url, {"file": SimpleUploadedFile("r1.pdn", text.encode())}).content.decode()
    assert 'name="assign-2"' in page and "Not matched" in page and "unmatched<" not in page
    payload = page.split('name="payload" value="')[1].split('"')[0]
    # Board 1 is taken by game 1 of the file: choosing it again is refused, the preview comes back.
    again = client.post(url, {"confirm": "1", "payload": payload, "assign-2": "1"}).content.decode()
    assert "board 1 already takes game 1 of the file" in again and GameSheet.objects.count() == 0
    assert '<option value="2" selected>' not in again
    response = client.post(url, {"confirm": "1", "payload": payload, "assign-2": "2"})
    assert response.status_code == 302
    sheet = GameSheet.objects.get(game=g2)
    assert sheet.report["assigned"] is True and sheet.sheet_result == "1-1" and sheet.status == "not_verifiable"
    assert GameSheet.objects.get(game=g1).report["assigned"] is False


@pytest.mark.django_db
def test_assignments_are_checked(setup) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, _ = setup
    preview = round_import_preview(round=rnd, data=pdn("Smith, J.", "Doe, X.", "1-1"), source_name="r.pdn")
    with pytest.raises(DomainError, match="board 9 is not a game of round 1"):
        round_import_confirm(preview=preview, assignments={1: 9})
    with pytest.raises(DomainError, match="Game 5 of the file is not an unmatched game"):
        round_import_confirm(preview=preview, assignments={5: 1})
    assert GameSheet.objects.count() == 0


@pytest.mark.django_db
def test_a_sheet_naming_others_is_assigned_from_the_games_sheet_page(setup) -> None:  # type: ignore[no-untyped-def]
    _, _, games, client = setup
    url = reverse("admin:tournaments_game_sheet", args=[games[1].pk])
    refused = client.post(url, {"text": pdn("Smith, J.", "Doe, X.", "2-0")}, follow=True).content.decode()
    assert "Nothing stored" in refused and GameSheet.objects.count() == 0
    assert client.post(url, {"text": pdn("Smith, J.", "Doe, X.", "2-0"), "assign": "on"}).status_code == 302
    assert GameSheet.objects.get(game=games[1]).report["assigned"] is True
    assert "You assigned this sheet to this board by hand" in client.get(url).content.decode()


@pytest.mark.django_db
def test_the_public_page_shows_the_verdict_only_once_ruled(setup, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t, _, games, client = setup
    game = games[1]
    # Irregular: 37-32 while 28x19 was compulsory... written so that the replay flags it.
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n[Result "2-0"]\n\n'
            "1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41 2-0\n")
    sheet = sheet_upload(game=game, data=text)
    assert sheet.status == "irregular" and sheet.ruling == "" and sheet.line is not None
    public = reverse("tournaments:game", args=[t.slug, game.pk])
    visitor = Client()

    def no_replay(text: str) -> None:
        raise AssertionError("the page view replayed the sheet")

    monkeypatch.setattr(sheet_line, "line_from_pdn", no_replay)  # the kept line is used
    before = visitor.get(public).content.decode()
    assert "Irregular" not in before and "5.4.6" not in before and "37-32" in before
    assert "the arbiter has not ruled on this sheet yet" in before
    admin_page = reverse("admin:tournaments_game_sheet", args=[game.pk])
    stale = client.post(admin_page, {"rule": "1", "sheet_version": str(sheet.version - 1)}, follow=True)
    assert "changed by someone else" in stale.content.decode()
    assert client.post(admin_page, {"rule": "1", "sheet_version": str(sheet.version)}).status_code == 302
    after = visitor.get(public).content.decode()
    assert "Irregular" in after and "Move 2, White" in after and "art. 5.4.6" in after
    # A new upload clears the ruling: the new sheet is not public until ruled again.
    monkeypatch.undo()
    sheet_upload(game=game, data=text, replace=True)
    assert "Irregular" not in visitor.get(public).content.decode()
    with pytest.raises(DomainError, match="changed by someone else"):
        sheet_accept_verdict(game=game, expected_version=sheet.version)


@pytest.mark.django_db
def test_accepting_the_sheets_result_is_a_ruling(setup) -> None:  # type: ignore[no-untyped-def]
    _, _, games, client = setup
    game = games[1]
    client.post(reverse("admin:tournaments_game_sheet", args=[game.pk]),
                {"text": pdn(game.white.player.full_name, game.black.player.full_name, "0-2")})
    version = Game.objects.get(pk=game.pk).version
    client.post(reverse("admin:tournaments_game_sheet", args=[game.pk]), {"accept": "1", "version": str(version)})
    sheet = GameSheet.objects.get(game=game)
    assert sheet.ruling == "not_verifiable" and sheet.ruled_at is not None


@pytest.mark.django_db
def test_the_preview_of_a_huge_file_is_paged(setup, settings) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, client = setup
    settings.DAMIER_PDN_MAX_BYTES = 10_000_000
    g1 = games[1]
    text = pdn(g1.white.player.full_name, g1.black.player.full_name, "2-0") + "".join(
        f'[Round "1"][White "Nobody{i}, A"][Black "Nobody{i}, B"] 1. 32-28 *\n' for i in range(450))
    url = reverse("admin:tournaments_round_sheets", args=[rnd.pk])
    page = client.post(url, {"file": SimpleUploadedFile("big.pdn", text.encode())}).content.decode()
    assert page.count('<tr class="unmatched">') == 200 and "Games 1–200 of 451" in page
    payload = page.split('name="payload" value="')[1].split('"')[0]
    last = client.post(url, {"payload": payload, "page": "3"}).content.decode()
    assert last.count('<tr class="unmatched">') == 50 and last.count('<tr class="matched">') == 1
