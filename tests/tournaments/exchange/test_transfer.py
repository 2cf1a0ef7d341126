"""export_tournament / import_tournament: the round trip is exact, and a bad file imports nothing."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.test_admin import round_post_data
from tests.tournaments.play import play_round
from tournaments import selectors, sheets
from tournaments.exchange.transfer import TransferError, dumps, export_tournament, import_tournament, loads
from tournaments.models import ConformanceEvent, Entry, ForbiddenPair, Game, GameSheet, Player, Round, Tournament
from tournaments.players import roster
from tournaments.rounds import services


def sheet_text(game: Game, result: str) -> str:
    return (f'[Round "{game.round.number}"]\n[White "{game.white.player.full_name}"]\n'
            f'[Black "{game.black.player.full_name}"]\n[Result "{result}"]\n\n1. 32-28 19-23 2. 28x19 14x23 {result}\n')


@pytest.fixture
def rich(make_tournament, arbiter) -> Tournament:  # type: ignore[no-untyped-def]
    """A round robin of 5 with everything the export must carry, changed by two arbiters and by the system."""
    t = make_tournament(5, slug="rich", tiebreaks=["sonneborn_berger", "wins"], venue="Emmen")
    deputy = get_user_model().objects.create_user("deputy", is_staff=True)
    t.deputy_arbiters.add(deputy)
    entries = list(t.entries.order_by("pairing_number"))
    ForbiddenPair.objects.create(tournament=t, first=entries[0], second=entries[1], reason="same club")
    Player.objects.filter(pk=entries[4].player_id).update(fmjd_id=None)  # matched by details, not by id
    play_round(t, {1: "2-0", 2: "0F-2F"})
    # A draft paired, deleted and paired again: its history names objects that no longer exist.
    services.round_delete_draft(round=services.round_pair(tournament=t))
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    client = Client()
    client.force_login(deputy)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    assert client.post(url, round_post_data(rnd, {1: "1-1", 2: "2-0"})).status_code == 302
    client.force_login(arbiter)
    assert client.post(url, round_post_data(rnd, {1: "0-2"})).status_code == 302
    game = rnd.games.select_related("white__player", "black__player", "round").get(board=1)
    sheets.sheet_upload(game=game, data=sheet_text(game, "0-2"), source_name="board1.pdn", user=deputy)
    roster.entry_withdraw(entry=entries[3], after_round=2)
    # a breach the deputy confirmed, which took the tournament out of the conformance mode
    ConformanceEvent.objects.create(tournament=t, round_number=2, code="rounds-changed", level=4,
                                    values={"old": 5, "new": 7}, left_mode=True, created_by=deputy)
    Tournament.objects.filter(pk=t.pk).update(conformance_left_round=2)
    return Tournament.objects.get(pk=t.pk)


def wipe_database() -> None:
    """What a fresh database holds: nothing of the tournament, its players, users or history."""
    from tournaments.rounds import deletion

    with deletion.allowed():  # a test's own clean-up, not an arbiter's delete
        for t in Tournament.objects.all():
            Round.objects.filter(tournament=t).delete()
            Entry.objects.filter(tournament=t).delete()
            t.delete()
    Player.objects.all().delete()
    for model in (Tournament, Entry, Round, Game, GameSheet):
        model.history.all().delete()  # type: ignore[attr-defined]
    get_user_model().objects.all().delete()


def test_export_carries_everything(rich: Tournament) -> None:
    doc = export_tournament(rich)
    assert doc["format"] == "damier-tournament" and doc["version"] == 1
    assert doc["tournament"]["deputy_arbiters"] == ["deputy"] and doc["tournament"]["chief_arbiter"] == "chief"
    assert len(doc["players"]) == 5 and len(doc["entries"]) == 5 and len(doc["forbidden_pairs"]) == 1
    assert [r["status"] for r in doc["rounds"]] == ["completed", "published"]
    assert len(doc["games"]) == 6 and {g["result"] for g in doc["games"]} >= {"2-0", "0F-2F", "0-2"}
    (sheet,) = doc["sheets"]
    assert sheet["uploaded_by"] == "deputy" and sheet["report"] and sheet["text"].startswith('[Round "2"]')
    history = doc["history"]
    assert {h["history_type"] for h in history["rounds"]} == {"+", "~", "-"}  # the deleted draft is there
    assert {h["history_user"] for h in history["games"]} >= {"deputy", "chief", None}
    results = [(h["key"], h["result"], h["history_user"]) for h in history["games"] if h["history_user"]]
    board1 = next(g["key"] for g in doc["games"] if g["round"] == 3 and g["board"] == 1)
    assert [(r, u) for k, r, u in results if k == board1] == [("1-1", "deputy"), ("0-2", "chief")]
    assert any(h["status"] == "withdrawn" for h in history["entries"])
    (event,) = doc["conformance_events"]
    assert (event["code"], event["values"], event["created_by"], event["left_mode"]) == (
        "rounds-changed", {"old": 5, "new": 7}, "deputy", True)
    assert doc["tournament"]["conformance_left_round"] == 2
    assert json.loads(dumps(doc)) == doc


def test_round_trip_into_a_fresh_database_is_exact(rich: Tournament) -> None:
    before = dumps(export_tournament(rich))
    standings = [(r.rank, r.player.name, r.points) for r in selectors.standings(rich)]
    wipe_database()
    result = import_tournament(loads(before))
    assert result.players_created == 5 and sorted(result.users_created) == ["chief", "deputy"]
    assert not get_user_model().objects.get(username="chief").is_active  # named, but cannot log in
    after = dumps(export_tournament(result.tournament))
    assert after == before
    assert [(r.rank, r.player.name, r.points) for r in selectors.standings(result.tournament)] == standings


def test_round_trip_with_replace_in_the_same_database(rich: Tournament) -> None:
    before = dumps(export_tournament(rich))
    other_players = Player.objects.count()
    result = import_tournament(loads(before), replace=True)
    assert result.players_created == 0 and len(result.players_matched) == 5
    assert Player.objects.count() == other_players
    # The file's names are never matched to the real accounts "chief" and "deputy" of this database.
    expected = before.replace('"chief"', '"chief (imported)"').replace('"deputy"', '"deputy (imported)"')
    assert dumps(export_tournament(result.tournament)) == expected
    assert sorted(result.users_created) == ["chief (imported)", "deputy (imported)"]


def test_the_imported_tournament_goes_on(rich: Tournament) -> None:
    doc = loads(dumps(export_tournament(rich)))
    wipe_database()
    t = import_tournament(doc).tournament
    rnd = t.rounds.get(number=2)
    for game in rnd.games.filter(result=""):
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)
    new = services.round_pair(tournament=t)  # new ids do not collide with the imported ones
    assert new.number == 3 and new.games.count() == 3
    assert Round.history.filter(id=new.pk).count() == 1


def test_an_existing_slug_is_refused_without_replace(rich: Tournament) -> None:
    text = dumps(export_tournament(rich))
    with pytest.raises(TransferError, match="already exists.*--replace"):
        import_tournament(loads(text))
    assert dumps(export_tournament(rich)) == text


def mutate(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = doc
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


BAD = [
    ("games.0.result", "7-7", r"\$\.games\[0\]\.result: '7-7' is not one of"),
    ("entries.0.player", 99, r"\$\.entries\[0\]\.player: no player with key 99"),
    ("games.0.white", None, r"\$\.games\[0\]\.white: None is not of type 'integer'"),
    ("games.1.board", 1, r"games: the file breaks a database rule"),
    ("rounds.0.status", "finished", r"\$\.rounds\[0\]\.status: 'finished' is not one of"),
    ("tournament.tiebreaks", ["nonsense"], r"tournament\[key 1\]: tiebreaks: Unknown tie-break"),
    ("tournament.slug", "not a slug!", r"tournament\[key 1\]: slug"),
    ("history.games.0.history_type", "?", r"history\.games\[0\]\.history_type"),
    ("history.games.0.history_date", "yesterday", r"history\.games\[0\]\.history_date"),
    ("players.0.surname", "", r"players\[key 1\]: surname"),
    ("players.0.nickname", "x", r"\$\.players\[0\]: Additional properties .*'nickname' was unexpected"),
    ("version", 2, r"version 2 is not supported"),
    ("format", "something", r"Not a tournament export"),
    ("sheets.0.game", 999, r"sheets\[key 1\]\.game: no games with key 999"),
]


@pytest.mark.parametrize(("path", "value", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_imports_nothing_and_says_what_is_wrong(rich: Tournament, path: str, value: Any,
                                                           message: str) -> None:
    doc = export_tournament(rich)
    wipe_database()
    counts = [m.objects.count() for m in (Tournament, Player, Entry, Round, Game, GameSheet, get_user_model())]
    with pytest.raises(TransferError, match=message):
        import_tournament(mutate(doc, path, value))
    assert [m.objects.count() for m in (Tournament, Player, Entry, Round, Game, GameSheet,
                                        get_user_model())] == counts
    assert Game.history.count() == 0  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", [b"", b"\xff\xfe\x00", b"[1, 2]", b'{"format": "damier-tournament"}',
                                  b'{"format": "damier-tournament", "version": 1, "tournament": []}'])
def test_not_an_export_at_all(db: None, text: bytes) -> None:
    with pytest.raises(TransferError):
        import_tournament(loads(text))


def test_commands_round_trip_through_a_file(rich: Tournament, tmp_path: Path) -> None:
    out = StringIO()
    call_command("export_tournament", "rich", stdout=out)
    path = tmp_path / "t.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    with pytest.raises(CommandError, match="nothing imported.*already exists"):
        call_command("import_tournament", str(path), stdout=StringIO())
    report = StringIO()
    call_command("import_tournament", str(path), "--replace", stdout=report)
    assert "Imported 'rich': 5 entries, 2 rounds" in report.getvalue()
    again = StringIO()
    call_command("export_tournament", "rich", stdout=again)
    imported = out.getvalue().replace('"chief"', '"chief (imported)"').replace('"deputy"', '"deputy (imported)"')
    assert again.getvalue() == imported  # names of the file, never this database's accounts
    with pytest.raises(CommandError, match="No tournament with slug 'nope'"):
        call_command("export_tournament", "nope", stdout=StringIO())
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_tournament", str(tmp_path / "missing.json"), stdout=StringIO())
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="nothing imported: Not a JSON document"):
        call_command("import_tournament", str(tmp_path / "bad.json"), stdout=StringIO())
