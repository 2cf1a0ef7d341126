"""The check-in screen, its marks, the control room's count and proposals, and the pairing's question."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.hall import checkin
from tournaments.models import CheckIn, ConformanceEvent, EntryStatus, System
from tournaments.results import Result
from tournaments.rounds import services


def text(response: Any) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def swiss(make_tournament):  # type: ignore[no-untyped-def]
    return make_tournament(10, system=System.SWISS, slug="hall", rounds_total=5, checkin_enabled=True)


def url(name: str, t) -> str:  # type: ignore[no-untyped-def]
    return reverse(f"admin:tournaments_tournament_{name}", args=[t.pk])


def entries(t):  # type: ignore[no-untyped-def]
    return list(t.entries.select_related("player").order_by("pairing_number"))


def test_open_mark_all_reset_close_from_the_screen(swiss, chief) -> None:
    body = text(chief.get(url("checkin", swiss), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Open check-in for round 1" in body
    chief.post(url("checkin", swiss), {"action": "open"})
    swiss.refresh_from_db()
    page = chief.get(url("checkin", swiss))
    assert swiss.checkin_code in text(page) and "0 of 10 present" in text(page)
    assert 'id="ck-search"' in page.content.decode() and "autofocus" in page.content.decode()
    first = entries(swiss)[0]
    answer = chief.post(url("checkin_mark", swiss), {"mark": f"{first.pk}:1", "round": 1},
                        HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and answer.json()["present"] == [first.pk]
    assert answer.json()["count"] == "1 of 10 present"
    chief.post(url("checkin", swiss), {"action": "all", "round": 1})
    assert CheckIn.objects.filter(round_number=1).count() == 10
    chief.post(url("checkin", swiss), {"action": "reset", "round": 1})
    assert not CheckIn.objects.exists()
    chief.post(url("checkin", swiss), {"action": "close"})
    swiss.refresh_from_db()
    assert swiss.checkin_round is None


def test_a_mark_for_a_round_no_longer_open_is_refused_in_words(swiss, chief) -> None:
    checkin.checkin_open(tournament=swiss)
    checkin.checkin_close(tournament=swiss)
    answer = chief.post(url("checkin_mark", swiss), {"mark": f"{entries(swiss)[0].pk}:1", "round": 1},
                        HTTP_ACCEPT="application/json")
    assert answer.status_code == 409 and "Check-in is closed" in answer.json()["error"]
    assert not CheckIn.objects.exists()


def test_the_screen_without_its_script_marks_with_one_button(swiss, chief) -> None:
    checkin.checkin_open(tournament=swiss)
    entry = entries(swiss)[2]
    response = chief.post(url("checkin_mark", swiss), {"mark": f"{entry.pk}:1", "round": 1})
    assert response.status_code == 302 and CheckIn.objects.filter(entry=entry).exists()


def test_another_tournaments_arbiter_cannot_see_or_mark(swiss) -> None:
    checkin.checkin_open(tournament=swiss)
    other = Client()
    other.force_login(get_user_model().objects.create_user("other", is_staff=True))
    assert other.get(url("checkin", swiss)).status_code in (403, 404)
    assert other.post(url("checkin_mark", swiss), {"mark": f"{entries(swiss)[0].pk}:1", "round": 1},
                      HTTP_ACCEPT="application/json").status_code in (403, 404)
    assert other.get(url("checkin_state", swiss)).status_code in (403, 404)
    assert not CheckIn.objects.exists()


def test_a_player_of_another_tournament_cannot_be_marked_from_this_screen(swiss, chief, make_tournament) -> None:
    mine = make_tournament(4, system=System.SWISS, slug="mine", rounds_total=3)
    checkin.checkin_open(tournament=swiss)
    answer = chief.post(url("checkin_mark", swiss), {"mark": f"{entries(mine)[0].pk}:1", "round": 1},
                        HTTP_ACCEPT="application/json")
    assert answer.status_code == 409 and not CheckIn.objects.exists()


def test_the_control_room_counts_who_is_present(swiss, chief) -> None:
    checkin.checkin_open(tournament=swiss)
    for entry in entries(swiss)[:7]:
        checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=1)
    body = text(chief.get(url("control", swiss)))
    assert "Check-in for round 1: 7 of 10 present" in body
    assert url("checkin", swiss) in chief.get(url("control", swiss)).content.decode()


def test_pair_asks_what_the_absentees_get_then_records_the_answer(swiss, chief) -> None:
    checkin.checkin_open(tournament=swiss)
    for entry in entries(swiss)[:7]:
        checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=1)
    absent = entries(swiss)[7:]
    asked = chief.post(url("step", swiss), {"step": "pair", "round": 1})
    body = text(asked)
    assert asked.status_code == 200 and "3 players have not checked in" in body
    assert all(str(e) in body for e in absent)
    assert "Not paired, 0 points (recorded)" in body and "Pair them anyway (recorded)" in body
    assert not swiss.rounds.exists()
    read_at = re.search(r'name="absentees_read" value="([^"]*)"', asked.content.decode()).group(1)
    done = chief.post(url("step", swiss), {"step": "pair", "round": 1, "absentees": "not_paired",
                                           "absentees_read": read_at}, follow=True)
    assert "not checked in, not paired, 0 points" in text(done)
    rnd = swiss.rounds.get()
    assert set(rnd.games.filter(result=Result.EXCUSED.value).values_list("white_id", flat=True)) == {
        e.pk for e in absent}
    assert ConformanceEvent.objects.filter(code="checkin-absent-not-paired").count() == 1


def test_an_answer_given_on_a_stale_list_is_asked_again(swiss, chief) -> None:
    checkin.checkin_open(tournament=swiss)
    asked = chief.post(url("step", swiss), {"step": "pair", "round": 1})
    read_at = re.search(r'name="absentees_read" value="([^"]*)"', asked.content.decode()).group(1)
    checkin.checkin_mark(tournament=swiss, entry_id=entries(swiss)[0].pk, present=True, expected_round=1)
    again = chief.post(url("step", swiss), {"step": "pair", "round": 1, "absentees": "not_paired",
                                            "absentees_read": read_at})
    assert "The list changed since you read it" in text(again) and "9 players have not checked in" in text(again)
    assert not swiss.rounds.exists()


def test_the_control_room_proposes_a_withdrawal_and_never_makes_it(swiss, chief) -> None:
    for number in (1, 2):
        checkin.checkin_open(tournament=swiss)
        for entry in entries(swiss)[:-1]:
            checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=number)
        absent = entries(swiss)[-1:]
        rnd = checkin.pair_round(tournament=swiss, expected_number=number, answer=checkin.NOT_PAIRED,
                                 read_at=checkin.absentees_version(absent))
        services.round_publish(round=rnd)
        for game in rnd.games.filter(result=""):
            services.game_record_result(game=game, result="1-1" if game.black_id else "bye")
        services.round_complete(round=rnd)
    page = chief.get(url("control", swiss))
    body = text(page)
    assert "a withdrawal is proposed" in body and f"{absent[0]} (not checked in for rounds 1, 2)" in body
    assert reverse("admin:tournaments_entry_changelist") in page.content.decode()
    assert not swiss.entries.exclude(status=EntryStatus.ACTIVE).exists()


def test_the_settings_form_switches_check_in_on(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="set", rounds_total=3)
    page = chief.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    assert 'name="checkin_enabled"' in page.content.decode()
