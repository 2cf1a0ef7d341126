"""TRF(x) in and out, and the bbpPairings-style command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tournaments.pairing import PlayedRound, PointSystem, SwissPlayer, pair_dutch
from tournaments.pairing.trf import parse_trf, request_from_trf, write_pairing, write_trf
from tournaments.verification.__main__ import main
from tournaments.verification.generator import GenSettings, generate, tournament_trf

REPO = Path(__file__).resolve().parents[3]


def test_round_trip_gives_the_same_requests() -> None:
    t = generate(GenSettings(players=17, rounds=6, seed=3, forfeit_rate=0.1, late_rate=0.1))
    trf = parse_trf(tournament_trf(t))
    assert trf.total_rounds == 6 and trf.points == PointSystem()
    for rec in t.rounds[1:]:
        got = {p.id: p.history for p in request_from_trf(trf, rec.request.round).players}
        for p in rec.request.players:
            assert got[p.id] == p.history


def test_player_line_columns() -> None:
    p = SwissPlayer(7, 7, 1850, "Sijbrands", (PlayedRound(3, "w", 2), PlayedRound(None, None, 2, False, True)))
    text = write_trf([p], total_rounds=5)
    line = next(x for x in text.splitlines() if x.startswith("001"))
    assert line[4:8] == "   7" and line[48:52] == "1850" and line[80:84] == " 4.0"
    assert line[91:99] == "   3 w 1" and line[101:109] == "0000 - U"


def test_point_codes_and_forbidden_pairs() -> None:
    text = "XXR 7\nXXC black1\nBBW 1.0\nBBD 0.5\nXXP 3 5 8\n"
    trf = parse_trf(text)
    assert trf.points.win == 2 and trf.points.draw == 1  # chess halves doubled
    assert trf.initial_colour == "b"
    assert frozenset((5, 8)) in trf.forbidden and frozenset((3, 8)) in trf.forbidden


def test_next_round_marks_for_withdrawn_and_excused() -> None:
    ps = [SwissPlayer(1, 1), SwissPlayer(2, 2, withdrawn=True), SwissPlayer(3, 3, excused=True)]
    trf = parse_trf(write_trf(ps, total_rounds=3, next_round=1))
    req = request_from_trf(trf, 1)
    flags = {p.id: (p.withdrawn, p.excused) for p in req.players}
    assert flags == {1: (False, False), 2: (True, False), 3: (False, True)}


def test_pairing_output_format() -> None:
    assert write_pairing([(5, 2), (1, 4)], 7) == "3\n5 2\n1 4\n7 0\n"


def test_cli_pairs_like_the_library(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    t = generate(GenSettings(players=13, rounds=5, seed=11), rounds=3)
    src = tmp_path / "in.trf"
    src.write_text(tournament_trf(t))
    out = tmp_path / "out.txt"
    assert main(["--dutch", str(src), "-p", str(out)]) == 0
    lines = out.read_text().split("\n")
    res = pair_dutch(request_from_trf(parse_trf(src.read_text())))
    assert int(lines[0]) == len(res.boards) + (res.bye is not None)
    assert lines[1] == f"{res.boards[0].white} {res.boards[0].black}"


def test_cli_checker(tmp_path: Path) -> None:
    t = generate(GenSettings(players=15, rounds=4, seed=2))
    src = tmp_path / "t.trf"
    src.write_text(tournament_trf(t))
    assert main(["--dutch", str(src), "-c"]) == 0
    # swap two opponents in the last round: the checker reports it
    lines = src.read_text().splitlines()
    rec = t.rounds[-1].result
    (a, b), (c, d) = (rec.boards[0].white, rec.boards[0].black), (rec.boards[1].white, rec.boards[1].black)
    new_opponent = {a: d, d: a, c: b, b: c}  # a-b and c-d become a-d and c-b, colours kept
    fixed = []
    for line in lines:
        if line.startswith("001") and int(line[4:8]) in new_opponent:
            line = line[:121] + f"{new_opponent[int(line[4:8])]:4d}" + line[125:]
        fixed.append(line)
    src.write_text("\n".join(fixed) + "\n")
    assert main(["--dutch", str(src), "-c"]) == 1


def test_module_runs_as_a_program(tmp_path: Path) -> None:
    out = tmp_path / "g.trf"
    cmd = [sys.executable, "-m", "tournaments.verification", "-g", str(out), "--players", "9", "--rounds", "3"]
    subprocess.run(cmd, check=True, cwd=REPO)
    res = subprocess.run(
        [sys.executable, "-m", "tournaments.verification", "--dutch", str(out), "-p"],
        check=True,
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert res.stdout.split("\n")[0] == "5"


def test_point_values_sit_in_columns_5_to_8() -> None:
    # bbpPairings refuses `BBW 2.0` ("Invalid line"): the value belongs in columns 5-8
    text = write_trf([SwissPlayer(1, 1)], total_rounds=3, points=PointSystem(bye=1))
    bb = {x[:3]: x for x in text.splitlines() if x.startswith("BB")}
    assert bb["BBW"] == "BBW  2.0" and bb["BBD"] == "BBD  1.0" and bb["BBU"] == "BBU  1.0"
    assert all(len(x) == 8 for x in bb.values())
    assert parse_trf(text).points == PointSystem(bye=1)


def test_names_cannot_forge_records() -> None:
    evil = "Evil\r001    2      Forged\nXXP 1 2\x00\u2028\u202e"
    text = write_trf([SwissPlayer(1, 1, name=evil), SwissPlayer(2, 2, name="B")], total_rounds=3, name="T\nXXR 1")
    lines = text.splitlines()
    codes = ["012", "062", "XXR", "XXC", "BBW", "BBD", "BBL", "BBZ", "BBU", "BBF", "162", "001", "001"]
    assert [x[:3] for x in lines] == codes
    assert lines[0] == "012 T XXR 1"
    assert lines[-2][14:47].rstrip() == "Evil 001 2 Forged XXP 1 2"
    assert parse_trf(text).total_rounds == 3 and not parse_trf(text).forbidden


def test_point_system_record_162() -> None:
    assert parse_trf("162  W 1.0    D 0.5\n").points == PointSystem()  # chess halves doubled
    assert parse_trf("162  W 3.0    D 1.0    P 1.0\n").points == PointSystem(win=3, draw=1, bye=1, forfeit_win=3)


def test_last_column_of_requested_byes_is_the_round_to_pair() -> None:
    head = "001 {n:4d}      {name:<33} 2000{pad:28}{pts:4.1f}    {n}  "
    lines = [
        head.format(n=1, name="A", pad="", pts=2.0) + "   2 w 1  0000 - H",
        head.format(n=2, name="B", pad="", pts=0.0) + "   1 b 0",
        head.format(n=3, name="C", pad="", pts=2.0) + "   4 b 1  0000 - Z",
        head.format(n=4, name="D", pad="", pts=0.0) + "   3 w 0",
    ]
    trf = parse_trf("XXR 5\r" + "\r".join(lines) + "\r")
    assert trf.rounds_in_file == 1
    req = request_from_trf(trf)
    assert req.round == 2
    assert {p.id for p in req.players if p.excused} == {1, 3}
    res = pair_dutch(req)
    assert {frozenset((b.white, b.black)) for b in res.boards} == {frozenset((2, 4))} and res.bye is None


def test_a_generated_tournament_goes_to_the_standard_output_for_a_dash(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`-g -` writes the file on the standard output, as `-p -` does, never a file named "-"."""
    monkeypatch.chdir(tmp_path)
    assert main(["-g", "-", "--players", "6", "--rounds", "2", "--seed", "5"]) == 0
    assert not (tmp_path / "-").exists()
    assert "XXR 2" in capsys.readouterr().out
