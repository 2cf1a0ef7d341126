"""The conformance foundation: confirmations are required, events are kept, level 4 leaves the mode for good."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.conformance import events
from tournaments.conformance.policy import LEVELS, Code, Level, Warning
from tournaments.conformance.words import describe, left_mode_text
from tournaments.models import System


def test_every_code_has_a_level_and_words() -> None:
    assert set(LEVELS) == set(Code)
    for code in Code:
        assert describe(Warning(code)) and "%(" not in describe(Warning(code))


def test_require_refuses_level_5_and_asks_for_3_and_4() -> None:
    with pytest.raises(events.Refused):
        events.require([Warning(Code.SYSTEM_CHANGED)], confirmed={"system-changed"})
    with pytest.raises(events.NeedsConfirmation) as exc:
        events.require([Warning(Code.ROUNDS_CHANGED, {"old": 7, "new": 9}), Warning(Code.LATE_ENTRY)])
    assert [w.code for w in exc.value.warnings] == [Code.ROUNDS_CHANGED]  # a notice needs no confirmation
    assert "from 7 to 9" in str(exc.value)
    events.require([Warning(Code.ROUNDS_CHANGED)], confirmed={"rounds-changed"})


@pytest.mark.django_db
def test_a_level_4_event_leaves_the_mode_for_good(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, rounds_total=5)
    assert t.in_conformance
    events.record(t, Code.NUMBERS_EXCHANGED, values={"first": 1, "second": 2})
    t.refresh_from_db()
    assert t.in_conformance
    events.record(t, Code.ROUNDS_CHANGED, values={"old": 5, "new": 4})
    events.record(t, Code.TIEBREAKS_CHANGED, values={"old": ["A"], "new": ["B"]})
    t.refresh_from_db()
    assert not t.in_conformance and t.conformance_left_round == 0
    assert [e.left_mode for e in t.conformance_events.all()] == [False, True, False]
    assert [e.level for e in t.conformance_events.all()] == [Level.CONFIRM, Level.LEAVE, Level.LEAVE]
    assert events.trf_lines(t) == [
        "### conformance mode left @ before Round 1",
        "### numbers-exchanged @ Round 0: first=1 second=2",
        "### rounds-changed @ Round 0: new=4 old=5",
        "### tiebreaks-changed @ Round 0: new=B old=A",
    ]


def test_words_follow_the_reader() -> None:
    with translation.override("fr"):
        assert "conformité" in left_mode_text(3)
