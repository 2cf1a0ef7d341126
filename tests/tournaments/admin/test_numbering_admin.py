"""The pairing-numbers page, the round-robin round made by hand and the rating settings, through Django's test
client: refused, asked (warnings with a box each, nothing lost), confirmed and recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.forms import late_entry_post
from tests.tournaments.play import play_round
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance.policy import Level
from tournaments.models import Entry, Player, System, Tournament
from tournaments.players import numbering, roster
from tournaments.rounds import rr_schedule, services

pytestmark = pytest.mark.django_db



def numbers_url(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_numbers", args=[t.pk])


def hand_url(t: Tournament, n: int) -> str:
    return reverse("admin:tournaments_tournament_rr_hand", args=[t.pk, n])


def text(response: Any) -> str:
    return response.content.decode()


def _equal_swiss(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="eq", rounds_total=5)
    entries = list(t.entries.order_by("pairing_number"))
    Entry.objects.filter(pk__in=[entries[0].pk, entries[1].pk]).update(rating=2500)
    roster.entries_number_by_rating(tournament=t)
    play_round(t)
    return t


def test_the_page_is_linked_from_the_control_room_and_lists_the_ratings(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="lk", rounds_total=3)
    assert numbers_url(t) in text(chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])))
    page = chief.get(numbers_url(t))
    assert page.status_code == 200
    body = text(page)
    assert "Tournament rating: FMJD rating (the national rating when there is none)." in body
    assert "Exchange two pairing numbers" in body and "Player01, Test" in body


def test_an_exchange_asks_keeps_the_choice_then_is_recorded(make_tournament, chief) -> None:
    t = _equal_swiss(make_tournament)
    first, second = t.entries.order_by("pairing_number")[:2]
    version = numbering.numbers_version(t)
    page = chief.post(numbers_url(t), {"action": "exchange", "first": first.pk, "second": second.pk,
                                       "version": version})
    assert page.status_code == 200
    body = text(page)
    assert_one_screen(page, Level.CONFIRM)
    assert "Level 3: confirmation" in body and 'name="confirmed" value="numbers-exchanged"' in body
    assert f'<option value="{first.pk}" selected>' in body and f'<option value="{second.pk}" selected>' in body
    assert not t.conformance_events.exists()
    page = chief.post(numbers_url(t), {"action": "exchange", "first": first.pk, "second": second.pk,
                                       "version": version, "confirmed": "numbers-exchanged"}, follow=True)
    assert "exchanged their pairing numbers" in text(page)
    first.refresh_from_db()
    assert first.pairing_number == 2
    assert t.conformance_events.get().code == "numbers-exchanged"


def test_an_exchange_between_different_ratings_is_refused_with_the_reason(make_tournament, chief) -> None:
    t = _equal_swiss(make_tournament)
    entries = list(t.entries.order_by("pairing_number"))
    page = chief.post(numbers_url(t), {"action": "exchange", "first": entries[0].pk, "second": entries[4].pk,
                                       "version": numbering.numbers_version(t), "confirmed": "numbers-exchanged"})
    assert "Nothing was done" in text(page) and "same tournament rating" in text(page)
    assert not t.conformance_events.exists()


def test_a_regeneration_shows_the_moves_asks_then_records(make_tournament, chief) -> None:
    t = _equal_swiss(make_tournament)
    last = t.entries.order_by("-pairing_number").first()
    Entry.objects.filter(pk=last.pk).update(rating=2900)  # a rating taken on (test_numbering covers the step)
    page = chief.get(numbers_url(t))
    assert "6 numbers would move" in text(page)
    signature = page.context["moves_signature"]
    page = chief.post(numbers_url(t), {"action": "regenerate", "moves": signature})
    assert 'value="numbers-regenerated"' in text(page) and "Confirm and regenerate" in text(page)
    assert_one_screen(page, Level.CONFIRM)
    page = chief.post(numbers_url(t), {"action": "regenerate", "moves": signature,
                                       "confirmed": "numbers-regenerated"}, follow=True)
    assert "regenerated from the ratings" in text(page)
    last.refresh_from_db()
    assert last.pairing_number == 1
    assert list(t.conformance_events.values_list("code", flat=True)) == ["numbers-regenerated"]


def test_the_rating_notice_is_shown_then_noted(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="rc", rounds_total=3)
    entry = t.entries.get(pairing_number=2)
    player = entry.player
    # The arbiter changes the rating on the player's page: he is told where it matters.
    data = {"surname": player.surname, "given_name": player.given_name, "fmjd_id": player.fmjd_id,
            "federation": player.federation, "title": "", "rating": 2222, "national_rating": "", "club": "",
            "birth_year": ""}
    page = chief.post(reverse("admin:tournaments_player_change", args=[player.pk]), data, follow=True)
    assert "is no longer the one he was entered with" in text(page) and numbers_url(t) in text(page)
    control = text(chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])))
    assert 'id="dc-rating-notice"' in control and "Notice: 1 rating changed since the entry" in control
    page = chief.get(numbers_url(t))
    assert "1 rating changed since the entry" in text(page)
    page = chief.post(numbers_url(t), {"action": "take_note", "changes": page.context["changes_signature"]},
                      follow=True)
    assert "The new ratings are taken on and recorded: 1 change(s)." in text(page)
    assert t.conformance_events.get().code == "rating-changed"
    assert 'id="dc-rating-notice"' not in text(chief.get(reverse("admin:tournaments_tournament_control",
                                                                  args=[t.pk])))


def test_an_impossible_rating_is_refused_on_the_players_page(make_tournament, chief) -> None:
    page = chief.post(reverse("admin:tournaments_player_add"), {"surname": "New", "rating": "3500",
                                                                "national_rating": "1800", "unrated": "on"})
    assert page.status_code == 200
    body = text(page)
    assert "3000" in body and "is marked as unrated" in body
    assert not Player.objects.filter(surname="New").exists()


def test_from_round_4_the_page_says_the_numbers_are_fixed(make_tournament, chief) -> None:
    t = make_tournament(10, system=System.SWISS, slug="r4", rounds_total=5)
    for _ in range(4):
        play_round(t)
    body = text(chief.get(numbers_url(t)))
    assert "Pairing numbers are fixed." in body and "Exchange the numbers" not in body


def test_the_page_in_french(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="fr", rounds_total=3)
    body = text(chief.get(numbers_url(t), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Échanger deux numéros" in body and "Classement du tournoi" in body


def test_only_this_tournaments_arbiters_reach_it(make_tournament) -> None:
    t = make_tournament(4, system=System.SWISS, slug="ar", rounds_total=3)
    other = Client()
    other.force_login(get_user_model().objects.create_user("other", is_staff=True))
    assert other.get(numbers_url(t)).status_code == 404
    assert other.post(numbers_url(t), {"action": "regenerate"}).status_code == 404


# --- Round robin --------------------------------------------------------------------------------


def test_a_round_robin_round_made_by_hand(make_tournament, chief) -> None:
    t = make_tournament(4, slug="rrh")
    play_round(t)
    rnd = services.round_pair(tournament=t)
    control = text(chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])))
    assert hand_url(t, 2) in control
    page = chief.get(hand_url(t, 2))
    assert page.status_code == 200 and 'id="board-1-white"' in text(page)
    first = {(g.white.pairing_number, g.black.pairing_number) for g in t.rounds.get(number=1).games.all()}
    (w1, b1), (w2, b2) = sorted(first)
    post = {"version": rnd.version, "board-1-white": w1, "board-1-black": b1, "board-2-white": w2,
            "board-2-black": b2}
    page = chief.post(hand_url(t, 2), post)
    body = text(page)
    assert_one_screen(page, Level.CONFIRM)
    assert "Level 3: confirmation" in body and 'value="rematch"' in body and 'value="schedule-by-hand"' in body
    assert f'<option value="{b1}" selected>' in body  # what the arbiter chose is kept
    page = chief.post(hand_url(t, 2), {**post, "confirmed": ["schedule-by-hand", "rematch"]}, follow=True)
    assert "Round 2 is set as you made it" in text(page)
    rnd.refresh_from_db()
    assert sorted(rr_schedule.round_boards(rnd).values()) == sorted(first)
    assert {"schedule-by-hand", "rematch"} <= set(t.conformance_events.values_list("code", flat=True))


def test_a_hand_round_with_a_player_twice_says_so_and_keeps_the_form(make_tournament, chief) -> None:
    t = make_tournament(4, slug="rrx")
    rnd = services.round_pair(tournament=t)
    page = chief.post(hand_url(t, 1), {"version": rnd.version, "board-1-white": 1, "board-1-black": 2,
                                       "board-2-white": 1, "board-2-black": 3})
    assert "would play on boards 1 and 2" in text(page)
    assert not t.conformance_events.exists()


def test_the_tournament_form_refuses_solkoff_in_a_round_robin(make_tournament, chief) -> None:
    t = make_tournament(4, slug="tb")
    page = chief.get(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    assert 'name="rr_reverse_last_two"' in text(page) and 'name="rating_method"' in text(page)
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list | dict)}
    data.update({"tiebreaks_0": "custom", "tiebreaks_1": "solkoff", "tiebreaks_2": "wins", "deputy_arbiters": [],
                 "start_date": "2026-01-01", "chief_arbiter": t.chief_arbiter_id})
    for prefix in ("entries", "forbidden_pairs"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    page = chief.post(reverse("admin:tournaments_tournament_change", args=[t.pk]), data)
    assert "mean nothing in a round robin" in text(page)
    t.refresh_from_db()
    assert "solkoff" not in t.tiebreaks


def test_a_late_entry_on_the_tournament_page_is_numbered_by_rating(make_tournament, chief) -> None:
    t = make_tournament(6, system=System.SWISS, slug="late", rounds_total=5)
    play_round(t)
    late = Player.objects.create(surname="Late", given_name="Comer", rating=2375)  # between numbers 2 and 3
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = chief.get(url)
    assert "leave his number empty, his rating gives it" in text(page)
    page = late_entry_post(chief, t, late)
    assert page.status_code == 200
    entry = t.entries.get(player=late)
    assert entry.pairing_number == 3
    assert t.conformance_events.get().code == "late-entry"


def test_a_rating_list_is_compared_then_the_ticked_ratings_applied(make_tournament, chief) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    t = make_tournament(3, system=System.SWISS, slug="list", rounds_total=3)
    first, second = (e.player for e in t.entries.order_by("pairing_number")[:2])
    csv = f"fmjd_id,rating\n{first.fmjd_id},{first.rating + 5}\n{second.fmjd_id},{second.rating + 7}\n".encode()
    page = chief.post(numbers_url(t), {"action": "check_list", "list": SimpleUploadedFile("fmjd.csv", csv)})
    body = text(page)
    assert "fmjd.csv: 2 ratings differ from the list" in body and body.count('name="apply"') == 2
    diffs = page.context["list_diffs"]
    page = chief.post(numbers_url(t), {"action": "apply_list", "source": "fmjd.csv", "apply": [diffs[1].token]},
                      follow=True)
    assert "Ratings updated from the list for 1 player(s)" in text(page)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.rating == diffs[0].old and second.rating == diffs[1].new
    assert "1 rating changed since the entry" in text(page)


@pytest.mark.parametrize(("name", "data", "said"), [
    ("mac.csv", b"fmjd_id,rating\r{id},{rating}\r", None),  # old Mac line ends: read, not refused
    ("huge.csv", b"fmjd_id,rating\n" + b"1" * 200_000 + b",5\n", "huge.csv: unreadable CSV"),
])
def test_a_rating_list_the_csv_reader_chokes_on_is_never_a_500(make_tournament, chief, name, data, said) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    t = make_tournament(3, system=System.SWISS, slug="list", rounds_total=3)
    first = t.entries.get(pairing_number=1).player
    data = data.replace(b"{id}", str(first.fmjd_id).encode()).replace(b"{rating}", str(first.rating + 5).encode())
    page = chief.post(numbers_url(t), {"action": "check_list", "list": SimpleUploadedFile(name, data)})
    assert page.status_code == 200  # the csv module raised on a bare CR and on a field over 128 KB
    if said is None:
        assert [d.new for d in page.context["list_diffs"]] == [first.rating + 5]
    else:
        assert said in text(page) and not page.context["list_diffs"]
