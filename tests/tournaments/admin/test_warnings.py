"""The one warning screen: its rows, its one wording per level, its boxes, and that no page renders its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.tournaments.warning_screen import TEMPLATE, assert_one_screen
from tournaments.admin import warnings
from tournaments.conformance.policy import Code, Level, Warning
from tournaments.models import Entry, System
from tournaments.rounds import services

ROOT = Path(__file__).resolve().parents[3]


def test_one_wording_per_level_of_what_confirming_does() -> None:
    said = {level: warnings.consequence(level) for level in Level}
    assert len(set(said.values())) == len(Level)  # each level its own words
    assert "nothing to confirm" in said[Level.NOTICE]
    assert "event" in said[Level.CONFIRM] and "does not change the tournament's conformance mode" in said[Level.CONFIRM]
    assert "out of the conformance mode for good" in said[Level.LEAVE]
    assert "cannot be confirmed" in said[Level.REFUSE]


def test_rows_group_a_code_once_and_put_the_gravest_first() -> None:
    found = [Warning(Code.REMATCH, {"pair": "1 – 2"}), Warning(Code.ROUNDS_CHANGED, {"old": 5, "new": 7}),
             Warning(Code.REMATCH, {"pair": "3 – 4"}), Warning(Code.REMATCH, {"pair": "3 – 4"}),
             Warning(Code.LATE_ENTRY, {"player": "Dupont", "number": 9})]
    rows = warnings.rows(found)
    assert [(r.key, r.level) for r in rows] == [("rounds-changed", 4), ("rematch", 3), ("late-entry", 2)]
    assert rows[1].texts == ("1 – 2 have already played each other.", "3 – 4 have already played each other.")
    assert [r.needs_tick for r in rows] == [True, True, False] and rows[0].leaves
    # keys of their own (a manual pairing's breach names its players): one box each
    keyed = warnings.rows(found[:3], keys=["rematch:1-2", "rounds-changed", "rematch:3-4"])
    assert [r.key for r in keyed] == ["rounds-changed", "rematch:1-2", "rematch:3-4"]


def test_the_block_keeps_what_was_ticked_and_names_its_boxes_as_the_page_reads_them() -> None:
    found = [Warning(Code.REMATCH, {"pair": "1 – 2"}), Warning(Code.MANUAL_PAIRING, {"round": 2})]
    html = warnings.block(None, found, field="confirm", ticked=["rematch"], required=True)
    assert 'name="confirm" value="rematch"' in html and 'name="confirm" value="manual-pairing"' in html
    assert re.search(r'value="rematch" id="[^"]+" checked required', html)
    assert re.search(r'value="manual-pairing" id="[^"]+" required>', html)
    assert escape(warnings.consequence(Level.CONFIRM)) in html and "Level 3: confirmation" in html
    assert warnings.block(None, []) == ""


def test_a_refusal_and_a_notice_have_no_box() -> None:
    refused = warnings.block(None, [Warning(Code.SYSTEM_CHANGED)])
    assert 'type="checkbox"' not in refused and escape(warnings.consequence(Level.REFUSE)) in refused
    assert "Refused: this breaks the competition rules" in refused
    notice = warnings.block(None, [Warning(Code.LATE_ENTRY, {"player": "Dupont", "number": 9})])
    assert 'type="checkbox"' not in notice and "nothing to confirm" in notice


def test_a_level_4_box_says_the_tournament_leaves_the_mode() -> None:
    html = warnings.block(None, [Warning(Code.ROUNDS_CHANGED, {"old": 5, "new": 7})])
    assert "I confirm, and the tournament leaves the conformance mode for good" in html


@pytest.mark.django_db
def test_the_requested_bye_action_asks_on_the_one_screen(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="bye", rounds_total=5)
    entry = t.entries.order_by("pairing_number").first()
    url = reverse("admin:tournaments_entry_changelist")

    def grant(round_number: int, **extra: str):  # type: ignore[no-untyped-def]
        return chief.post(url, {"action": "grant_bye", "_selected_action": [str(entry.pk)], "index": "0",
                                "apply": "1", "round_number": str(round_number), "points": "1", **extra})

    assert grant(1).status_code == 302  # the first bye worth a draw: nothing to confirm
    html = assert_one_screen(grant(2), Level.CONFIRM)
    assert 'name="confirm" value="half-point-bye"' in html
    assert 2 not in Entry.objects.get(pk=entry.pk).excused_rounds
    assert grant(2, confirm="half-point-bye").status_code == 302
    assert 2 in Entry.objects.get(pk=entry.pk).excused_rounds


def test_no_page_renders_a_warning_of_its_own() -> None:
    """The templates that rendered warnings before are gone, no other template draws a level's box, and only
    the renderer (and the events' read-only log) turns a level into words in the admin."""
    templates = ROOT / "templates"
    for gone in ("admin/tournaments/confirm_warnings.html", "admin/tournaments/manual_pairing_warnings.html",
                 "admin/tournaments/warning_boxes.html", "admin/tournaments/tournament/warnings_ratings.html"):
        assert not (templates / gone).exists()
    drawing = [p.relative_to(templates).as_posix() for p in templates.rglob("*.html")
               if re.search(r"Level \{\{|Warning \(\{\{|w\.consequence", p.read_text())]
    assert drawing == [TEMPLATE]
    naming = sorted(p.name for p in (ROOT / "tournaments" / "admin").glob("*.py") if "level_name" in p.read_text())
    assert naming == ["conformance.py", "warnings.py"]


@pytest.mark.django_db
def test_the_control_room_says_a_notice_in_the_screens_words(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    """Pairing while a postponed game has no result: the level-2 notice after the step, in the one wording."""
    t = make_tournament(6, system=System.SWISS, slug="pp", rounds_total=2)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    for game in rnd.games.order_by("board"):
        services.game_record_result(game=game, result="postponed" if game.board == 1 else "2-0")
    services.round_complete(round=rnd)
    response = chief.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                          {"step": "pair", "round": 2, "version": ""}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    notice = warnings.rows([Warning(Code.PAIRED_WITH_POSTPONED, {"round": 2})])[0]
    assert any(m.startswith(notice.line) for m in said), said
