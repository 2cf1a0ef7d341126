"""The arbiter's side on the round page: reports and verdicts per board, the `a` key's data, the one button,
a save that confirms or overrules reports, and the players' codes page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.test_admin import round_post_data
from tests.tournaments.boards.test_board_reports import WIN, code_of, hall, send  # noqa: F401
from tournaments.models import BoardCode, BoardReport, Game, ReportStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(hall: dict[str, Any], arbiter: Any) -> dict[str, Any]:  # noqa: F811
    client = Client()
    client.force_login(arbiter)
    return {**hall, "client": client, "url": reverse("admin:tournaments_round_change", args=[hall["round"].pk])}


def test_the_round_page_shows_each_boards_reports_and_verdicts(desk: dict[str, Any]) -> None:
    g = desk["games"]
    send(g[1], "w", "2-0", pdn=WIN.encode())
    send(g[1], "b", "2-0")
    send(g[2], "w", "2-0")
    send(g[2], "b", "1-1")
    page = desk["client"].get(desk["url"]).content.decode()
    assert 'data-dm-reported="2-0"' in page and page.count("data-dm-reported") == 1  # board 1 only: agreed
    assert "agreed: 2-0" in page and "the moves confirm 2-0" in page
    assert "disputed: White says 2-0, Black says 1-1" in page
    assert 'id="dm-confirm-agreed"' in page and 'id="dm-key-agreed"' in page
    assert "Reports from the boards (4)" in page


def test_the_one_button_and_a_late_report_flagged(desk: dict[str, Any]) -> None:
    g = desk["games"]
    send(g[1], "w", "2-0", pdn=WIN.encode())
    send(g[1], "b", "2-0")
    url = reverse("admin:tournaments_round_confirm_agreed", args=[desk["round"].pk])
    assert desk["client"].get(url).status_code == 405
    response = desk["client"].post(url)
    assert response.status_code == 302 and Game.objects.get(pk=g[1].pk).result == "2-0"
    late = send(g[1], "b", "0-2")
    page = desk["client"].get(desk["url"]).content.decode()
    assert late.status == ReportStatus.LATE and "late, not applied:" in page
    assert Game.objects.get(pk=g[1].pk).result == "2-0"


def test_a_save_by_keys_confirms_agreed_and_overrules_a_disputed_ruling(desk: dict[str, Any]) -> None:
    g = desk["games"]
    send(g[2], "w", "1-1")
    send(g[2], "b", "1-1")
    send(g[3], "w", "2-0")
    send(g[3], "b", "0-2")
    response = desk["client"].post(desk["url"], round_post_data(desk["round"], {2: "1-1", 3: "0-2"}))
    assert response.status_code == 302
    statuses = dict(BoardReport.objects.values_list("game__board", "status").filter(side="w"))
    assert statuses == {2: ReportStatus.CONFIRMED, 3: ReportStatus.OVERRULED}
    assert BoardReport.objects.get(game=g[3], side="b").status == ReportStatus.CONFIRMED
    row3 = desk["client"].get(desk["url"]).content.decode().split('id="dm-reports-3"')[1].split("</div>")[0]
    assert "overruled by the arbiter" in row3 and ", confirmed)" in row3


def test_the_codes_page_issues_lists_with_qr_and_revokes(desk: dict[str, Any]) -> None:
    url = reverse("admin:tournaments_round_codes", args=[desk["round"].pk])
    first = code_of(desk["games"][1].white)
    page = desk["client"].get(url)
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    body = page.content.decode()
    assert first.token in body and body.count("class=\"dm-qr\"") == 8
    assert body.count("<h1") == 1  # the admin's own title, not a second one from the page
    desk["client"].post(url, {"revoke": first.pk})
    first.refresh_from_db()
    assert first.revoked_at is not None and code_of(desk["games"][1].white).token != first.token
    assert Client().get(url).status_code == 302  # not for the public: the login page
    BoardCode.objects.filter(revoked_at__isnull=True).delete()
    desk["client"].post(url, {"issue": "1"})
    assert BoardCode.objects.filter(revoked_at__isnull=True).count() == 8


def test_the_score_sheets_carry_each_players_code_as_a_qr_code(desk: dict[str, Any]) -> None:
    import io

    from pypdf import PdfReader

    t, rnd = desk["t"], desk["round"]
    BoardCode.objects.all().delete()  # issued again by the print
    response = desk["client"].get(reverse("tournaments:scoresheets_pdf", args=[t.slug, rnd.number]))
    assert response.status_code == 200
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]
    assert BoardCode.objects.filter(revoked_at__isnull=True).count() == 8
    assert "White: scan to report the result" in pages[0] and "Black: scan to report the result" in pages[1]
    assert "no-store" in response["Cache-Control"] or "private" in response["Cache-Control"]


def test_a_result_recorded_elsewhere_settles_the_reports_on_the_round_page(desk: dict[str, Any]) -> None:
    from tournaments.rounds import services

    g = desk["games"]
    agreeing, disagreeing = send(g[4], "w", "0-2"), send(g[4], "b", "2-0")
    services.game_record_result(game=g[4], result="0-2")  # e.g. a game sheet's result accepted
    desk["client"].get(desk["url"])
    agreeing.refresh_from_db()
    disagreeing.refresh_from_db()
    assert (agreeing.status, disagreeing.status) == (ReportStatus.CONFIRMED, ReportStatus.OVERRULED)
