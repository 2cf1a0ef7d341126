"""A player checks in from his phone: the form on the shared, cached player page, and the answer never cached."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournaments.hall import checkin
from tournaments.models import CheckIn, System


@pytest.fixture
def swiss(make_tournament, page_cache):  # type: ignore[no-untyped-def]
    cache.clear()
    return make_tournament(6, system=System.SWISS, slug="hall", rounds_total=5, checkin_enabled=True)


def page(t, number: int = 2) -> str:  # type: ignore[no-untyped-def]
    return reverse("tournaments:player", args=[t.slug, number])


def post(t, code: str, number: int = 2, address: str = "10.1.1.1") -> Any:  # type: ignore[no-untyped-def]
    return Client().post(reverse("tournaments:player_checkin", args=[t.slug, number]), {"code": code},
                         REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="en")


def test_the_form_shows_while_check_in_is_open_on_the_cached_page(swiss) -> None:
    reader = Client()
    assert 'name="code"' not in reader.get(page(swiss)).content.decode()
    checkin.checkin_open(tournament=swiss)  # the tournament's row changes: its pages' version moves
    body = reader.get(page(swiss)).content.decode()
    assert 'name="code"' in body and "I am here" in body
    assert "csrfmiddlewaretoken" not in body  # one page for every reader: no token, no state
    assert swiss.__class__.objects.get(pk=swiss.pk).checkin_code not in body
    checkin.checkin_close(tournament=swiss)
    assert 'name="code"' not in reader.get(page(swiss)).content.decode()


def test_the_right_code_checks_him_in_and_the_answer_is_never_cached(swiss) -> None:
    code = checkin.checkin_open(tournament=swiss).checkin_code
    answer = post(swiss, code.lower())
    assert answer.status_code == 200 and "you are checked in for round 1" in answer.content.decode()
    assert "no-store" in answer["Cache-Control"] and "private" in answer["Cache-Control"]
    assert not answer.cookies
    assert CheckIn.objects.get().entry.pairing_number == 2


def test_a_wrong_code_says_so_and_records_nothing(swiss) -> None:
    checkin.checkin_open(tournament=swiss)
    answer = post(swiss, "ZZZZZ")  # Z is not in the alphabet: never the code
    assert answer.status_code == 400 and "not the code shown in the hall" in answer.content.decode()
    assert not CheckIn.objects.exists()


def test_wrong_codes_lock_the_address_out(swiss, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    code = checkin.checkin_open(tournament=swiss).checkin_code
    assert [post(swiss, "ZZZZZ").status_code for _ in range(2)] == [400, 400]
    locked = post(swiss, code)
    assert locked.status_code == 429 and "Too many wrong codes" in locked.content.decode()
    assert post(swiss, code, address="10.1.1.2").status_code == 200


def test_closed_check_in_is_refused_in_words(swiss) -> None:
    answer = post(swiss, "ACDEF")
    assert answer.status_code == 400 and "Check-in is closed" in answer.content.decode()


def test_only_a_post_and_only_a_public_tournament(swiss) -> None:
    url = reverse("tournaments:player_checkin", args=[swiss.slug, 2])
    assert Client().get(url).status_code == 405
    swiss.public = False
    swiss.save(update_fields=["public"])
    assert post(swiss, "ACDEF").status_code == 404
