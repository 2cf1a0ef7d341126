"""A large CSV is refused before it outlives the request; every error of a
line is reported; names never hold control characters."""

from __future__ import annotations

import pytest

from tournaments.errors import DomainError
from tournaments.exchange import player_import
from tournaments.exchange.player_import import players_import_csv
from tournaments.models import Player

HEADER = "surname,given_name,fmjd_id,federation,title,rating,club,birth_year\n"


@pytest.mark.django_db
def test_a_150000_line_file_is_refused_by_its_line_count() -> None:
    data = (HEADER + "A,B,,NED,,1500,,\n" * 150_000).encode()
    assert len(data) < player_import.MAX_BYTES
    with pytest.raises(DomainError, match=f"more than {player_import.MAX_LINES} player lines"):
        players_import_csv(data=data, source="big.csv")
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_every_error_of_a_line_is_reported() -> None:
    data = HEADER + "Bad,Rating,x12,NETH,XYZ,twenty,,1700\n"
    report = players_import_csv(data=data.encode(), source="p.csv")
    (line,) = report.errors
    for part in ("fmjd_id “x12”", "federation “NETH”", "title “XYZ”", "rating “twenty”", "birth_year 1700"):
        assert part in line.message, (part, line.message)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Evil\rName", "Tab\there", "Bidi\u202eemaN", "Bell\x07"])
def test_control_characters_in_a_name_are_refused_naming_the_field(name: str) -> None:
    data = HEADER.encode() + f'"{name}",Given,1,NED,,1500,,\n'.encode()
    report = players_import_csv(data=data, source="p.csv")
    assert not report.ok and "surname holds a control character" in report.errors[0].message
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_newline_in_a_quoted_name_is_refused() -> None:
    data = HEADER + '"Forged\n001    2 m    Fake",Given,1,NED,,1500,,\n'
    report = players_import_csv(data=data.encode(), source="p.csv")
    assert not report.ok and "U+000A" in report.errors[0].message


@pytest.mark.django_db
def test_the_player_model_refuses_control_characters() -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as caught:
        Player(surname="A\nB", given_name="C\x00").full_clean()
    assert set(caught.value.message_dict) == {"surname", "given_name"}


@pytest.mark.django_db
def test_the_bulk_import_updates_and_enters(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2)
    data = HEADER + "New,One,777,FRA,,2000,,\nNew,Two,,FRA,,1900,,\n"
    report = players_import_csv(data=data.encode(), source="p.csv", tournament=t)
    assert report.ok and [x.status for x in report.lines] == ["created", "created"]
    assert sorted(t.entries.values_list("pairing_number", flat=True)) == [1, 2, 3, 4]
    again = players_import_csv(data=(HEADER + "New,One,777,FRA,,2100,,\n").encode(), source="p.csv")
    assert [x.status for x in again.lines] == ["updated"] and Player.objects.get(fmjd_id=777).rating == 2100
    assert Player.history.filter(fmjd_id=777).count() == 2  # type: ignore[attr-defined]
