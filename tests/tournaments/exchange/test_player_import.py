"""CSV import of players: a report per line, all or nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.errors import DomainError
from tournaments.exchange.player_import import players_import_csv
from tournaments.models import Player

GOOD = (
    "surname,given_name,fmjd_id,federation,title,rating,club,birth_year\n"
    "Lefèvre,Amélie,5001,FRA,MF,2205,Lyon,1999\n"
    "Коваленко,Андрій,5002,UKR,MI,2341,Kyiv,1991\n"
)


@pytest.mark.django_db
def test_good_file_creates_players_and_reports_each_line() -> None:
    report = players_import_csv(data=GOOD.encode("utf-8"), source="players.csv")
    assert report.ok and [x.status for x in report.lines] == ["created", "created"]
    assert Player.objects.get(fmjd_id=5002).surname == "Коваленко"
    again = players_import_csv(data=GOOD.encode("utf-8"), source="players.csv")
    assert [x.status for x in again.lines] == ["updated", "updated"]
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_a_bad_line_imports_nothing_and_names_the_line() -> None:
    data = GOOD + "Bad,Rating,5003,NED,,twenty,,\nNoTitle,X,5004,NED,XYZ,2000,,\n"
    report = players_import_csv(data=data.encode(), source="players.csv")
    assert not report.ok
    errors = {x.line: x.message for x in report.errors}
    assert errors == {4: "rating “twenty” is not a whole number",
                      5: "title “XYZ” is unknown (expected one of GMI, MI, MF, CMI, CMF, GMIF, MIF, MFF, CMIF, CMFF)"}
    assert [x.status for x in report.lines[:2]] == ["valid", "valid"]
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_windows_1252_semicolons_and_bom() -> None:
    data = "surname;given_name;federation\nLefèvre;Amélie;FRA\n".encode("cp1252")
    report = players_import_csv(data=data, source="excel.csv")
    assert report.ok and report.encoding == "Windows-1252"
    assert Player.objects.get().given_name == "Amélie"
    report = players_import_csv(data=b"\xef\xbb\xbf" + GOOD.encode(), source="bom.csv")
    assert report.ok and report.encoding == "UTF-8 (BOM)"


@pytest.mark.django_db
def test_old_mac_line_ends_are_read_not_called_an_empty_file() -> None:
    report = players_import_csv(data=GOOD.replace("\n", "\r").encode(), source="mac.csv")
    assert report.ok and [x.status for x in report.lines] == ["created", "created"]
    assert Player.objects.get(fmjd_id=5001).club == "Lyon"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"name_of_thing,foo\nx,y\n", "unknown column(s): name_of_thing, foo"),
        (b"surname\n", "no player lines"),
        (b"surname\x00\n", "NUL bytes"),
    ],
)
def test_unusable_files_get_a_clear_message(data: bytes, message: str) -> None:
    with pytest.raises(DomainError, match=message.replace("(", r"\(").replace(")", r"\)")):
        players_import_csv(data=data, source="x.csv")


@pytest.mark.django_db
def test_duplicate_fmjd_id_in_the_file() -> None:
    data = GOOD + "Other,One,5001,NED,,,,\n"
    report = players_import_csv(data=data.encode(), source="p.csv")
    assert [(x.line, x.message) for x in report.errors] == [(4, "FMJD id 5001 already on line 2")]


@pytest.mark.django_db
def test_command_imports_and_enters_in_a_tournament(tmp_path, make_tournament, capsys) -> None:
    t = make_tournament(0, slug="open")
    path = tmp_path / "players.csv"
    path.write_text(GOOD, encoding="utf-8")
    call_command("import_players", str(path), "--tournament", "open")
    out = capsys.readouterr().out
    assert "line 2: created: Lefèvre, Amélie, entered with pairing number 1" in out
    assert t.entries.count() == 2
    path.write_text(GOOD + "X,Y,1,NED,,bad,,\n", encoding="utf-8")
    with pytest.raises(CommandError, match="nothing imported"):
        call_command("import_players", str(path))
