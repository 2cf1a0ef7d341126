"""The crosstable and the player page write byes, absences and missed rounds as short translated marks with
a legend, never the result codes ("excused-1"), on the web page and in the PDF, in English and French."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from reportlab.pdfbase import pdfmetrics

from tests.tournaments.play import play_round
from tournaments import selectors
from tournaments.models import Player, System
from tournaments.players import requested_byes, roster
from tournaments.printing.document import FONT
from tournaments.printing.standings import CELL_PADDING
from tournaments.public import notation

# The codes as a whole cell (the words "absent, excused" in the legend are not a code).
RAW = (">excused-1<", ">excused-2<", ">excused<", ">bye<", ">not played<", ">w<", "excused-")


@pytest.fixture
def day(make_tournament):  # type: ignore[no-untyped-def]
    """A nine-player Swiss over three rounds: byes asked for worth 0, 1 and 2 in round 2, a late entrant from
    round 2, a player withdrawn after round 1, and the pairing's own bye."""
    t = make_tournament(9, system=System.SWISS, slug="day", rounds_total=3)
    entries = {e.pairing_number: e for e in t.entries.all()}
    play_round(t)
    roster.entry_withdraw(entry=entries[9], after_round=1)
    for number, points in ((3, 0), (4, 1), (5, 2)):
        requested_byes.bye_request(entry=entries[number], round_number=2, points=points, confirmed=["*"])
    late = Player.objects.create(surname="Latecomer", given_name="Test", rating=1500, federation="FRA")
    roster.entry_add(tournament=t, player=late)
    play_round(t)
    return t


def _cells(t):  # type: ignore[no-untyped-def]
    return [c for ln in selectors.crosstable(t).lines for c in ln.cells]


def _page(client: Client, language: str, url: str) -> str:
    client.cookies["django_language"] = language
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.mark.parametrize(("language", "marks", "legend"), [
    ("en", ["+1 req", "+2 req", "0 abs", "–"], "a bye the player asked for, worth 1"),
    ("fr", ["+1 dem", "+2 dem", "0 abs", "–"], "bye demandé par le joueur, valant 1"),
])
def test_crosstable_page_writes_marks_and_legend(day, client: Client, language, marks, legend) -> None:  # type: ignore[no-untyped-def]
    html = _page(client, language, reverse("tournaments:crosstable", args=[day.slug]))
    body = html[html.index('id="crosstable"'):]
    body = body[:body.index("</table>")] + body[body.index('<ul class="legend'):]
    for raw in RAW:
        assert raw not in body, raw
    for mark in marks:
        assert f">{mark}<" in body, mark
    assert legend in body
    assert ("+2 bye" if language == "en" else "+2 exe") in body  # the pairing's bye of round 1


def test_every_code_has_its_mark(day) -> None:  # type: ignore[no-untyped-def]
    with translation.override("en"):
        texts = [notation.cell_text(c) for c in _cells(day)]
    assert {"+1 req", "+2 req", "0 abs", "+2 bye"} <= set(texts)
    # the late entrant's round 1 and the withdrawn player's round 2 have no game: "–"
    lines = selectors.crosstable(day).lines
    late = next(ln for ln in lines if ln.standing.player.name.startswith("Latecomer"))
    gone = next(ln for ln in lines if ln.standing.player.withdrawn)
    with translation.override("en"):
        assert notation.cell_text(late.cells[0]) == "–"
        assert notation.cell_text(gone.cells[1]) == "–"
    for text in texts:
        assert re.fullmatch(r"\d+[wb](2|1|0|2F|0F)?|\+[12] (req|bye)|0 abs|–", text), text


def test_colour_letters_follow_the_language(day) -> None:  # type: ignore[no-untyped-def]
    with translation.override("en"):
        en = notation.legend(_cells(day), round_robin=False)
    assert en[0].startswith("12w2") and "(w)" in en[0] and "(b)" in en[0]
    assert any(line.startswith("–:") for line in en)


def test_player_page_says_the_bye_in_words(day, client: Client) -> None:  # type: ignore[no-untyped-def]
    for number, words in ((3, "Absent, excused (0)"), (4, "Requested bye (+1)"), (5, "Requested bye (+2)")):
        html = _page(client, "en", reverse("tournaments:player", args=[day.slug, number]))
        body = html[html.index('id="games"'):]
        body = body[:body.index("</table>")]
        assert words in body
        for raw in RAW:
            assert raw not in body, raw


@pytest.mark.parametrize("language", ["en", "fr"])
def test_crosstable_pdf_cells_fit_their_column(day, client: Client, language) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pypdf")
    response = client.get(reverse("tournaments:crosstable_pdf", args=[day.slug]), HTTP_ACCEPT_LANGUAGE=language,
                          HTTP_COOKIE=f"django_language={language}")
    assert response.status_code == 200
    text = _pdf_text(response.content)
    assert "excused-" not in text and "not played" not in text
    assert not re.search(r"(^|\n)(excused|bye)(\n|$)", text)  # a code alone in its cell
    if language == "en":
        assert "+1 req" in text and "+2 req" in text and "0 abs" in text and "+2 bye" in text
        assert "a bye the player asked for, worth 2" in text
    else:
        assert "+1 dem" in text and "+2 dem" in text and "0 abs" in text and "+2 exe" in text
        assert "bye demandé par le joueur, valant 2" in text
    # every mark fits the width the PDF gives the round columns, in each language
    from tournaments.printing import standings as printing

    captured: dict[str, list[float]] = {}
    real = printing.styled_table

    def spy(rows, widths, **kwargs):  # type: ignore[no-untyped-def]
        captured["widths"] = list(widths)
        captured["rows"] = rows
        captured["size"] = 7 if kwargs.get("small") else 9
        return real(rows, widths, **kwargs)

    printing.styled_table = spy
    try:
        with translation.override(language):
            cross = selectors.crosstable(day)
            printing.crosstable_pdf(day, cross, heading="x")
    finally:
        printing.styled_table = real
    size = captured["size"]
    for row in captured["rows"][1:]:
        for j in range(len(cross.headers)):
            cell = str(row[4 + j])
            width = captured["widths"][4 + j]
            assert pdfmetrics.stringWidth(cell, FONT, size) + 2 * CELL_PADDING <= width, (cell, width)


def test_no_game_link_for_a_forfeit_or_a_bye(make_tournament, client: Client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(5, system=System.SWISS, slug="ff", rounds_total=3)
    rnd = play_round(t, {1: "2F-0F", 2: "1-1"})
    forfeit = rnd.games.get(board=1)
    played = rnd.games.get(board=2)
    html = client.get(reverse("tournaments:round", args=[t.slug, 1])).content.decode()
    assert reverse("tournaments:game", args=[t.slug, played.pk]) in html
    assert reverse("tournaments:game", args=[t.slug, forfeit.pk]) not in html
    bye = rnd.games.get(black__isnull=True)
    assert reverse("tournaments:game", args=[t.slug, bye.pk]) not in html
    assert "Bye (+2)" in html
    player = client.get(reverse("tournaments:player", args=[t.slug, forfeit.white.pairing_number])).content.decode()
    assert reverse("tournaments:game", args=[t.slug, forfeit.pk]) not in player


def test_a_game_waiting_for_its_result_names_the_opponent_not_a_missed_round(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="wait", rounds_total=3)
    play_round(t)
    rnd = play_round(t, {1: "2-0"}, complete=False)
    from tournaments.rounds import services

    waiting = rnd.games.get(board=2)
    services.game_record_result(game=waiting, result=None)
    lines = selectors.crosstable(t).lines
    line_of = {ln.standing.player.entry_id: i for i, ln in enumerate(lines, start=1)}
    white = next(ln for ln in lines if ln.standing.player.entry_id == waiting.white_id)
    with translation.override("en"):
        assert notation.cell_text(white.cells[1]) == f"{line_of[waiting.black_id]}w"


def test_a_long_swiss_crosstable_stays_on_the_page(day) -> None:  # type: ignore[no-untyped-def]
    """Fourteen rounds of the widest marks: the PDF takes the smaller type rather than run off the page."""
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.units import mm

    from tournaments.printing import standings as printing
    from tournaments.results import Result
    from tournaments.selectors import CrossCell, CrossLine, Crosstable

    cross = selectors.crosstable(day)
    wide = [CrossCell("excused-2", "R", result=Result.EXCUSED_WIN, points=2)] * 14
    long = Crosstable(False, 14, [str(n) for n in range(1, 15)], [CrossLine(ln.standing, wide) for ln in cross.lines],
                      ["solkoff", "sonneborn_berger", "wins"])
    captured: dict[str, list[float]] = {}
    real = printing.styled_table

    def spy(rows, widths, **kwargs):  # type: ignore[no-untyped-def]
        captured["widths"] = list(widths)
        return real(rows, widths, **kwargs)

    printing.styled_table = spy
    try:
        with translation.override("en"):
            assert printing.crosstable_pdf(day, long, heading="x").startswith(b"%PDF")
    finally:
        printing.styled_table = real
    assert sum(captured["widths"]) <= landscape(A4)[0] - 24 * mm + 0.01


@pytest.mark.django_db
def test_the_round_page_lists_a_bye_without_a_board_number(make_tournament, client) -> None:  # type: ignore[no-untyped-def]
    """As on the printed pairings: the player without an opponent sits at no board."""
    from tournaments.rounds import services

    t = make_tournament(5, system=System.SWISS, slug="odd", rounds_total=3)
    services.round_publish(round=services.round_pair(tournament=t))
    page = client.get(reverse("tournaments:round", args=[t.slug, 1])).content.decode()
    body = page[page.index("<tbody"):page.index("</tbody>")]
    assert re.findall(r'<td class="board num">([^<]*)</td>', body) == ["1", "2", ""]
