"""Pairing numbers and ratings: the tournament rating, equal ratings, exchanges,
regeneration before round 4, late entries numbered by rating, rating checks."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.play import play_round
from tournaments import ratings, selectors
from tournaments.conformance import events
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Game, Player, RatingMethod, System, Tournament
from tournaments.players import numbering, roster
from tournaments.rounds.settings_rules import check_settings

pytestmark = pytest.mark.django_db


def _player(surname: str, rating: int | None = None, **kwargs: object) -> Player:
    return Player.objects.create(surname=surname, given_name="T", rating=rating, **kwargs)


def _swiss(arbiter, players: list[Player], slug: str = "sw", **kwargs: object) -> Tournament:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name=f"Swiss {slug}", slug=slug, system=System.SWISS, rounds_total=7,
                                  chief_arbiter=arbiter, start_date=datetime.date(2026, 1, 1), **kwargs)
    for p in players:
        roster.entry_add(tournament=t, player=p)
    return t


def _numbers(t: Tournament) -> list[str]:
    return [e.player.surname for e in t.entries.select_related("player").order_by("pairing_number")]


def _codes(t: Tournament) -> list[str]:
    return list(t.conformance_events.values_list("code", flat=True))


# --- The tournament rating ----------------------------------------------------------------------


def test_each_method_reads_its_rating_and_falls_back_to_the_other() -> None:
    both = Player(surname="A", rating=2100, national_rating=2250)
    fmjd_only = Player(surname="B", rating=2000)
    national_only = Player(surname="C", national_rating=1900)
    none = Player(surname="D")
    read = ratings.tournament_rating
    assert [read(p, RatingMethod.FMJD) for p in (both, fmjd_only, national_only, none)] == [2100, 2000, 1900, None]
    assert [read(p, RatingMethod.NATIONAL) for p in (both, fmjd_only, national_only, none)] == [2250, 2000, 1900,
                                                                                                None]
    assert [read(p, RatingMethod.HIGHER) for p in (both, fmjd_only, national_only, none)] == [2250, 2000, 1900, None]
    assert read(Player(surname="E", unrated=True), RatingMethod.HIGHER) is None
    # One list alone: the other is left out (VCL4THP 126: a list can be excluded).
    assert [read(p, RatingMethod.FMJD_ONLY) for p in (both, fmjd_only, national_only, none)] == [2100, 2000, None,
                                                                                                 None]
    assert [read(p, RatingMethod.NATIONAL_ONLY) for p in (both, fmjd_only, national_only, none)] == [2250, None,
                                                                                                     1900, None]


def test_the_source_of_each_rating_is_kept_and_a_typed_one_is_marked(arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client
    from django.urls import reverse

    from tournaments.exchange.player_import import players_import_csv

    players_import_csv(data=b"surname,fmjd_id,rating,national_rating\nAdams,4242,2100,2150\nBaker,4243,,\n",
                       source="fmjd-2026-11.csv")
    adams, baker = Player.objects.get(fmjd_id=4242), Player.objects.get(fmjd_id=4243)
    assert adams.rating_source.startswith("fmjd-2026-11.csv (") and adams.national_rating == 2150
    assert baker.rating_source == ""
    client = Client()
    client.force_login(arbiter)
    arbiter.is_superuser = True
    arbiter.save()
    url = reverse("admin:tournaments_player_change", args=[adams.pk])
    client.post(url, {"surname": "Adams", "fmjd_id": 4242, "rating": 2111, "national_rating": 2150})
    adams.refresh_from_db()
    assert adams.rating == 2111 and adams.rating_source == ""
    assert "typed by hand" in client.get(reverse("admin:tournaments_player_changelist")).content.decode()
    # A list re-imported without the national column leaves the national ratings alone.
    players_import_csv(data=b"surname,fmjd_id,rating\nAdams,4242,2120\n", source="fmjd-2026-12.csv")
    adams.refresh_from_db()
    assert (adams.rating, adams.national_rating) == (2120, 2150) and adams.rating_source.startswith("fmjd-2026-12")


def test_the_method_drives_numbers_tiebreak_rating_and_what_pages_show(arbiter) -> None:  # type: ignore[no-untyped-def]
    a = _player("Alpha", 2100, national_rating=1500)
    b = _player("Bravo", 1800, national_rating=2300)
    t = _swiss(arbiter, [a, b], rating_method=RatingMethod.NATIONAL)
    roster.entries_number_by_rating(tournament=t)
    assert _numbers(t) == ["Bravo", "Alpha"]
    data = selectors.tournament_data(t)
    assert [p.rating for p in data.standing_players()] == [2300, 1500]  # what the rating tie-breaks read
    assert [line.player.rating for line in selectors.standing_lines(t, data, None)] == [2300, 1500]


def test_trf_shows_the_tournament_rating(arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.rounds.pairing_bridge import export_trf

    a = _player("Alpha", 2100, national_rating=1500)
    b = _player("Bravo", None, national_rating=2300)
    t = _swiss(arbiter, [a, b], slug="trf", rating_method=RatingMethod.FMJD)
    play_round(t)
    lines = [line for line in export_trf(t).splitlines() if line.startswith("001")]
    # Bravo has no FMJD rating: his national one counts, and numbers him first.
    assert "Bravo" in lines[0] and " 2300 " in lines[0] and "Alpha" in lines[1] and " 2100 " in lines[1]


# --- Equal ratings ------------------------------------------------------------------------------


@pytest.mark.parametrize(("criterion", "expected"), [
    ("alphabetical", ["GMI-Zulu", "Adams", "Baker", "Carter"]),
    ("fmjd_id", ["GMI-Zulu", "Carter", "Adams", "Baker"]),
    ("oldest", ["GMI-Zulu", "Baker", "Carter", "Adams"]),
    ("youngest", ["GMI-Zulu", "Carter", "Baker", "Adams"]),
])
def test_equal_ratings_by_title_then_the_announced_criterion(arbiter, criterion, expected) -> None:  # type: ignore[no-untyped-def]
    players = [_player("Adams", 2000, fmjd_id=30, birth_year=None),
               _player("Baker", 2000, fmjd_id=None, birth_year=1970),
               _player("Carter", 2000, fmjd_id=20, birth_year=1990),
               _player("GMI-Zulu", 2000, title="GMI", fmjd_id=99, birth_year=2000)]
    t = _swiss(arbiter, players, slug=f"tie-{criterion}", tie_order=criterion)
    roster.entries_number_by_rating(tournament=t)
    assert _numbers(t) == expected


# --- Exchange -----------------------------------------------------------------------------------


def test_exchange_only_between_equal_tournament_ratings(arbiter) -> None:  # type: ignore[no-untyped-def]
    a, b, c = _player("A", 2000), _player("B", 2000), _player("C", 1900)
    t = _swiss(arbiter, [a, b, c])
    ea, eb, ec = (t.entries.get(player=p) for p in (a, b, c))
    with pytest.raises(DomainError, match="same tournament rating"):
        numbering.numbers_exchange(tournament=t, first=ea, second=ec, confirmed={"numbers-exchanged"})
    assert _codes(t) == []


def test_exchange_asks_then_is_done_and_recorded(arbiter) -> None:  # type: ignore[no-untyped-def]
    a, b, c = _player("A", 2000), _player("B", 2000), _player("C", 1900)
    t = _swiss(arbiter, [a, b, c])
    play_round(t)
    ea, eb = t.entries.get(player=a), t.entries.get(player=b)
    with pytest.raises(events.NeedsConfirmation) as asked:
        numbering.numbers_exchange(tournament=t, first=ea, second=eb)
    assert [w.code for w in asked.value.warnings] == ["numbers-exchanged"]
    assert _numbers(t) == ["A", "B", "C"] and _codes(t) == []
    with pytest.raises(StaleEditError):
        numbering.numbers_exchange(tournament=t, first=ea, second=eb, expected="0" * 16,
                                   confirmed={"numbers-exchanged"})
    numbering.numbers_exchange(tournament=t, first=ea, second=eb, expected=numbering.numbers_version(t),
                               confirmed={"numbers-exchanged"}, user=arbiter)
    assert _numbers(t) == ["B", "A", "C"]
    event = t.conformance_events.get()
    assert (event.code, event.level, event.round_number, event.created_by) == ("numbers-exchanged", 3, 1, arbiter)
    assert "### numbers-exchanged @ Round 1: first=A, T numbers=1,2 second=B, T" in events.trf_lines(t)


def test_two_unrated_players_count_as_equal(arbiter) -> None:  # type: ignore[no-untyped-def]
    a, b = _player("A"), _player("B")
    t = _swiss(arbiter, [a, b])
    numbering.numbers_exchange(tournament=t, first=t.entries.get(player=a), second=t.entries.get(player=b),
                               confirmed={"numbers-exchanged"})
    assert _numbers(t) == ["B", "A"]
    t.refresh_from_db()
    assert t.numbering == "manual"  # before round 1: kept, not undone when round 1 is paired


def test_nothing_changes_once_round_4_is_paired(arbiter) -> None:  # type: ignore[no-untyped-def]
    players = [_player(f"P{i}", 2000) for i in range(10)]
    t = _swiss(arbiter, players)
    for _ in range(4):
        play_round(t)
    entries = list(t.entries.order_by("pairing_number"))
    with pytest.raises(DomainError, match="until round 4 is paired"):
        numbering.numbers_exchange(tournament=t, first=entries[0], second=entries[1], confirmed={"numbers-exchanged"})
    with pytest.raises(DomainError, match="until round 4 is paired"):
        numbering.numbers_regenerate(tournament=t, confirmed={"numbers-regenerated"})


def test_round_robin_numbers_are_never_exchanged_or_regenerated(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    entries = list(t.entries.order_by("pairing_number"))
    with pytest.raises(DomainError, match="Berger table"):
        numbering.numbers_exchange(tournament=t, first=entries[0], second=entries[1], confirmed={"numbers-exchanged"})
    with pytest.raises(DomainError, match="Berger table"):
        numbering.numbers_regenerate(tournament=t)


# --- Regeneration -------------------------------------------------------------------------------


def test_regeneration_asks_when_two_numbers_move_then_records(arbiter) -> None:  # type: ignore[no-untyped-def]
    a, b, c = _player("A", 2000), _player("B", 1900), _player("C", 1800)
    t = _swiss(arbiter, [a, b, c])
    play_round(t)
    games_before = list(Game.objects.filter(round__tournament=t).values_list("white_id", "black_id", "result"))
    Player.objects.filter(pk=c.pk).update(rating=2100)
    assert numbering.regeneration_moves(t) == []  # the tournament keeps its ratings until they are taken on
    numbering.ratings_take_note(tournament=t, user=arbiter)
    moves = numbering.regeneration_moves(t)
    assert [(m.entry.player.surname, m.old, m.new) for m in moves] == [("C", 3, 1), ("A", 1, 2), ("B", 2, 3)]
    with pytest.raises(events.NeedsConfirmation):
        numbering.numbers_regenerate(tournament=t)
    with pytest.raises(StaleEditError):
        numbering.numbers_regenerate(tournament=t, expected="1:1>2", confirmed={"numbers-regenerated"})
    numbering.numbers_regenerate(tournament=t, expected=numbering.moves_signature(moves),
                                 confirmed={"numbers-regenerated"}, user=arbiter)
    assert _numbers(t) == ["C", "A", "B"]
    assert list(Game.objects.filter(round__tournament=t).values_list("white_id", "black_id", "result")) == games_before
    event = t.conformance_events.get(code="numbers-regenerated")
    assert event.values == {"moved": 3, "numbers": ["3>1", "1>2", "2>3"]}
    assert numbering.numbers_regenerate(tournament=t) == []  # nothing moves: nothing asked, nothing recorded
    assert t.conformance_events.count() == 2  # the rating taken on, the regeneration


def test_regeneration_keeps_the_order_of_equal_ratings(arbiter) -> None:  # type: ignore[no-untyped-def]
    # Equal ratings: the order chosen (here an exchange the arbiter confirmed) stands through a regeneration.
    a, b, c = _player("Adams", 2000), _player("Baker", 2000), _player("Carter", 1500)
    t = _swiss(arbiter, [a, b, c])
    play_round(t)
    numbering.numbers_exchange(tournament=t, first=t.entries.get(player=a), second=t.entries.get(player=b),
                               confirmed={"numbers-exchanged"})
    assert _numbers(t) == ["Baker", "Adams", "Carter"]
    Player.objects.filter(pk=c.pk).update(rating=2500)
    numbering.ratings_take_note(tournament=t)
    numbering.numbers_regenerate(tournament=t, confirmed={"numbers-regenerated"})
    assert _numbers(t) == ["Carter", "Baker", "Adams"]


# --- Late entry ---------------------------------------------------------------------------------


def test_late_entry_gets_the_number_his_rating_earns(arbiter) -> None:  # type: ignore[no-untyped-def]
    players = [_player(f"P{i}", 2400 - 100 * i) for i in range(1, 11)]  # 2300 .. 1400
    t = _swiss(arbiter, players)
    for _ in range(4):
        play_round(t)
    games_before = sorted(Game.objects.filter(round__tournament=t).values_list("white_id", "black_id", "result"))
    late = _player("Late", 2050)
    entry = roster.entry_add(tournament=t, player=late, user=arbiter)
    assert entry.pairing_number == 4
    assert _numbers(t) == ["P1", "P2", "P3", "Late", "P4", "P5", "P6", "P7", "P8", "P9", "P10"]
    assert sorted(Game.objects.filter(round__tournament=t).values_list("white_id", "black_id", "result")) == \
        games_before
    event = t.conformance_events.get()
    assert (event.code, event.level, event.values) == ("late-entry", 2, {"player": "Late, T", "number": 4})
    assert entry.rating == 2050
    with pytest.raises(DomainError, match="earns him pairing number 12"):
        roster.entry_add(tournament=t, player=_player("Other"), pairing_number=3)
    play_round(t)  # round 5 pairs on the new numbers


def test_late_entry_of_equal_rating_follows_title_then_criterion(arbiter) -> None:  # type: ignore[no-untyped-def]
    t = _swiss(arbiter, [_player("Baker", 2000), _player("Dover", 2000)])
    play_round(t)
    assert roster.entry_add(tournament=t, player=_player("Carter", 2000)).pairing_number == 2
    assert roster.entry_add(tournament=t, player=_player("Zulu", 2000, title="MI")).pairing_number == 1
    assert _numbers(t) == ["Zulu", "Baker", "Carter", "Dover"]


# --- Rating checks ------------------------------------------------------------------------------


def test_impossible_ratings_are_refused_with_the_reason() -> None:
    with pytest.raises(ValidationError) as exc:
        Player(surname="X", rating=3200).full_clean()
    assert "3000" in str(exc.value.message_dict["rating"])
    with pytest.raises(ValidationError) as exc:
        Player(surname="Y", national_rating=1800, unrated=True).full_clean()
    assert "unrated" in str(exc.value.message_dict["national_rating"])
    Player(surname="Z", unrated=True).full_clean()


def test_a_rating_changed_since_the_entry_is_shown_then_noted(arbiter) -> None:  # type: ignore[no-untyped-def]
    a, b = _player("A", 2000), _player("B", 1900)
    t = _swiss(arbiter, [a, b])
    assert ratings.rating_changes(t) == []
    Player.objects.filter(pk=b.pk).update(rating=1950)
    changes = ratings.rating_changes(t)
    assert [(c.entry.player.surname, c.at_entry, c.now) for c in changes] == [("B", 1900, 1950)]
    with pytest.raises(StaleEditError):
        numbering.ratings_take_note(tournament=t, expected="nothing")
    numbering.ratings_take_note(tournament=t, expected=numbering.changes_signature(changes), user=arbiter)
    assert ratings.rating_changes(t) == []
    event = t.conformance_events.get()
    assert (event.code, event.level, event.values) == ("rating-changed", 2, {"player": "B, T", "old": 1900,
                                                                             "new": 1950})


def test_rating_settings_are_fixed_once_round_1_is_paired(arbiter) -> None:  # type: ignore[no-untyped-def]
    t = _swiss(arbiter, [_player("A", 2000), _player("B", 1900)])
    play_round(t)
    t.rating_method, t.tie_order = RatingMethod.HIGHER, "oldest"
    with pytest.raises(ValidationError) as exc:
        check_settings(t)
    assert set(exc.value.message_dict) == {"rating_method", "tie_order"}


# --- A rating list checked against the entries ---------------------------------------------------


def test_a_rating_list_is_compared_and_only_the_chosen_ratings_are_written(arbiter) -> None:  # type: ignore[no-untyped-def]
    a = _player("A", 2000, fmjd_id=11)
    b = _player("B", 1900, fmjd_id=12, national_rating=1850)
    c = _player("C", 1800, fmjd_id=13)
    _player("Elsewhere", 1700, fmjd_id=14)  # not entered: never listed
    t = _swiss(arbiter, [a, b, c])
    data = b"fmjd_id,rating,national_rating\n11,2000,\n12,1950,1875\n13,1790,\n14,2500,\n"
    diffs = numbering.list_differences(t, data, "fmjd.csv")
    assert [(d.entry.player.surname, d.field, d.old, d.new) for d in diffs] == [
        ("B", "rating", 1900, 1950), ("B", "national_rating", 1850, 1875), ("C", "rating", 1800, 1790)]
    assert Player.objects.get(pk=b.pk).rating == 1900  # nothing written by the comparison
    numbering.ratings_apply(tournament=t, chosen=[diffs[0].token, diffs[2].token], source="fmjd.csv", user=arbiter)
    b.refresh_from_db()
    c.refresh_from_db()
    assert (b.rating, b.national_rating, c.rating) == (1950, 1850, 1790)
    assert b.rating_source.startswith("fmjd.csv (")
    assert [(ch.entry.player.surname, ch.at_entry, ch.now) for ch in ratings.rating_changes(t)] == [
        ("B", 1900, 1950), ("C", 1800, 1790)]
    with pytest.raises(DomainError, match="not one of this tournament's players"):
        numbering.ratings_apply(tournament=t, chosen=[f"{Player.objects.get(fmjd_id=14).pk}:rating:2600"],
                                source="x")
    with pytest.raises(DomainError, match="line 2: rating 3500 is not a possible rating"):
        numbering.list_differences(t, b"fmjd_id,rating\n11,3500\n", "bad.csv")
    with pytest.raises(DomainError, match="names the columns fmjd_id and rating"):
        numbering.list_differences(t, b"name,elo\nA,2000\n", "bad.csv")
