"""Wall sheets (pairings with numbers and points, 'find your board'), true headings, and hostile names
in every PDF (names reaching reportlab as markup)."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.play import play_round, play_swiss_round
from tournaments.models import Player, System, Tournament
from tournaments.players import roster
from tournaments.printing import document, rounds
from tournaments.rounds import services

pytestmark = pytest.mark.django_db

HOSTILE = ["Broken <b", '<img src="/etc/hostname"/>', "Amp & <font size=40>x</font>"]


def read(response) -> tuple[PdfReader, str]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return reader, "\n".join(page.extract_text(extraction_mode="layout") for page in reader.pages)


def no_images(reader: PdfReader) -> bool:
    return all(not page["/Resources"].get("/XObject") for page in reader.pages)


def hostile_tournament(make_tournament, system: str = System.ROUND_ROBIN, n: int = 6, **kw) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(n, system=system, **kw)
    for entry, name in zip(t.entries.order_by("pairing_number"), HOSTILE, strict=False):
        Player.objects.filter(pk=entry.player_id).update(surname=name, given_name="")
    return t


def test_markup_helper_escapes_reportlab_markup() -> None:
    assert document.markup('Broken <b & <img src="/etc/hostname"/>') == \
        'Broken &lt;b &amp; &lt;img src="/etc/hostname"/&gt;'


def test_standings_and_crosstable_pdfs_print_hostile_names_as_text(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    # A withdrawn player's note is a paragraph: "Broken <b" made both PDFs answer 500.
    t = hostile_tournament(make_tournament)
    play_round(t)
    roster.entry_withdraw(entry=t.entries.get(pairing_number=1), after_round=1)
    for name in ("standings_pdf", "crosstable_pdf"):
        reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug])))
        assert "Broken <b" in text, name
        assert "<img" in text, name
        assert no_images(reader), f"{name}: an image was embedded"


def test_pairings_boards_and_scoresheet_pdfs_print_hostile_names(client: Client, make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = hostile_tournament(make_tournament)
    play_round(t, complete=False)
    client.force_login(arbiter)
    for name in ("pairings_pdf", "boards_pdf", "scoresheets_pdf"):
        reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        assert "Broken <b" in text and "<img" in text, name
        assert no_images(reader), name


def test_pairings_pdf_numbers_points_before_and_one_bye_line(client: Client, swiss9: Tournament) -> None:
    play_swiss_round(swiss9)
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    services.round_publish(round=rnd)
    reader, text = read(client.get(reverse("tournaments:pairings_pdf", args=[swiss9.slug, 3])))
    assert reader.pages[0].mediabox.width > reader.pages[0].mediabox.height  # landscape, wall size
    from tournaments import selectors
    points = {r.player.id: r.points for r in selectors.standings(swiss9, after_round=2)}
    lines = text.splitlines()
    for g in rnd.games.select_related("white__player", "black__player"):
        line = next(ln for ln in lines if g.white.player.full_name in ln)
        if g.black is None:
            # one bye line: the player, his points, then the bye once
            # after the boards, without a board: the player, his points, then the bye once, kind and value
            assert re.search(rf"^\s*{g.white.pairing_number}\s+{re.escape(g.white.player.full_name)}"
                             rf".*\s{points[g.white_id]}\s+pairing bye \+2\s*$", line), line
            assert text.lower().count("pairing bye") == 1, text
            continue
        assert re.search(
            rf"^\s*{g.board}\s+{g.white.pairing_number}\s+{re.escape(g.white.player.full_name)}.*"
            rf"\s{points[g.white_id]}\s+{points[g.black_id]}\s+{re.escape(g.black.player.full_name)}.*"
            rf"\s{g.black.pairing_number}\s*$", line), line
    # 16-pt names: readable from two metres (see printing.rounds.WALL_SIZE)
    sizes: set[int] = set()
    reader.pages[0].extract_text(
        visitor_text=lambda t, cm, tm, fd, fs: sizes.add(round(fs * tm[0])) if t.strip() else None)
    assert rounds.WALL_SIZE in sizes


def test_boards_pdf_is_alphabetical_with_board_colour_and_opponent(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(5)
    Player.objects.filter(entries__tournament=t, entries__pairing_number=2).update(surname="Émile")
    rnd = play_round(t, complete=False)
    _reader, text = read(client.get(reverse("tournaments:boards_pdf", args=[t.slug, 1])))
    names = [e.player.full_name for e in t.entries.select_related("player")]
    order = sorted(names, key=lambda n: n.replace("É", "E").casefold())
    firsts = [ln.strip() for ln in text.splitlines()]
    positions = [next(i for i, ln in enumerate(firsts) if ln.startswith(n)) for n in order]
    assert positions == sorted(positions), text
    for g in rnd.games.select_related("white__player", "black__player"):
        if g.black is None:
            assert re.search(rf"{re.escape(g.white.player.full_name)}\s+{g.white.pairing_number}\s+–\s+"
                             r"free round \(no game\)",
                             text), text
            continue
        assert re.search(rf"{re.escape(g.white.player.full_name)}\s+{g.white.pairing_number}\s+{g.board}\s+White\s+"
                         rf"{re.escape(g.black.player.full_name)} \({g.black.pairing_number}\)", text), text
        assert re.search(rf"{re.escape(g.black.player.full_name)}\s+{g.black.pairing_number}\s+{g.board}\s+Black\s+"
                         rf"{re.escape(g.white.player.full_name)} \({g.white.pairing_number}\)", text), text


def test_wall_pdfs_of_a_draft_are_for_its_arbiters_only(client: Client, make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model

    t = make_tournament(4)
    services.round_pair(tournament=t)
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    for name in ("boards_pdf", "pairings_pdf"):
        url = reverse(f"tournaments:{name}", args=[t.slug, 1])
        assert client.get(url).status_code == 404, name  # the public: a draft does not exist
        client.force_login(other)
        assert client.get(url).status_code == 404, name  # an arbiter of other tournaments neither
        client.force_login(arbiter)
        assert client.get(url).status_code == 200, name  # its arbiter checks it before publishing
        assert client.get(reverse(f"tournaments:{name}", args=[t.slug, 2])).status_code == 404
        client.logout()
    services.round_publish(round=t.rounds.get())
    assert client.get(reverse("tournaments:boards_pdf", args=[t.slug, 1])).status_code == 200
    Tournament.objects.filter(pk=t.pk).update(public=False)
    assert client.get(reverse("tournaments:boards_pdf", args=[t.slug, 1])).status_code == 404  # the public
    client.force_login(arbiter)  # a private tournament prints for its arbiters
    assert client.get(reverse("tournaments:boards_pdf", args=[t.slug, 1])).status_code == 200


def test_round_page_links_the_boards_pdf(client: Client, published_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, _arbiter_client = published_round
    html = client.get(reverse("tournaments:round", args=[t.slug, 1])).content.decode()
    assert reverse("tournaments:boards_pdf", args=[t.slug, 1]) in html
    assert reverse("tournaments:pairings_pdf", args=[t.slug, 1]) in html
