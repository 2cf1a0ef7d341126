"""manage.py import_rating_list: the counts and every row's error, so that a federation can script it."""

from __future__ import annotations

import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import NationalId, Player, RatingList

pytestmark = pytest.mark.django_db

DRA = ('"nr_ew","last_n","first_n","country","title","rating","wtitle","wrating"\n'
       '"15266","Sørensen","Ivar","NED","MI","2339","",""\n'
       '"15266","Twice","Again","NED","","2000","",""\n')


def _run(*args: str) -> str:
    out = StringIO()
    call_command("import_rating_list", *args, stdout=out)
    return out.getvalue()


def test_a_dra_with_a_bad_row_imports_nothing_then_the_good_rows(tmp_path: Path) -> None:
    Player.objects.create(surname="Sørensen", fmjd_id=15266, rating=2000)
    path = tmp_path / "V261001.DRA"
    path.write_text(DRA, encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing imported: 1 row has errors"):
        _run(str(path))
    assert not RatingList.objects.exists()
    out = _run(str(path), "--leave-out-bad-rows")
    assert "2 rows: 1 matched to the register, 0 not in it, 1 with errors." in out
    assert "line 3, FMJD id: 15266 is already on line 2" in out
    assert "FMJD 2026-10-01 imported. Rows: 1; matched: 1; players updated: 1; rows left out: 1." in out
    assert Player.objects.get().rating == 2339


def test_a_national_csv_with_columns_named(tmp_path: Path) -> None:
    p = Player.objects.create(surname="Jansen")
    NationalId.objects.create(player=p, body="KNDB", number="12345")
    path = tmp_path / "kndb.csv"
    path.write_text("Naam;Nummer;Punten;Opmerking\nJansen;12345;1432;x\n", encoding="utf-8")
    with pytest.raises(CommandError, match="--date is needed"):
        _run(str(path), "--source", "KNDB")
    out = _run(str(path), "--source", "KNDB", "--date", "2026-10-01", "--kind", "national", "--columns",
               "surname,national_id,rating,-")
    assert "Naam -> surname, Nummer -> national_id, Punten -> rating, Opmerking -> -" in out
    assert "KNDB 2026-10-01 imported. Rows: 1; matched: 1; players updated: 1; rows left out: 0." in out
    p.refresh_from_db()
    assert p.national_rating == 1432
    assert RatingList.objects.get().published_on == datetime.date(2026, 10, 1)
    with pytest.raises(CommandError, match="is already imported"):
        _run(str(path), "--source", "KNDB", "--date", "2026-10-01", "--kind", "national", "--columns",
             "Nummer=national_id,Punten=rating")
    with pytest.raises(CommandError, match="unknown field 'points'"):
        _run(str(path), "--source", "KNDB", "--date", "2026-10-02", "--columns", "Punten=points")
