"""A tournament without tie-breaks is offered its system's preset; once a round is paired, saving its page for
another reason keeps the empty list (no level-4 warning the arbiter did not ask for). Picking a preset by its
name is still a change of tie-breaks under way, asked at level 4."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tests.tournaments.test_permissions import scrape_form
from tournaments.models import ConformanceEvent, System, Tournament
from tournaments.standings import default_preset

pytestmark = pytest.mark.django_db


def test_saving_the_page_keeps_no_tie_breaks_and_asks_nothing(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="np", rounds_total=5)
    play_swiss_round(t)
    chief = Client()
    chief.force_login(arbiter)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    response = chief.post(url, scrape_form(chief, url, venue="Hall B"))
    assert response.status_code == 302, response.content.decode()[:300]
    t = Tournament.objects.get(pk=t.pk)
    assert t.venue == "Hall B" and t.tiebreaks == [] and t.in_conformance
    assert not ConformanceEvent.objects.exists()
    preset = default_preset(System.SWISS, "rating")
    response = chief.post(url, scrape_form(chief, url, tiebreaks_0=preset.key))
    assert response.status_code == 200 and "tiebreaks-changed" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).tiebreaks == []
