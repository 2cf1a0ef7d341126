"""import_tournament checks each JSON field against the shape its writer gives it, and what the rounds must be,
so a file never stores what later breaks the admin pages or the TRF export; its errors quote a value cut short."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db import models

from tests.tournaments.play import play_swiss_round
from tournaments import sheets
from tournaments.exchange.transfer import PARTS, TransferError, dumps, export_tournament, import_tournament, loads
from tournaments.exchange.transfer_json import JSON_FIELDS
from tournaments.models import ConformanceEvent, Round, System, Tournament
from tournaments.players import requested_byes
from tournaments.rounds import pairing_bridge, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss_doc(make_tournament) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """A Swiss with every JSON field filled by its own writer: pairing records, a requested bye worth a
    draw, an irregular game sheet, a confirmed event; round 3 paired, a draft."""
    t = make_tournament(7, system=System.SWISS, slug="jsrc", rounds_total=5, tiebreaks=["solkoff", "wins"])
    requested_byes.bye_request(entry=t.entries.get(pairing_number=7), round_number=4, points=1,
                               confirmed={"bye-half", "bye-late", "bye-points"} | set(_all_codes()))
    for _ in range(2):
        play_swiss_round(t)
    game = Round.objects.get(tournament=t, number=2).games.exclude(black=None).select_related(
        "white__player", "black__player", "round").first()
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
            f'[Result "{game.result}"]\n\n1. 32-28 19-23 2. 28-19 {game.result}\n')  # 28-19 is not a capture
    sheets.sheet_upload(game=game, data=text, source_name="b.pdn")
    services.round_pair(tournament=t)
    ConformanceEvent.objects.create(tournament=t, round_number=2, code="rounds-changed", level=4,
                                    values={"old": 5, "new": 7, "pairs": [1, 2]})
    doc = export_tournament(Tournament.objects.get(pk=t.pk))
    doc["tournament"]["slug"] = "jcopy"
    return doc


def _all_codes() -> list[str]:
    from tournaments.conformance.policy import Code

    return [str(c) for c in Code]


def _refused(doc: dict[str, Any], *messages: str) -> str:
    before = Tournament.objects.count()
    with pytest.raises(TransferError) as caught:
        import_tournament(doc)
    assert Tournament.objects.count() == before
    text = str(caught.value)
    for message in messages:
        assert message in text, (message, text)
    return text


def test_every_json_field_has_its_shape() -> None:
    carried = {(m.__name__, f.name) for _n, m in PARTS for f in m._meta.concrete_fields
               if isinstance(f, models.JSONField) and f.name != "line"}  # the sheet's line is rebuilt, not carried
    assert carried == set(JSON_FIELDS)


def test_a_swiss_with_every_json_field_goes_and_comes_back(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    assert all(r["pairing_record"] for r in swiss_doc["rounds"])
    assert any(e["bye_points"] for e in swiss_doc["entries"]) and swiss_doc["sheets"][0]["report"]["replay"]
    back = import_tournament(loads(dumps(swiss_doc))).tournament
    again = export_tournament(back)
    assert again["rounds"] == swiss_doc["rounds"] and again["entries"] == swiss_doc["entries"]
    assert pairing_bridge.round_pairing_log(back.rounds.get(number=2)).startswith("Round 2")


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    *head, last = path.split(".")
    target: Any = out
    for part in head:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    return out


@pytest.mark.parametrize(("path", "value", "message"), [
    ("sheets.0.report", "not a report", "$.sheets[0].report: "),
    ("sheets.0.report", {"replay": [1, 2]}, "$.sheets[0].report.replay: "),
    ("sheets.0.report", {"irregular": [{"move_number": "seven"}]}, "$.sheets[0].report.irregular[0].move_number"),
    ("rounds.0.pairing_record", {"round": 1}, "$.rounds[0].pairing_record: "),
    ("rounds.0.pairing_record.colours", [{"white": 1, "black": 2, "rule": "E9"}],
     "$.rounds[0].pairing_record.colours[0].rule"),
    ("rounds.0.pairing_record.bye_report", {"player": 3}, "$.rounds[0].pairing_record.bye_report"),
    ("entries.0.bye_points", {"3": 5}, "$.entries[0].bye_points.3: 5 is not one of [1, 2]"),
    ("entries.0.bye_points", {"third": 1}, "$.entries[0].bye_points: "),
    ("entries.0.bye_points", [1, 2], "$.entries[0].bye_points: "),
    ("entries.0.excused_rounds", [10**20], "$.entries[0].excused_rounds[0]: "),
    ("entries.0.excused_rounds", [9], "$.entries[0].excused_rounds: a round past the last (5)."),
    ("conformance_events.0.values", [1, 2], "$.conformance_events[0].values: "),
    ("conformance_events.0.values", {"old": {"deep": 1}}, "$.conformance_events[0].values.old: "),
    ("rounds.0.manual_edit_confirmed", [1], "$.rounds[0].manual_edit_confirmed[0]: "),
    ("tournament.hand_order", ["x"], "$.tournament.hand_order[0]: "),
])
def test_a_json_field_of_another_shape_is_refused_by_its_path(swiss_doc, path: str, value: Any,  # type: ignore[no-untyped-def]
                                                             message: str) -> None:
    _refused(_set(swiss_doc, path, value), message)


def test_a_requested_bye_outside_the_excused_rounds_is_refused(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    i = next(i for i, e in enumerate(swiss_doc["entries"]) if e["bye_points"])
    _refused(_set(swiss_doc, f"entries.{i}.excused_rounds", []),
             f"$.entries[{i}].bye_points: round(s) 4 are not in excused_rounds")


def test_a_requested_bye_in_a_round_written_in_other_digits_is_refused_in_words(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    i = next(i for i, e in enumerate(swiss_doc["entries"]) if e["bye_points"])
    _refused(_set(swiss_doc, f"entries.{i}.bye_points", {"²": 1, "4": 1}), f"$.entries[{i}].bye_points")


def test_rounds_are_numbered_without_a_gap_and_only_the_last_is_open(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    first = next(i for i, r in enumerate(swiss_doc["rounds"]) if r["number"] == 1)
    _refused(_set(swiss_doc, f"rounds.{first}.status", "draft"),
             f"$.rounds[{first}].status: round 1 is 'draft' under round 3: every round before the last is completed.")
    third = next(i for i, r in enumerate(swiss_doc["rounds"]) if r["number"] == 3)
    _refused(_set(swiss_doc, f"rounds.{third}.number", 4), "but round 3 is not in the file")


def test_an_error_quotes_a_value_cut_short(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    huge = "A" * 1_000_000
    text = _refused(_set(_set(swiss_doc, "games.0.result", huge), "tournament.venue", huge), "$.games[0].result",
                    "$.tournament.venue")
    assert len(text) < 2_000 and "AAAA…" in text
    text = _refused(_set(swiss_doc, "tournament.chief_arbiter", ["B" * 1_000_000]), "$.tournament.chief_arbiter")
    assert len(text) < 1_000
