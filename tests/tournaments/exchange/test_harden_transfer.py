"""import_tournament checks the whole file first and reports every error with its path;
names in the file never become (or borrow) a real account."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.play import play_round
from tournaments.exchange.transfer import TransferError, dumps, export_tournament, import_tournament, loads
from tournaments.models import Entry, Game, GameSheet, Player, Round, Tournament

MODELS = (Tournament, Player, Entry, Round, Game, GameSheet)


@pytest.fixture
def doc(make_tournament) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="src")
    play_round(t, {1: "2-0"})
    out = export_tournament(t)
    out["tournament"]["slug"] = "copy"
    return out


def _refused(doc: dict[str, Any] | str, *messages: str) -> str:
    counts = [m.objects.count() for m in MODELS] + [get_user_model().objects.count()]
    with pytest.raises(TransferError) as caught:
        import_tournament(loads(doc) if isinstance(doc, str) else doc)
    assert [m.objects.count() for m in MODELS] + [get_user_model().objects.count()] == counts
    text = str(caught.value)
    for message in messages:
        assert message in text, (message, text)
    return text


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_numbers_json_cannot_hold_are_refused(doc, number: str) -> None:  # type: ignore[no-untyped-def]
    _refused(dumps(doc).replace('"bye_points": 2', f'"bye_points": {number}'), "Not a JSON document")


def test_deep_nesting_is_refused(doc) -> None:  # type: ignore[no-untyped-def]
    _refused(dumps(doc).replace('"tiebreaks": []', '"tiebreaks": ' + "[" * 100_000 + "]" * 100_000),
             "nested")
    _refused(dumps(doc).replace('"tiebreaks": []', '"tiebreaks": ' + "[" * 50 + "]" * 50), "nested")


def test_every_error_is_reported_with_its_path(doc, settings) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(doc)
    bad["entries"][0]["excused_rounds"] = "abc"
    bad["entries"][1]["withdrawn_after_round"] = 999
    bad["players"][0]["rating"] = 10**30
    bad["players"][1]["surname"] = "Forged\n001 line"
    bad["rounds"][0]["pairing_explanation"] = "x" * 300_000
    text = _refused(bad, "$.players[0].rating", "$.rounds[0].pairing_explanation", "$.entries[0].excused_rounds")
    assert text.count("\n") >= 2  # more than one error in one answer
    shaped = copy.deepcopy(doc)
    shaped["entries"][1]["withdrawn_after_round"] = 999
    shaped["players"][1]["surname"] = "Forged\n001 line"
    _refused(shaped, "$.entries[1].withdrawn_after_round: 999",
             "$.players[1].surname: control character U+000A")


def test_a_bye_between_two_players_is_refused(doc) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(doc)
    two = next(i for i, g in enumerate(bad["games"]) if g["black"] is not None)
    bad["games"][two]["result"] = "bye"
    _refused(bad, f"$.games[{two}].result: 'bye' is for a player alone")


def test_a_huge_sheet_text_is_refused(doc, settings) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(doc)
    game = next(g for g in bad["games"] if g["black"] is not None)
    bad["sheets"] = [{"key": 1, "game": game["key"], "text": "x" * (settings.DAMIER_PDN_MAX_BYTES + 1),
                      "status": "verified"}]
    _refused(bad, "$.sheets[0].text")


def test_nul_in_any_text_is_refused(doc) -> None:  # type: ignore[no-untyped-def]
    bad = copy.deepcopy(doc)
    bad["tournament"]["venue"] = "Salle\x00"
    _refused(bad, "$.tournament.venue: contains a NUL character")


def test_names_in_the_file_never_borrow_an_existing_account(doc, arbiter) -> None:  # type: ignore[no-untyped-def]
    assert doc["tournament"]["chief_arbiter"] == arbiter.username
    doc["history"]["games"][0]["history_user"] = arbiter.username
    result = import_tournament(json.loads(json.dumps(doc)))
    t = result.tournament
    assert t.chief_arbiter != arbiter and not t.chief_arbiter.is_active
    assert t.chief_arbiter.username == f"{arbiter.username} (imported)"
    assert not Game.history.filter(id__in=t.rounds.values("games"), history_user=arbiter).exists()  # type: ignore[attr-defined]
    assert not t.is_arbiter(arbiter)  # the file gave the real arbiter no tournament
    assert "never matched to an existing account" in result.as_text()
