"""The admin's TRF import page: the review first (nothing written), then the import; a round that breaks
the pairing rules, or is not the engine's pairing, needs its box ticked, and what the arbiter chose is kept
between the steps."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournaments.exchange.test_trf_review import REMATCH, TRF16
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance.policy import Level
from tournaments.models import ConformanceEvent, Tournament

URL = "admin:tournaments_tournament_import_trf"


@pytest.fixture
def client_for(db: None):  # type: ignore[no-untyped-def]
    def make(user) -> Client:  # type: ignore[no-untyped-def]
        c = Client()
        c.force_login(user)
        return c

    return make


def _upload(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("in.trf", text.encode(), content_type="text/plain")


def test_review_then_confirm_then_import(arbiter, client_for) -> None:
    c = client_for(arbiter)
    assert "Import from a TRF file" in c.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    response = c.post(reverse(URL), {"file": _upload(REMATCH), "slug": "rm", "review": "1"})
    page = assert_one_screen(response, Level.CONFIRM)
    assert "Review (nothing written yet)" in page and not Tournament.objects.exists()
    assert "Round 3 breaks the pairing rules on board(s) 3-1, 4-2:" in page
    assert 'name="confirm_round" value="3"' in page and 'value="rm"' in page  # the slug typed is kept
    # its colours are not the engine's
    assert "An imported round (1) is not the pairing the engine makes from the same standings" in page
    text = REMATCH
    # Import without the tick: refused, nothing written, the review and the file still there
    page = c.post(reverse(URL), {"text": text, "slug": "rm", "import": "1"}).content.decode()
    assert "Tick each round you accept although it breaks the pairing rules" in page
    assert not Tournament.objects.exists() and "Review (nothing written yet)" in page
    page = c.post(reverse(URL), {"text": text, "slug": "rm", "import": "1", "confirm_round": ["3"]}).content.decode()
    assert "or is not Damier&#x27;s pairing, or cancel the import" in page and not Tournament.objects.exists()
    response = c.post(reverse(URL), {"text": text, "slug": "rm", "import": "1", "confirm_round": ["1", "3"]})
    t = Tournament.objects.get(slug="rm")
    assert response.status_code == 302 and response["Location"] == reverse("admin:tournaments_tournament_change",
                                                                           args=[t.pk])
    assert t.chief_arbiter == arbiter  # so the arbiter who imported it can run it
    assert ConformanceEvent.objects.get(tournament=t, code="import-broke-rules").values["pairs"] == ["3-1", "4-2"]
    assert ConformanceEvent.objects.get(tournament=t, code="import-not-engine-pairing").round_number == 1


def test_the_adjustments_are_listed_and_a_bad_file_named(arbiter, client_for) -> None:
    c = client_for(arbiter)
    page = c.post(reverse(URL), {"file": _upload(TRF16), "review": "1"}).content.decode()
    assert "TRF-2016 (from 132, U)" in page
    assert "Line 7, player 1: the points column says 3.0, the results make 4.0; the results are used." in page
    # no rule broken, but round 2 is not the engine's pairing: its box, and no other
    assert page.count('name="confirm_round"') == 1 and 'name="confirm_round" value="2"' in page
    page = c.post(reverse(URL), {"file": _upload("XXR 3\n001 x\n"), "review": "1"}).content.decode()
    assert "Nothing imported: line 2 (001): starting rank (columns 5-8)" in page
    assert not Tournament.objects.exists()
