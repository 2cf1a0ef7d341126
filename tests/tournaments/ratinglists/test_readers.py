"""Reading list files: FMJD's .DRA, CSV with French headers, XLSX; the mapping; every row's errors named."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook

from tournaments.ratinglists import columns, readers, rows, words
from tournaments.ratinglists.readers import ListFileError

DRA = (
    '"nr_ew","nick","last_n","first_n","country","title","rating","wtitle","wrating"\r\n'
    '"10011","","Schwarzman, Jr","Alexander","RUS","GMI","2450","",""\r\n'
    '"15266","","Sørensen","Ivar","NED","mi","A 2339","",""\r\n'
    '"17237","","Nimbi","Anna","CMR","","B 1888","MIF","1900"\r\n'
    '"20056","","Dupont","Jean","FRA","XYZ","2100","",""\r\n'
    '"10011","","Twice","Again","NED","","2000","",""\r\n'
    '"20057","","Blank","Bob","NED","","","",""\r\n'
).encode()


def test_dra_reader_quoted_fields_prefixed_rating_unknown_title_duplicate_id() -> None:
    table = readers.read_file("V261001.DRA", DRA)
    assert table.file_format == "dra"
    mapping = columns.guess_all(table.headers)
    assert mapping == ["fmjd_id", "", "surname", "given_name", "federation", "title", "rating", "women_title", ""]
    read = rows.read_rows(table, mapping)
    assert read.total == 6
    good = {r.fmjd_id: r for r in read.rows}
    assert good[10011].surname == "Schwarzman, Jr"  # a comma inside quotes stays in the field
    assert (good[15266].rating, good[15266].title) == (2339, "MI")  # class letter read past; title without case
    assert (good[17237].rating, good[17237].title) == (1888, "MIF")  # wtitle when title is empty
    assert good[20057].rating is None
    texts = [words.row_error_text(e) for e in read.errors]
    assert read.bad_lines == [5, 6]
    assert any(t.startswith("line 5, title: “XYZ” is not an FMJD title") for t in texts), texts
    assert "line 6, FMJD id: 10011 is already on line 2" in texts


def test_dra_name_gives_the_date_and_a_file_without_nr_ew_is_refused() -> None:
    assert readers.dra_date("V261001.DRA").isoformat() == "2026-10-01"
    assert readers.dra_date("v240301.dra").isoformat() == "2024-03-01"
    assert readers.dra_date("list.csv") is None
    with pytest.raises(ListFileError) as exc:
        readers.read_dra(b"name,rating\nA,1\n")
    assert exc.value.code == readers.NOT_DRA
    assert "nr_ew" in words.file_error_text(exc.value, "x.DRA")


def test_csv_with_french_headers_in_windows_1252() -> None:
    data = "Nom;Prénom;Classement;Titre;Licence;Sexe\nDupré;Élodie;2O55;MFF;F123;F\nMartin;Luc;1850;mf;F124;H\n"
    table = readers.read_file("ffjd.csv", data.encode("cp1252"))
    assert table.encoding == "Windows-1252"
    mapping = columns.guess_all(table.headers)
    assert mapping == ["surname", "given_name", "rating", "title", "national_id", "sex"]
    read = rows.read_rows(table, mapping)
    assert [words.row_error_text(e) for e in read.errors] == ["line 2, rating: “2O55” is not a number"]
    (luc,) = read.rows
    assert (luc.surname, luc.rating, luc.title, luc.national_id, luc.sex) == ("Martin", 1850, "MF", "F124", "M")


def test_csv_utf8_bom_comma_and_tab() -> None:
    for sep in (",", "\t"):
        data = ("\ufeffsurname" + sep + "KNDB nr" + sep + "KNDB rating\nDe Vries" + sep + "12345" + sep + "3001\n")
        table = readers.read_csv(data.encode("utf-8"))
        assert table.encoding == "UTF-8 (BOM)"
        mapping = columns.guess_all(table.headers)
        assert mapping == ["surname", "national_id", "rating"]
        read = rows.read_rows(table, mapping)
        assert [words.row_error_text(e) for e in read.errors] == ["line 2, rating: 3001 is out of range (0–3000)"]


def _xlsx(data: list[list[object]], title: str = "Lijst") -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = title
    for row in data:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_xlsx_through_a_changed_mapping() -> None:
    data = _xlsx([["Bondsnummer", "Achternaam", "Voornaam", "Rating", "Geslacht", "Opmerking"],
                  [12345, "Jansen", "Piet", 1432.0, "M", "x"],
                  [12346, "Bakker", "Truus", "veel", "V", "y"],
                  [None, None, None, None, None, None],
                  [12347, "", "Kees", 1200, "Q", ""]])
    table = readers.read_file("kndb.xlsx", data)
    assert (table.file_format, table.sheets, table.sheet) == ("xlsx", ["Lijst"], "Lijst")
    mapping = columns.guess_all(table.headers)
    assert mapping == ["national_id", "surname", "given_name", "rating", "sex", ""]
    mapping[5] = "club"  # the arbiter reads the remark column as the club
    read = rows.read_rows(table, mapping)
    (piet,) = read.rows
    assert (piet.national_id, piet.rating, piet.sex, piet.club) == ("12345", 1432, "M", "x")
    assert [words.row_error_text(e) for e in read.errors] == [
        "line 3, rating: “veel” is not a number",
        "line 5, surname: empty; every row needs a surname",
        "line 5, sex: “Q” is not a sex (M or F)"]


def test_xlsx_refusals_named() -> None:
    with pytest.raises(ListFileError) as exc:
        readers.read_xlsx(b"not a zip")
    assert exc.value.code == readers.NOT_XLSX
    with pytest.raises(ListFileError) as exc:
        readers.read_xlsx(_xlsx([["surname"], ["A"]]), sheet="Other")
    assert "no sheet named “Other”; the sheets are Lijst" in words.file_error_text(exc.value, "f.xlsx")


def test_federation_and_control_characters_are_row_errors() -> None:
    table = readers.read_csv(b"surname,federation,club\nA,1N,x\nB,NED,a\x07b\n")
    read = rows.read_rows(table, columns.guess_all(table.headers))
    assert [words.row_error_text(e) for e in read.errors] == [
        "line 2, federation: “1N” is not three letters",
        "line 3, club: a control character (U+0007) at position 2"]
