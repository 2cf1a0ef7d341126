"""Game sheets in the admin, through Django's test client: a game's upload and acceptance, a round's
upload with its preview and confirmation, the status column, the "needs a look" filter, exports, and
another tournament's arbiter kept out."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Game, GameSheet


@pytest.fixture
def setup(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = play_round(t, {1: "2-0", 2: "1-1"}, complete=False)
    client = Client()
    client.force_login(arbiter)
    games = {g.board: g for g in rnd.games.select_related("white__player", "black__player")}
    return t, rnd, games, client


def pdn(game: Game, result: str, moves: str = "1. 32-28 19-23 2. 28x19 14x23", rnd: int = 1) -> str:
    return (f'[Round "{rnd}"]\n[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
            f'[Result "{result}"]\n\n{moves} {result}\n')


@pytest.mark.django_db
def test_game_upload_then_accept_the_sheets_result(setup) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, client = setup
    game = games[1]
    url = reverse("admin:tournaments_game_sheet", args=[game.pk])
    assert client.get(url).status_code == 200
    upload = SimpleUploadedFile("board1.pdn", pdn(game, "0-2").encode("cp1252"))
    response = client.post(url, {"file": upload})
    assert response.status_code == 302
    sheet = GameSheet.objects.get(game=game)
    assert sheet.status == "mismatch" and sheet.source_name == "board1.pdn" and sheet.encoding == "utf-8"
    page = client.get(url).content.decode()
    assert ("the sheet declares 0-2 (Black wins) by resignation or time (art. 7.2.1), which the moves cannot "
            "confirm; 2-0 (White wins) is recorded.") in page, page[page.find("sheet-compare"):][:3000]
    assert ">mismatch<" not in page and " Result mismatch</span>" in page
    assert 'name="accept"' in page
    assert Game.objects.get(pk=game.pk).result == "2-0"
    response = client.post(url, {"accept": "1", "version": str(Game.objects.get(pk=game.pk).version)})
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).result == "0-2"
    assert GameSheet.objects.get(game=game).status == "not_verifiable"
    # Pasted text, and a refusal that stores nothing.
    response = client.post(url, {"text": pdn(games[2], "1-1")}, follow=True)
    assert "Nothing stored" in response.content.decode() and "the sheet is for board 2" in response.content.decode()
    response = client.post(reverse("admin:tournaments_game_sheet", args=[games[2].pk]),
                           {"text": pdn(games[2], "1-1")})
    assert response.status_code == 302 and GameSheet.objects.get(game=games[2]).status == "not_verifiable"


@pytest.mark.django_db
def test_round_upload_preview_confirm_and_the_round_page(setup, settings) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, client = setup
    url = reverse("admin:tournaments_round_sheets", args=[rnd.pk])
    text = pdn(games[1], "2-0") + "\n" + pdn(games[2], "1-1", rnd=2) + "\n" + pdn(games[2], "1-1")
    response = client.post(url, {"file": SimpleUploadedFile("round1.pdn", text.encode())})
    page = response.content.decode()
    assert response.status_code == 200 and "Preview: nothing is stored yet" in page
    assert "the Round tag says round 2, this is round 1" in page
    assert GameSheet.objects.count() == 0
    payload = page.split('name="payload" value="')[1].split('"')[0]
    tampered = client.post(url, {"confirm": "1", "payload": payload[:-2] + "xx"}, follow=True)
    assert "expired or was altered" in tampered.content.decode() and GameSheet.objects.count() == 0
    response = client.post(url, {"confirm": "1", "payload": payload})
    assert response.status_code == 302
    assert set(GameSheet.objects.values_list("game__board", flat=True)) == {1, 2}
    change = client.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert "Not verifiable from the sheet</span>" in change and ">not verifiable<" not in change
    assert "2 with a sheet" in change
    # Bad input: a clear message, nothing stored.
    settings.DAMIER_PDN_MAX_BYTES = 50
    response = client.post(url, {"file": SimpleUploadedFile("big.pdn", text.encode())}, follow=True)
    assert "over the limit of 50 bytes" in response.content.decode()


@pytest.mark.django_db
def test_needs_a_look_filter_status_column_and_exports(setup) -> None:  # type: ignore[no-untyped-def]
    t, rnd, games, client = setup
    client.post(reverse("admin:tournaments_game_sheet", args=[games[1].pk]), {"text": pdn(games[1], "0-2")})
    client.post(reverse("admin:tournaments_game_sheet", args=[games[2].pk]), {"text": pdn(games[2], "1-1", (
        "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 46-41 " * 1 + "1-1"
    )[:-4])})
    listing = client.get(reverse("admin:tournaments_game_changelist") + f"?round__id__exact={rnd.pk}&sheet=look")
    body = listing.content.decode()
    assert listing.status_code == 200
    # Board 1 is a mismatch, board 2 an early draw (compet. 5.3), flagged; both need a look.
    assert "Result mismatch" in body and "Not verifiable from the sheet ⚑ to look at" in body
    assert body.count('class="field-sheet_status"') == 2
    verified = client.get(reverse("admin:tournaments_game_changelist") + "?sheet=verified").content.decode()
    assert 'class="field-sheet_status"' not in verified
    export = client.get(reverse("admin:tournaments_round_pdn", args=[rnd.pk]))
    assert export["Content-Type"].startswith("application/x-pdn") and export.content.count(b"[Event ") == 2
    action = client.post(reverse("admin:tournaments_tournament_changelist"),
                         {"action": "export_tournament_pdn", "_selected_action": [t.pk]})
    assert action.status_code == 200 and action.content.count(b"[Event ") == 2
    changelist = reverse("admin:tournaments_game_changelist")
    confirm = client.post(changelist, {"action": "accept_sheet_result", "_selected_action": [games[1].pk]})
    assert confirm.status_code == 200 and Game.objects.get(pk=games[1].pk).result == "2-0"  # asked first
    version = Game.objects.get(pk=games[1].pk).version
    assert f'name="version-{games[1].pk}" value="{version}"' in confirm.content.decode()
    accept = client.post(changelist, {"action": "accept_sheet_result", "_selected_action": [games[1].pk],
                                      "confirm_accept": "1", f"version-{games[1].pk}": str(version)})
    assert accept.status_code == 302 and Game.objects.get(pk=games[1].pk).result == "0-2"


@pytest.mark.django_db
def test_bulk_accept_checks_the_version_shown(setup) -> None:  # type: ignore[no-untyped-def]
    """The bulk action refuses a board whose result another arbiter changed since the page was shown."""
    _, rnd, games, client = setup
    client.post(reverse("admin:tournaments_game_sheet", args=[games[1].pk]), {"text": pdn(games[1], "0-2")})
    shown = Game.objects.get(pk=games[1].pk).version
    Game.objects.filter(pk=games[1].pk).update(result="1-1", version=shown + 1)  # the other arbiter's save
    response = client.post(reverse("admin:tournaments_game_changelist"), {
        "action": "accept_sheet_result", "_selected_action": [games[1].pk], "confirm_accept": "1",
        f"version-{games[1].pk}": str(shown)}, follow=True)
    assert Game.objects.get(pk=games[1].pk).result == "1-1"
    assert "Not accepted" in response.content.decode()


@pytest.mark.django_db
def test_another_tournaments_arbiter_is_kept_out(setup) -> None:  # type: ignore[no-untyped-def]
    _, rnd, games, _ = setup
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    client = Client()
    client.force_login(other)
    for url in (reverse("admin:tournaments_game_sheet", args=[games[1].pk]),
                reverse("admin:tournaments_round_sheets", args=[rnd.pk]),
                reverse("admin:tournaments_round_pdn", args=[rnd.pk])):
        assert client.get(url).status_code in (403, 404), url
        assert client.post(url, {"text": pdn(games[1], "0-2")}).status_code in (403, 404), url
    response = client.post(reverse("admin:tournaments_game_changelist"),
                           {"action": "accept_sheet_result", "_selected_action": [games[1].pk]})
    assert Game.objects.get(pk=games[1].pk).result == "2-0" and response.status_code in (200, 302, 403)
    assert GameSheet.objects.count() == 0


@pytest.mark.django_db
def test_the_sheet_page_words_the_readers_problems_in_the_arbiters_language(setup) -> None:  # type: ignore[no-untyped-def]
    """The PDN reader returns a code and values (rules.pdn.problems); the sheet page says them in French."""
    _, _, games, client = setup
    game = games[1]
    url = reverse("admin:tournaments_game_sheet", args=[game.pk])
    text = pdn(game, "2-0", moves="1. 32-28 $300 19-23 2. 28x19 14x23")
    assert client.post(url, {"file": SimpleUploadedFile("b1.pdn", text.encode())}).status_code == 302
    issues = GameSheet.objects.get(game=game).report["replay"]["issues"]
    assert [(i["code"], i["values"]) for i in issues if i["article"] == "PDN"] == [
        ("nag_out_of_range", {"text": "$300"})]
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "annotation “$300” hors limites ($0 à $255)" in page, page[page.find("sheet-issues"):][:1500]



# --- Storing a previewed round file: one service, its own transaction ----------------------------------


def test_storing_a_previewed_round_file_matches_again_and_stores_in_one_transaction(make_tournament) -> None:
    from tests.tournaments.test_permissions import sheet_pdn
    from tournaments import sheets
    from tournaments.errors import DomainError

    rnd = play_round(make_tournament(4), complete=False)
    game = rnd.games.select_related("white__player", "black__player", "round").get(board=1)
    text = sheet_pdn(game, game.result)
    sheets.sheet_upload(game=game, data=text, source_name="meanwhile.pdn")  # stored since the preview
    preview, stored = sheets.round_import_store(round=rnd, data=text, source_name="r1.pdn")
    assert stored == [] and not preview.matched  # matched again: the board has its sheet now
    with pytest.raises(DomainError):  # an assignment the file cannot hold: nothing stored
        sheets.round_import_store(round=rnd, data=text, source_name="r1.pdn", replace=True, assignments={9: 1})
    assert GameSheet.objects.get(game=game).source_name == "meanwhile.pdn"
    preview, stored = sheets.round_import_store(round=rnd, data=text, source_name="r1.pdn", replace=True)
    assert [s.game_id for s in stored] == [game.pk]
    assert GameSheet.objects.get(game=game).source_name == "r1.pdn"
