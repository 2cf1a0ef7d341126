"""Leaving the hand-pairing phase without validating: the engine's pairing comes back, nothing is recorded."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.rounds.test_manual_pairing import pairing_of, rematch_pairing, six  # noqa: F401  (six: a fixture)
from tournaments.errors import DomainError
from tournaments.models import Round
from tournaments.rounds import manual_pairing as mp
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def test_opened_only_to_look_the_phase_can_be_left(six, arbiter) -> None:  # noqa: F811
    t, _first, rnd = six
    engine = pairing_of(rnd)
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    rnd = mp.manual_edit_stop(round=rnd, expected_version=rnd.version, user=arbiter)
    assert not mp.is_editing(rnd) and pairing_of(rnd) == engine and not t.conformance_events.exists()
    assert services.round_publish(round=rnd).status == "published"
    history = [h.history_change_reason for h in rnd.history.order_by("history_date")]
    assert "manual pairing stopped: the engine's pairing kept" in history


def test_stopping_after_a_change_puts_the_engines_pairing_back(six, arbiter) -> None:  # noqa: F811
    t, first, rnd = six
    engine = pairing_of(rnd)
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    boards, _ = rematch_pairing(t, first, rnd)
    rnd = mp.manual_edit_save(round=rnd, boards=boards, confirmed=["rematch"], user=arbiter)
    assert pairing_of(rnd) != engine
    rnd = mp.manual_edit_stop(round=rnd, user=arbiter)
    assert pairing_of(rnd) == engine and not mp.is_editing(rnd) and not t.conformance_events.exists()


def test_a_stale_page_or_a_closed_phase_cannot_stop(six, arbiter) -> None:  # noqa: F811
    _t, _first, rnd = six
    with pytest.raises(DomainError, match="not being edited"):
        mp.manual_edit_stop(round=rnd, user=arbiter)
    version = Round.objects.get(pk=rnd.pk).version
    rnd = mp.manual_edit_start(round=rnd, expected_version=version, user=arbiter)
    with pytest.raises(DomainError):
        mp.manual_edit_stop(round=rnd, expected_version=version, user=arbiter)  # read before the start
    assert mp.is_editing(Round.objects.get(pk=rnd.pk))


def test_the_page_offers_the_way_out(six, arbiter, chief) -> None:  # noqa: F811
    _t, _first, rnd = six
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    url = reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    page = chief.get(url).content.decode()
    assert 'value="stop"' in page and "Stop editing, keep the engine" in page
    response = chief.post(url, {"action": "stop", "version": str(Round.objects.get(pk=rnd.pk).version)})
    assert response.status_code == 302 and not mp.is_editing(Round.objects.get(pk=rnd.pk))
