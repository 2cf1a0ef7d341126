"""The report PDF: the event, the arbiters, the final crosstable in rank order with titles, federations and
ratings, unplayed games marked (FIDE B.02 art. 11 as practice), the games not sent for rating with why, the
number of players and the signature block; user text escaped for reportlab's markup."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from tournaments.federation import rows
from tournaments.federation.report_pdf import not_rated, report_pdf
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_swiss_report_pdf(swiss30: Tournament) -> None:
    deputy = get_user_model().objects.create_user("dep", first_name="Boris", last_name="Deputy", is_staff=True)
    swiss30.deputy_arbiters.add(deputy)
    text = _text(report_pdf(rows.read_report(swiss30)))
    for expected in ("Report to the federation", "Open swiss30", "Lille", "80 min + 1 min/move", "Swiss",
                     "Anna Arbiter", "Boris Deputy", "Final crosstable", "GMIF", "FRA", "2390",
                     # the unplayed and not-rated marks, each where the file has it
                     "+/19w", "-/2b", "-/25w", "=/24w", "1/17w",
                     "Games not sent for rating, and why",
                     "forfeit: the game was not played (competition rules 5.7)",
                     "double forfeit: neither player came (5.8)",
                     "marked “not rated” by the arbiter",
                     "bye given by the pairing: no opponent", "bye the player asked for: no opponent",
                     "corrected for the rating report only: the report has 1-1, the standings 2-0",
                     "result ruled by the arbiter (2.5 c)",
                     "Player20, Test withdrew after round 3.", "Signature", "The chief arbiter certifies this report."):
        assert expected in text, expected
    assert "Players\n30" in text or "Players 30" in text


def test_the_not_rated_list(swiss30: Tournament) -> None:
    listed = not_rated(rows.read_report(swiss30))
    assert [(r, b, w, bl, res) for r, b, w, bl, res, _ in listed] == [
        (1, 1, "Player01, Test", "Player16, Test", "2-0"),  # corrected for the rating report only
        (1, 3, "Player03, Test", "Player18, Test", "2F-0F"),  # forfeit (5.7)
        (1, 5, "Player05, Test", "Player20, Test", "0F-0F"),  # double forfeit (5.8)
        (1, 7, "Player07, Test", "Player22, Test", "1-1 not rated"),
        (2, 2, "Player02, Test", "Player09, Test", "1-0"),  # the arbiter's ruling, sent as ruled
        (2, 15, "Player29, Test", "–", "Bye"),
        (2, 16, "Player12, Test", "–", "Requested bye worth a draw (1)"),
        (4, 15, "Player28, Test", "–", "Bye"),
        (5, 15, "Player30, Test", "–", "Bye"),
    ]


def test_round_robin_report_pdf(round_robin10: Tournament) -> None:
    text = _text(report_pdf(rows.read_report(round_robin10)))
    assert "Round robin" in text and "Every game of the tournament was played and is sent for rating." in text
    assert "Player10, Test" in text and "18" in text


def test_user_text_is_escaped(swiss30: Tournament) -> None:
    swiss30.name = "Open <b>&amp; <img src='/etc/hostname'/>"
    swiss30.venue = "Hall <font"
    swiss30.save()
    text = _text(report_pdf(rows.read_report(swiss30)))
    assert "Open <b>&amp; <img src='/etc/hostname'/>" in text and "Hall <font" in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_pdf_renders_to_images(swiss30: Tournament, tmp_path: Path) -> None:
    """Rendered page by page, as the arbiter prints it (the pages were looked at: see the report)."""
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(report_pdf(rows.read_report(swiss30)))
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(pdf), str(tmp_path / "page")], check=True)
    assert sorted(p.name for p in tmp_path.glob("page-*.png")) == ["page-1.png", "page-2.png"]


def test_a_big_round_robin_grid_stays_on_the_page() -> None:
    """30 players: 30 grid columns fit the landscape page (cells narrowed, never below 5 mm)."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm

    from tournaments.federation.report_pdf import _crosstable

    report = rows.Report(tournament=None, rounds=29, round_robin=True, rows=tuple(  # type: ignore[arg-type]
        rows.ReportRow(place=i, rank=i, fmjd_id=None, title="", name=f"Player {i}", federation="FRA", rating=2000,
                       national_rating=None, points=0, withdrawn_after=None, expelled=False, cells=())
        for i in range(1, 31)))
    usable = landscape(A4)[0] - 24 * mm
    table = _crosstable(report, usable)
    assert sum(table._colWidths) <= usable + 0.01
    assert min(table._colWidths) >= 5 * mm - 0.01
