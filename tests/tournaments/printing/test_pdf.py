"""The PDFs read back as text: names with accents and Cyrillic, scores, totals, one sheet per copy."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tournaments import selectors
from tournaments.management.commands.load_demo import ARBITER_USERNAME, SLUG
from tournaments.models import Tournament
from tournaments.printing import document

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Tournament:
    call_command("load_demo", stdout=io.StringIO())
    return Tournament.objects.get(slug=SLUG)


def read(response) -> tuple[PdfReader, str]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    # Layout mode keeps each table row on one line, as printed.
    return reader, "\n".join(page.extract_text(extraction_mode="layout") for page in reader.pages)


def fonts(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]))
            descendants = font.get("/DescendantFonts")
            for d in descendants or []:
                assert "/FontFile2" in d.get_object()["/FontDescriptor"], "font not embedded"
    return names


def test_standings_pdf_names_points_and_total(client: Client, demo: Tournament) -> None:
    reader, text = read(client.get(reverse("tournaments:standings_pdf", args=[SLUG])))
    assert reader.pages[0].mediabox.width < reader.pages[0].mediabox.height  # three tie-breaks: portrait A4
    assert "Коваленко, Андрій" in text and "Groeneveld, Joséphine" in text and "Øvergaard, Søren" in text
    # Round 9 of the demo has 2 of its 5 results: not "after round 9".
    assert "Standings – round 9 in progress (3 results missing)" in text
    rows = selectors.standings(demo, public_only=True)
    lines = text.splitlines()
    for row in rows:
        line = next(ln for ln in lines if row.player.name in ln)
        after = line.split(row.player.name, 1)[1].split()
        # after the name: title, federation, rating, points, games, then the tie-breaks
        numbers = [w for w in after if re.fullmatch(r"\d+|–", w)]
        assert numbers[:3] == [str(row.player.rating), str(row.points), str(row.played)], line
    total = sum(r.points for r in rows)
    assert re.search(rf"Total\s+{total}\b", text)
    assert {n.split("+")[-1] for n in fonts(reader)} == {"DejaVuSans", "DejaVuSans-Bold"}


def test_crosstable_pdf_is_landscape_with_every_cell(client: Client, demo: Tournament) -> None:
    reader, text = read(client.get(reverse("tournaments:crosstable_pdf", args=[SLUG])))
    box = reader.pages[0].mediabox
    assert box.width > box.height
    assert "Crosstable – round 9 in progress (3 results missing)" in text
    cross = selectors.crosstable(demo, public_only=True)
    lines = text.splitlines()
    for line in cross.lines:
        name = line.standing.player.name
        printed = next(ln for ln in lines if name in ln)
        after = printed.split(name, 1)[1].split()
        after = after[after.index(str(line.standing.player.rating)) + 1:]
        cells = [c.text for c in line.cells if c.text]
        # after the rating: each cell of the grid (X on the diagonal), then the points
        assert after[:len(cells)] == cells, printed
        assert after[len(cells)] == str(line.standing.row.points), printed
    assert "Коваленко" in text and "Lefèvre" in text
    assert {n.split("+")[-1] for n in fonts(reader)} == {"DejaVuSans", "DejaVuSans-Bold"}


def test_pairings_pdf_lists_boards_and_results(client: Client, demo: Tournament) -> None:
    reader, text = read(client.get(reverse("tournaments:pairings_pdf", args=[SLUG, 9])))
    games = list(selectors.round_games(demo.rounds.get(number=9)))
    assert "Round 9 pairings" in text
    for g in games:
        assert g.white.player.full_name in text and g.black.player.full_name in text
    recorded = [g for g in games if g.result]
    assert len(recorded) == 2
    for g in recorded:
        assert re.search(rf"{re.escape(g.white.player.full_name)}.*{re.escape(g.result)}", text)


def test_scoresheets_two_copies_per_game(client: Client, demo: Tournament) -> None:
    client.force_login(get_user_model().objects.get(username=ARBITER_USERNAME))
    reader, _ = read(client.get(reverse("tournaments:scoresheets_pdf", args=[SLUG, 9])))
    games = list(selectors.round_games(demo.rounds.get(number=9)))
    assert len(reader.pages) == 2 * len(games)
    assert {n.split("+")[-1] for n in fonts(reader)} == {"DejaVuSans", "DejaVuSans-Bold"}
    for i, g in enumerate(games):
        for copy in (1, 2):
            page = reader.pages[2 * i + copy - 1].extract_text()
            assert f"Copy {copy} of 2" in page
            assert f"Round 9 – Board {g.board}" in page
            assert g.white.player.full_name in page and g.black.player.full_name in page
            assert page.index("White") < page.index(g.white.player.full_name) < page.index("Black")
            numbers = set(re.findall(r"^\d+$", page, flags=re.M))
            assert {str(n) for n in range(1, 101)} <= numbers


def test_missing_font_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(document, "FONT_DIR", tmp_path)
    monkeypatch.setattr(document.pdfmetrics, "getRegisteredFontNames", lambda: [])
    with pytest.raises(document.FontMissingError, match="fonts-dejavu-core"):
        document.register_fonts()


def test_every_printed_page_carries_the_mark_of_a_tournament_that_left_the_conformance_mode(
        client: Client, demo: Tournament) -> None:
    """The permanent mark of the public pages is on the printouts too, on every page."""
    mark = "This tournament left the conformance mode during round 4."
    urls = [reverse(name, args=[SLUG]) for name in ("tournaments:standings_pdf", "tournaments:crosstable_pdf")]
    for url in urls:
        assert mark not in read(client.get(url))[1]
    Tournament.objects.filter(pk=demo.pk).update(conformance_left_round=4, cache_version=F("cache_version") + 1)
    for url in urls:
        reader, _ = read(client.get(url))
        assert all(mark in page.extract_text() for page in reader.pages), url
