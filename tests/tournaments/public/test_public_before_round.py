"""The public starting rank list and a round robin's schedule, readable before round 1."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Numbering, Player, System, Tournament
from tournaments.players import roster
from tournaments.rounds import services


def _rows(html: str, table: str = "ranks-1") -> list[list[str]]:
    body = html[html.index(f'id="{table}"'):]
    body = body[:body.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body[body.index("<tbody>"):], re.S)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
            for r in rows]


@pytest.fixture
def field(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="field", rounds_total=5)
    clubs = {1: ("Zwolle", "NED", "Émile"), 2: ("", "FRA", "Zoe"), 3: ("Amiens", "FRA", "Anna"),
             4: ("Amiens", "", "Bob")}
    for e in t.entries.select_related("player"):
        club, fed, surname = clubs[e.pairing_number]
        Player.objects.filter(pk=e.player_id).update(club=club, federation=fed, surname=surname, title="MF" if
                                                     e.pairing_number == 1 else "")
    # The title is the one the entry kept (as entered): set as if the player held it then.
    t.entries.filter(pairing_number=1).update(title="MF")
    return t


def test_rank_list_before_round_one_has_every_column(field, client: Client) -> None:
    html = client.get(reverse("tournaments:rank_list", args=[field.slug])).content.decode()
    rows = _rows(html)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    assert rows[0][1] == "MF" and rows[0][2].startswith("Émile") and rows[0][4] == "2390" and rows[0][5] == "Zwolle"
    assert rows[1][3] == "FRA"
    page = client.get(reverse("tournaments:tournament", args=[field.slug])).content.decode()
    assert reverse("tournaments:rank_list", args=[field.slug]) in page
    assert reverse("tournaments:schedule", args=[field.slug]) not in page  # a Swiss has none


def test_rank_list_alphabetical_folds_accents(field, client: Client) -> None:
    html = client.get(reverse("tournaments:rank_list", args=[field.slug]) + "?order=name").content.decode()
    assert [r[2].split(",")[0] for r in _rows(html)] == ["Anna", "Bob", "Émile", "Zoe"]


@pytest.mark.parametrize(("order", "groups", "first"), [
    ("federation", ["FRA", "NED", "No federation"], ["2", "3"]),
    ("club", ["Amiens", "Zwolle", "No club"], ["3", "4"]),
])
def test_rank_list_by_group(field, client: Client, order, groups, first) -> None:  # type: ignore[no-untyped-def]
    html = client.get(reverse("tournaments:rank_list", args=[field.slug]) + f"?order={order}").content.decode()
    assert re.findall(r"<h2>(.*?)</h2>", html) == groups
    assert [r[0] for r in _rows(html)] == first


def test_rank_list_refuses_an_unknown_order(field, client: Client) -> None:
    assert client.get(reverse("tournaments:rank_list", args=[field.slug]) + "?order=x").status_code == 404


def test_rank_list_order_is_a_cached_parameter(field, client: Client, page_cache) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:rank_list", args=[field.slug])
    first = client.get(url + "?order=name")
    again = client.get(url + "?order=name")
    assert first.status_code == again.status_code == 200
    assert first.headers.get("ETag") and first.headers.get("ETag") == again.headers.get("ETag")
    assert client.get(url).headers.get("ETag") != first.headers.get("ETag")


def test_schedule_appears_once_the_numbers_are_drawn(make_tournament, client: Client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(5, slug="rr5")
    url = reverse("tournaments:schedule", args=[t.slug])
    assert "not drawn yet" in client.get(url).content.decode()
    roster.entries_draw_lots(tournament=t, seed=7)
    t.refresh_from_db()
    assert t.numbering == Numbering.LOT
    html = client.get(url).content.decode()
    assert html.count('class="sched-round"') == 5  # five players: five rounds, a free round in each
    names = {e.pairing_number: e.player.full_name for e in t.entries.select_related("player")}
    rows = _rows(html, "schedule-1")
    assert len(rows) == 3 and sum(1 for r in rows if r[2] in ("bye",)) == 1
    played = [r for r in rows if r[0]]
    for r in played:
        white, black = (int(x.split(".")[0]) for x in r[1:3])
        assert names[white] in r[1] and names[black] in r[2]
    # the schedule is the one the pairing then follows
    rnd = services.round_pair(tournament=t)
    pairs = {(g.white.pairing_number, g.black.pairing_number) for g in rnd.games.filter(black__isnull=False)
             .select_related("white", "black")}
    assert pairs == {tuple(int(x.split(".")[0]) for x in r[1:3]) for r in played}
    page = client.get(reverse("tournaments:tournament", args=[t.slug])).content.decode()
    assert url in page


def test_schedule_is_a_round_robin_page(make_tournament, client: Client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="sw", rounds_total=3)
    assert client.get(reverse("tournaments:schedule", args=[t.slug])).status_code == 404
