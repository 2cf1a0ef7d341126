"""A played pairing cannot be changed behind its back (entry form, inline, tournament system)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tests.tournaments.test_permissions import scrape_form
from tournaments.models import Entry, System, Tournament
from tournaments.players import roster
from tournaments.rounds import services
from tournaments.rounds.settings_rules import check_settings


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def two(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    """Tournament t with round 1 played, and an empty tournament u of the same arbiter."""
    t = make_tournament(4, slug="t")
    play_round(t)
    u = make_tournament(0, slug="u")
    return t, u, _client(arbiter)


def test_an_entry_with_games_cannot_move_to_another_tournament(two) -> None:  # type: ignore[no-untyped-def]
    t, u, client = two
    entry = t.entries.get(pairing_number=1)
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    client.post(url, scrape_form(client, url, tournament=u.pk, _save="Save"))  # a forged or stale form
    entry.refresh_from_db()
    assert entry.tournament_id == t.pk and not u.entries.exists()
    assert "stays in its tournament" in client.get(url).content.decode()  # the form says why


def test_an_entry_with_games_cannot_change_player_or_number(two, make_players) -> None:  # type: ignore[no-untyped-def]
    t, _, client = two
    entry = t.entries.get(pairing_number=1)
    newcomer = make_players(1)[0]
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    for change in ({"player": newcomer.pk}, {"pairing_number": 9}):
        client.post(url, scrape_form(client, url, _save="Save", **change))
        entry.refresh_from_db()
        assert (entry.player_id, entry.pairing_number) != (newcomer.pk, 9)
        assert entry.player_id != newcomer.pk and entry.pairing_number == 1
    page = client.get(url).content.decode()
    assert "numbering step" in page  # the form says why the number is fixed


def test_the_entry_form_before_round_one_still_changes_number(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    client = _client(arbiter)
    entry = t.entries.get(pairing_number=4)
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    response = client.post(url, scrape_form(client, url, pairing_number=7, _save="Save"))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.pairing_number == 7


def test_the_inline_cannot_renumber_or_swap_players_once_paired(make_tournament, arbiter, make_players) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    services.round_pair(tournament=t)
    client = _client(arbiter)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    data = scrape_form(client, url, _save="Save")
    index = next(k.split("-")[1] for k, v in data.items() if k.endswith("-pairing_number") and v == "1")
    data[f"entries-{index}-pairing_number"] = "9"
    client.post(url, data)
    assert sorted(t.entries.values_list("pairing_number", flat=True)) == [1, 2, 3, 4]
    assert "numbering step" in client.get(url).content.decode()


def test_a_swiss_cannot_become_a_round_robin_once_paired(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="sw", rounds_total=5)
    services.round_pair(tournament=t)
    t.system = System.ROUND_ROBIN
    with pytest.raises(ValidationError) as caught:
        check_settings(t)
    assert "system" in caught.value.message_dict
    client = _client(arbiter)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    response = client.post(url, scrape_form(client, url, system="round_robin", _save="Save"))
    assert response.status_code == 200 and "round 1 is paired" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).system == System.SWISS


def test_the_system_may_change_before_round_one(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="sw", rounds_total=5)
    t.system = System.ROUND_ROBIN
    t.full_clean()
    check_settings(t)


def test_the_numbering_step_is_the_way_to_renumber(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    t.entries.filter(pairing_number=4).update(rating=2999)
    roster.entries_number_by_rating(tournament=t)
    assert Entry.objects.get(tournament=t, pairing_number=1).rating == 2999


def test_only_a_save_named_a_numbering_step_keeps_the_numbering(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.models import Numbering

    t = make_tournament(4)
    first, last = Entry.objects.get(tournament=t, pairing_number=1), Entry.objects.get(tournament=t, pairing_number=4)
    first.pairing_number = 9
    first.save(numbering_step=True)  # as the numbering services save
    assert Tournament.objects.get(pk=t.pk).numbering == Numbering.AUTO
    last._numbering_step = True  # type: ignore[attr-defined]  # a stray attribute is no mechanism
    last.pairing_number = 8
    last.save()  # a hand edit
    assert Tournament.objects.get(pk=t.pk).numbering == Numbering.MANUAL


def test_a_hand_edit_on_a_form_numbers_by_hand_and_the_services_do_not(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.models import Numbering
    from tournaments.players import numbering
    from tournaments.ratings import rating_changes

    t = make_tournament(4, system=System.SWISS, slug="sw", rounds_total=3)
    t.entries.filter(pairing_number=4).update(rating=2999)
    roster.entries_number_by_rating(tournament=t)  # the numbering service renumbers: still by rating
    Entry.objects.filter(tournament=t, pairing_number=2).update(rating=1)
    changes = rating_changes(t)
    assert changes  # taking the ratings on saves the entries as a numbering step
    numbering.ratings_take_note(tournament=t, expected=numbering.changes_signature(changes))
    assert Tournament.objects.get(pk=t.pk).numbering == Numbering.AUTO
    client = _client(arbiter)
    url = reverse("admin:tournaments_entry_change", args=[Entry.objects.get(tournament=t, pairing_number=4).pk])
    assert client.post(url, scrape_form(client, url, pairing_number=7, _save="Save")).status_code == 302
    assert Tournament.objects.get(pk=t.pk).numbering == Numbering.MANUAL
