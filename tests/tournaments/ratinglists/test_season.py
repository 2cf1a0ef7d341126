"""A season through the real paths: lists imported from their files, players entered from the list by the
entry screen's service, a tournament played to the end on its list, then a later list imported: the
register follows the later list, the finished tournament's TRF and tie-breaks do not."""

from __future__ import annotations

import datetime

import pytest

from tests.tournaments.play import play_swiss_round
from tournaments import ratings, selectors
from tournaments.models import Player, System, Tournament
from tournaments.players import enter
from tournaments.ratinglists import columns, readers, rows
from tournaments.ratinglists.services import import_rating_list
from tournaments.rounds import pairing_bridge

pytestmark = pytest.mark.django_db

OCT, JAN = datetime.date(2026, 10, 1), datetime.date(2027, 1, 1)
FIELD = [(15266, "Sørensen", "Ivar", "MI"), (17237, "Nimbi", "Anna", "MFF"), (10011, "Dupont", "Jean", ""),
         (20056, "Шварцман", "Алексей", "GMI"), (30001, "Lefèvre", "Émile", ""), (30002, "Ndiaye", "Ousmane", "")]


def _import(day: datetime.date, bonus: int, title_of: dict[int, str] | None = None) -> object:
    text = '"nr_ew","last_n","first_n","country","title","rating","wtitle","wrating"\n' + "".join(
        f'"{i}","{s}","{g}","NED","{(title_of or {}).get(i, t)}","A {2000 + 40 * n + bonus}","",""\n'
        for n, (i, s, g, t) in enumerate(FIELD))
    table = readers.read_dra(text.encode())
    return import_rating_list(read=rows.read_rows(table, columns.guess_all(table.headers)), source="FMJD",
                              kind="fmjd", published_on=day, file_name=f"V{day:%y%m%d}.DRA", file_format="dra")


def _record(t: Tournament) -> tuple[str, list[tuple[int, dict[str, object]]]]:
    t = Tournament.objects.get(pk=t.pk)
    return (pairing_bridge.export_trf(t, next_round=4),
            [(row.player.pairing_number, dict(row.tiebreaks)) for row in selectors.standings(t)])


def test_a_season_on_imported_lists(arbiter) -> None:  # type: ignore[no-untyped-def]
    october = _import(OCT, 0).rating_list
    t = Tournament.objects.create(name="Autumn open", slug="autumn", system=System.SWISS, rounds_total=3,
                                  chief_arbiter=arbiter, fmjd_list=october,
                                  tiebreaks=["average_rating", "solkoff"])
    for fmjd_id, *_ in FIELD:  # each found by id on the list, entered from its row: a register record is made
        row = october.rows.get(fmjd_id=fmjd_id)
        enter.entry_add_found(tournament=t, key=f"r{row.pk}", read_at=enter.entry_version(t), user=arbiter)
    kept = {e.player.fmjd_id: (e.rating, e.title) for e in t.entries.select_related("player")}
    assert kept == {i: (2000 + 40 * n, title) for n, (i, _s, _g, title) in enumerate(FIELD)}
    assert Player.objects.get(fmjd_id=20056).folded == "shvartsman aleksey"
    for _ in range(3):
        play_swiss_round(t)
    assert ratings.is_finished(Tournament.objects.get(pk=t.pk))
    before = _record(t)
    assert "2200" in before[0] and " GMI " in before[0]

    january = _import(JAN, 100, {10011: "MF"})  # every rating 100 higher, a new title
    assert january.updated == len(FIELD)
    dupont = Player.objects.get(fmjd_id=10011)
    assert (dupont.rating, dupont.title, dupont.rating_source) == (2180, "MF", "FMJD 2027-01-01")
    assert _record(t) == before  # the finished tournament stays as it was played
    assert {e.player.fmjd_id: (e.rating, e.title) for e in t.entries.select_related("player")} == kept
    assert ratings.rating_changes(Tournament.objects.get(pk=t.pk)) == []  # finished: nothing to take on
