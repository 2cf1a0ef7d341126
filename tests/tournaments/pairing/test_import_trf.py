"""manage.py import_trf: a tournament from a TRF file, all or nothing; export_trf then import_trf gives
the same tournament back; reference tournaments imported mid-way are paired by the app (the Django
path, services.round_pair) exactly as the command line and bbpPairings paired them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.pairing import reference_check as rc
from tournaments.models import Entry, Game, Player, Round, System, Tournament
from tournaments.players import roster
from tournaments.rounds import pairing_bridge, services

FORCED = {(2, 2): "2F-0F", (2, 3): "0F-0F", (3, 1): "0F-2F"}


def _play(rnd: Round, rng: random.Random) -> None:
    services.round_publish(round=rnd)
    for g in rnd.games.all():
        if not g.result:
            result = FORCED.get((rnd.number, g.board)) or rng.choice(["2-0", "1-1", "0-2"])
            services.game_record_result(game=g, result=result)
    services.round_complete(round=rnd)


def _games(t: Tournament) -> set[tuple[int, int, int | None, str]]:
    return {
        (g.round.number, g.white.pairing_number, g.black.pairing_number if g.black else None, g.result)
        for g in Game.objects.filter(round__tournament=t).select_related("round", "white", "black")
    }


def _import(tmp_path: Path, text: str, *args: str) -> str:
    src = tmp_path / "in.trf"
    src.write_text(text, encoding="utf-8", newline="")
    call_command("import_trf", str(src), *args)
    return src.name


def test_export_then_import_gives_the_same_tournament(make_tournament, tmp_path: Path, capsys) -> None:
    t = make_tournament(11, system=System.SWISS, slug="orig", rounds_total=7, first_colour="b")
    rng = random.Random(3)
    for number in range(1, 5):
        if number == 3:
            roster.entry_withdraw(entry=t.entries.get(pairing_number=4), after_round=2)
        _play(services.round_pair(tournament=t), rng)
    resting = t.entries.get(pairing_number=7)
    resting.excused_rounds = [5]
    resting.save()
    Player.objects.filter(pk=t.entries.get(pairing_number=1).player_id).update(title="GMI", birth_year=1990)
    t.entries.filter(pairing_number=1).update(title="GMI")  # the title his entry keeps, as if held when entered
    text = pairing_bridge.export_trf(t)
    players_before = Player.objects.count()
    _import(tmp_path, text, "--slug", "copy")
    assert "11 players (11 already known by FMJD id), 4 completed round(s) of 7" in capsys.readouterr().out
    copy = Tournament.objects.get(slug="copy")
    assert Player.objects.count() == players_before  # matched by FMJD id, not duplicated
    assert copy.system == System.SWISS and copy.rounds_total == 7 and copy.bye_points == 2
    assert copy.first_colour == "b"
    assert _games(copy) == _games(t)
    gone = copy.entries.get(pairing_number=4)
    assert gone.is_withdrawn and gone.withdrawn_after_round == 4  # the file says: absent from round 5 on
    assert copy.entries.get(pairing_number=7).excused_rounds == [5]
    assert pairing_bridge.export_trf(copy) == text
    # and the next round is paired the same in both
    mine = {(g.white.pairing_number, g.black.pairing_number if g.black else None)
            for g in services.round_pair(tournament=t).games.select_related("white", "black")}
    theirs = {(g.white.pairing_number, g.black.pairing_number if g.black else None)
              for g in services.round_pair(tournament=copy).games.select_related("white", "black")}
    assert mine == theirs


# (file, round to pair): zero-point byes asked for in the history (ref001) or for the round to pair
# (ref035, ref050), forfeits and double forfeits, pairing-allocated byes. Files with half-point byes
# cannot be imported (Damier has none).
CASES = [("ref001-45p8r", 7), ("ref035-60p5r", 4), ("ref050-50p8r", 8)]


@pytest.mark.parametrize(("stem", "number"), CASES, ids=[f"{s}-r{n}" for s, n in CASES])
def test_reference_tournament_imported_then_paired_in_the_app(db: None, tmp_path: Path, stem: str,
                                                              number: int) -> None:
    path = rc.REFERENCE_DIR / f"{stem}.trf"
    if not path.is_file():
        pytest.skip(f"reference set not found at {rc.REFERENCE_DIR}")
    text = path.read_bytes().decode("utf-8")
    cut = rc.cut_text(text, number)
    _import(tmp_path, cut, "--slug", "ref")
    t = Tournament.objects.get(slug="ref")
    assert t.rounds.count() == number - 1
    rnd = services.round_pair(tournament=t)
    app = {(g.white.pairing_number, g.black.pairing_number if g.black else None)
           for g in rnd.games.select_related("white", "black") if g.result != "excused"}
    assert app == rc.engine_pairing(cut) == rc.file_pairing(text, number)


def _line(n: int, name: str, pts: str, cells: str) -> str:
    return f"001 {n:4d}      {name:<33} 2000{'':28}{pts:>4}    {n}  {cells}"


GOOD = ["XXR 5", _line(1, "A, B", "2.0", "   2 w 1"), _line(2, "C, D", "0.0", "   1 b 0"),
        _line(3, "E, F", "2.0", "0000 - U")]


@pytest.mark.parametrize(("change", "message"), [
    # (an unknown symbol in a game is read as a postponed game, checklist 166; without an opponent it is no game)
    ((3, _line(3, "E, F", "2.0", "0000 - x")), r"line 4 \(001\): round 1 \(columns 92-99\): result 'x' is not one of"),
    ((1, _line(1, "A, B", "2.0", "   3 w 1")), r"line 2, round 1 \(columns 92-99\): 1 meets 3, but line 4 says "
                                               r"opponent none"),
    ((2, _line(2, "C, D", "0.0", "   1 w 0")), r"1 and 2 both have colour w"),
    ((2, _line(2, "C, D", "0.0", "   1 b =")), r"result 1 for 1 but = for 2 on line 3"),
    ((3, _line(1, "E, F", "2.0", "0000 - U")), r"line 4, starting rank \(columns 5-8\): 1 is already the rank of "
                                               r"line 2"),
    ((-1, "BBW  3.0"), r"point system win 3, draw 1.5, loss 0, zero-point bye 0: Damier scores 2/1/0"),
    ((0, "012 no rounds"), r"the file has no 142 or XXR \(number of rounds\) line: give the number of rounds"),
])
def test_a_bad_file_imports_nothing_and_says_where(db: None, tmp_path: Path, change: tuple[int, str],
                                                   message: str) -> None:
    lines = list(GOOD)
    if change[0] < 0:
        lines.insert(0, change[1])
    else:
        lines[change[0]] = change[1]
    with pytest.raises(CommandError, match=r"in.trf: nothing imported: (line \d, round 1 \(columns 92-99\): )?"
                       + message):
        _import(tmp_path, "\n".join(lines) + "\n")
    assert not Tournament.objects.exists() and not Player.objects.exists() and not Entry.objects.exists()


def test_a_good_file_and_a_taken_slug(db: None, tmp_path: Path, capsys) -> None:
    _import(tmp_path, "012 Open\n" + "\n".join(GOOD) + "\n")
    assert "Imported 'Open' (slug open): 3 players" in capsys.readouterr().out
    t = Tournament.objects.get(slug="open")
    assert {(g.white.pairing_number, g.result) for g in Game.objects.filter(round__tournament=t)} == {
        (1, "2-0"), (3, "bye")}
    assert t.entries.get(pairing_number=1).player.full_name == "A, B"
    with pytest.raises(CommandError, match="a tournament with slug 'open' already exists"):
        _import(tmp_path, "\n".join(GOOD) + "\n", "--slug", "open")
    _import(tmp_path, "012 Open\n" + "\n".join(GOOD) + "\n")
    assert Tournament.objects.filter(slug="open-2").exists()
