"""QR codes decoded back to the address they lead to: from the PDFs (rendered by pdftoppm) and the SVG of a
hall screen (rendered by segno's own PNG writer from the very markup's code, and read by zxing-cpp)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.hall import qr, screen_services
from tournaments.models import HallScreen, System

zxingcpp = pytest.importorskip("zxingcpp")
PIL = pytest.importorskip("PIL.Image")

needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is missing")


def decoded(png: bytes) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(PIL.open(io.BytesIO(png)))]


def pdf_page_png(pdf: bytes, tmp_path: Path, page: int = 1, dpi: int = 300) -> bytes:
    source = tmp_path / "in.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile",
                    str(source), str(tmp_path / "out")], check=True, timeout=60)
    return (tmp_path / "out.png").read_bytes()


@pytest.fixture
def round1(make_tournament):  # type: ignore[no-untyped-def]
    from tournaments.rounds import services

    t = make_tournament(12, system=System.SWISS, slug="qr-open", rounds_total=5)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    return t, rnd


def test_the_address_is_the_setting_else_the_requests_host(settings, rf) -> None:  # type: ignore[no-untyped-def]
    settings.DAMIER_SITE_URL = ""
    request = rf.get("/", HTTP_HOST="testserver")
    assert qr.absolute("/t/x/", request) == "http://testserver/t/x/"
    assert qr.absolute("/t/x/", None) is None
    settings.DAMIER_SITE_URL = "https://damier.example.org"
    assert qr.absolute("/t/x/", request) == "https://damier.example.org/t/x/"


@needs_pdftoppm
@pytest.mark.parametrize("pdf", ["pairings_pdf", "boards_pdf"])
def test_the_wall_sheets_qr_code_leads_to_the_rounds_live_page(round1, tmp_path, pdf) -> None:  # type: ignore[no-untyped-def]
    t, rnd = round1
    response = Client().get(reverse(f"tournaments:{pdf}", args=[t.slug, 1]))
    assert response.status_code == 200
    assert decoded(pdf_page_png(response.content, tmp_path)) == ["http://testserver/t/qr-open/round/1/"]


@needs_pdftoppm
@pytest.mark.parametrize("pdf", ["scoresheets_pdf", "slips_pdf"])
def test_each_score_sheet_and_slip_leads_to_its_games_page(round1, chief, tmp_path, settings, pdf) -> None:  # type: ignore[no-untyped-def]
    settings.DAMIER_SITE_URL = "https://damier.example.org"
    t, rnd = round1
    response = chief.get(reverse(f"tournaments:{pdf}", args=[t.slug, 1]))
    assert response.status_code == 200
    games = list(rnd.games.exclude(black=None).order_by("board"))
    found = decoded(pdf_page_png(response.content, tmp_path))
    if pdf == "scoresheets_pdf":  # a page a sheet: the first game's, and White's own code to report it
        from tournaments.boards.codes import live_code

        token = live_code(games[0].white).token
        assert sorted(found) == [f"https://damier.example.org/t/qr-open/board/{token}/",
                                 f"https://damier.example.org/t/qr-open/game/{games[0].pk}/"]
    else:  # eight slips a page
        assert sorted(found) == sorted(f"https://damier.example.org/t/qr-open/game/{g.pk}/" for g in games[:8])


def test_a_private_tournaments_prints_carry_no_code(round1, chief, tmp_path) -> None:  # type: ignore[no-untyped-def]
    t, rnd = round1
    type(t).objects.filter(pk=t.pk).update(public=False)
    response = chief.get(reverse("tournaments:pairings_pdf", args=[t.slug, 1]))
    assert response.status_code == 200
    if shutil.which("pdftoppm"):
        assert decoded(pdf_page_png(response.content, tmp_path)) == []


def test_the_hall_screens_svg_decodes_to_the_rounds_page(round1) -> None:  # type: ignore[no-untyped-def]
    t, rnd = round1
    screen = screen_services.screen_save(screen=HallScreen(tournament=t, name="A", shows=["pairings"]),
                                         expected_version=None)
    html = Client().get(reverse("tournaments:hall_screen", args=[t.slug, screen.token])).content.decode()
    svg = re.search(r"<svg[^>]*>.*?</svg>", html, re.S)
    assert svg is not None and 'role="img"' in svg.group(0)
    url = "http://testserver/t/qr-open/round/1/"
    # The page's markup is segno's SVG of that address: drawn again as a PNG from the same path, it decodes.
    path = re.search(DARK, svg.group(0)).group(1)  # type: ignore[union-attr]
    assert path in qr.svg(url, label="x")
    png = render_svg_path(svg.group(0))
    assert decoded(png) == [url]


DARK = r'<path stroke="#000" d="([^"]+)"'  # the dark modules (segno paints the light square first)


def render_svg_path(svg: str) -> bytes:
    """A segno SVG (one path of horizontal runs, 'M x y h n m dx dy h n ...') painted onto a bitmap."""
    from PIL import ImageDraw

    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box is not None
    size = int(box.group(1))
    scale = 10
    image = PIL.new("L", (size * scale, size * scale), 255)
    pen = ImageDraw.Draw(image)
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", re.search(DARK, svg).group(1)):  # type: ignore[union-attr]
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            length = float(a)
            pen.rectangle([x * scale, (y - 0.5) * scale, (x + length) * scale - 1, (y + 0.5) * scale - 1], fill=0)
            x += length
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
