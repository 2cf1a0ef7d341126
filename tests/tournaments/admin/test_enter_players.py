"""The "Enter players" screen: its search endpoint, adds by POST (JSON and without the script), new players."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, Player, RatingKind, RatingList, RatingListRow, System, Tournament
from tournaments.models.register import search_key
from tournaments.players import enter, roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def swiss(arbiter) -> Tournament:  # type: ignore[no-untyped-def]
    return Tournament.objects.create(name="Open de Lyon", slug="lyon", system=System.SWISS, rounds_total=5,
                                     chief_arbiter=arbiter, start_date=datetime.date(2026, 11, 28))


@pytest.fixture
def fmjd_list() -> RatingList:
    lst = RatingList.objects.create(source="FMJD", kind=RatingKind.FMJD, published_on=datetime.date(2026, 10, 1))
    rows = [("Sørensen", "Ivar", 4711, "DEN", "MI", 2210, "M", 1990, "Aarhus"),
            ("<script>alert(1)</script>", "X", 4712, "NED", "", 1500, "", None, ""),
            ("Boomstra", "Roel", 4713, "NED", "GMI", 2400, "M", 1993, "")]
    RatingListRow.objects.bulk_create([
        RatingListRow(rating_list=lst, line=i, surname=s, given_name=g, fmjd_id=fid, federation=fed, title=title,
                      rating=rating, sex=sex, birth_year=born, club=club, folded=search_key(s, g))
        for i, (s, g, fid, fed, title, rating, sex, born, club) in enumerate(rows, start=1)])
    return lst


def urls(t: Tournament) -> tuple[str, str]:
    return (reverse("admin:tournaments_tournament_enter_players", args=[t.pk]),
            reverse("admin:tournaments_tournament_enter_search", args=[t.pk]))


def row(lst: RatingList, fmjd_id: int) -> RatingListRow:
    return lst.rows.get(fmjd_id=fmjd_id)


def test_the_search_answers_json_with_names_as_data(chief: Client, swiss: Tournament, fmjd_list: RatingList) -> None:
    page, search = urls(swiss)
    answer = chief.get(search, {"q": "scri"})
    assert answer["Content-Type"].startswith("application/json")
    assert b"<script>" not in answer.content and b"\\u003Cscript\\u003E" in answer.content
    data = json.loads(answer.content)
    assert data["candidates"][0]["name"] == "<script>alert(1)</script>, X"
    assert data["candidates"][0]["source"] == "FMJD 2026-10-01"
    assert json.loads(chief.get(search, {"q": "4711"}).content)["candidates"][0]["title"] == "MI"
    assert chief.get(page).status_code == 200


def test_another_arbiters_tournament_is_not_searched_nor_entered(swiss: Tournament, fmjd_list: RatingList) -> None:
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    client = Client()
    client.force_login(other)
    page, search = urls(swiss)
    assert client.get(search, {"q": "sor"}).status_code in (403, 404)
    answer = client.post(page, {"key": f"r{row(fmjd_list, 4711).pk}", "version": enter.entry_version(swiss)}, **JSON)
    assert answer.status_code in (403, 404)
    assert not Entry.objects.exists()
    anonymous = Client().get(search, {"q": "sor"})
    assert anonymous.status_code == 302 and b"Sorensen" not in anonymous.content


def test_a_list_row_makes_a_register_player_with_its_values_and_is_entered(
        chief: Client, swiss: Tournament, fmjd_list: RatingList) -> None:
    page, _search = urls(swiss)
    answer = chief.post(page, {"key": f"r{row(fmjd_list, 4711).pk}", "version": enter.entry_version(swiss)}, **JSON)
    data = json.loads(answer.content)
    assert answer.status_code == 200 and data["ok"], data
    assert data["said"] == "Added: Sørensen, Ivar, no. 1."
    assert data["entries"] == [{"number": 1, "name": "Sørensen, Ivar", "title": "MI", "rating": 2210,
                                "federation": "DEN"}]
    ivar = Player.objects.get(fmjd_id=4711)
    assert (ivar.federation, ivar.title, ivar.rating, ivar.sex, ivar.birth_year, ivar.club) == (
        "DEN", "MI", 2210, "M", 1990, "Aarhus")
    assert row(fmjd_list, 4711).player == ivar
    entry = Entry.objects.get(tournament=swiss)
    assert (entry.player, entry.rating, entry.title) == (ivar, 2210, "MI")
    # the same person again: the register's record now, refused in words as already entered
    again = chief.post(page, {"key": f"r{row(fmjd_list, 4711).pk}", "version": enter.entry_version(swiss)}, **JSON)
    assert again.status_code == 400 and "already entered" in json.loads(again.content)["error"]
    assert Player.objects.filter(fmjd_id=4711).count() == 1 and Entry.objects.count() == 1


def test_a_row_whose_id_the_register_has_enters_that_record(chief: Client, swiss: Tournament,
                                                            fmjd_list: RatingList) -> None:
    roel = Player.objects.create(surname="Boomstra", given_name="Roel", fmjd_id=4713, federation="NED")
    page, _search = urls(swiss)
    chief.post(page, {"key": f"r{row(fmjd_list, 4713).pk}", "version": enter.entry_version(swiss)}, **JSON)
    assert Entry.objects.get().player == roel and Player.objects.filter(fmjd_id=4713).count() == 1


def test_a_stale_version_is_refused_in_words_and_nothing_is_entered(chief: Client, swiss: Tournament,
                                                                    make_players) -> None:  # type: ignore[no-untyped-def]
    for p in make_players(4):
        roster.entry_add(tournament=swiss, player=p)
    read_at = enter.entry_version(swiss)
    services.round_pair(tournament=swiss)  # round 1 paired after the page was read
    late = Player.objects.create(surname="Late", given_name="Comer", rating=1500)
    page, _search = urls(swiss)
    answer = chief.post(page, {"key": f"p{late.pk}", "version": read_at, "q": "late"}, **JSON)
    data = json.loads(answer.content)
    assert answer.status_code == 400 and "changed since this page was read" in data["error"]
    assert data["version"] == enter.entry_version(swiss) != read_at
    assert not Entry.objects.filter(player=late).exists()
    # without the script: the page again, the field still holding what was typed
    page_answer = chief.post(page, {"key": f"p{late.pk}", "version": read_at, "q": "late"})
    assert page_answer.status_code == 400
    assert b'value="late"' in page_answer.content and b"changed since this page was read" in page_answer.content
    # on the version now shown: a late entry, by the roster's rules and words
    answer = chief.post(page, {"key": f"p{late.pk}", "version": data["version"]}, **JSON)
    data = json.loads(answer.content)
    assert data["ok"] and "entered late as no. 5" in data["said"]
    assert swiss.conformance_events.filter(code="late-entry").count() == 1


def test_a_round_robin_already_paired_refuses_in_words(chief: Client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    rr = make_tournament(4, system=System.ROUND_ROBIN, slug="rr")
    services.round_pair(tournament=rr)
    newcomer = Player.objects.create(surname="Newcomer")
    page, _search = urls(rr)
    answer = chief.post(page, {"key": f"p{newcomer.pk}", "version": enter.entry_version(rr)}, **JSON)
    assert "cannot take a new player once round 1 is paired" in json.loads(answer.content)["error"]
    assert not Entry.objects.filter(player=newcomer).exists()
    assert b"cannot take a new player" in chief.get(page).content  # said on the page before anything is typed


def test_a_new_player_with_a_bad_rating_keeps_what_was_typed(chief: Client, swiss: Tournament) -> None:
    page, _search = urls(swiss)
    typed = {"action": "new", "version": enter.entry_version(swiss), "q": "Kouadio, Inès", "surname": "Kouadio",
             "given_name": "Inès", "federation": "civ", "rating": "abc", "title": "MF"}
    answer = chief.post(page, typed, **JSON)
    data = json.loads(answer.content)
    assert answer.status_code == 400 and list(data["fields"]) == ["rating"]
    assert "whole number" in data["fields"]["rating"][0]
    assert not Player.objects.filter(surname="Kouadio").exists()
    page_answer = chief.post(page, typed)  # without the script: the form again, every value kept
    body = page_answer.content.decode()
    for value in ('value="Kouadio"', 'value="Inès"', 'value="civ"', 'value="abc"', '<option value="MF" selected>'):
        assert value in body, value
    assert "whole number" in body
    bad_federation = chief.post(page, {**typed, "rating": "1800", "federation": "C1"}, **JSON)
    assert list(json.loads(bad_federation.content)["fields"]) == ["federation"]
    answer = chief.post(page, {**typed, "rating": "1800"}, **JSON)
    assert json.loads(answer.content)["ok"]
    ines = Player.objects.get(surname="Kouadio")
    assert (ines.given_name, ines.federation, ines.rating, ines.title) == ("Inès", "CIV", 1800, "MF")
    assert Entry.objects.get(player=ines).rating == 1800


def test_without_the_script_the_answer_lists_buttons_and_a_new_player_link(
        chief: Client, swiss: Tournament, fmjd_list: RatingList) -> None:
    page, _search = urls(swiss)
    body = chief.get(page, {"q": "sore"}).content.decode()
    assert f'name="key" value="r{row(fmjd_list, 4711).pk}"' in body
    assert "New player: sore" in body
    form = chief.get(page, {"q": "van den Berg, Piet", "new": "1"}).content.decode()
    assert 'id="ep-new-surname" name="surname" value="van den Berg"' in form
    assert 'id="ep-new-given_name" name="given_name" value="Piet"' in form
    answer = chief.post(page, {"key": f"r{row(fmjd_list, 4711).pk}", "version": enter.entry_version(swiss)})
    assert answer.status_code == 302 and Entry.objects.get().player.fmjd_id == 4711


def test_a_key_that_names_nothing_is_refused(chief: Client, swiss: Tournament) -> None:
    page, _search = urls(swiss)
    for key in ("", "x12", "p", "p99999", "r99999", "p١٢"):
        answer = chief.post(page, {"key": key, "version": enter.entry_version(swiss)}, **JSON)
        assert answer.status_code == 400 and json.loads(answer.content)["error"], key
    assert not Entry.objects.exists()
