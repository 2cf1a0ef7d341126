"""Corrections within the checklist: the current round freely, the previous round with a
confirmation and the next round re-checked, an older round only by leaving the mode or for the rating report
only (C.04.2 4.3), which pairing, standings and the public pages ignore."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.models import ConformanceEvent, Game, System, Tournament
from tournaments.rounds import corrections, pairing_bridge, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss8(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="c8", rounds_total=5)
    for _ in range(3):
        play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


def game_of(t: Tournament, number: int) -> Game:
    return Game.objects.filter(round__tournament=t, round__number=number).exclude(black=None).order_by("board")[0]


def flipped(result: str) -> str:
    return "0-2" if result == "2-0" else "2-0"


def test_the_current_round_is_corrected_freely(swiss8, arbiter) -> None:  # type: ignore[no-untyped-def]
    g = game_of(swiss8, 3)
    services.game_record_result(game=g, result=flipped(g.result), reason="wrong slip", user=arbiter)
    assert not ConformanceEvent.objects.exists()


def test_the_previous_round_asks_level_3_and_rechecks_the_next(swiss8, arbiter) -> None:  # type: ignore[no-untyped-def]
    services.round_pair(tournament=swiss8)  # round 4 paired (draft): round 3 is now the previous round
    g = game_of(swiss8, 3)
    old = g.result
    with pytest.raises(events.NeedsConfirmation) as asked:
        services.game_record_result(game=g, result=flipped(old), reason="wrong slip", user=arbiter)
    assert [w.code for w in asked.value.warnings] == [Code.PREVIOUS_ROUND_CORRECTED]
    g.refresh_from_db()
    assert g.result == old and not ConformanceEvent.objects.exists()
    services.game_record_result(game=g, result=flipped(old), reason="wrong slip", user=arbiter,
                                confirmed={"previous-round-corrected"})
    event = ConformanceEvent.objects.get()
    assert event.level == 3 and event.values["round"] == 3 and event.values["next"] == 4
    assert event.values["old"] == old and event.values["new"] == flipped(old)
    assert "broken" in event.values and event.values["differs"] in ("yes", "no")
    swiss8.refresh_from_db()
    assert swiss8.in_conformance


def test_an_older_round_leaves_the_mode(swiss8, arbiter) -> None:  # type: ignore[no-untyped-def]
    g = game_of(swiss8, 1)
    old = g.result
    with pytest.raises(events.NeedsConfirmation) as asked:
        services.game_record_result(game=g, result=flipped(old), reason="appeal", user=arbiter)
    assert [w.code for w in asked.value.warnings] == [Code.OLD_ROUND_CORRECTED]
    g.refresh_from_db()
    assert g.result == old
    services.game_record_result(game=g, result=flipped(old), reason="appeal", user=arbiter,
                                confirmed={"old-round-corrected"})
    swiss8.refresh_from_db()
    assert swiss8.conformance_left_round == 3
    assert ConformanceEvent.objects.get().code == Code.OLD_ROUND_CORRECTED


def test_a_correction_for_the_rating_report_only(swiss8, arbiter, client) -> None:  # type: ignore[no-untyped-def]
    g = game_of(swiss8, 1)
    played = g.result
    before = [(r.player.id, r.points) for r in selectors.standings(swiss8)]
    with pytest.raises(events.NeedsConfirmation) as asked:
        corrections.game_record_rating_result(game=g, result=flipped(played), user=arbiter)
    assert [w.code for w in asked.value.warnings] == [Code.RATING_CORRECTION]
    g.refresh_from_db()
    assert g.rating_result == ""
    corrections.game_record_rating_result(game=g, result=flipped(played), user=arbiter,
                                          confirmed={"rating-correction"})
    g.refresh_from_db()
    swiss8.refresh_from_db()
    assert g.result == played and g.rating_result == flipped(played)
    assert swiss8.in_conformance  # level 3: the tournament stays in the mode
    # pairing and standings keep the result as played
    assert [(r.player.id, r.points) for r in selectors.standings(swiss8)] == before
    request = pairing_bridge.pairing_request(swiss8, list(swiss8.entries.select_related("player")), 4)
    assert request.players  # built from `result`: unchanged histories
    # the TRF says it, the public round page does not show it
    trf = pairing_bridge.export_trf(swiss8)
    assert f"### rating-correction @ Round 3: board={g.board} new={flipped(played)} old={played} round=1" in trf
    page = client.get(reverse("tournaments:round", args=[swiss8.slug, 1])).content.decode()
    assert "rating report" not in page


def test_a_rating_correction_is_refused_in_the_current_round(swiss8) -> None:  # type: ignore[no-untyped-def]
    g = game_of(swiss8, 3)
    with pytest.raises(DomainError):
        corrections.game_record_rating_result(game=g, result=flipped(g.result), confirmed={"rating-correction"})
    assert not ConformanceEvent.objects.exists()
