"""What the pairing depends on never changes behind the record: the settings fixed once round 1 is paired
(every path), a lost race said in words, pairing numbers within the field's size, players shared between
arbiters."""

from __future__ import annotations

import html
import re
from typing import Any

import psycopg.errors
import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tests.tournaments.test_permissions import scrape_form
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.models import ConformanceEvent, System, Tournament
from tournaments.players import roster
from tournaments.rounds import pairing_bridge, services, under_way

pytestmark = pytest.mark.django_db


def text_of(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))



@pytest.fixture
def swiss_two_rounds(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="fc", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


# --- Settings fixed once round 1 is paired ------------------------------------------------------------------


def test_the_first_round_colour_is_refused_on_the_change_form_once_paired(swiss_two_rounds, chief) -> None:  # type: ignore[no-untyped-def]
    t = swiss_two_rounds
    assert not pairing_bridge.check_round(t, 1).differs and not pairing_bridge.check_round(t, 1).violations
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    response = chief.post(url, scrape_form(chief, url, first_colour="b", venue="Typed venue"))
    assert response.status_code == 200  # the form again, with the field's error and what was typed
    page = text_of(response)
    assert "The first-round colour was drawn before round 1" in page
    t.refresh_from_db()
    assert t.first_colour == "w" and t.venue == "" and not ConformanceEvent.objects.exists()
    # The record still agrees with itself: round 1 is what the engine pairs with the stored colour.
    assert not pairing_bridge.check_round(t, 1).differs


def test_the_first_round_colour_is_refused_by_the_service_whoever_calls_it(swiss_two_rounds) -> None:  # type: ignore[no-untyped-def]
    """Any caller of the service (a command, a script, a form validated before round 1 was paired)."""
    t = swiss_two_rounds
    t.first_colour = "b"
    with pytest.raises(DomainError, match="first-round colour was drawn before round 1"):
        under_way.tournament_save(tournament=t, confirmed=[str(c) for c in Code])
    assert Tournament.objects.get(pk=t.pk).first_colour == "w"
    # The rating the numbers were set on and the order of equal ratings: refused by the service too.
    for name, value in (("rating_method", "national"), ("tie_order", "oldest")):
        fresh = Tournament.objects.get(pk=t.pk)
        setattr(fresh, name, value)
        with pytest.raises(DomainError):
            under_way.tournament_save(tournament=fresh, confirmed=[str(c) for c in Code])
        assert getattr(Tournament.objects.get(pk=t.pk), name) != value


def test_the_first_round_colour_changes_freely_before_round_1_and_in_a_round_robin(make_tournament) -> None:  # type: ignore[no-untyped-def]
    swiss = make_tournament(4, system=System.SWISS, slug="s", rounds_total=3)
    swiss.first_colour = "b"
    under_way.tournament_save(tournament=swiss)
    assert Tournament.objects.get(pk=swiss.pk).first_colour == "b"
    rr = make_tournament(4, slug="rr")
    services.round_pair(tournament=rr)
    rr = Tournament.objects.get(pk=rr.pk)
    rr.first_colour = "b"  # the Berger tables give a round robin's colours: the field means nothing there
    under_way.tournament_save(tournament=rr)
    assert Tournament.objects.get(pk=rr.pk).first_colour == "b" and not ConformanceEvent.objects.exists()


def test_each_setting_the_pairing_reads_is_fixed_or_asks_level_4(swiss_two_rounds) -> None:  # type: ignore[no-untyped-def]
    """The settings pairing_bridge.pairing_request reads from the tournament, each either refused once round
    1 is paired or changed only with its level-4 warning (forbidden pairs: tests/tournaments/conformance)."""
    import inspect

    source = inspect.getsource(pairing_bridge.pairing_request) + inspect.getsource(pairing_bridge.point_system)
    read = set(re.findall(r"tournament\.(\w+)", source)) - {"pk", "is_round_robin"}
    fixed = {"system", "first_colour", "rating_method", "tie_order"}
    assert read <= fixed | set(under_way.WATCHED), read - fixed - set(under_way.WATCHED)
    t = swiss_two_rounds
    for name, value in (("system", System.ROUND_ROBIN), ("first_colour", "b"), ("rating_method", "higher"),
                        ("tie_order", "youngest")):
        fresh = Tournament.objects.get(pk=t.pk)
        setattr(fresh, name, value)
        with pytest.raises(DomainError):
            under_way.tournament_save(tournament=fresh, confirmed=[str(c) for c in Code])
    for name, value in (("rounds_total", 7), ("bye_points", 1), ("swiss_order", "standing")):
        fresh = Tournament.objects.get(pk=t.pk)
        setattr(fresh, name, value)
        with pytest.raises(DomainError, match="conformance mode|Level 4|leaves"):
            under_way.tournament_save(tournament=fresh)
        assert getattr(Tournament.objects.get(pk=t.pk), name) != value


def test_what_round_1_fixes_on_an_entry_is_refused_by_any_save(make_tournament, make_players) -> None:  # type: ignore[no-untyped-def]
    """The entry's own save checks it (a script, the shell, a form read before round 1): the number, the
    player once he has games, the tournament; a full save never writes back a withdrawal it did not see."""
    from tournaments.models import Entry

    t = make_tournament(4, system=System.SWISS, slug="guard", rounds_total=3)
    other = make_tournament(2, slug="other")
    stale = Entry.objects.get(tournament=t, pairing_number=2)
    services.round_pair(tournament=t)
    entry = Entry.objects.get(pk=stale.pk)
    for field, value in (("pairing_number", 9), ("player", make_players(1)[0]), ("tournament", other)):
        changed = Entry.objects.get(pk=entry.pk)
        setattr(changed, field, value)
        with pytest.raises(DomainError):
            changed.save()
    roster.entry_withdraw(entry=entry, after_round=0)
    stale.no_half_bye = True
    stale.save()  # read before the withdrawal: its other fields are saved, the withdrawal stays
    entry.refresh_from_db()
    assert entry.no_half_bye and entry.is_withdrawn and entry.pairing_number == 2


# --- A lost race is a message ---------------------------------------------------------------------------


def test_a_deadlock_left_anyway_is_a_message_never_a_500(swiss_two_rounds, chief, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def deadlock(**kwargs: Any) -> None:
        try:
            raise psycopg.errors.DeadlockDetected("deadlock detected")
        except psycopg.errors.DeadlockDetected as exc:
            raise OperationalError("deadlock detected") from exc

    monkeypatch.setattr(roster, "entry_withdraw", deadlock)
    entry = swiss_two_rounds.entries.get(pairing_number=3)
    url = reverse("admin:tournaments_entry_changelist")
    response = chief.post(url, {"action": "withdraw", "_selected_action": [str(entry.pk)], "apply": "1",
                                "after_round": "2"})
    assert response.status_code == 503  # the page again, holding what was posted (tests/tournaments/web/test_busy.py)
    page = text_of(response)
    assert "another arbiter was pairing or saving this tournament at the same moment. Try again." in page


def test_only_a_lost_race_is_taken_for_one() -> None:
    from tournaments.web.busy import is_retry_error

    def wrapped(cause: Exception) -> OperationalError:
        exc = OperationalError(str(cause))
        exc.__cause__ = cause
        return exc

    assert is_retry_error(wrapped(psycopg.errors.DeadlockDetected("deadlock detected")))
    assert is_retry_error(wrapped(psycopg.errors.SerializationFailure("could not serialize access")))
    assert not is_retry_error(wrapped(psycopg.errors.UndefinedTable("no such table")))
    assert not is_retry_error(OperationalError("database is locked"))  # SQLite: no SQLSTATE


# --- Pairing numbers within the column's range ------------------------------------------------------------


def _highest_number_ever_written(t: Tournament) -> int:
    """Every number an entry passed through, renumbering's intermediate numbers included (the history keeps
    each save): what PostgreSQL's smallint column had to hold."""
    from tournaments.models import Entry

    return max(Entry.history.filter(tournament_id=t.pk).values_list("pairing_number", flat=True))  # type: ignore[attr-defined]


def test_a_pairing_number_beyond_four_digits_is_refused_on_the_forms(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="big", rounds_total=3)
    entry = t.entries.get(pairing_number=4)
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    response = chief.post(url, scrape_form(chief, url, pairing_number="30000"))
    assert response.status_code == 200 and "less than or equal to 9999" in text_of(response)
    assert t.entries.get(pk=entry.pk).pairing_number == 4
    with pytest.raises(DomainError, match="30000 is too big: pairing numbers go from 1 to 9999"):
        roster.entry_add(tournament=t, player=type(entry.player).objects.create(surname="Late"),
                           pairing_number=30000)


def test_numbering_by_rating_stays_in_the_column_s_range(make_tournament) -> None:  # type: ignore[no-untyped-def]
    """A number stored before the limit (30,000): renumbering passes through the smallest free numbers, not
    30,000 plus an offset beyond PostgreSQL's smallint (the old 500: "smallint out of range")."""
    t = make_tournament(4, system=System.SWISS, slug="rng", rounds_total=3)
    t.entries.filter(pairing_number=4).update(pairing_number=30000)
    roster.entries_number_by_rating(tournament=t)
    assert sorted(t.entries.values_list("pairing_number", flat=True)) == [1, 2, 3, 4]
    assert _highest_number_ever_written(t) <= 32767


def test_a_late_entry_from_the_csv_import_stays_in_range_or_is_refused_in_words(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.player_import import players_import_csv
    from tournaments.models import Entry, Numbering

    t = make_tournament(6, system=System.SWISS, slug="csv", rounds_total=3)
    t.numbering = Numbering.MANUAL
    t.save(update_fields=["numbering"])
    t.entries.filter(pairing_number=6).update(pairing_number=9000)
    play_swiss_round(t)
    # A strong late entrant: everyone moves down one, through free numbers.
    report = players_import_csv(data=b"surname,rating\nStrong,2990\n", source="late.csv", tournament=t)
    assert report.ok
    assert sorted(t.entries.values_list("pairing_number", flat=True)) == [1, 2, 3, 4, 5, 6, 9001]
    assert _highest_number_ever_written(t) <= 32767
    # At the limit, the import is refused with its reason, nothing written.
    Entry.objects.filter(pk=t.entries.get(pairing_number=9001).pk).update(pairing_number=9999)
    with pytest.raises(DomainError, match="10000 is too big"):
        players_import_csv(data=b"surname,rating\nStronger,2995\n", source="late2.csv", tournament=t)
    assert t.entries.count() == 7


# --- Players shared between arbiters ----------------------------------------------------------------------


@pytest.fixture
def shared(make_tournament, arbiter) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Player 1 of the chief's tournament A, entered by another arbiter in his own Swiss B too."""
    from django.contrib.auth import get_user_model

    other = get_user_model().objects.create_user("other", is_staff=True)
    a = make_tournament(4, slug="a")
    b = make_tournament(3, system=System.SWISS, slug="b", rounds_total=3)
    b.chief_arbiter = other
    b.save()
    player = a.entries.get(pairing_number=1).player
    roster.entry_add(tournament=b, player=player)
    clients = {}
    for name, user in (("chief", arbiter), ("other", other)):
        clients[name] = Client()
        clients[name].force_login(user)
    return {"a": a, "b": b, "player": player, "other": other, **clients}


def _player_url(player: Any) -> str:
    return reverse("admin:tournaments_player_change", args=[player.pk])


def test_another_arbiter_s_entry_never_locks_a_player_s_arbiter_out(shared) -> None:  # type: ignore[no-untyped-def]
    chief, player = shared["chief"], shared["player"]
    url = _player_url(player)
    response = chief.post(url, scrape_form(chief, url, rating="2345", club="DC Amsterdam"))
    assert response.status_code == 302, text_of(response)[:500]
    player.refresh_from_db()
    assert (player.rating, player.club) == (2345, "DC Amsterdam")
    # Tournament B's arbiter is told of the changed rating before he pairs (the rating at entry).
    from tournaments import ratings

    assert [c.now for c in ratings.rating_changes(shared["b"])] == [2345]


def test_once_the_other_tournament_is_under_way_only_the_name_club_and_federation_change(shared) -> None:  # type: ignore[no-untyped-def]
    chief, player = shared["chief"], shared["player"]
    services.round_pair(tournament=shared["b"])
    url = _player_url(player)
    page = chief.get(url)
    assert page.status_code == 200 and "also plays in another arbiter's tournament that is under way" in \
        text_of(page)
    form = scrape_form(chief, url, surname="Corrected", rating="1111")  # a forged rating: refused
    assert "rating" not in scrape_form(chief, url)  # read-only on the page
    assert chief.post(url, form).status_code == 200
    player.refresh_from_db()
    assert player.surname != "Corrected" and player.rating != 1111
    form.pop("rating")
    assert chief.post(url, form).status_code == 302
    player.refresh_from_db()
    assert player.surname == "Corrected" and player.rating != 1111
    # A page read before B's round 1 was paired, saved after: refused under the lock, nothing saved.
    from tournaments.players.player_edit import player_save

    player.rating = 1111
    with pytest.raises(DomainError, match="Nothing saved"):
        player_save(player=player, user=shared["a"].chief_arbiter)
    assert type(player).objects.get(pk=player.pk).rating != 1111


def test_a_rating_typed_on_a_page_read_before_the_other_round_1_is_refused_not_dropped(shared) -> None:  # type: ignore[no-untyped-def]
    chief, player = shared["chief"], shared["player"]
    url = _player_url(player)
    form = scrape_form(chief, url, surname="Typed", rating="2345", club="Typed club")  # every field editable
    assert "rating" in scrape_form(chief, url)
    services.round_pair(tournament=shared["b"])  # meanwhile the other arbiter pairs his round 1
    response = chief.post(url, form)
    assert response.status_code == 200  # the form again, with what was typed, not a silent half-save
    page = text_of(response)
    assert "2345" in page and "also plays in another arbiter's tournament that is under way" in page
    assert 'value="Typed club"' in response.content.decode()
    player.refresh_from_db()
    assert player.surname != "Typed" and player.rating != 2345 and player.club != "Typed club"
    # The same page without the rating typed: the name and club are his to correct, and are saved.
    form["rating"] = str(type(player).objects.get(pk=player.pk).rating or "")
    assert chief.post(url, form).status_code == 302
    player.refresh_from_db()
    assert (player.surname, player.club) == ("Typed", "Typed club")


def test_the_creator_of_a_player_keeps_him_and_a_stranger_never_gets_him(shared, make_players) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model

    chief = shared["chief"]
    add = reverse("admin:tournaments_player_add")
    response = chief.post(add, {**scrape_form(chief, add), "surname": "Newcomer", "rating": "1500"})
    assert response.status_code == 302, text_of(response)[:500]
    newcomer = type(shared["player"]).objects.get(surname="Newcomer")
    roster.entry_add(tournament=shared["b"], player=newcomer)  # entered only in the other's tournament
    url = _player_url(newcomer)
    assert chief.post(url, scrape_form(chief, url, club="Own club")).status_code == 302
    newcomer.refresh_from_db()
    assert newcomer.club == "Own club"
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger", is_staff=True))
    assert stranger.post(url, {**scrape_form(shared["other"], url), "club": "Taken"}).status_code == 403
    newcomer.refresh_from_db()
    assert newcomer.club == "Own club"


def test_a_rating_list_updates_a_shared_player_only_while_the_other_tournament_has_not_begun(shared) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    chief, player = shared["chief"], shared["player"]
    url = reverse("admin:tournaments_player_import")

    def upload(rating: int) -> Any:
        text = f"surname,fmjd_id,rating\n{player.surname},{player.fmjd_id},{rating}\n".encode()
        return chief.post(url, {"file": SimpleUploadedFile("list.csv", text, "text/csv")}, follow=True)

    upload(2111)
    player.refresh_from_db()
    assert player.rating == 2111
    services.round_pair(tournament=shared["b"])
    page = text_of(upload(2222))
    player.refresh_from_db()
    assert player.rating == 2111 and "Nothing imported" in page


def test_the_numbers_page_s_rating_list_follows_the_same_rule(shared, arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.players import numbering

    player = shared["player"]
    numbering.ratings_apply(tournament=shared["a"], chosen=[f"{player.pk}:rating:2101"], source="list", user=arbiter)
    assert type(player).objects.get(pk=player.pk).rating == 2101
    services.round_pair(tournament=shared["b"])
    with pytest.raises(DomainError, match="Nothing was written"):
        numbering.ratings_apply(tournament=shared["a"], chosen=[f"{player.pk}:rating:2202"], source="list",
                                user=arbiter)
    assert type(player).objects.get(pk=player.pk).rating == 2101
