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


def test_checking_in_again_keeps_the_first_check_in(swiss) -> None:
    code = checkin.checkin_open(tournament=swiss).checkin_code
    assert post(swiss, code).status_code == 200
    first = CheckIn.objects.get()
    again = post(swiss, code)
    assert again.status_code == 200 and "you are checked in for round 1" in again.content.decode()
    assert list(CheckIn.objects.values_list("pk", "checked_at")) == [(first.pk, first.checked_at)]


def test_a_check_in_costs_six_queries_whatever_the_field(make_tournament) -> None:
    """The public tournament, then its row locked, the player with whether he is checked in, the insert: the
    tournament's row is held for as few round trips as can be, and not while the answer renders."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (6, 60):
        t = make_tournament(n, system=System.SWISS, slug=f"q{n}", rounds_total=5, checkin_enabled=True)
        code = checkin.checkin_open(tournament=t).checkin_code
        with CaptureQueriesContext(connection) as queries:
            assert post(t, code, number=n).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts
    # the tournament, the lock, the player, the insert, and the transaction's begin and end (a savepoint here,
    # inside the test's transaction)
    assert counts[0] <= 6, counts


def test_a_check_in_moves_no_page_yet_the_control_room_counts_it(swiss, arbiter) -> None:
    """No public page shows who is present: a check-in leaves the stored standings and every reader's copy
    (the hall screens' too) as they are, while the arbiter's control room and check-in screen count it."""
    from tournaments.admin.checkin import control_room_lines
    from tournaments.hall import screen_services
    from tournaments.models import HallScreen, Tournament

    code = checkin.checkin_open(tournament=swiss).checkin_code
    screen = screen_services.screen_save(screen=HallScreen(tournament=swiss, name="A", token="screen-a"),
                                         expected_version=None)
    reader = Client()
    standings = reverse("tournaments:standings", args=[swiss.slug])
    hall = reverse("tournaments:hall_screen", args=[swiss.slug, screen.token])
    assert reader.get(standings)["X-Damier-Cache"] == "miss"
    tag = reader.get(hall)["ETag"]
    version = Tournament.objects.get(pk=swiss.pk).cache_version
    for number in (1, 2, 3):
        assert post(swiss, code, number=number).status_code == 200
    assert Tournament.objects.get(pk=swiss.pk).cache_version == version
    assert reader.get(standings)["X-Damier-Cache"] == "hit"
    assert reader.get(hall, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert control_room_lines(Tournament.objects.get(pk=swiss.pk))["checkin_count"] == "3 of 6 present"
