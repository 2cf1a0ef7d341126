"""Game sheets are not kept on a draft round, as results are not entered in one: pairing it again would
delete them without a word."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.sheets.test_sheets import finished_game, sheet_text
from tournaments.errors import DomainError
from tournaments.models import GameSheet, System
from tournaments.rounds import services
from tournaments.sheets import round_import_confirm, round_import_preview, sheet_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="draft", rounds_total=3)
    rnd = services.round_pair(tournament=t)
    game = rnd.games.select_related("white__player", "black__player", "round").filter(black__isnull=False).first()
    return rnd, game


def test_one_games_sheet_is_refused_on_a_draft(draft) -> None:  # type: ignore[no-untyped-def]
    rnd, game = draft
    with pytest.raises(DomainError, match="Round 1 is a draft: publish it before uploading game sheets"):
        sheet_upload(game=game, data=sheet_text(game, finished_game("2-0"), "2-0"))
    assert not GameSheet.objects.exists()


def test_a_round_file_is_refused_on_a_draft_and_pair_again_loses_nothing(draft) -> None:  # type: ignore[no-untyped-def]
    rnd, game = draft
    text = sheet_text(game, finished_game("2-0"), "2-0")
    with pytest.raises(DomainError, match="is a draft"):
        round_import_preview(round=rnd, data=text)
    services.round_publish(round=rnd)
    preview = round_import_preview(round=rnd, data=text)  # a preview made while it was published...
    services.round_unpublish(round=rnd, expected_version=None)  # ...and the round taken back to draft since
    with pytest.raises(DomainError, match="is a draft"):
        round_import_confirm(preview=preview)
    assert not GameSheet.objects.exists()
    services.round_pair_again(round=rnd)


def test_the_sheet_page_says_why(draft, arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    rnd, game = draft
    chief = Client()
    chief.force_login(arbiter)
    url = reverse("admin:tournaments_game_sheet", args=[game.pk])
    upload = SimpleUploadedFile("b.pdn", sheet_text(game, finished_game("2-0"), "2-0").encode())
    page = chief.post(url, {"file": upload}, follow=True)
    assert page.status_code == 200 and "publish it before uploading game sheets" in page.content.decode()
    assert not GameSheet.objects.exists()
