"""An arbiter sees only his own tournaments and colleagues; one rule for every arbiter view."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.rounds import services

User = get_user_model()


@pytest.fixture
def world(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    mine = make_tournament(4, slug="mine")
    services.round_pair(tournament=mine)
    stranger = User.objects.create_user("stranger-login", first_name="Sam", last_name="Stranger", is_staff=True)
    secret = make_tournament(2, slug="secret")
    Tournament.objects.filter(pk=secret.pk).update(name="Secret Open", chief_arbiter=stranger)
    services.round_pair(tournament=secret)
    deputy = User.objects.create_user("deputy-login", first_name="Dana", last_name="Deputy", is_staff=True)
    mine.deputy_arbiters.add(deputy)
    client = Client()
    client.force_login(arbiter)
    return mine, client


@pytest.mark.parametrize("model", ["entry", "round", "game"])
def test_list_filters_show_only_my_tournaments(world, model: str) -> None:  # type: ignore[no-untyped-def]
    _, client = world
    page = client.get(reverse(f"admin:tournaments_{model}_changelist")).content.decode()
    assert "Test mine" in page
    assert "Secret Open" not in page


def test_the_tournament_form_lists_only_my_colleagues(world) -> None:  # type: ignore[no-untyped-def]
    mine, client = world
    for url in (reverse("admin:tournaments_tournament_change", args=[mine.pk]),
                reverse("admin:tournaments_tournament_add")):
        page = client.get(url).content.decode()
        assert "deputy-login" in page or "Dana" in page, url
        assert "stranger-login" not in page, url


def test_the_entry_form_offers_only_my_tournaments(world) -> None:  # type: ignore[no-untyped-def]
    _, client = world
    page = client.get(reverse("admin:tournaments_entry_add")).content.decode()
    assert "Test mine" in page and "Secret Open" not in page


def test_the_public_page_names_arbiters_by_full_name_never_login(world, arbiter) -> None:  # type: ignore[no-untyped-def]
    mine, _ = world
    page = Client().get(reverse("tournaments:tournament", args=[mine.slug])).content.decode()
    assert "Dana Deputy" in page
    assert "deputy-login" not in page and arbiter.username not in page.split("<main", 1)[-1]


def test_scoresheets_follow_the_rule_of_every_arbiter_view(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    services.round_pair(tournament=t)
    # Named deputy, but no longer staff (an account taken away from the admin): no arbiter view at all.
    former = User.objects.create_user("former", is_staff=False)
    t.deputy_arbiters.add(former)
    client = Client()
    client.force_login(former)
    url = reverse("tournaments:scoresheets_pdf", args=[t.slug, 1])
    assert client.get(url).status_code == 403
    assert client.get(reverse("admin:tournaments_round_changelist")).status_code == 302  # the admin agrees
