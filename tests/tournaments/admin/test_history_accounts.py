"""A history page names only the accounts its reader may see: his own and his colleagues' (who arbitrate a
tournament with him); any other account is "another arbiter" or "an administrator", with no login name and no
link to the account (its id)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, Tournament
from tournaments.players import roster

pytestmark = pytest.mark.django_db


def _edit(player: Player, user, rating: int) -> None:  # type: ignore[no-untyped-def]
    player.rating = rating
    player._history_user = user  # type: ignore[attr-defined]
    player.save()


def test_the_player_history_page_hides_other_arbiters_accounts(make_tournament, arbiter) -> None:
    users = get_user_model().objects
    deputy = users.create_user("deputy-login", first_name="Dora", last_name="Deputy", is_staff=True)
    stranger = users.create_user("stranger-login", is_staff=True)
    root = users.create_superuser("root-login", email=None, password=None)
    t = make_tournament(2)
    t.deputy_arbiters.add(deputy)
    player = t.entries.first().player
    other = Tournament.objects.create(name="Elsewhere", slug="elsewhere", chief_arbiter=stranger,
                                      start_date=datetime.date(2026, 2, 1))
    roster.entry_add(tournament=other, player=player)
    _edit(player, stranger, 2301)
    _edit(player, root, 2302)
    _edit(player, deputy, 2303)
    chief = Client()
    chief.force_login(arbiter)
    page = chief.get(reverse("admin:tournaments_player_history", args=[player.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    for hidden in ("stranger-login", "root-login", f"/auth/user/{stranger.pk}/", f"/auth/user/{root.pk}/"):
        assert hidden not in body, hidden
    assert "another arbiter" in body and "an administrator" in body
    assert "Dora Deputy" in body  # a colleague is named
    admin = Client()
    admin.force_login(root)
    assert "stranger-login" in admin.get(reverse("admin:tournaments_player_history", args=[player.pk])).content.decode()
