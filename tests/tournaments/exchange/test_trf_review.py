"""The TRF import's review (VCL4THP Q47-Q56): the file's version, every adjustment listed before anything
is written, every imported round replayed against the pairing rules; a round that breaks them, or is not
the engine's pairing, stops the import until the arbiter confirms, and is then recorded (a ### line in the
TRF)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.pairing import reference_check as rc
from tournaments.conformance import events
from tournaments.exchange.trf_import import import_trf, review_trf
from tournaments.exchange.trf_review import Review, detect_version, review_header
from tournaments.models import ConformanceEvent, Game, Player, Round, Tournament
from tournaments.pairing import PairingRequest, PlayedRound, SwissPlayer, pair_dutch, parse_trf, write_trf


def _line(n: int, name: str, pts: str, cells: list[str], *, rating: int = 2000, title: str = "",
          rank: int | None = None) -> str:
    head = (f"001 {n:4d}  {title:>3} {name:<33} {rating or '':>4} {'':3} {'':11} {'':10} {pts:>4} "
            f"{rank or n:4d}  ")
    return (head + "  ".join(cells)).rstrip()


# Both confirmations an import may ask (level 3): a round that breaks the rules, one that is not the engine's.
ALL = ["import-broke-rules", "import-not-engine-pairing"]


def _run(tmp_path: Path, text: str, *args: str) -> None:
    src = tmp_path / "in.trf"
    src.write_text(text, encoding="utf-8", newline="")
    call_command("import_trf", str(src), *args)


# Round 3 pairs 1-3 and 2-4 again: two rematches; colours stay within the limits (1: w b b, 3: b w w).
REMATCH = "\n".join([
    "012 Rematch Open", "XXR 4", "XXC white1",
    _line(1, "One, A", "2.0", ["   3 w 1", "   2 b 0", "   3 b 0"]),
    _line(2, "Two, B", "4.0", ["   4 w 1", "   1 w 1", "   4 b 0"]),
    _line(3, "Three, C", "4.0", ["   1 b 0", "   4 w 1", "   1 w 1"]),
    _line(4, "Four, D", "2.0", ["   2 b 0", "   3 b 0", "   2 w 1"]),
]) + "\n"


def test_a_round_with_a_rematch_is_refused_with_the_report(db: None, tmp_path: Path, capsys) -> None:
    with pytest.raises(CommandError, match=r"round\(s\) 3 break the pairing rules; round\(s\) 1 are not the "
                                           r"pairing Damier's engine makes .* run again with --confirm"):
        _run(tmp_path, REMATCH)
    out = capsys.readouterr().out
    assert ("Round 3 breaks the pairing rules on board(s) 3-1, 4-2:\n    - rematch: players 3, 1\n"
            "    - rematch: players 4, 2\n") in out
    assert "1 break(s) the rules" in out
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_confirmed_the_round_is_imported_and_recorded_with_a_trf_line(db: None, tmp_path: Path, capsys) -> None:
    _run(tmp_path, REMATCH, "--confirm", "--slug", "rm")
    assert "Recorded: round 3 imported although it breaks the pairing rules (3-1, 4-2)." in capsys.readouterr().out
    t = Tournament.objects.get(slug="rm")
    assert t.rounds.count() == 3 and Game.objects.filter(round__tournament=t).count() == 6
    event = ConformanceEvent.objects.get(tournament=t, code="import-broke-rules")
    assert (event.code, event.round_number, event.level) == ("import-broke-rules", 3, 3)
    assert event.values == {"round": 3, "pairs": ["3-1", "4-2"], "criteria": ["c1-rematch"]}
    assert "### import-broke-rules @ Round 3: criteria=c1-rematch pairs=3-1,4-2 round=3" in events.trf_lines(t)
    assert t.in_conformance  # Q56: a level-3 confirmation does not take the tournament out of the mode


def test_the_service_asks_for_the_confirmation_and_writes_nothing_without_it(db: None) -> None:
    with pytest.raises(events.NeedsConfirmation) as info:
        import_trf(REMATCH)
    assert [w.values["round"] for w in info.value.warnings] == [1, 3]
    assert not Tournament.objects.exists()
    with pytest.raises(events.NeedsConfirmation):  # round 1 is not the engine's pairing: asked as well
        import_trf(REMATCH, confirmed=["import-broke-rules"])
    import_trf(REMATCH, confirmed=ALL)
    assert ConformanceEvent.objects.count() == 2


def _clean_file(players: int = 7, rounds: int = 4) -> str:
    """A tournament paired round by round by Damier's engine (White wins every game)."""
    sp = [SwissPlayer(id=i, pairing_number=i, rating=2400 - 10 * i, name=f"P{i}, X") for i in range(1, players + 1)]
    hist: dict[int, list[PlayedRound]] = {p.id: [] for p in sp}
    for rnd in range(1, rounds + 1):
        req = PairingRequest(players=tuple(SwissPlayer(p.id, p.pairing_number, p.rating, p.name,
                                                       tuple(hist[p.id])) for p in sp),
                             round=rnd, total_rounds=rounds + 2)
        result = pair_dutch(req)
        for b in result.boards:
            hist[b.white].append(PlayedRound(b.black, "w", 2))
            hist[b.black].append(PlayedRound(b.white, "b", 0))
        if result.bye is not None:
            hist[result.bye].append(PlayedRound(None, None, 2, played=False, pab=True))
    final = [SwissPlayer(p.id, p.pairing_number, p.rating, p.name, tuple(hist[p.id])) for p in sp]
    return write_trf(final, total_rounds=rounds + 2, name="Clean")


def test_a_clean_file_records_no_event(db: None, tmp_path: Path, capsys) -> None:
    _run(tmp_path, _clean_file(), "--slug", "clean")
    out = capsys.readouterr().out
    assert "4 imported round(s) replayed; 0 break(s) the rules, 0 other(s) differ from Damier's pairing." in out
    t = Tournament.objects.get(slug="clean")
    assert t.rounds.count() == 4 and not ConformanceEvent.objects.exists() and events.trf_lines(t) == []


@pytest.mark.parametrize("stem", ["ref035-60p5r", "big01-175p9r"])
def test_reference_files_keep_the_rules_and_match_the_engine(db: None, stem: str) -> None:
    path = rc.REFERENCE_DIR / f"{stem}.trf"
    if not path.is_file():
        pytest.skip(f"reference set not found at {rc.REFERENCE_DIR}")
    text = path.read_bytes().decode("utf-8")
    review = review_trf(text, rounds=int(stem.split("p")[1].rstrip("r"))).review
    assert review.version.year == 2026 and review.version.evidence == ("162",)
    assert review.rounds and not review.broken_rounds and not any(r.differs for r in review.rounds)


def test_a_round_that_only_differs_from_the_engine_asks_and_is_recorded(db: None, tmp_path: Path,
                                                                       capsys) -> None:
    # round 1 of 4 players by the engine is 1-3 and 4-2; the file pairs 1-2 and 3-4: no rule broken, but not
    # the pairing the rules make: it stands on the record only confirmed, as a round paired by hand would
    text = "\n".join(["XXR 3", "XXC white1",
                      _line(1, "A, A", "2.0", ["   2 w 1"]), _line(2, "B, B", "0.0", ["   1 b 0"]),
                      _line(3, "C, C", "2.0", ["   4 w 1"]), _line(4, "D, D", "0.0", ["   3 b 0"])]) + "\n"
    review = review_trf(text).review
    (r1,) = review.rounds
    assert r1.differs and not r1.broken
    (warning,) = review.warnings()
    assert (str(warning.code), warning.level) == ("import-not-engine-pairing", 3)
    with pytest.raises(events.NeedsConfirmation):
        import_trf(text)
    with pytest.raises(CommandError, match=r"round\(s\) 1 are not the pairing Damier's engine makes"):
        _run(tmp_path, text)
    assert not Tournament.objects.exists()
    _run(tmp_path, text, "--confirm", "--slug", "differs")
    assert "Recorded: round 1 imported although it is not the engine's pairing (1-2, 3-4)." in capsys.readouterr().out
    t = Tournament.objects.get(slug="differs")
    event = ConformanceEvent.objects.get(tournament=t)
    assert (event.code, event.round_number, event.level) == ("import-not-engine-pairing", 1, 3)
    assert event.values == {"round": 1, "file": ["1-2", "3-4"], "engine": ["1-3", "4-2"]}
    assert "### import-not-engine-pairing @ Round 1: engine=1-3,4-2 file=1-2,3-4 round=1" in events.trf_lines(t)
    assert t.in_conformance


# A TRF-2016 file (132 present) that leaves much unsaid or contradicts itself.
TRF16 = "\n".join([
    "012 Club Championship", "022 Utrecht", "042 2026/03/01", "122 90 min + 1 min/move",
    "132" + " " * 88 + "26/03/01            ",
    "XXR 5",
    _line(1, "Alpha, A", "3.0", ["   2 w 1", "0000 - U"], title="GM"),
    _line(2, "Beta, B", "", ["   1 b 0", "   3 w 1"]),
    _line(3, "Gamma, C", "2.0", ["0000 - U", "   2 b 0"], rating=0),
    "DAT 0001 EMAIL a@example.org",
]) + "\n"


def test_the_adjustments_of_a_trf16_file_are_listed_before_anything_is_written(db: None, tmp_path: Path,
                                                                                capsys) -> None:
    # player 1 scores 4 (a win and the bye) but the column says 3.0; round 2 has no date
    review = review_trf(TRF16).review
    assert (review.version.year, review.version.certain) == (2016, True)
    codes = [a.code for a in review.adjustments]
    assert codes == ["initial-colour-inferred", "points-default", "record-missing", "record-missing",
                     "rank-column-not-read", "date-missing", "round-dates-missing", "record-skipped",
                     "points-column-differs", "rating-missing", "points-column-missing", "title-dropped"]
    by = {(a.code, a.values.get("record")): a.values for a in review.adjustments}
    assert by[("record-missing", "192")] and by[("record-missing", "202")]
    assert by[("round-dates-missing", None)] == {"rounds": [2]}
    assert by[("points-column-differs", None)] == {"player": 1, "line": 7, "written": "3.0", "results": "4.0"}
    assert {a.values["record"] for a in review.adjustments if a.code == "record-skipped"} == {"DAT"}
    assert review.dates.start is not None and review.dates.end is None and set(review.dates.rounds) == {1}
    _run(tmp_path, TRF16, "--dry-run")
    out = capsys.readouterr().out
    assert out.startswith("File: TRF-2016 (from 132, U); extensions: JaVaFo TRF(x) XX lines.\n")
    assert "Line 7, player 1: the points column says 3.0, the results make 4.0; the results are used." in out
    assert "Round dates: none in the file for round(s) 2; left blank." in out
    assert "No 052 record: the tournament's end date is left blank." in out
    assert "Player 1: title 'GM' is not an FMJD title; left blank." in out
    assert out.endswith("Dry run: nothing written.\n")
    assert not Tournament.objects.exists() and not Player.objects.exists()
    _run(tmp_path, TRF16, "--slug", "club", "--confirm")  # the same list, then the tournament with what it could read
    t = Tournament.objects.get(slug="club")
    assert str(t.start_date) == "2026-03-01" and t.end_date is None
    assert (t.venue, t.time_control) == ("Utrecht", "90 min + 1 min/move")
    assert [str(r.date) for r in Round.objects.filter(tournament=t).order_by("number")] == ["2026-03-01", "None"]


@pytest.mark.parametrize(("text", "year", "certain", "evidence", "extensions"), [
    ("012 x\n142 9\n", 2026, True, ("142",), ()),
    ("012 x\n### a comment\n202 BH,SB\n", 2026, True, ("202", "###"), ()),
    ("012 x\nNED    1  Someone\n", 2026, True, ("NED",), ()),
    ("012 x\n132" + " " * 88 + "26/01/01\n", 2016, True, ("132",), ()),
    (_line(1, "A, A", "2.0", ["0000 - U"]) + "\nXXR 3\n", 2016, True, ("U",), ("XX",)),
    (_line(1, "A, A", "2.0", ["0000 - +"]) + "\n", 2006, True, ("0000 - +",), ()),
    ("012 x\nBBW  2.0\n" + _line(1, "A, A", "0.0", ["   2 w 0"]) + "\n", 2016, False, (), ("BB",)),
])
def test_the_version_is_named_from_the_record_types(text: str, year: int, certain: bool,
                                                    evidence: tuple[str, ...], extensions: tuple[str, ...]) -> None:
    v = detect_version(text)
    assert (v.year, v.certain, v.evidence, v.extensions) == (year, certain, evidence, extensions)


# TRF-2006: no 132, the pairing-allocated bye written as a win without opponent ('0000 - +').
TRF06 = "\n".join([
    "012 Old Open", "042 2006.05.01", "XXR 3",
    _line(1, "A, A", "4.0", ["   2 w 1", "0000 - +"]),
    _line(2, "B, B", "2.0", ["   1 b 0", "   3 w 1"]),
    _line(3, "C, C", "2.0", ["0000 - +", "   2 b 0"]),
]) + "\n"


def test_a_trf2006_file_is_read_with_its_old_byes_listed(db: None, tmp_path: Path, capsys) -> None:
    _run(tmp_path, TRF06, "--slug", "old", "--confirm")
    out = capsys.readouterr().out
    assert out.startswith("File: TRF-2006 (from 0000 - +); extensions: JaVaFo TRF(x) XX lines.\n")
    assert "Round 1, player 3: '0000 - +' (TRF-2006 style) read as the pairing-allocated bye." in out
    assert "Round 2, player 1: '0000 - +' (TRF-2006 style) read as the pairing-allocated bye." in out
    assert "0 break(s) the rules" in out
    t = Tournament.objects.get(slug="old")
    assert sorted((g.round.number, g.white.pairing_number) for g in
                  Game.objects.filter(round__tournament=t, result="bye").select_related("round", "white")) == [
        (1, 3), (2, 1)]
    assert str(t.start_date) == "2006-05-01"


def test_a_trf2026_file_with_142_152_and_an_absence_value(db: None) -> None:
    text = "\n".join(["012 New", "142 4", "152 B", "162  W 2.0    D 1.0    A 0.0    P 2.0",
                      _line(1, "A, A", "2.0", ["   2 b 1"]), _line(2, "B, B", "0.0", ["   1 w 0"])]) + "\n"
    reviewed = review_trf(text)
    assert reviewed.trf.total_rounds == 4 and reviewed.trf.initial_colour == "b"
    assert [a.code for a in reviewed.review.adjustments][:1] == ["162-absence-as-zero-point-bye"]
    assert "initial-colour-inferred" not in {a.code for a in reviewed.review.adjustments}
    assert reviewed.review.version.evidence == ("142", "152", "162")


def test_a_trf2026_bye_for_the_round_to_pair_from_a_240_record(db: None) -> None:
    text = "\n".join(["012 ITDX", "142 3", "152 W", "240 Z 002 0003", "240 Z 001  001",
                      _line(1, "A, A", "2.0", ["   3 w 1"]), _line(2, "B, B", "2.0", ["0000 - U"]),
                      _line(3, "C, C", "0.0", ["   1 b 0"])]) + "\n"
    reviewed = review_trf(text)
    adjustments = [(a.code, a.values) for a in reviewed.review.adjustments if a.code.startswith("240")]
    assert adjustments == [("240-bye-read", {"line": 4, "round": 2, "player": 3, "kind": "Z"}),
                           ("240-bye-ignored", {"line": 5, "round": 1, "player": 1, "kind": "Z"})]
    result = import_trf(text, slug="itdx", confirmed=ALL)
    assert result.tournament.entries.get(pairing_number=3).excused_rounds == [2]


def test_an_engine_failure_is_reported_not_taken_for_a_pass(db: None, monkeypatch, tmp_path: Path,
                                                            capsys) -> None:
    from tournaments.exchange import trf_review

    def broken(*args: object) -> None:
        raise RuntimeError("no pairing")

    monkeypatch.setattr(trf_review, "check_pairing", broken)
    review = review_trf(REMATCH).review
    assert [r.engine_failed for r in review.rounds] == ["RuntimeError"] * 3
    assert [r.round for r in review.broken_rounds] == [3]  # the absolute criteria are still checked
    _run(tmp_path, _clean_file(), "--dry-run")
    assert "Round 1: the engine could not pair this round (RuntimeError); the file's pairing was checked " \
           "against the absolute criteria only." in capsys.readouterr().out


def test_an_old_file_s_full_point_bye_is_read_as_the_pairing_allocated_bye(db: None) -> None:
    # no U anywhere, no XX/BB line: the one F of round 1 was that program's pairing-allocated bye
    text = "\n".join(["012 Older", "042 2005/06/01",
                      _line(1, "A, A", "4.0", ["   2 w 1", "0000 - F"]),
                      _line(2, "B, B", "2.0", ["   1 b 0", "   3 w 1"]),
                      _line(3, "C, C", "2.0", ["0000 - F", "   2 b 0"])]) + "\n"
    reviewed = review_trf(text, rounds=3)
    assert [(a.code, a.values) for a in reviewed.review.adjustments if a.code == "old-style-bye-f"] == [
        ("old-style-bye-f", {"round": 1, "player": 3}), ("old-style-bye-f", {"round": 2, "player": 1})]
    result = import_trf(text, rounds=3, slug="older", confirmed=ALL)
    assert Game.objects.filter(round__tournament=result.tournament, result="bye").count() == 2
    with_xx = "XXR 3\n" + text  # an engine's or Damier's file: F stays a bye asked for in advance
    review = Review(detect_version(with_xx))
    trf = parse_trf(with_xx)
    review_header(with_xx, trf, review, rounds_option=None)
    assert trf.players[2].cells[1] == (0, "-", "F")
    assert "old-style-bye-f" not in {a.code for a in review.adjustments}


SECOND_BYE = "\n".join([
    "XXR 9", "XXC white1",
    _line(1, "A, A", "2.0", ["   2 w 1", "   3 b 0"]), _line(2, "B, B", "2.0", ["   1 b 0", "   4 w 1"]),
    _line(3, "C, C", "4.0", ["   4 w 1", "   1 w 1"]), _line(4, "D, D", "0.0", ["   3 b 0", "   2 b 0"]),
    _line(5, "E, E", "4.0", ["0000 - U", "0000 - U"]),
]) + "\n"
# player 1 has White three times running (9 rounds: not the last round's exemption)
THREE_WHITES = "\n".join([
    "XXR 9", "XXC white1",
    _line(1, "A, A", "6.0", ["   3 w 1", "   4 w 1", "   2 w 1"]),
    _line(2, "B, B", "2.0", ["   4 w 1", "   3 b 0", "   1 b 0"]),
    _line(3, "C, C", "2.0", ["   1 b 0", "   2 w 1", "   4 b 0"]),
    _line(4, "D, D", "2.0", ["   2 b 0", "   1 b 0", "   3 w 1"]),
]) + "\n"


def test_a_second_bye_and_three_same_colours_are_rules_broken(db: None) -> None:
    (broken,) = [w for w in review_trf(SECOND_BYE).review.warnings() if str(w.code) == "import-broke-rules"]
    assert broken.values == {"round": 2, "pairs": ["bye:5"], "criteria": ["c2-second-bye"]}
    (broken,) = [w for w in review_trf(THREE_WHITES).review.warnings() if str(w.code) == "import-broke-rules"]
    assert broken.values == {"round": 3, "pairs": ["1-2"], "criteria": ["c3-colour"]}
