"""The search behind "Enter players": FMJD ids, folded name words, the register before the lists."""

from __future__ import annotations

import datetime

import pytest

from tournaments.models import Player, RatingKind, RatingList, RatingListRow, System, Tournament
from tournaments.models.register import search_key
from tournaments.players import roster
from tournaments.players.search import candidates, tournament_lists

pytestmark = pytest.mark.django_db


def make_list(rows: list[dict], *, source: str = "FMJD", kind: str = RatingKind.FMJD,
              on: datetime.date = datetime.date(2026, 10, 1)) -> RatingList:
    lst = RatingList.objects.create(source=source, kind=kind, published_on=on, row_count=len(rows))
    RatingListRow.objects.bulk_create([
        RatingListRow(rating_list=lst, line=i, folded=search_key(r["surname"], r.get("given_name", ""),
                                                                 r.get("native_name", "")), **r)
        for i, r in enumerate(rows, start=1)])
    return lst


@pytest.fixture
def register() -> dict[str, Player]:
    return {
        "ivar": Player.objects.create(surname="Sørensen", given_name="Ivar", fmjd_id=12345, federation="DEN",
                                      rating=2210, title="MI"),
        "alex": Player.objects.create(surname="Shvartsman", given_name="Alexander", native_name="Шварцман",
                                      fmjd_id=12, federation="RUS", rating=2500, title="GMI"),
        "jan": Player.objects.create(surname="van den Heuvel", given_name="Jan", federation="NED", rating=2100),
    }


def keys(found: list) -> list[str]:
    return [c.key for c in found]


def test_a_number_is_an_fmjd_id_exact_first_then_the_ids_it_begins(register: dict[str, Player]) -> None:
    make_list([{"surname": "Idrow", "fmjd_id": 123}, {"surname": "Twelver", "fmjd_id": 1299},
               {"surname": "Other", "fmjd_id": 412}])
    found = candidates("12")
    assert found[0].key == f"p{register['alex'].pk}"  # 12 itself
    assert {c.fmjd_id for c in found} == {12, 12345, 123, 1299}
    assert candidates("12345")[0].name == "Sørensen, Ivar"
    assert [c.fmjd_id for c in candidates("412")] == [412]
    assert candidates("99999") == []
    assert candidates("1234567890123") == []  # longer than any id: nothing, no error


def test_folded_words_each_begin_a_word_of_the_names(register: dict[str, Player]) -> None:
    assert keys(candidates("sor iv")) == [f"p{register['ivar'].pk}"]
    assert keys(candidates("IV SØR")) == [f"p{register['ivar'].pk}"]  # any order, any case, accents folded
    assert keys(candidates("sore")) == [f"p{register['ivar'].pk}"]
    assert keys(candidates("heuv")) == [f"p{register['jan'].pk}"]  # a word inside the surname
    assert candidates("orensen") == []  # the middle of a word is not a word start
    assert candidates("sor ja") == []  # every word must match


def test_cyrillic_typed_finds_the_latin_spelling_and_latin_finds_the_native_name(register: dict[str, Player]) -> None:
    assert keys(candidates("шварц")) == [f"p{register['alex'].pk}"]
    found = candidates("shvar")
    assert found[0].native_name == "Шварцман"


def test_the_register_first_and_a_row_of_a_shown_player_not_repeated(register: dict[str, Player]) -> None:
    lst = make_list([
        {"surname": "Sørensen", "given_name": "Ivar", "fmjd_id": 12345, "rating": 2230, "title": "GMI"},  # unlinked
        {"surname": "Sorel", "given_name": "Anne", "fmjd_id": 777, "rating": 1900},
        {"surname": "Sørensen", "given_name": "Ivar", "fmjd_id": None, "rating": 2230},
    ])
    RatingListRow.objects.filter(rating_list=lst, line=3).update(player=register["ivar"])
    found = candidates("sor")
    assert [c.source for c in found] == ["", "FMJD 2026-10-01"]
    assert found[0].key == f"p{register['ivar'].pk}"
    assert found[1].name == "Sorel, Anne"
    # the register player shows the values his entry will keep: the chosen list's, else the register's
    assert (found[0].rating, found[0].title) == (2210, "MI")
    t = Tournament.objects.create(name="Open", slug="open", system=System.SWISS, rounds_total=5, fmjd_list=lst)
    found = candidates("sor", tournament=t)
    assert (found[0].rating, found[0].title) == (2230, "GMI")


def test_a_register_player_shows_the_rating_and_title_his_entry_will_keep(register: dict[str, Player]) -> None:
    """What the line says is what the entry holds, whether the player is on the chosen list or not, and
    whether the tournament chose a list or the search only falls back on the newest one."""
    lst = make_list([{"surname": "Sørensen", "given_name": "Ivar", "fmjd_id": 12345, "rating": 2230}])
    chose = Tournament.objects.create(name="Open", slug="open", system=System.SWISS, rounds_total=5,
                                      fmjd_list=lst)
    chose_none = Tournament.objects.create(name="Cup", slug="cup", system=System.SWISS, rounds_total=5)
    for t in (chose, chose_none):
        for query in ("sor", "heuv"):
            line = candidates(query, tournament=t)[0]
            entry = roster.entry_add(tournament=t, player=Player.objects.get(pk=line.player_id))
            assert (line.rating, line.title) == (entry.rating, entry.title), (t.slug, query)
    assert [c.rating for c in candidates("heuv", tournament=chose)] == [None]  # not on the chosen list
    assert [c.rating for c in candidates("sor", tournament=chose_none)] == [2210]  # the register's


def test_already_entered_is_flagged_in_the_register_and_in_the_lists(register: dict[str, Player]) -> None:
    make_list([{"surname": "Sorel", "given_name": "Anne", "fmjd_id": 777}])
    anne = Player.objects.create(surname="Sorel", given_name="Anne", fmjd_id=777)
    t = Tournament.objects.create(name="Open", slug="open", system=System.SWISS, rounds_total=5)
    roster.entry_add(tournament=t, player=register["ivar"])
    roster.entry_add(tournament=t, player=anne)
    found = {c.name: c.entered for c in candidates("sor", tournament=t)}
    assert found == {"Sørensen, Ivar": True, "Sorel, Anne": True}
    assert [c.entered for c in candidates("shv", tournament=t)] == [False]


def test_the_tournaments_lists_or_else_the_newest_fmjd_list(register: dict[str, Player]) -> None:
    old = make_list([{"surname": "Rowold", "fmjd_id": 1}], on=datetime.date(2026, 1, 1))
    new = make_list([{"surname": "Rownew", "fmjd_id": 2}], on=datetime.date(2026, 7, 1))
    national = make_list([{"surname": "Rownat", "national_id": "K-9"}], source="KNDB", kind=RatingKind.NATIONAL)
    assert tournament_lists(None) == [new]
    t = Tournament.objects.create(name="Open", slug="open", system=System.SWISS, rounds_total=5, fmjd_list=old,
                                  national_list=national)
    assert tournament_lists(t) == [old, national]
    assert [c.name for c in candidates("row", tournament=t)] == ["Rownat", "Rowold"]
    assert [c.name for c in candidates("row")] == ["Rownew"]


def test_the_limit_counts_the_register_and_the_rows_together(register: dict[str, Player]) -> None:
    make_list([{"surname": f"Sorbet{i}", "fmjd_id": 500 + i} for i in range(20)])
    found = candidates("sor", limit=5)
    assert len(found) == 5 and found[0].source == ""
    assert candidates("sor", limit=0) == []
    assert candidates("   ") == [] and candidates("—") == []
