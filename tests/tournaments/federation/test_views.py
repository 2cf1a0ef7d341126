"""The report's screens: the control room's links after the last round (and why not before), the file and
the PDF for the tournament's arbiters only (refused in words before the last round is completed), and the
rating preview page with "not available" and its reasons."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import System, Tournament
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def _chief(t: Tournament) -> Client:
    client = Client()
    client.force_login(t.chief_arbiter)
    return client


def test_the_control_room_links_the_report_after_the_last_round(swiss30: Tournament) -> None:
    page = _chief(swiss30).get(reverse("admin:tournaments_tournament_control", args=[swiss30.pk])).content.decode()
    assert "Report to the federation:" in page
    for url in (reverse("tournaments:report_file", args=["swiss30"]), reverse("tournaments:report_pdf",
                                                                               args=["swiss30"]),
                reverse("admin:tournaments_tournament_rating_preview", args=[swiss30.pk])):
        assert f'href="{url}"' in page


def test_before_the_last_round_the_report_is_refused_in_words(db: None, make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="early", rounds_total=2)
    services.round_publish(round=services.round_pair(tournament=t))
    page = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "The report to the federation is made once the last round is completed." in page
    assert reverse("tournaments:report_file", args=["early"]) not in page
    for name in ("report_file", "report_pdf"):
        response = chief.get(reverse(f"tournaments:{name}", args=["early"]))
        assert response.status_code == 409
        assert "the report to the federation is made once the last round (2) is completed" in (
            response.content.decode())
    preview = chief.get(reverse("admin:tournaments_tournament_rating_preview", args=[t.pk])).content.decode()
    assert 'id="dm-refused"' in preview and "last round (2)" in preview


def test_the_file_and_pdf_are_for_its_arbiters_only(swiss30: Tournament) -> None:
    url = reverse("tournaments:report_file", args=["swiss30"])
    response = _chief(swiss30).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "no-store" in response["Cache-Control"]
    assert response.content.decode().split("\r\n")[1] == "FMJD-report"
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(url).status_code == 403
    assert stranger.get(reverse("tournaments:report_pdf", args=["swiss30"])).status_code == 403
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert Client().get(reverse("tournaments:report_file", args=["nothing"])).status_code == 302


def test_the_pdf_is_in_the_tournaments_pdf_language(swiss30: Tournament) -> None:
    swiss30.pdf_language = "fr"
    swiss30.save()
    response = _chief(swiss30).get(reverse("tournaments:report_pdf", args=["swiss30"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Language"] == "fr"


def test_the_rating_preview_page(round_robin10: Tournament) -> None:
    url = reverse("admin:tournaments_tournament_rating_preview", args=[round_robin10.pk])
    page = _chief(round_robin10).get(url).content.decode()
    assert 'id="dm-not-available"' in page and "Annex 9 art. 3" in page
    # player 1: 9 games, 18 points, 9 rated opponents averaging 2340
    assert ('<th scope="row">1. Player01, Test GMI</th><td data-label="Rating">2390</td><td data-label="Games">9</td>'
            '<td data-label="Score">18</td><td data-label="Rated opponents">9</td>'
            '<td data-label="Average opponent rating">2340</td>') in page
    kndb = _chief(round_robin10).get(url + "?system=kndb").content.decode()
    assert "no KNDB rating regulation was found" in kndb
    assert ('Player01, Test GMI</th><td data-label="Rating">1990</td><td data-label="Games">9</td>'
            '<td data-label="Score">18</td><td data-label="Rated opponents">9</td>'
            '<td data-label="Average opponent rating">1940</td>') in kndb
    ffjd = _chief(round_robin10).get(url + "?system=ffjd").content.decode()
    assert "does not define N, X, Y and P" in ffjd
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(url).status_code in (403, 404)
