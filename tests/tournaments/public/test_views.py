"""Public pages: what a visitor reads, what stays hidden (404), who may print the score sheets."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Entry, Game, GameSheet, Player, RoundStatus, SheetStatus, System
from tournaments.players import roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    """The page as a reader sees it: tags dropped, whitespace folded."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def rr(make_tournament):  # type: ignore[no-untyped-def]
    """4-player round robin, rounds 1-2 completed, round 3 published with one result."""
    t = make_tournament(4, tiebreaks=["sonneborn_berger", "wins"])
    p = Entry.objects.get(tournament=t, pairing_number=1).player
    p.surname, p.given_name, p.title, p.federation = "Lefèvre", "Amélie", "MF", "FRA"
    p.save()
    play_round(t, {1: "2-0", 2: "1-1"})
    play_round(t, {1: "0-2", 2: "2F-0F"})
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    services.game_record_result(game=rnd.games.get(board=1), result="2-0")
    return t


def test_every_public_page_answers_and_names_the_player(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.filter(round__tournament=rr).first()
    assert game is not None
    for url in [
        reverse("tournaments:list"),
        reverse("tournaments:tournament", args=[rr.slug]),
        reverse("tournaments:standings", args=[rr.slug]),
        reverse("tournaments:crosstable", args=[rr.slug]),
        reverse("tournaments:round", args=[rr.slug, 1]),
        reverse("tournaments:player", args=[rr.slug, 1]),
        reverse("tournaments:game", args=[rr.slug, game.pk]),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        page = text_of(response)
        assert rr.name in page, url
    assert "Lefèvre, Amélie" in text_of(client.get(reverse("tournaments:standings", args=[rr.slug])))


def test_tournament_page_shows_facts_and_rounds(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    rr.venue, rr.time_control = "Salle des fêtes", "80 min + 1 min/move"
    rr.save()
    rr.chief_arbiter.first_name, rr.chief_arbiter.last_name = "Jan", "Scheffer"
    rr.chief_arbiter.save()
    page = text_of(client.get(reverse("tournaments:tournament", args=[rr.slug])))
    assert "Salle des fêtes" in page and "80 min + 1 min/move" in page
    assert "Round robin, 3 rounds" in page
    assert "Jan Scheffer" in page and "chief" not in page  # his full name, never his login
    assert re.search(r"Round 1 .*completed", page) and re.search(r"Round 3 .*in progress", page)


def test_hidden_things_are_404(client: Client, rr, make_tournament) -> None:  # type: ignore[no-untyped-def]
    hidden = make_tournament(4, slug="hidden")
    hidden.public = False
    hidden.save()
    for name in ("tournament", "standings", "crosstable", "standings_pdf", "crosstable_pdf"):
        assert client.get(reverse(f"tournaments:{name}", args=["hidden"])).status_code == 404, name
    assert "Test hidden" not in text_of(client.get(reverse("tournaments:list")))
    # A draft round of a public tournament: its page, its PDF, its games and ?round=N are 404.
    rnd3 = rr.rounds.get(number=3)
    rnd3.status = RoundStatus.DRAFT
    rnd3.save(update_fields=["status"])  # a plain save() never writes the state (services only)
    draft_game = rnd3.games.first()
    assert client.get(reverse("tournaments:round", args=[rr.slug, 3])).status_code == 404
    assert client.get(reverse("tournaments:pairings_pdf", args=[rr.slug, 3])).status_code == 404
    assert client.get(reverse("tournaments:game", args=[rr.slug, draft_game.pk])).status_code == 404
    assert client.get(reverse("tournaments:standings", args=[rr.slug]) + "?round=3").status_code == 404
    assert client.get(reverse("tournaments:standings", args=[rr.slug]) + "?round=x").status_code == 404
    assert client.get(reverse("tournaments:round", args=[rr.slug, 9])).status_code == 404
    assert client.get(reverse("tournaments:player", args=[rr.slug, 99])).status_code == 404
    # ...and the draft round's result is not in the public standings.
    page = text_of(client.get(reverse("tournaments:standings", args=[rr.slug])))
    assert "Standings after round 2" in page


def standings_rows(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    html = response.content.decode()
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    rows = []
    for tr in re.findall(r"<tr\b[^>]*>(.*?)</tr>", body, flags=re.S):
        rows.append([re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", td)).strip()
                     for _, td in re.findall(r"<(td|th)\b[^>]*>(.*?)</\1>", tr, flags=re.S)])  # th: the name
    return rows


def test_standings_columns_and_round_filter(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    from tournaments import selectors

    url = reverse("tournaments:standings", args=[rr.slug])
    response = client.get(url)
    html = response.content.decode()
    for header in ("Rank", "Player", "Rating", "Pts", "Games", "Sonneborn-Berger", "Wins"):
        assert f">{header}</th>" in html, header
    expected = selectors.standings(rr, public_only=True)
    rows = standings_rows(response)
    assert len(rows) == 4
    for row, want in zip(rows, expected, strict=True):
        assert row[0] == str(want.rank)
        assert want.player.name in row[1]
        assert row[3] == str(want.points)
        assert row[4] == str(want.played)
        assert row[5] == str(want.tiebreaks["sonneborn_berger"]) and row[6] == str(want.tiebreaks["wins"])
    after1 = standings_rows(client.get(url + "?round=1"))
    want1 = selectors.standings(rr, after_round=1, public_only=True)
    assert [r[3] for r in after1] == [str(w.points) for w in want1]
    assert sum(int(r[3]) for r in after1) == 4  # round 1: one win (2) and one draw (1 + 1)


def test_withdrawn_player_is_marked(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="sw", rounds_total=5)
    play_round(t)
    entry = Entry.objects.get(tournament=t, pairing_number=6)
    roster.entry_withdraw(entry=entry, after_round=1)
    response = client.get(reverse("tournaments:standings", args=["sw"]))
    html = response.content.decode()
    assert re.search(r'<tr class="withdrawn[^"]*"[^>]*>.*?Player06', html, flags=re.S)
    assert "withdrew after round 1" in text_of(response)


def test_round_robin_crosstable_grid(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    from tournaments import selectors

    cross = selectors.crosstable(rr, public_only=True)
    assert cross.round_robin and cross.headers == ["1", "2", "3", "4"]
    rows = standings_rows(client.get(reverse("tournaments:crosstable", args=[rr.slug])))
    # Columns: #, rank, player, rating, four cells, points, tie-breaks.
    for i, row in enumerate(rows):
        assert row[4 + i] == "X"
        cells = [c for j, c in enumerate(row[4:8]) if j != i]
        points = sum(int(v.rstrip("F")) for c in cells for v in c.split())
        assert points == int(row[8])
    all_cells = " ".join(c for row in rows for c in row[4:8])
    assert "2F" in all_cells and "0F" in all_cells


def test_swiss_crosstable_cells_read_opponent_colour_result(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(5, system=System.SWISS, slug="sw5", rounds_total=3)
    play_round(t, {1: "2-0", 2: "0F-2F"})
    rows = standings_rows(client.get(reverse("tournaments:crosstable", args=["sw5"])))
    line_of = {row[2].split()[0].rstrip(","): int(row[0]) for row in rows}
    rnd = t.rounds.get(number=1)
    for g in rnd.games.select_related("white__player", "black__player"):
        w = next(r for r in rows if r[2].startswith(g.white.player.surname))
        if g.black is None:
            assert w[4] == "+2 bye"
            continue
        b_line = line_of[g.black.player.surname]
        w_line = line_of[g.white.player.surname]
        b = next(r for r in rows if int(r[0]) == b_line)
        wpts, bpts = g.result.split("-")
        assert w[4] == f"{b_line}w{wpts}"
        assert b[4] == f"{w_line}b{bpts}"
    assert any(re.fullmatch(r"\d+b2F", r[4]) for r in rows)


def test_pairings_page_board_by_board(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    rows = standings_rows(client.get(reverse("tournaments:round", args=[rr.slug, 3])))
    games = list(rr.rounds.get(number=3).games.select_related("white__player", "black__player").order_by("board"))
    assert [r[0] for r in rows] == [str(g.board) for g in games]
    # A game without a result links "–", which a screen reader hears as "no result yet".
    assert rows[0][3] == "2-0" and rows[1][3] == "– no result yet"
    assert games[0].white.player.surname in rows[0][1] and games[0].black.player.surname in rows[0][4]
    assert "1 result still to come." in text_of(client.get(reverse("tournaments:round", args=[rr.slug, 3])))


def test_player_page_running_score_and_performance(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="perf")
    ratings = {1: 2400, 2: 2300, 3: 2200, 4: None}
    for pn, rating in ratings.items():
        Entry.objects.filter(tournament=t, pairing_number=pn).update(rating=rating)
    for _ in range(3):
        play_round(t)  # all draws
    entry = Entry.objects.get(tournament=t, pairing_number=1)
    # Turn his game against no. 2 into a win and the one against no. 3 into a forfeit win.
    for g in Game.objects.filter(round__tournament=t):
        pair = {g.white_id, g.black_id}
        if pair == {entry.pk, Entry.objects.get(tournament=t, pairing_number=2).pk}:
            g.result = "2-0" if g.white_id == entry.pk else "0-2"
        elif pair == {entry.pk, Entry.objects.get(tournament=t, pairing_number=3).pk}:
            g.result = "2F-0F" if g.white_id == entry.pk else "0F-2F"
        else:
            continue
        g.save()
    response = client.get(reverse("tournaments:player", args=["perf", 1]))
    rows = standings_rows(response)
    assert [r[5] for r in rows] == [str(x) for x in _running(rows)]
    assert rows[-1][5] == "5"  # a win, a forfeit win and a draw with the unrated player: 2 + 2 + 1
    # Performance: only the win against no. 2 (2300) is rated and over the board: p = 1.00, dp = +800.
    page = text_of(response)
    assert "Performance 3100 (1 rated game)" in page


def _running(rows: list[list[str]]) -> list[int]:
    total, out = 0, []
    for r in rows:
        total += int(r[4].rstrip("F")) if r[4][0].isdigit() else 0
        out.append(total)
    return out


SHORT_GAME = '[Event "Test"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n'


def test_game_page_without_sheet(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.filter(round__tournament=rr, round__number=1, board=1).get()
    page = text_of(client.get(reverse("tournaments:game", args=[rr.slug, game.pk])))
    assert "No sheet" in page and "2-0" in page
    assert game.white.player.surname in page


def test_game_page_with_sheet_draws_the_board_and_steps(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.filter(round__tournament=rr, round__number=1, board=1).get()
    GameSheet.objects.create(game=game, text=SHORT_GAME, status=SheetStatus.NOT_VERIFIABLE,
                             report={"verdict": "not verifiable from the sheet"})
    url = reverse("tournaments:game", args=[rr.slug, game.pk])
    response = client.get(url)
    page = text_of(response)
    html = response.content.decode()
    # Not ruled yet: the moves, no verdict.
    assert "the arbiter has not ruled on this sheet yet" in page and "Not verifiable" not in page
    assert "<svg" in html and html.count('class="p ') == 50
    assert "32-28" in page and "14x23" in page and "Half-move 5 of 5" in page
    # The move and the position in words, the current move marked for assistive technology.
    assert "Move 3, White 37-32" in page
    assert "White: men 31, 32, 33" in page and "Black to move." in page
    assert '<a href="?ply=5" data-ply="5" class="cur" aria-current="step">37-32</a>' in html
    assert 'aria-label="Board, Move 3, White 37-32"' in html
    # Final position: a white man on 32 (from 37), none on 37; the captured 19 square empty.
    assert 'class="p w" data-sq="32"' in html and 'class="p e" data-sq="37"' in html
    assert 'class="p e" data-sq="19"' in html and 'class="p b" data-sq="23"' in html
    start = client.get(url + "?ply=0").content.decode()
    assert 'class="p w" data-sq="37"' in start and 'class="p b" data-sq="19"' in start
    assert "Half-move 0 of 5" in text_of(client.get(url + "?ply=0"))
    assert "Move 2, Black 14x23, 1 piece captured: 19" in text_of(client.get(url + "?ply=4"))
    assert 'id="positions"' in html
    GameSheet.objects.filter(game=game).update(ruling=SheetStatus.NOT_VERIFIABLE)
    assert "Not verifiable from the sheet" in text_of(client.get(url))


def test_scoresheets_for_arbiters_only(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:scoresheets_pdf", args=[rr.slug, 3])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    stranger = get_user_model().objects.create_user("stranger", password="pw-stranger-1", is_staff=True)
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(rr.chief_arbiter)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    # An arbiter may print a draft round's sheets (before publishing); the public may not see it.
    rnd = rr.rounds.get(number=3)
    rnd.status = RoundStatus.DRAFT
    rnd.save(update_fields=["status"])  # a plain save() never writes the state (services only)
    assert client.get(url).status_code == 200


def test_listing_puts_current_tournaments_first(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    import datetime

    from django.utils import timezone

    today = timezone.localdate()
    day = datetime.timedelta(days=1)
    for slug, start, end in [("past", today - 30 * day, today - 20 * day), ("soon", today + 5 * day, None),
                             ("later", today + 50 * day, None), ("now", today - day, today + day)]:
        t = make_tournament(2, slug=slug)
        t.start_date, t.end_date = start, end
        t.save()
    page = text_of(client.get(reverse("tournaments:list")))
    order = [page.index(f"Test {slug}") for slug in ("now", "soon", "later", "past")]
    assert order == sorted(order)
    # The status follows the rounds, not the dates: no round is published yet.
    assert re.search(r"Test now .*upcoming", page)


def test_pages_of_a_tournament_without_any_round(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    make_tournament(3, slug="fresh")
    for name in ("tournament", "standings", "crosstable", "standings_pdf", "crosstable_pdf"):
        assert client.get(reverse(f"tournaments:{name}", args=["fresh"])).status_code == 200, name
    assert "No round has been published yet." in text_of(client.get(reverse("tournaments:tournament",
                                                                              args=["fresh"])))


def test_names_are_escaped(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    Player.objects.filter(entries__tournament=rr, entries__pairing_number=2).update(surname="<b>Bold</b>")
    for name in ("standings", "crosstable"):
        html = client.get(reverse(f"tournaments:{name}", args=[rr.slug])).content.decode()
        assert "<b>Bold</b>" not in html and "&lt;b&gt;Bold&lt;/b&gt;" in html, name


def test_double_round_robin_cells_hold_both_games(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug="drr")
    for _ in range(4):
        play_round(t, {1: "2-0"})
    rows = standings_rows(client.get(reverse("tournaments:crosstable", args=["drr"])))
    cells = [c for row in rows for j, c in enumerate(row[4:8]) if c != "X"]
    assert any(len(c.split()) == 2 for c in cells)  # met twice by round 4 (of 6)
    for row in rows:
        assert sum(int(v) for c in row[4:8] if c != "X" for v in c.split()) == int(row[8])


def test_crosstable_after_round(client: Client, rr) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:crosstable", args=[rr.slug])
    rows = standings_rows(client.get(url + "?round=1"))
    filled = [c for row in rows for c in row[4:8] if c not in ("", "X")]
    assert len(filled) == 4  # two games in round 1, seen from both sides
    assert "Crosstable after round 1" in text_of(client.get(url + "?round=1"))
