"""Tie-breaks by name in the tournament form, and the public help page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_permissions import scrape_form
from tournaments.models import Tournament
from tournaments.standings import TIEBREAKS

pytestmark = pytest.mark.django_db
ADD = "admin:tournaments_tournament_add"


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))



def new(client: Client, **fields: object) -> Tournament:
    data = scrape_form(client, reverse(ADD), name="New", slug="new", **fields)
    response = client.post(reverse(ADD), data)
    assert response.status_code == 302, text_of(response)[:3000]
    return Tournament.objects.get(slug="new")


def test_the_form_shows_names_never_keys(chief: Client) -> None:
    html = chief.get(reverse(ADD)).content.decode()
    assert "FMJD Swiss on Solkoff" in html and "KNDB round robin" in html and "Sonneborn-Berger" in html
    assert "solkoff_full_truncated" not in re.sub(r'(value|name|id|for)="[^"]*"', "", html)
    # every menu has its own label (keyboard and screen reader), and the help page is linked
    for i in range(6):
        assert f'for="id_tiebreaks_{i}"' in html
    assert reverse("tournaments:tiebreaks") in html
    # a plain form: no JavaScript is needed to submit it
    assert '<select name="tiebreaks_0"' in html


@pytest.mark.parametrize(("system", "order", "expected"), [
    ("round_robin", "rating", ["wins", "mutual_result", "ranking_order"]),
    ("swiss", "rating", ["mutual_result", "average_rating"]),
    ("swiss", "standing", ["solkoff_full_truncated", "solkoff_plus"]),
])
def test_a_new_tournament_starts_with_its_systems_preset(chief: Client, system: str, order: str,
                                                          expected: list[str]) -> None:
    t = new(chief, system=system, swiss_order=order, rounds_total=7)
    assert t.tiebreaks == expected


def test_a_named_preset_and_a_custom_order(chief: Client) -> None:
    t = new(chief, tiebreaks_0="kndb_round_robin")
    assert t.tiebreaks == ["mutual_result", "ranking_order"]
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    data = scrape_form(chief, url, tiebreaks_0="custom", tiebreaks_1="sonneborn_berger", tiebreaks_2="",
                       tiebreaks_3="wins")
    assert chief.post(url, data).status_code == 302
    t.refresh_from_db()
    assert t.tiebreaks == ["sonneborn_berger", "wins"]  # gaps closed, order kept
    page = text_of(chief.get(url))
    assert "Custom: the order below" in page


def test_an_edited_order_under_a_preset_is_kept_and_questioned(chief: Client) -> None:
    t = new(chief)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    data = scrape_form(chief, url, tiebreaks_1="solkoff", tiebreaks_2="wins", tiebreaks_3="")
    response = chief.post(url, data)
    assert response.status_code == 200
    page = text_of(response)
    assert "You changed the custom order but the preset menu says “FMJD round robin”" in page
    html = response.content.decode()
    assert re.search(r'<option value="solkoff" selected>', html)  # what he chose is still there
    t.refresh_from_db()
    assert t.tiebreaks == ["wins", "mutual_result", "ranking_order"]


def test_a_duplicate_in_the_custom_order_is_refused(chief: Client) -> None:
    data = scrape_form(chief, reverse(ADD), name="New", slug="new", tiebreaks_0="custom", tiebreaks_1="wins",
                       tiebreaks_2="wins")
    response = chief.post(reverse(ADD), data)
    assert response.status_code == 200 and "A tie-break is chosen twice" in text_of(response)
    assert not Tournament.objects.filter(slug="new").exists()


def test_an_existing_tournament_without_tie_breaks_is_offered_the_standard(chief: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    assert t.tiebreaks == []
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = text_of(chief.get(url))
    assert "This tournament has no tie-breaks yet" in page
    assert chief.post(url, scrape_form(chief, url)).status_code == 302
    t.refresh_from_db()
    assert t.tiebreaks == ["wins", "mutual_result", "ranking_order"]


def test_the_form_in_french(chief: Client) -> None:
    page = text_of(chief.get(reverse(ADD), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Départage" in page and "Suisse FMJD au Solkoff" in page


def test_help_page_is_public_and_explains_every_tie_break(client: Client) -> None:
    page = text_of(client.get(reverse("tournaments:tiebreaks")))
    for key in TIEBREAKS:
        assert f'id="tb-{key}"' in client.get(reverse("tournaments:tiebreaks")).content.decode()
    assert "A bye or an excused round: an opponent scoring 0" in page
    assert "5.9 A.a" in page and "5.9 A.b" in page and "5.9 B" in page
    assert "FMJD Swiss on rating" in page and "KNDB round robin" in page


def test_help_page_of_a_tournament_and_its_links(client: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, tiebreaks=["solkoff", "wins"])
    page = text_of(client.get(reverse("tournaments:tournament_tiebreaks", args=[t.slug])))
    assert "In this tournament" in page
    assert page.index("Solkoff –") < page.index("Wins –")
    help_url = reverse("tournaments:tournament_tiebreaks", args=[t.slug])
    for name in ("standings", "crosstable"):
        assert help_url in client.get(reverse(f"tournaments:{name}", args=[t.slug])).content.decode()
    fr = text_of(client.get(help_url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Dans ce tournoi" in fr
