"""Importing a list: rows kept as published, the register follows the newest list, entries never move."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.play import play_swiss_round
from tournaments import ratings
from tournaments.errors import DomainError
from tournaments.models import Entry, NationalId, Player, RatingList, RatingListRow, System
from tournaments.ratinglists import columns, readers, rows, selectors
from tournaments.ratinglists.services import import_rating_list

pytestmark = pytest.mark.django_db

OCT, JAN = datetime.date(2026, 10, 1), datetime.date(2027, 1, 1)


def _dra(lines: list[tuple[int, str, str, str, int | str]]) -> rows.ReadList:
    text = '"nr_ew","last_n","first_n","country","title","rating","wtitle","wrating"\n' + "".join(
        f'"{i}","{s}","{g}","NED","{t}","{r}","",""\n' for i, s, g, t, r in lines)
    table = readers.read_dra(text.encode())
    return rows.read_rows(table, columns.guess_all(table.headers))


def _fmjd(read: rows.ReadList, date: datetime.date, **kw: object):  # type: ignore[no-untyped-def]
    return import_rating_list(read=read, source="FMJD", kind="fmjd", published_on=date, file_name="V.DRA",
                              file_format="dra", **kw)


def test_rows_stored_matched_and_nobody_created() -> None:
    known = Player.objects.create(surname="Sørensen", given_name="Ivar", fmjd_id=15266, rating=2200)
    result = _fmjd(_dra([(15266, "Sørensen", "Ivar", "MI", "A 2339"), (17237, "Nimbi", "Anna", "", 1888)]), OCT)
    assert (result.rows, result.matched, result.updated, result.newer) == (2, 1, 1, None)
    stored = {r.fmjd_id: r for r in RatingListRow.objects.filter(rating_list=result.rating_list)}
    assert stored[15266].player_id == known.pk and stored[17237].player_id is None
    assert stored[15266].folded == "sorensen ivar"
    assert Player.objects.count() == 1  # the list is the lookup source: nobody is created
    known.refresh_from_db()
    assert (known.rating, known.title, known.rating_source) == (2339, "MI", "FMJD 2026-10-01")
    assert known.folded == "sorensen ivar"
    assert known.history.first().history_change_reason == "rating list FMJD 2026-10-01"
    assert result.rating_list.row_count == 2


def test_the_register_follows_the_newer_list_and_an_older_one_moves_nobody() -> None:
    p = Player.objects.create(surname="A", fmjd_id=1, rating=1500, title="MF")
    _fmjd(_dra([(1, "A", "", "", 1600)]), OCT)
    _fmjd(_dra([(1, "A", "", "MI", 1700)]), JAN)
    p.refresh_from_db()
    assert (p.rating, p.title, p.rating_source) == (1700, "MI", "FMJD 2027-01-01")
    older = _dra([(1, "A", "", "", 1550)])
    assert selectors.preview(older, "FMJD", "fmjd", datetime.date(2026, 7, 1)).newer == JAN
    result = _fmjd(older, datetime.date(2026, 7, 1))
    assert (result.newer, result.updated) == (JAN, 0)
    p.refresh_from_db()
    assert (p.rating, p.title, p.rating_source) == (1700, "MI", "FMJD 2027-01-01")
    # every list stays as published, for the tournaments that choose it
    assert sorted(RatingListRow.objects.filter(fmjd_id=1).values_list("rating", flat=True)) == [1550, 1600, 1700]


def test_titles_are_for_life_and_a_row_without_rating_keeps_the_rating() -> None:
    p = Player.objects.create(surname="A", fmjd_id=1, rating=1500, title="GMI")
    _fmjd(_dra([(1, "A", "", "", "")]), OCT)
    p.refresh_from_db()
    assert (p.rating, p.title) == (1500, "GMI")


def test_a_national_list_matches_by_national_id_of_its_source() -> None:
    p = Player.objects.create(surname="Jansen", fmjd_id=5, rating=2000)
    other = Player.objects.create(surname="Other")
    NationalId.objects.create(player=p, body="KNDB", number="12345")
    NationalId.objects.create(player=other, body="FFJD", number="777")
    table = readers.read_csv(b"bondsnummer;achternaam;rating\n12345;Jansen;1432\n777;Other;1100\n")
    read = rows.read_rows(table, columns.guess_all(table.headers))
    result = import_rating_list(read=read, source="kndb", kind="national", published_on=OCT)
    assert (result.rating_list.source, result.matched, result.updated) == ("KNDB", 1, 1)
    p.refresh_from_db()
    other.refresh_from_db()
    assert (p.rating, p.national_rating, p.rating_source) == (2000, 1432, "KNDB 2026-10-01")
    assert other.national_rating is None  # an FFJD number is not a KNDB number


def test_rows_with_errors_import_nothing_unless_left_out() -> None:
    read = _dra([(1, "A", "", "XYZ", 1600), (2, "B", "", "", 1500)])
    with pytest.raises(DomainError, match="1 row has errors"):
        _fmjd(read, OCT)
    assert not RatingList.objects.exists()
    result = _fmjd(read, OCT, leave_out_errors=True)
    assert (result.rows, result.left_out) == (1, 1)


def test_the_same_list_twice_is_refused() -> None:
    _fmjd(_dra([(1, "A", "", "", 1600)]), OCT)
    with pytest.raises(DomainError, match=r"FMJD 2026-10-01 \(FMJD rating\) is already imported \(1 rows"):
        _fmjd(_dra([(1, "A", "", "", 1650)]), OCT)
    assert RatingList.objects.count() == 1


def test_a_running_tournament_keeps_its_entries_and_shows_the_change(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="run", rounds_total=3)
    play_swiss_round(t)
    before = list(Entry.objects.filter(tournament=t).order_by("pk").values_list("rating", "national_rating", "title"))
    first = t.entries.order_by("pairing_number").first().player
    version = type(t).objects.get(pk=t.pk).cache_version
    _fmjd(_dra([(first.fmjd_id, first.surname, first.given_name, "MI", 2555)]), OCT)
    after = list(Entry.objects.filter(tournament=t).order_by("pk").values_list("rating", "national_rating", "title"))
    assert after == before
    changes = ratings.rating_changes(t)
    assert [(c.entry.player_id, c.now) for c in changes] == [(first.pk, 2555)]
    assert type(t).objects.get(pk=t.pk).cache_version > version  # the public pages show the new rating


def test_an_arbiter_may_not_move_players_of_other_arbiters_tournaments(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2, system=System.SWISS, slug="theirs", rounds_total=3)
    stranger = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    p = t.entries.first().player
    with pytest.raises(DomainError, match="also plays in tournaments you are not an arbiter of"):
        _fmjd(_dra([(p.fmjd_id, p.surname, "", "", 2100)]), OCT, user=stranger)
    assert not RatingList.objects.exists()
    _fmjd(_dra([(p.fmjd_id, p.surname, "", "", 2100)]), OCT, user=t.chief_arbiter)
    p.refresh_from_db()
    assert p.rating == 2100
