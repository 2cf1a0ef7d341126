"""The player CSV and the register's new fields: titles as spreadsheets write them, the name in its own
script, sex in four languages, national ids (and a player found again by one)."""

from __future__ import annotations

import pytest

from tournaments.exchange.player_import import header_name, players_import_csv
from tournaments.models import NationalId, Player

pytestmark = pytest.mark.django_db


def _import(text: str):  # type: ignore[no-untyped-def]
    return players_import_csv(data=text.encode(), source="players.csv")


def test_titles_are_read_whatever_their_case_and_dots_and_an_unknown_one_is_named_with_its_line() -> None:
    report = _import("surname,fmjd_id,title\nA,1,gmi\nB,2,m.f.\nC,3, Mif \nD,4,cmff\n")
    assert report.ok, report.as_text()
    assert dict(Player.objects.values_list("surname", "title")) == {"A": "GMI", "B": "MF", "C": "MIF", "D": "CMFF"}
    report = _import("surname,fmjd_id,title\nE,5,GM\nF,6,Grandmaster\n")
    assert {x.line: x.message for x in report.errors} == {
        2: "title “GM” is unknown (expected one of GMI, MI, MF, CMI, CMF, GMIF, MIF, MFF, CMIF, CMFF)",
        3: "title “Grandmaster” is unknown (expected one of GMI, MI, MF, CMI, CMF, GMIF, MIF, MFF, CMIF, CMFF)"}
    assert not Player.objects.filter(surname__in=["E", "F"]).exists()


def test_native_name_sex_and_national_ids_from_a_dutch_sheet() -> None:
    assert [header_name(h) for h in ("KNDB nr", "Bondsnummer", "licence FFJD", "Geslacht", "Пол", "ФИО")] == [
        "kndb_id", "kndb_id", "ffjd_id", "sex", "sex", "native_name"]
    report = _import("Achternaam;Voornaam;Geslacht;KNDB nr;licence FFJD;ФИО\n"
                     "Shvartsman;Lev;M;4711;;Шварцман Лев\n"
                     "Dubois;Claire;V;4712;F-88;\n")
    assert report.ok, report.as_text()
    lev, claire = Player.objects.get(surname="Shvartsman"), Player.objects.get(surname="Dubois")
    assert (lev.native_name, lev.sex, lev.folded) == ("Шварцман Лев", "M", "shvartsman lev shvartsman lev")
    assert claire.sex == "F"
    assert sorted(NationalId.objects.values_list("player__surname", "body", "number")) == [
        ("Dubois", "FFJD", "F-88"), ("Dubois", "KNDB", "4712"), ("Shvartsman", "KNDB", "4711")]


@pytest.mark.parametrize("typed, sex", [("H", "M"), ("f", "F"), ("М", "M"), ("Ж", "F"), ("homme", "M"),
                                         ("vrouw", "F"), ("", "")])
def test_sex_in_french_dutch_and_russian(typed: str, sex: str) -> None:
    report = _import(f"nom,sexe\nMartin,{typed}\n")
    assert report.ok and Player.objects.get().sex == sex


def test_an_unknown_sex_is_named() -> None:
    report = _import("surname,sex\nMartin,X\n")
    assert report.errors[0].message == "sex “X” is unknown (expected M or F; also H/F, M/V, М/Ж)"


def test_a_national_list_finds_its_players_again_by_their_id() -> None:
    assert _import("surname,kndb\nJansen,4711\n").ok
    again = _import("surname,kndb,fmjd_id,national_rating\nJansen,4711,1234,1650\n")
    assert again.ok and [x.status for x in again.lines] == ["updated"]
    player = Player.objects.get()
    assert (player.fmjd_id, player.national_rating) == (1234, 1650)
    assert _import("surname,kndb\nJansen,4711\n").ok  # a list without FMJD ids keeps his
    assert Player.objects.get().fmjd_id == 1234 and NationalId.objects.count() == 1


def test_national_id_conflicts_are_line_errors_and_nothing_is_imported() -> None:
    assert _import("surname,fmjd_id,kndb\nJansen,1,4711\nBakker,2,\n").ok
    twice = _import("surname,kndb\nA,9\nB,9\n")
    assert twice.errors[0].line == 3 and "KNDB id 9 already on line 2" in twice.errors[0].message
    other = _import("surname,fmjd_id,kndb\nBakker,2,4711\n")  # Jansen's id on Bakker's line
    assert "KNDB id 4711 belongs to Jansen, not to the player of this line (FMJD id 2)" in other.errors[0].message
    changed = _import("surname,fmjd_id,kndb\nJansen,1,5000\n")
    assert "Jansen already has KNDB id 4711; this line gives 5000" in changed.errors[0].message
    assert list(NationalId.objects.values_list("number", flat=True)) == ["4711"]
    assert Player.objects.count() == 2


def test_a_trf_title_is_read_whatever_its_case_and_an_unknown_one_is_listed_and_left_blank() -> None:
    from tournaments.exchange.trf_import import import_trf, review_trf

    def line(n: int, title: str, name: str, cell: str) -> str:
        return f"001 {n:4d}  {title:>3} {name:<33} 2000 NED {'':11} {'':10} {'1.0':>4} {n:4d}  {cell}"

    text = "\n".join(["012 Open", "XXR 1", line(1, "gmi", "Alpha, A", "   2 w 1"),
                      line(2, "GM", "Beta, B", "   1 b 0")]) + "\n"
    adjustments = [(a.code, a.values.get("title")) for a in review_trf(text).review.adjustments
                   if a.code == "title-dropped"]
    assert adjustments == [("title-dropped", "GM")]
    import_trf(text, slug="open")
    assert dict(Player.objects.values_list("surname", "title")) == {"Alpha": "GMI", "Beta": ""}


def test_a_json_file_with_an_unknown_title_is_refused_naming_where(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.transfer import TransferError, export_tournament, import_tournament

    doc = export_tournament(make_tournament(2, slug="j"))
    doc["players"][0]["title"] = "GM"
    # The file's schema names the place and the titles it takes (a guard: this already held).
    with pytest.raises(TransferError, match=r"\$\.players\[0\]\.title: 'GM' is not one of \['GMI', 'MI'"):
        import_tournament(doc, replace=True)
