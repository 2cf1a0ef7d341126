"""The checker and the generator of `python -m tournaments.verification` (VCL questions
19-32): every round and the final ranks checked, every generator parameter honoured, unset ones
drawn, a seed repeats a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.pairing.trf import parse_trf
from tournaments.results import Result
from tournaments.verification.__main__ import main
from tournaments.verification.file_check import check_file, tiebreak_codes, tiebreak_names
from tournaments.verification.generator import GenSettings, expected_score, generate, tournament_trf

TB = ("solkoff", "sonneborn_berger")


def _file(tmp_path: Path, **extra: object) -> Path:
    settings = GenSettings(players=16, rounds=6, seed=4, results="table", tiebreaks=TB, **extra)  # type: ignore[arg-type]
    path = tmp_path / "t.trf"
    path.write_text(tournament_trf(generate(settings)), encoding="utf-8")
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _set_cell(line: str, rnd: int, cell: str) -> str:
    pos = 91 + 10 * (rnd - 1)
    return line[:pos] + cell + line[pos + 8:]


def _player(lines: list[str], number: int) -> int:
    return next(i for i, x in enumerate(lines) if x.startswith("001") and int(x[4:8]) == number)


def test_a_generated_file_passes_every_round_and_its_ranks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path)
    assert main(["--dutch", str(path), "-c"]) == 0
    out = capsys.readouterr().out
    assert out.count("identical to the engine") == 6
    assert "every rank agrees with Damier's standings (solkoff, sonneborn_berger)" in out


def test_the_checker_finds_a_broken_pairing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path)
    lines = _lines(path)
    # the last round: exchange the opponents of two boards (a-b, c-d become a-d, c-b), results kept
    trf = parse_trf("\n".join(lines))
    games = sorted({tuple(sorted((p.number, p.cells[6][0]))) for p in trf.players if p.cells.get(6, (0,))[0]})
    (a, b), (c, d) = games[0], games[1]
    cells = {p.number: p.cells[6] for p in trf.players if p.number in (a, b, c, d)}
    for me, new in ((a, d), (d, a), (c, b), (b, c)):
        i = _player(lines, me)
        _, colour, code = cells[me]
        lines[i] = _set_cell(lines[i], 6, f"{new:4d} {colour} {code}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["--dutch", str(path), "-c"]) == 1
    out = capsys.readouterr().out
    assert "round 6: differs from the engine" in out and "file only:" in out and "engine only:" in out
    assert out.count("identical to the engine") == 5


def test_the_checker_finds_reversed_colours(tmp_path: Path) -> None:
    path = _file(tmp_path)
    lines = _lines(path)
    trf = parse_trf("\n".join(lines))
    p = next(q for q in trf.players if q.cells.get(6, (0,))[0] and q.cells[6][2] in "10=")
    opp = p.cells[6][0]
    for me in (p.number, opp):
        i = _player(lines, me)
        pos = 91 + 50 + 5
        lines[i] = lines[i][:pos] + ("b" if lines[i][pos] == "w" else "w") + lines[i][pos + 1:]
    report = check_file(parse_trf("\n".join(lines)), list(TB))
    assert [r.round for r in report.rounds if not r.ok] == [6]
    assert report.rounds[5].colours and not report.rounds[5].pairs_differ


def test_the_checker_finds_a_wrong_rank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path)
    lines = _lines(path)
    first, last = (_player(lines, n) for n in (1, 16))
    r1, r16 = lines[first][85:89], lines[last][85:89]
    assert r1 != r16
    lines[first] = lines[first][:85] + r16 + lines[first][89:]
    lines[last] = lines[last][:85] + r1 + lines[last][89:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["--dutch", str(path), "-c"]) == 1
    out = capsys.readouterr().out
    assert "2 rank(s) differ" in out and f"player 1: rank {int(r16)} in the file" in out
    # the list given on the command line replaces the file's 202 record
    main(["--dutch", str(path), "-c", "--tiebreaks", "WIN"])
    assert "(wins)" in capsys.readouterr().out


def test_the_checker_finds_a_wrong_points_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path)
    lines = _lines(path)
    i = _player(lines, 3)
    written = float(lines[i][80:84])
    lines[i] = lines[i][:80] + f"{written + 1:4.1f}" + lines[i][84:]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["--dutch", str(path), "-c"]) == 1
    assert f"points: player 3: {written + 1:.1f} in the file, {written:.1f} by the results" in capsys.readouterr().out


def test_unreadable_files_and_round_robins_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("001    1      A                                 x200\n", encoding="utf-8")
    assert main(["--dutch", str(bad), "-c"]) == 2
    assert main(["--dutch", str(tmp_path / "missing.trf"), "-c"]) == 2
    path = _file(tmp_path)
    rr = tmp_path / "rr.trf"
    rr.write_text(path.read_text().replace("XXR 6", "092 ROUND_ROBIN\nXXR 6"), encoding="utf-8")
    assert main(["--dutch", str(rr), "-c"]) == 2
    assert "round robin" in capsys.readouterr().err
    unknown = tmp_path / "tb.trf"
    unknown.write_text(path.read_text().replace("202 BH SB", "202 BH XYZ"), encoding="utf-8")
    assert main(["--dutch", str(unknown), "-c"]) == 2
    assert "'XYZ'" in capsys.readouterr().err


def test_tiebreak_codes_round_trip() -> None:
    names = ["solkoff", "solkoff_median", "solkoff_full_truncated", "sonneborn_berger", "wins"]
    assert tiebreak_codes(names) == ["BH", "BH/M1", "solkoff_full_truncated", "SB", "WIN"]
    assert tiebreak_names(["PTS", *tiebreak_codes(names)]) == names


def _gen(tmp_path: Path, name: str, *args: str) -> str:
    out = tmp_path / name
    assert main(["-g", str(out), *args]) == 0
    return out.read_text(encoding="utf-8")


def test_generator_parameters_are_honoured(tmp_path: Path) -> None:
    text = _gen(tmp_path, "g.trf", "--players", "24", "--rounds", "7", "--seed", "9", "--ratings",
                "2400,2300,0", "--rating-range", "1500-1600", "--half-bye-rate", "0.1", "--full-bye-rate", "0.05",
                "--zero-bye-rate", "0.05", "--double-forfeit-rate", "0.1", "--unusual-rate", "0.1",
                "--forfeit-rate", "0.1", "--tiebreaks", "BH,SB")
    trf = parse_trf(text)
    assert len(trf.players) == 24 and trf.total_rounds == 7 and trf.rounds_in_file == 7
    assert trf.tiebreaks == ("BH", "SB") and trf.name == "generated seed 9"
    ratings = sorted((p.rating for p in trf.players), reverse=True)
    assert ratings[:2] == [2400, 2300] and ratings[-1] == 0  # given, the unrated last
    assert all(1500 <= r <= 1600 for r in ratings[2:-1])  # the rest drawn in the range
    codes = [c for p in trf.players for c in p.cells.values()]
    assert {"H", "F", "Z", "U"} <= {c[2] for c in codes if c[0] == 0}
    assert not any(c[0] == 0 and c[2] in "HF" for p in trf.players for r, c in p.cells.items() if r == 7)
    by = {p.number: p for p in trf.players}
    pairs = {(p.cells[r][2], by[o].cells[r][2]) for p in trf.players for r, (o, _, _) in p.cells.items() if o}
    assert ("-", "-") in pairs and ("+", "-") in pairs  # double forfeits and forfeits
    assert ("=", "0") in pairs or ("0", "0") in pairs  # an arbiter's 1-0 or 0-0 over the board
    report = check_file(trf)
    assert all(r.ok for r in report.rounds)
    if "excused-1" in {r.value for r in Result}:  # the standings score requested byes and rulings
        assert report.standings_skipped == "" and report.ranks == []
    else:  # until they do, the file says its ranks follow the points only, and the checker skips them
        assert "### ranks by points and pairing number only" in text
        assert report.standings_skipped.startswith(("requested_bye", "unusual_result"))


def test_rating_step(tmp_path: Path) -> None:
    trf = parse_trf(_gen(tmp_path, "s.trf", "--players", "10", "--rounds", "5", "--seed", "1",
                         "--rating-range", "1000-2000", "--rating-step", "50", "--unrated-rate", "0"))
    assert [p.rating for p in sorted(trf.players, key=lambda p: p.number)] == list(range(2000, 1500, -50))


def test_a_seed_repeats_and_unset_parameters_vary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _gen(tmp_path, "a.trf", "--seed", "12345", "--players", "12")
    b = _gen(tmp_path, "b.trf", "--seed", "12345", "--players", "12")
    assert a == b
    capsys.readouterr()
    runs = [_gen(tmp_path, f"r{i}.trf", "--players", "10", "--rounds", "5") for i in range(3)]
    seeds = [r.splitlines()[0] for r in runs]
    assert len(set(seeds)) == 3  # a fresh seed each run, written in record 012...
    assert capsys.readouterr().err.count("seed ") == 3  # ...and printed
    drawn = [next(x for x in r.splitlines() if "draw_rate=" in x) for r in runs]
    assert len(set(drawn)) == 3  # the settings left unset were drawn anew
    # the seed printed repeats the run
    seed = seeds[0].split()[-1]
    assert _gen(tmp_path, "again.trf", "--players", "10", "--rounds", "5", "--seed", seed) == runs[0]


def test_a_field_too_small_for_its_rounds_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-g", str(tmp_path / "small.trf"), "--players", "4", "--rounds", "5", "--seed", "1"]) == 1
    assert "no legal pairing" in capsys.readouterr().err


def test_bad_generator_options_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, word in ((["--rating-range", "2000-1000"], "--rating-range"), (["--draw-rate", "2"], "--draw-rate"),
                       (["--ratings", "12,abc"], "--ratings"), (["--tiebreaks", "XYZ"], "XYZ")):
        with pytest.raises(SystemExit):
            main(["-g", str(tmp_path / "x.trf"), *args])
        assert word in capsys.readouterr().err


def test_results_follow_the_rating_table() -> None:
    import random

    from tournaments.pairing.model import Board
    from tournaments.verification.generator import _play_table

    assert expected_score(0) == 0.5
    assert round(expected_score(400), 2) == 0.92  # FIDE / FMJD table: 0.92 at 400 points
    assert expected_score(700) == expected_score(400)  # the difference is capped at 400
    assert round(expected_score(100), 2) == 0.64
    s = GenSettings(draw_rate=0.4, forfeit_rate=0.0, results="table")
    rng = random.Random(1)
    games = [_play_table(Board(1, 2), rng, {1: 1900, 2: 1700}, s) for _ in range(20000)]
    mean = sum(g.white_points for g in games) / (2 * len(games))
    assert abs(mean - expected_score(200)) < 0.01
    draws = sum(g.white_points == 1 for g in games) / len(games)
    assert abs(draws - 0.4) < 0.015
