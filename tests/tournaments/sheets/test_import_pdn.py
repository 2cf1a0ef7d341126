"""Importing a round's PDN file: the NK 2003 file against a tournament built from its games, and the
command line (`import_pdn`), which previews without --confirm and stores with it."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Entry, Game, GameSheet, Player, Round, RoundStatus, System, Tournament
from tournaments.sheets import MISSING, game_sheet_status, round_import_confirm, round_import_preview

# The 14 players of the file as a federation would hold them: "Surname, Given", accents included
# (the file writes "Gerard Jansen" and once "Gérard Jansen").
NK_PLAYERS = {
    "Gerard Jansen": ("Jansen", "Gérard"), "Martin Dolfing": ("Dolfing", "Martin"),
    "Rob Clerc": ("Clerc", "Rob"), "Auke Scholma": ("Scholma", "Auke"), "Sven Winkel": ("Winkel", "Sven"),
    "Alex Mathijsen": ("Mathijsen", "Alex"), "Jeroen van den Akker": ("van den Akker", "Jeroen"),
    "Bas Messemaker": ("Messemaker", "Bas"), "Jan Ekke de Vries": ("de Vries", "Jan Ekke"),
    "Ron Heusdens": ("Heusdens", "Ron"), "Erno Prosman": ("Prosman", "Erno"),
    "Kees Thijssen": ("Thijssen", "Kees"), "Johan Wiering": ("Wiering", "Johan"),
    "Cor van Dusseldorp": ("van Dusseldorp", "Cor"),
}
RESULTS = {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1"}
TAG = re.compile(r'^\[(\w+) "([^"]*)"\]', re.M)


def file_games(text: str) -> list[dict[str, str]]:
    """The tags of each game, read with a plain regex so the test does not lean on the reader it checks."""
    return [dict(TAG.findall(chunk)) for chunk in re.split(r"\n(?=\[Event )", text) if "[White" in chunk]


def build_nk2003(text: str) -> tuple[Tournament, dict[int, Game]]:
    """The tournament as its arbiter had it: players, rounds and pairings from the file, results recorded."""
    t = Tournament.objects.create(name="NK 2003", slug="nk-2003", system=System.ROUND_ROBIN,
                                  start_date=datetime.date(2003, 3, 1), public=True)
    entries = {}
    for number, (name, (surname, given)) in enumerate(NK_PLAYERS.items(), 1):
        player = Player.objects.create(surname=surname, given_name=given)
        entries[name] = Entry.objects.create(tournament=t, player=player, pairing_number=number)
    rounds: dict[int, Round] = {}
    by_index = {}
    for index, tags in enumerate(file_games(text), 1):
        number = int(tags["Round"])
        rnd = rounds.get(number) or Round.objects.create(tournament=t, number=number,
                                                         status=RoundStatus.COMPLETED)
        rounds[number] = rnd
        by_index[index] = Game.objects.create(
            round=rnd, board=rnd.games.count() + 1, white=entries[tags["White"].replace("é", "e")],
            black=entries[tags["Black"]], result=RESULTS[tags["Result"]])
    return t, by_index


@pytest.mark.django_db
def test_nk2003_every_game_matched_once_with_its_status(corpus_dir: Path) -> None:
    data = (corpus_dir / "nk2003-amsterdam.pdn").read_bytes()
    tournament, by_index = build_nk2003(data.decode("utf-8"))
    assert len(by_index) == 33
    stored = 0
    for rnd in tournament.rounds.order_by("number"):
        preview = round_import_preview(round=rnd, data=data, source_name="nk2003-amsterdam.pdn")
        assert GameSheet.objects.count() == stored  # a preview stores nothing
        mine = {i for i, g in by_index.items() if g.round_id == rnd.pk}
        assert {item.match.index for item in preview.matched} == mine
        for item in preview.matched:
            assert item.match.game_id == by_index[item.match.index].pk
        for item in preview.unmatched:
            assert item.match.index not in mine
            assert re.fullmatch(rf"the Round tag says round \d, this is round {rnd.number}", item.match.reason)
        assert preview.missing_boards == []
        stored += len(round_import_confirm(preview=preview))
    assert stored == GameSheet.objects.count() == 33
    # Every game of the file ended by agreement or resignation: the moves are legal and none ends
    # the game on the board, so every recorded result stands but none can be verified.
    for index, game in by_index.items():
        sheet = GameSheet.objects.get(game=game)
        assert sheet.status == "not_verifiable", (index, sheet.summary)
        assert sheet.sheet_result == game.result
        assert sheet.report["replay"]["legal"] is True
        assert not sheet.needs_look
        assert game_sheet_status(Game.objects.get(pk=game.pk)) == "not_verifiable"
    # Game 8 is the one written "Gérard Jansen": matched to the same player as the others.
    assert by_index[8].white.player.surname == "Jansen"
    assert "Gérard Jansen" in GameSheet.objects.get(game=by_index[8]).text
    # The text kept is the game's own part of the file, unchanged.
    first = GameSheet.objects.get(game=by_index[1]).text
    assert first.startswith('[Event "NK 2003"]') and first.count("[Event") == 1
    assert "41. 36x27 1/2-1/2" in first


@pytest.mark.django_db
def test_nk2003_a_different_recorded_result_is_a_mismatch_and_a_second_import_attaches_nothing(
        corpus_dir: Path) -> None:
    data = (corpus_dir / "nk2003-amsterdam.pdn").read_bytes()
    tournament, by_index = build_nk2003(data.decode("utf-8"))
    Game.objects.filter(pk=by_index[9].pk).update(result="1-1")  # the file says 0-1
    rnd = tournament.rounds.get(number=2)
    round_import_confirm(preview=round_import_preview(round=rnd, data=data, source_name="nk.pdn"))
    sheet = GameSheet.objects.get(game=by_index[9])
    assert sheet.status == "mismatch" and sheet.needs_look
    assert "the sheet declares 0-2 (Black wins)" in sheet.summary and "; 1-1 (draw) is recorded." in sheet.summary
    assert Game.objects.get(pk=by_index[9].pk).result == "1-1"  # never changed by an upload
    again = round_import_preview(round=rnd, data=data, source_name="nk.pdn")
    assert again.matched == []
    assert all("already has a sheet" in i.match.reason for i in again.unmatched if "Round tag" not in i.match.reason)


SMALL = """[Event "Test"]
[Round "1"]
[White "Player01, Test"]
[Black "Test Player04"]
[Result "2-0"]

1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "Test"]
[Round "1"]
[White "Nobody, Someone"]
[Black "Player03, Test"]
[Result "1-1"]

1. 32-28 *
"""


@pytest.mark.django_db
def test_command_line_previews_then_stores_with_confirm(make_tournament, tmp_path: Path, capsys) -> None:
    from tests.tournaments.play import play_round

    t = make_tournament(4)
    play_round(t, {1: "2-0"}, complete=False)
    path = tmp_path / "round1.pdn"
    path.write_text(SMALL, encoding="utf-8")
    board = Game.objects.get(round__tournament=t, round__number=1, white__player__surname="Player01")
    assert board.black.player.surname == "Player04", "round 1 of a 4-player Berger table pairs 1-4"
    call_command("import_pdn", "t", "1", str(path))
    out = capsys.readouterr().out
    assert "2 game(s) for Test t round 1: 1 matched, 1 unmatched." in out
    assert "game 1: Player01, Test - Test Player04 -> board 1 (by name)" in out
    assert "game 2: Nobody, Someone - Player03, Test -> not matched: White: 'Nobody, Someone' is not a player" in out
    assert "Nothing stored: run again with --confirm" in out
    assert GameSheet.objects.count() == 0
    call_command("import_pdn", "t", "1", str(path), "--confirm")
    out = capsys.readouterr().out
    assert "Stored 1 sheet(s)." in out
    sheet = GameSheet.objects.get()
    assert sheet.game == board and sheet.source_name == "round1.pdn" and sheet.encoding == "utf-8"
    assert sheet.status == "not_verifiable"
    others = Game.objects.filter(round__tournament=t, round__number=1).exclude(pk=board.pk)
    assert {game_sheet_status(g) for g in others} == {MISSING}


@pytest.mark.django_db
def test_command_line_bad_input(make_tournament, tmp_path: Path, settings) -> None:
    from tests.tournaments.play import play_round

    t = make_tournament(4)
    play_round(t, complete=False)
    settings.DAMIER_PDN_MAX_BYTES = 100
    cases = {b"": "the file is empty", b"x" * 101: "over the limit of 100 bytes",
             b"\x00\x01PK": "binary data", b"[White \x81\x8d]": "unknown encoding",
             b"hello world": "not a PDN file"}
    for data, message in cases.items():
        path = tmp_path / "bad.pdn"
        path.write_bytes(data)
        with pytest.raises(CommandError, match=message):
            call_command("import_pdn", "t", "1", str(path), "--confirm")
    with pytest.raises(CommandError, match="No round 7"):
        call_command("import_pdn", "t", "7", str(path))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_pdn", "t", "1", str(tmp_path / "absent.pdn"))
    assert GameSheet.objects.count() == 0
