"""The JSON transfer checks the rounds it imports as the TRF import checks a file's (VCL4THP Q54-Q55): a
round that breaks the pairing rules, or is not the engine's (the Berger table's) pairing, is imported only
once the arbiter confirms, and is recorded; a round the document's own events account for asks nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.play import play_round, play_swiss_round
from tournaments.conformance import events
from tournaments.exchange.transfer import dumps, export_tournament, import_tournament, loads
from tournaments.models import ConformanceEvent, Game, Tournament
from tournaments.players import roster

ALL = ["import-broke-rules", "import-not-engine-pairing"]


def _games(doc: dict[str, Any], number: int) -> list[dict[str, Any]]:
    round_key = next(r["key"] for r in doc["rounds"] if r["number"] == number)
    return sorted((g for g in doc["games"] if g["round"] == round_key and g["black"] is not None),
                  key=lambda g: g["board"])


def _swap_blacks(doc: dict[str, Any], number: int) -> None:
    first, second = _games(doc, number)[:2]
    first["black"], second["black"] = second["black"], first["black"]


@pytest.fixture
def swiss_doc(swiss9) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    play_swiss_round(swiss9)
    play_swiss_round(swiss9)
    return loads(dumps(export_tournament(swiss9)))


@pytest.mark.django_db
def test_an_engine_paired_tournament_comes_back_without_a_question(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    result = import_tournament(swiss_doc, replace=True)
    assert result.recorded == [] and not ConformanceEvent.objects.exists()


@pytest.mark.django_db
def test_a_late_entry_and_a_withdrawal_ask_nothing(swiss9) -> None:  # type: ignore[no-untyped-def]
    # the late entrant has no game in the rounds before his entry: he was not in them (as a TRF's blank cell)
    from tournaments.models import Player

    play_swiss_round(swiss9)
    play_swiss_round(swiss9)
    roster.entry_add(tournament=swiss9, player=Player.objects.create(surname="Late", given_name="X", rating=2500))
    roster.entry_withdraw(entry=swiss9.entries.get(pairing_number=5))
    play_swiss_round(swiss9)
    doc = loads(dumps(export_tournament(swiss9)))
    result = import_tournament(doc, replace=True)
    assert result.recorded == [] and result.tournament.rounds.count() == 3


@pytest.mark.django_db
def test_a_round_that_is_not_the_engine_s_asks_and_is_recorded(swiss_doc) -> None:  # type: ignore[no-untyped-def]
    _swap_blacks(swiss_doc, 2)
    with pytest.raises(events.NeedsConfirmation) as asked:
        import_tournament(swiss_doc, replace=True)
    (warning,) = asked.value.warnings
    assert warning.values["round"] == 2 and warning.level == 3
    # nothing kept: the tournament replaced is still there as it was, with no event
    assert Tournament.objects.filter(slug="swiss9").count() == 1 and not ConformanceEvent.objects.exists()
    result = import_tournament(swiss_doc, replace=True, confirmed=ALL)
    t = result.tournament
    event = ConformanceEvent.objects.get(tournament=t)
    assert (event.code, event.round_number, event.level) == (str(warning.code), 2, 3)
    assert any(line.startswith(f"### {warning.code} @ Round 2") for line in events.trf_lines(t))
    assert "Recorded: round 2 imported although it" in result.as_text()
    assert t.in_conformance


@pytest.mark.django_db
def test_a_round_the_document_records_asks_nothing_again(swiss9, swiss_doc) -> None:  # type: ignore[no-untyped-def]
    # a round paired by hand in Damier and validated: its event travels with it
    ConformanceEvent.objects.create(tournament=swiss9, round_number=2, code="manual-pairing", level=3,
                                    values={"round": 2})
    doc = loads(dumps(export_tournament(swiss9)))
    _swap_blacks(doc, 2)
    result = import_tournament(doc, replace=True)
    assert result.recorded == []
    assert list(ConformanceEvent.objects.values_list("code", flat=True)) == ["manual-pairing"]


@pytest.mark.django_db
def test_a_round_robin_round_that_repeats_a_pair_asks_and_is_recorded(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr4")
    play_round(t)
    play_round(t)
    doc = loads(dumps(export_tournament(t)))
    for one, two in zip(_games(doc, 1), _games(doc, 2), strict=True):  # round 2 pairs round 1's pairs again
        two["white"], two["black"] = one["black"], one["white"]
    with pytest.raises(events.NeedsConfirmation) as asked:
        import_tournament(doc, replace=True)
    (warning,) = asked.value.warnings
    assert str(warning.code) == "import-broke-rules" and warning.values["round"] == 2
    assert "rematch" in warning.values["criteria"]
    imported = import_tournament(doc, replace=True, confirmed=ALL).tournament
    assert ConformanceEvent.objects.get(tournament=imported).code == "import-broke-rules"
    assert Game.objects.filter(round__tournament=imported, round__number=2).count() == 2


@pytest.mark.django_db
def test_the_command_asks_for_confirm_then_records(swiss_doc, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _swap_blacks(swiss_doc, 2)
    path = tmp_path / "t.json"
    path.write_text(dumps(swiss_doc), encoding="utf-8")
    with pytest.raises(CommandError, match=r"nothing imported: .*round \(2\).* run again with --confirm"):
        call_command("import_tournament", str(path), "--replace")
    out = StringIO()
    call_command("import_tournament", str(path), "--replace", "--confirm", stdout=out)
    assert "Recorded: round 2 imported although it" in out.getvalue()
    assert ConformanceEvent.objects.filter(round_number=2).count() == 1
