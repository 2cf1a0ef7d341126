"""Two records of one person merged: one record, nothing lost, said in the history; and every refusal."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.play import play_round
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import (
    Entry,
    NationalId,
    Player,
    PlayerMerge,
    RatingList,
    RatingListRow,
    System,
    Tournament,
)
from tournaments.players import roster
from tournaments.players.merge import KEPT, OTHER, merge_plan, players_merge
from tournaments.rounds import pairing_bridge, services

pytestmark = pytest.mark.django_db


def _tournament(slug: str, arbiter, players: list[Player], system: str = System.ROUND_ROBIN, **kw) -> Tournament:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name=f"Open {slug}", slug=slug, system=system, chief_arbiter=arbiter,
                                  start_date=datetime.date(2026, 5, 1), **kw)
    for p in players:
        roster.entry_add(tournament=t, player=p)
    return t


@pytest.fixture
def two_records(make_players, arbiter):  # type: ignore[no-untyped-def]
    """The person as FMJD knows him, entered in a finished round robin; the same person typed again without
    his ø and his id, entered in a Swiss under way."""
    known = Player.objects.create(surname="Sørensen", given_name="Ivar", fmjd_id=123, federation="NED",
                                  birth_year=1990, rating=2301, title="MF", club="Hoofddorp")
    typed = Player.objects.create(surname="Sorensen", given_name="Ivar", federation="NED", rating=2250,
                                  native_name="", sex="M", club="DC Den Haag")
    NationalId.objects.create(player=known, body="KNDB", number="4711")
    NationalId.objects.create(player=typed, body="FFJD", number="A-99")
    finished = _tournament("rr", arbiter, [known, *make_players(3)])
    for _ in range(3):
        play_round(finished)
    swiss = _tournament("sw", arbiter, [typed, *make_players(5)], system=System.SWISS, rounds_total=5)
    play_round(swiss)
    listed = RatingList.objects.create(source="FMJD", published_on=datetime.date(2026, 3, 1))
    row = RatingListRow.objects.create(rating_list=listed, line=1, player=known, fmjd_id=123, surname="Sørensen",
                                       given_name="Ivar", rating=2301)
    return known, typed, finished, swiss, row


def test_two_records_merged_nothing_lost(two_records, arbiter) -> None:  # type: ignore[no-untyped-def]
    known, typed, finished, swiss, row = two_records
    trf_before = pairing_bridge.export_trf(finished)
    entry_typed = Entry.objects.get(player=typed)
    kept_values = entry_typed.rating, entry_typed.title, entry_typed.pairing_number
    versions = dict(Tournament.objects.values_list("pk", "cache_version"))
    earlier = PlayerMerge.objects.create(kept=known, removed_id=999, removed={"full_name": "Sorensen, I."})

    # The typed record is kept (it is in the running tournament); its name takes the known spelling.
    plan = merge_plan(typed, known, {"surname": OTHER})
    assert plan.refusals == []
    assert plan.choices == {"surname": OTHER, "fmjd_id": OTHER, "title": OTHER, "rating": KEPT,
                            "club": KEPT, "birth_year": OTHER, "sex": KEPT}
    assert [e.tournament.name for e in plan.entries] == ["Open rr"]
    merge = players_merge(kept=typed, other=known, choices={"surname": OTHER}, version=plan.version, user=arbiter)

    kept = Player.objects.get(pk=typed.pk)
    assert not Player.objects.filter(pk=known.pk).exists()
    assert (kept.surname, kept.fmjd_id, kept.birth_year, kept.title, kept.rating, kept.club, kept.sex) == (
        "Sørensen", 123, 1990, "MF", 2250, "DC Den Haag", "M")
    assert kept.folded == "sorensen ivar"
    assert set(Entry.objects.filter(player=kept).values_list("tournament__slug", flat=True)) == {"rr", "sw"}
    assert sorted(kept.national_ids.values_list("body", "number")) == [("FFJD", "A-99"), ("KNDB", "4711")]
    row.refresh_from_db()
    assert row.player_id == kept.pk
    earlier.refresh_from_db()
    assert earlier.kept_id == kept.pk
    # The entries keep what their tournaments gave them, and the finished tournament's file is the same.
    entry_typed.refresh_from_db()
    assert (entry_typed.rating, entry_typed.title, entry_typed.pairing_number) == kept_values
    assert pairing_bridge.export_trf(Tournament.objects.get(pk=finished.pk)) == trf_before
    # Both tournaments' public pages are stale now.
    after = dict(Tournament.objects.values_list("pk", "cache_version"))
    assert after[finished.pk] > versions[finished.pk] and after[swiss.pk] > versions[swiss.pk]
    # The history says why, and the removed record is kept whole.
    assert kept.history.first().history_change_reason == f"merged with #{known.pk} Sørensen, Ivar"
    moved_entry = Entry.objects.get(tournament=finished, player=kept)
    assert moved_entry.history.first().history_change_reason == f"player record #{known.pk} merged into #{kept.pk}"
    assert moved_entry.history.first().history_user == arbiter
    assert Player.history.filter(id=known.pk, history_type="-").get().history_change_reason.startswith(
        f"merged into #{kept.pk}")
    assert merge.removed_id == known.pk and merge.merged_by == arbiter
    assert merge.removed["surname"] == "Sørensen" and merge.removed["fmjd_id"] == 123
    assert merge.removed["club"] == "Hoofddorp" and merge.removed["full_name"] == "Sørensen, Ivar"
    assert [(n["body"], n["number"]) for n in merge.removed["national_ids"]] == [("KNDB", "4711")]
    assert merge.moved["entries"] == [moved_entry.pk]
    assert merge.moved["list_rows"] == [row.pk]
    assert merge.moved["merges"] == [earlier.pk]
    assert merge.moved["national_ids"] == list(NationalId.objects.filter(body="KNDB").values_list("pk", flat=True))
    assert merge.moved["fields"]["surname"] == ["Sorensen", "Sørensen"]
    # The moved entry still plays on: its games and standings are the tournament's as before.
    assert services.round_pair(tournament=Tournament.objects.get(pk=swiss.pk)) is not None


def test_a_record_is_not_merged_with_itself(two_records) -> None:  # type: ignore[no-untyped-def]
    known = two_records[0]
    assert "itself" in merge_plan(known, known).refusals[0]
    with pytest.raises(DomainError, match="itself"):
        players_merge(kept=known, other=Player.objects.get(pk=known.pk))


def test_both_in_one_tournament_is_refused(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, finished, swiss, _ = two_records
    both = Tournament.objects.create(name="Blitz", slug="blitz", system=System.ROUND_ROBIN,
                                     start_date=datetime.date(2026, 6, 1))
    roster.entry_add(tournament=both, player=known)
    roster.entry_add(tournament=both, player=typed)
    with pytest.raises(DomainError, match="both entered in Blitz: a person cannot play himself"):
        players_merge(kept=typed, other=known)
    assert Player.objects.filter(pk=known.pk).exists() and PlayerMerge.objects.count() == 0


def test_two_fmjd_ids_are_two_persons(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, *_ = two_records
    Player.objects.filter(pk=typed.pk).update(fmjd_id=456)
    typed.refresh_from_db()
    with pytest.raises(DomainError, match="two FMJD ids are two persons"):
        players_merge(kept=typed, other=known)
    assert Player.objects.filter(pk=known.pk).exists()


def test_two_ids_of_one_body_are_refused(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, *_ = two_records
    NationalId.objects.create(player=typed, body="KNDB", number="5000")
    with pytest.raises(DomainError, match="KNDB id 5000 and .* has KNDB id 4711|KNDB id 4711 and .* KNDB id 5000"):
        players_merge(kept=typed, other=known)
    assert NationalId.objects.filter(player=known).count() == 1


def test_another_arbiters_player_is_left_to_an_administrator(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, *_ = two_records
    other = get_user_model().objects.create_user("second", password="pw-second-123", is_staff=True)
    with pytest.raises(DomainError, match="only an administrator can merge him"):
        players_merge(kept=typed, other=known, user=other)


def test_a_stale_preview_is_refused(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, *_ = two_records
    plan = merge_plan(typed, known)
    Player.objects.filter(pk=known.pk).update(club="Another club")  # another arbiter, meanwhile
    with pytest.raises(StaleEditError, match="changed since this preview was drawn"):
        players_merge(kept=typed, other=known, version=plan.version)
    plan = merge_plan(typed, known)
    NationalId.objects.create(player=known, body="FMJD", number="123")  # a relation counts too
    with pytest.raises(StaleEditError):
        players_merge(kept=typed, other=known, version=plan.version)
    assert Player.objects.filter(pk=known.pk).exists() and PlayerMerge.objects.count() == 0


def test_an_invalid_kept_record_is_refused_whole(two_records) -> None:  # type: ignore[no-untyped-def]
    known, typed, *_ = two_records
    Player.objects.filter(pk=typed.pk).update(unrated=True, rating=None)
    typed.refresh_from_db()
    # the other's rating on a record marked unrated: the model's own check refuses it, nothing is half-done
    with pytest.raises(DomainError, match="would not be valid"):
        players_merge(kept=typed, other=known, choices={"rating": OTHER})
    assert Player.objects.filter(pk=known.pk).exists()
    assert Entry.objects.filter(player=known).count() == 1
