"""A hand-edited round records each breach and each difference from the engine once, however many times its
pairing is opened and validated again (the record is of the round's final pairing, not of each click)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.rounds.test_manual_pairing import rematch_pairing, six  # noqa: F401  (the fixture)
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.rounds import manual_pairing as mp

pytestmark = pytest.mark.django_db


def _counts(t) -> Counter[str]:  # type: ignore[no-untyped-def]
    return Counter(t.conformance_events.values_list("code", flat=True))


def _validated_with_a_rematch(t, first, rnd, arbiter):  # type: ignore[no-untyped-def]
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    boards, _pair = rematch_pairing(t, first, rnd)
    rnd = mp.manual_edit_save(round=rnd, boards=boards, confirmed=["rematch"], user=arbiter)
    mp.manual_edit_validate(round=rnd, confirmed=["manual-pairing"], user=arbiter)
    return boards


def test_opening_and_validating_the_same_pairing_again_records_nothing_twice(six, arbiter) -> None:  # noqa: F811
    t, first, rnd = six
    _validated_with_a_rematch(t, first, rnd, arbiter)
    assert _counts(t) == {"rematch": 1, "manual-pairing": 1}
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    # The arbiter ticks whatever is asked; the breach and the difference are the ones already on record.
    result = mp.manual_edit_validate(round=rnd, confirmed=["rematch", "manual-pairing"], user=arbiter)
    assert result.comparison.differs and result.recorded == []
    assert _counts(t) == {"rematch": 1, "manual-pairing": 1}
    assert sum(line.startswith("### rematch") for line in events.trf_lines(t)) == 1


def test_a_new_difference_is_recorded_and_the_old_breach_is_not(six, arbiter) -> None:  # noqa: F811
    t, first, rnd = six
    boards = _validated_with_a_rematch(t, first, rnd, arbiter)
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    swapped = [boards[0], (boards[1][1], boards[1][0]), boards[2]]
    try:
        rnd = mp.manual_edit_save(round=rnd, boards=swapped, user=arbiter)
    except events.NeedsConfirmation as exc:
        keys = getattr(exc, "keys", [])
        assert not any(k.startswith("rematch") for k in keys)  # confirmed for this round already
        rnd = mp.manual_edit_save(round=rnd, boards=swapped, confirmed=keys, user=arbiter)
    with pytest.raises(events.NeedsConfirmation) as asked:  # only what is new is asked
        mp.manual_edit_validate(round=rnd, user=arbiter)
    assert Code.REMATCH not in [w.code for w in asked.value.warnings]
    mp.manual_edit_validate(round=rnd, confirmed=[str(w.code) for w in asked.value.warnings], user=arbiter)
    counts = _counts(t)
    assert counts["rematch"] == 1 and counts["manual-pairing"] == 2  # the new pairing differs in a new way


def test_validating_the_same_pairing_again_asks_nothing(six, arbiter) -> None:  # noqa: F811
    t, first, rnd = six
    _validated_with_a_rematch(t, first, rnd, arbiter)
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    assert mp.manual_edit_validate(round=rnd, user=arbiter).recorded == []
