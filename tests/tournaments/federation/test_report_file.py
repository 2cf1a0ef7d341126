"""The report file to the federation: exact lines for a 10-player round robin and a 30-player Swiss, and the
round trip through our own reader (tournaments.federation.report_file).

Where each notation comes from (tournaments/federation/README.md, docs/research/federation-texts.md 3b):
- [T] KNDB Toernooibase's "matrixnewfmjd" table as observed in third-party copies: the columns
  Pl;FMJD-id;Title;Name;Cn;FMJD-rating;R1…;Pt, a played game `points/place colour` ("2/10w").
- [R] the line `FMJD-report`: the marker the tiebreak R script reads (a user's marker, not an FMJD rule).
- [C] our documented choice: +, =, - in place of the points for a result scored but not sent for rating
  (after FIDE B.02 art. 11's marks for unplayed games); a bye's mark alone; an empty cell for no game;
  `'` before user text a spreadsheet would read as a formula; names "Surname, Given" (FMJD Arbiter Pro).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.federation import rows
from tournaments.federation.report_file import (
    ReportFileError,
    number,
    problems,
    read_report,
    write_report,
)
from tournaments.models import System, Tournament
from tournaments.players import roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db

RR10 = [
    "Open rr10",
    "FMJD-report",  # [R]
    "Pl;FMJD-id;Title;Name;Cn;FMJD-rating;R1;R2;R3;R4;R5;R6;R7;R8;R9;Pt",  # [T]
    # [T] every game played: points on the 2-point scale / the opponent's final place and colour (Berger tables)
    "1;10001;GMI;Player01, Test;FRA;2390;2/10w;2/2w;2/3b;2/4w;2/5b;2/6w;2/7b;2/8w;2/9b;18",
    "2;10002;MI;Player02, Test;NED;2380;2/9w;0/1b;2/10w;2/3w;2/4b;2/5w;2/6b;2/7w;2/8b;16",
    "3;10003;MF;Player03, Test;FRA;2370;2/8w;2/9b;0/1w;0/2b;2/10w;2/4w;2/5b;2/6w;2/7b;14",
    "4;10004;;Player04, Test;NED;2360;2/7w;2/8b;2/9w;0/1b;0/2w;0/3b;2/10w;2/5w;2/6b;12",
    "5;10005;;Player05, Test;FRA;2350;2/6w;2/7b;2/8w;2/9b;0/1w;0/2b;0/3w;0/4b;2/10w;10",
    "6;10006;;Player06, Test;NED;2340;0/5b;2/10b;2/7w;2/8b;2/9w;0/1b;0/2w;0/3b;0/4w;8",
    "7;10007;;Player07, Test;FRA;2330;0/4b;0/5w;0/6b;2/10b;2/8w;2/9b;0/1w;0/2b;0/3w;6",
    "8;10008;;Player08, Test;NED;2320;0/3b;0/4w;0/5b;0/6w;0/7b;2/10b;2/9w;0/1b;0/2w;4",
    "9;10009;;Player09, Test;FRA;2310;0/2b;0/3w;0/4b;0/5w;0/6b;0/7w;0/8b;2/10b;0/1w;2",
    "10;10010;;Player10, Test;NED;2300;0/1b;0/6w;0/2b;0/7w;0/3b;0/8w;0/4b;0/9w;0/5b;0",
]

# The Swiss's pairings are the Dutch engine's; the special cells are named in the comments.
SWISS30 = [
    "Open swiss30",
    "FMJD-report",  # [R]
    "Pl;FMJD-id;Title;Name;Cn;FMJD-rating;R1;R2;R3;R4;R5;Pt",  # [T]
    # R1 1/17w: round 1 board 1 won 2-0, corrected for the rating report only to 1-1 (Game.rating_result,
    # C.04.2 4.3): the cell has the rating report's result, Pt the tournament's 10 points.
    "1;20001;GMI;Player01, Test;FRA;2390;1/17w;2/10b;2/3w;2/8b;2/5w;10",
    # R1 +/19w: forfeit won (5.7) [C]; its opponent in place 19 has -/2b
    "2;20003;MI;Player03, Test;FRA;2370;+/19w;2/13b;2/7w;0/5b;2/8w;8",
    # a name holding ; and quotes is quoted, quotes doubled (RFC 4180)
    '3;20004;;"Dupont; Durand, Jean ""Jeannot""";NED;2360;2/14b;2/11w;0/1b;2/10w;2/7b;8',
    # R1 -/25w: a double forfeit (5.8), - on both sides [C]
    "4;20005;MF;Player05, Test;FRA;2350;-/25w;2/6w;2/18b;2/13b;2/9w;8",
    # R2 1/9w: the arbiter's ruling 1-0 (2.5 c), played over the board: a game, sent as ruled [T]
    "5;20002;GMIF;Player02, Test;NED;2380;2/18b;1/9w;2/11b;2/2w;0/1b;7",
    # R1 =/24w: a draw marked "not rated" (1-1U) [C]
    "6;20007;;Player07, Test;FRA;2330;=/24w;0/4b;2/22w;2/17b;2/15b;7",
    # a name starting with = gets ' in front [C]
    "7;20006;;'=cmd, Eve;NED;2340;2/20b;2/12w;0/2b;2/16w;0/3w;6",
    "8;20008;;Player08, Test;NED;2320;2/21b;2/16w;2/15b;0/1w;0/2b;6",
    "9;20009;;Player09, Test;FRA;2310;2/22w;0/5b;2/19b;2/12w;0/4b;6",
    "10;20010;;Player10, Test;NED;2300;2/23b;0/1w;2/14b;0/3b;2/16w;6",
    "11;20011;;Player11, Test;FRA;2290;2/26w;0/3b;0/5w;2/20b;2/17w;6",
    "12;20013;;Player13, Test;FRA;2270;2/28w;0/7b;2/25w;0/9b;2/19w;6",
    "13;20014;;Player14, Test;NED;2260;2/29b;0/2w;2/20b;0/4w;2/18b;6",
    "14;20019;;Player19, Test;FRA;2210;0/3w;2/26b;0/10w;2/29b;2/24w;6",
    # R2 =: the bye he asked for, worth a draw, alone without an opponent [C]
    "15;20012;;Player12, Test;NED;2280;2/27b;=;0/8w;2/24b;0/6w;5",
    "16;20015;;Player15, Test;FRA;2250;2/30w;0/8b;2/29w;0/7b;0/10b;4",
    "17;20016;;Player16, Test;NED;2240;1/1b;2/23w;2/21b;0/6w;0/11b;4",
    "18;20017;;Player17, Test;FRA;2230;0/5w;2/24b;0/4w;2/26b;0/13w;4",
    # R1 -/2b: forfeit lost (Black absent) [C]
    "19;20018;;Player18, Test;NED;2220;-/2b;2/22b;0/9w;2/21w;0/12b;4",
    "20;20021;;Player21, Test;FRA;2190;0/7w;2/28b;0/13w;0/11w;2/27b;4",
    "21;20023;;Player23, Test;FRA;2170;0/8w;2/30b;0/17w;0/19b;2/26w;4",
    "22;20024;;Player24, Test;NED;2160;0/9b;0/19w;0/6b;2/27w;2/28w;4",
    "23;20025;;Player25, Test;FRA;2150;0/10w;0/17b;0/24w;2/30b;2/29w;4",
    "24;20022;;Player22, Test;NED;2180;=/6b;0/18w;2/23b;0/15w;0/14b;3",
    # withdrew after round 3: rounds 4 and 5 empty, as Toernooibase leaves a round without a game [T]
    "25;20020;;Player20, Test;NED;2200;-/4b;2/27w;0/12b;;;2",
    "26;20026;;Player26, Test;NED;2140;0/11b;0/14w;2/28b;0/18w;0/21b;2",
    "27;20027;;Player27, Test;FRA;2130;0/15w;0/25b;2/30w;0/22b;0/20w;2",
    # R4 +: the pairing's bye, worth 2, alone [C]
    "28;20028;;Player28, Test;NED;2120;0/12b;0/20w;0/26w;+;0/22b;2",
    "29;20029;;Player29, Test;FRA;2110;0/13w;+;0/16b;0/14w;0/23b;2",
    "30;20030;;Player30, Test;NED;2100;0/16b;0/21w;0/27b;0/23w;+;2",
]


def _file(t: Tournament) -> bytes:
    return write_report(rows.read_report(t))


def test_round_robin_report_lines(round_robin10: Tournament) -> None:
    data = _file(round_robin10)
    assert not data.startswith(b"\xef\xbb\xbf")  # UTF-8 without a byte-order mark [C]
    assert data.decode("utf-8").split("\r\n") == [*RR10, ""]  # CRLF line ends [C]


def test_swiss_report_lines(swiss30: Tournament) -> None:
    assert _file(swiss30).decode("utf-8").split("\r\n") == [*SWISS30, ""]


@pytest.mark.parametrize("fixture", ["round_robin10", "swiss30"])
def test_round_trip_every_cell(fixture: str, request: pytest.FixtureRequest) -> None:
    """The file read back by our own reader gives every place, id, title, name, federation, rating and cell
    of the report, and the standings' order and points."""
    t: Tournament = request.getfixturevalue(fixture)
    report = rows.read_report(t)
    back = read_report(write_report(report))
    assert back.event == t.name and back.rounds == report.rounds
    assert problems(back) == []
    assert len(back.rows) == len(report.rows)
    standings = selectors.standings(t)
    for row, read, standing in zip(report.rows, back.rows, standings, strict=True):
        assert (read.place, read.fmjd_id, read.title, read.name, read.federation, read.rating) == (
            row.place, row.fmjd_id, row.title, row.name, row.federation, row.rating)
        assert read.points == standing.points == row.points
        assert standing.player.name == row.name
        for cell, got in zip(row.cells, read.cells, strict=True):
            assert (got.round, got.points, got.opponent, got.colour, got.rated) == (
                cell.round, cell.points, cell.opponent, cell.colour, cell.rated), (row.place, cell.round)


def test_the_report_waits_for_the_last_round(db: None, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="early", rounds_total=2)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    with pytest.raises(DomainError, match="last round"):
        rows.read_report(t)


def test_kept_rating_and_title_not_the_registers(round_robin10: Tournament) -> None:
    """A later list changes the register, not what the tournament kept: the report reads the entry."""
    player = round_robin10.entries.get(pairing_number=1).player
    player.rating, player.title = 2500, "MI"
    player.save()
    line = _file(round_robin10).decode().split("\r\n")[3]
    assert line.startswith("1;10001;GMI;Player01, Test;FRA;2390;")


def test_a_withdrawn_round_robin_player(db: None) -> None:
    """5.9 A.b in a round robin: the games a withdrawal leaves are scored as forfeits, marked [C] and not rated."""
    from tests.tournaments.federation.conftest import _play, _players, _tournament

    t = _tournament("rr4", System.ROUND_ROBIN, _players(4, 30000))
    roster.entries_keep_numbers(tournament=t)
    _play(t, {})
    _play(t, {})
    roster.entry_withdraw(entry=t.entries.get(pairing_number=4), after_round=2)
    _play(t, {})
    lines = write_report(rows.read_report(t)).decode().split("\r\n")
    # 4 played 2 of his 3 games, more than half: his round 3 game is a forfeit (5.9 A.b), marked [C]
    assert lines[4] == "2;30002;;Player02, Test;NED;2380;2/3w;0/1b;+/4w;4"
    assert lines[6] == "4;30004;;Player04, Test;NED;2360;0/1b;0/3w;-/2b;0"
    from tournaments.federation.report_pdf import not_rated

    assert not_rated(rows.read_report(t)) == [(3, 1, "Player02, Test", "Player04, Test", "2F-0F",
                                               "forfeit: the game was not played (competition rules 5.7); "
                                               "not played: a player had withdrawn")]


def test_numbers_take_a_decimal_comma_only_with_decimals() -> None:
    assert number(14) == "14"
    assert number(Fraction(15, 2)) == "7,5"  # [T]/[C]: the comma the sample files' readers set
    assert number(None) == ""


def test_the_reader_says_what_is_wrong_and_where() -> None:
    good = "\r\n".join(RR10[:4]) + "\r\n"
    assert read_report(good.encode()).rows[0].cells[0].opponent == 10
    with pytest.raises(ReportFileError, match=r"line 4, column R2: “2/x” is not a cell"):
        read_report(good.replace("2/2w", "2/x").encode())
    with pytest.raises(ReportFileError, match="line 2: .* instead of the marker FMJD-report"):
        read_report(good.replace("FMJD-report", "report").encode())
    with pytest.raises(ReportFileError, match="line 4, column R1: 3 points in one game"):
        read_report(good.replace("2/10w", "3/10w").encode())
    with pytest.raises(ReportFileError, match="not UTF-8"):
        read_report(good.encode("utf-16"))
    # a cell naming a player who does not have the other side of the game
    back = read_report(good.encode())
    assert problems(back) == [f"place 1, R{r}: no player at place {p}"
                              for r, p in enumerate([10, 2, 3, 4, 5, 6, 7, 8, 9], start=1)]


@pytest.mark.parametrize("name", ["=cmd", "+1", "-x", "@SUM(A1)", "'=x", "'quoted", "a;b", 'say "hi"', "plain"])
def test_user_text_survives_the_round_trip(name: str) -> None:
    from tournaments.federation.report_file import _untext, text

    assert _untext(text(name)) == name
    assert not text(name).startswith(("=", "+", "-", "@"))
