"""The prints of the arbiter's desk: every bye named by its kind and value, a private tournament printed by its
arbiters only (and never cached), the starting rank list, the result slips and a round robin's schedule."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tests.tournaments.printing.test_pdf_wall import read
from tournaments.conformance.events import NeedsConfirmation
from tournaments.models import Entry, Game, Player, System, Tournament
from tournaments.players.requested_byes import bye_request
from tournaments.printing import rounds as printed_rounds
from tournaments.results import Result
from tournaments.rounds import services

pytestmark = pytest.mark.django_db

BYE_WORDS = {
    Result.EXCUSED: "absent (requested bye 0)",
    Result.EXCUSED_DRAW: "requested bye +1 (draw)",
    Result.EXCUSED_WIN: "requested bye +2 (win)",
    Result.BYE: "pairing bye +2",
}


@pytest.fixture
def byes_round(make_tournament):  # type: ignore[no-untyped-def]
    """Round 1 of a ten-player Swiss, published: three requested byes (0, 1 and 2 points) and, seven
    players being left, the pairing's bye."""
    t = make_tournament(10, system=System.SWISS, slug="byes", rounds_total=5)
    entries = list(t.entries.order_by("pairing_number"))
    for entry, points in zip(entries[-3:], (0, 1, 2), strict=True):
        try:
            bye_request(entry=entry, round_number=1, points=points)
        except NeedsConfirmation as asked:  # a bye worth a win asks the arbiter to confirm it
            bye_request(entry=entry, round_number=1, points=points, confirmed=[w.code for w in asked.warnings])
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    alone = {Result(g.result): g for g in rnd.games.select_related("white__player").filter(black__isnull=True)}
    assert set(alone) == set(BYE_WORDS), alone
    return t, rnd, alone


def test_bye_text_names_each_kind_and_value() -> None:
    for result, words in BYE_WORDS.items():
        assert printed_rounds.bye_text(Game(result=result), 2) == words
    assert printed_rounds.bye_text(Game(result=Result.BYE), 1) == "pairing bye +1"
    assert printed_rounds.bye_text(Game(result=Result.BYE), 0) == "free round (no game)"


def test_pairings_pdf_lists_every_bye_by_kind_after_the_boards_without_a_board(client: Client, byes_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, alone = byes_round
    _reader, text = read(client.get(reverse("tournaments:pairings_pdf", args=[t.slug, 1])))
    lines = text.splitlines()
    last_board = max(i for i, ln in enumerate(lines)
                     for g in rnd.games.filter(black__isnull=False).select_related("white__player")
                     if g.white.player.full_name in ln)
    for result, game in alone.items():
        name = game.white.player.full_name
        at = next(i for i, ln in enumerate(lines) if name in ln)
        assert at > last_board, f"{result}: listed before the boards\n{text}"
        # pairing number, name, points before (0), the bye's words: no board number on the line
        assert re.search(rf"^\s*{game.white.pairing_number}\s+{re.escape(name)}\s+0\s+{re.escape(BYE_WORDS[result])}"
                         r"\s*$", lines[at]), lines[at]
    assert "excused" not in text.lower()


def test_boards_pdf_names_each_bye_without_a_board(client: Client, byes_round) -> None:  # type: ignore[no-untyped-def]
    t, _rnd, alone = byes_round
    _reader, text = read(client.get(reverse("tournaments:boards_pdf", args=[t.slug, 1])))
    for result, game in alone.items():
        name = game.white.player.full_name
        assert re.search(rf"{re.escape(name)}\s+{game.white.pairing_number}\s+–\s+{re.escape(BYE_WORDS[result])}",
                         text), f"{result}\n{text}"


def test_slips_and_score_sheets_skip_the_byes(byes_round) -> None:  # type: ignore[no-untyped-def]
    t, _rnd, alone = byes_round
    client = Client()
    client.force_login(t.chief_arbiter)
    for name in ("slips_pdf", "scoresheets_pdf"):
        _reader, text = read(client.get(reverse(f"tournaments:{name}", args=[t.slug, 1])))
        for game in alone.values():
            assert game.white.player.full_name not in text, name


# --- a private tournament -------------------------------------------------------------------------------


def private(make_tournament, n: int) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(n)
    Tournament.objects.filter(pk=t.pk).update(public=False)
    t.refresh_from_db()
    return t


def _users(db: None):  # type: ignore[no-untyped-def]
    users = get_user_model().objects
    return (users.create_user("other", password="pw-other-123", is_staff=True),
            users.create_superuser("boss", password="pw-boss-123"))


PRIVATE_URLS = [("pairings_pdf", [1]), ("boards_pdf", [1]), ("standings_pdf", []), ("crosstable_pdf", []),
                ("starting_list_pdf", []), ("schedule_pdf", [])]


def test_a_private_tournament_prints_for_its_arbiters_only_and_is_never_cached(
        make_tournament, arbiter, page_cache) -> None:  # type: ignore[no-untyped-def]
    from django.core.cache import cache, caches

    t = private(make_tournament, 4)
    play_round(t)
    other, boss = _users(None)
    deputy = get_user_model().objects.create_user("deputy", password="pw-deputy-123", is_staff=True)
    t.deputy_arbiters.add(deputy)
    for name, extra in PRIVATE_URLS:
        url = reverse(f"tournaments:{name}", args=[t.slug, *extra])
        assert Client().get(url).status_code == 404, name  # the public
        staff = Client()
        staff.force_login(other)
        assert staff.get(url).status_code == 404, name  # an arbiter of other tournaments
        for user in (arbiter, deputy, boss):
            mine = Client()
            mine.force_login(user)
            response = mine.get(url)
            read(response)
            control = response["Cache-Control"]
            assert "private" in control and "no-store" in control, (name, control)
            assert "X-Damier-Cache" not in response
    assert not list(cache._list_cache_files()), "a private PDF was stored in the shared cache"  # type: ignore[attr-defined]
    assert not caches["pages-local"]._cache, "a private PDF was kept in the process's memory"  # type: ignore[attr-defined]
    # Made public, the first reader renders the page: nothing the arbiters saw was waiting under its key.
    Tournament.objects.filter(pk=t.pk).update(public=True)
    response = Client().get(reverse("tournaments:standings_pdf", args=[t.slug]))
    assert response.status_code == 200 and response["X-Damier-Cache"] == "miss"


def test_control_room_links_every_print_of_a_private_tournament(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = private(make_tournament, 4)
    play_round(t)
    html = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    for name, extra in [("pairings_pdf", [1]), ("boards_pdf", [1]), ("slips_pdf", [1]), ("scoresheets_pdf", [1]),
                        ("standings_pdf", []), ("crosstable_pdf", []), ("starting_list_pdf", []),
                        ("schedule_pdf", [])]:
        assert reverse(f"tournaments:{name}", args=[t.slug, *extra]) in html, name
    assert f'href="{reverse("tournaments:tournament", args=[t.slug])}"' not in html  # no public page to link


# --- the starting rank list ------------------------------------------------------------------------------


def _field(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="field", rounds_total=5)
    data = {1: ("Zorin", "RUS", "Moscou DC", "GMI"), 2: ("Émile", "FRA", "", ""), 3: ("Adama", "SEN", "Dakar", "MI"),
            4: ("Broken <b", "", "Amp & <font size=40>", "")}
    for entry in t.entries.select_related("player"):
        surname, fed, club, title = data[entry.pairing_number]
        Player.objects.filter(pk=entry.player_id).update(surname=surname, given_name="", federation=fed, club=club,
                                                         title=title)
        Entry.objects.filter(pk=entry.pk).update(title=title)  # the title the entry keeps, as if held at entry
    return t


def _order(text: str, names: list[str]) -> list[str]:
    lines = text.splitlines()
    return sorted(names, key=lambda n: next(i for i, ln in enumerate(lines) if n in ln))


def test_starting_list_before_round_1_in_four_orders(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = _field(make_tournament)
    url = reverse("tournaments:starting_list_pdf", args=[t.slug])
    names = ["Zorin", "Émile", "Adama", "Broken <b"]
    _reader, text = read(client.get(url))
    assert _order(text, names) == ["Zorin", "Émile", "Adama", "Broken <b"]
    assert re.search(r"^\s*1\s+GMI\s+Zorin\s+RUS\s+2390\s+Moscou DC\s*$", text, re.M), text
    assert re.search(r"^\s*3\s+MI\s+Adama\s+SEN\s+2370\s+Dakar\s*$", text, re.M), text
    assert "Amp & <font size=40>" in text  # a club is text, never markup
    _reader, text = read(client.get(url + "?order=name"))
    assert _order(text, names) == ["Adama", "Broken <b", "Émile", "Zorin"]
    _reader, text = read(client.get(url + "?order=federation"))
    assert _order(text, names) == ["Émile", "Zorin", "Adama", "Broken <b"]  # no federation: last
    _reader, text = read(client.get(url + "?order=club"))
    assert _order(text, names) == ["Broken <b", "Adama", "Zorin", "Émile"]  # "Amp…", "Dakar", "Moscou", none
    assert client.get(url + "?order=rating").status_code == 404


# --- result slips ----------------------------------------------------------------------------------------


def test_result_slips_eight_to_a_page_for_the_arbiters(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = private(make_tournament, 20)
    rnd = services.round_pair(tournament=t)  # a draft: slips are printed before the round is published
    url = reverse("tournaments:slips_pdf", args=[t.slug, 1])
    assert Client().get(url).status_code == 302  # to the log-in page
    staff = Client()
    staff.force_login(_users(None)[0])
    assert staff.get(url).status_code == 403
    mine = Client()
    mine.force_login(arbiter)
    reader, text = read(mine.get(url))
    assert len(reader.pages) == 2  # ten boards, eight to a page
    for g in rnd.games.select_related("white__player", "black__player"):
        assert re.search(rf"Board {g.board}\b", text), g.board
        assert f"{g.white.pairing_number}. {g.white.player.full_name}" in text
        assert f"{g.black.pairing_number}. {g.black.player.full_name}" in text
    first = reader.pages[0].extract_text()
    assert first.count("2-0") == first.count("1-1") == first.count("0-2") == 8
    assert first.count("White's signature") == 8


# --- a round robin's schedule ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "system", "rounds"), [(6, System.DOUBLE_ROUND_ROBIN, 10), (10, System.ROUND_ROBIN, 9),
                                                     (7, System.ROUND_ROBIN, 7), (20, System.ROUND_ROBIN, 19)])
def test_schedule_pdf_every_round_on_one_landscape_sheet(client: Client, make_tournament, n, system, rounds) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(n, system=system)
    if n > 10:  # short surnames, as most are: "Player01, Test" cannot fit seven rounds across
        for entry in t.entries.all():
            Player.objects.filter(pk=entry.player_id).update(surname=f"Kok{entry.pairing_number}")
    reader, text = read(client.get(reverse("tournaments:schedule_pdf", args=[t.slug])))
    assert len(reader.pages) == 1
    assert reader.pages[0].mediabox.width > reader.pages[0].mediabox.height
    found = {int(m) for m in re.findall(r"Round (\d+)", text)}
    assert found == set(range(1, rounds + 1)), text
    from tournaments.rounds import round_control

    first = round_control.berger_table(t)[0]
    white, black = first[0]
    name = white.player.full_name if n <= 10 else white.player.surname  # the surname where the name does not fit
    assert re.search(rf"1\s+{white.pairing_number}\. {re.escape(name)}", text), text
    if n % 2:
        assert "free round" in text


def test_schedule_pdf_of_a_swiss_is_a_404(client: Client, swiss9) -> None:  # type: ignore[no-untyped-def]
    assert client.get(reverse("tournaments:schedule_pdf", args=[swiss9.slug])).status_code == 404


def test_empty_starting_list_and_a_schedule_before_the_numbers_run_1_to_n(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(0, system=System.SWISS, slug="empty", rounds_total=5)
    _reader, text = read(client.get(reverse("tournaments:starting_list_pdf", args=[t.slug])))
    assert "No player entered yet." in text
    rr = make_tournament(5)
    rr.entries.get(pairing_number=3).delete()  # numbers 1, 2, 4, 5: no Berger table yet
    _reader, text = read(client.get(reverse("tournaments:schedule_pdf", args=[rr.slug])))
    assert "number the players first" in text.replace("\n", " ")
