"""The history an appeals committee needs (player changes, forbidden pairs, deleted rounds)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, ForbiddenPair, Player
from tournaments.rounds import services


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_a_change_of_an_entry_s_player_shows_in_the_game_history(published_round, make_players) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    game = rnd.games.select_related("white__player").get(board=1)
    old, new = game.white.player, make_players(1)[0]
    entry = Entry.objects.get(pk=game.white_id)
    entry.player = new  # whatever way it happened (a raw write, an old version): the history must say so
    models.Model.save(entry)  # around Entry.save, which refuses it (tournaments/locks.py)
    page = client.get(reverse("admin:tournaments_game_change", args=[game.pk])).content.decode()
    assert f"player: {old} → {new}" in page.replace("&#x27;", "'")


def test_players_and_forbidden_pairs_have_a_history(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    a, b = t.entries.order_by("pairing_number")[:2]
    pair = ForbiddenPair.objects.create(tournament=t, first=a, second=b, reason="brothers")
    pair.reason = "same club"
    pair.save()
    assert [h.reason for h in pair.history.order_by("history_date", "history_id")] == ["brothers", "same club"]
    player = a.player
    client = _client(arbiter)
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    from tests.tournaments.test_permissions import scrape_form
    assert client.post(url, scrape_form(client, url, rating=2001, _save="Save")).status_code == 302
    assert [h.rating for h in Player.history.filter(id=player.pk).order_by("history_date")][-1] == 2001  # type: ignore[attr-defined]
    assert Player.history.filter(id=player.pk).latest("history_date").history_user == arbiter  # type: ignore[attr-defined]


def test_the_player_history_page_answers(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2)
    player = t.entries.first().player
    response = _client(arbiter).get(reverse("admin:tournaments_player_history", args=[player.pk]))
    assert response.status_code == 200


def test_the_game_history_of_a_deleted_round_answers(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    game_id = rnd.games.first().pk
    services.round_delete_draft(round=rnd)
    su = get_user_model().objects.create_superuser("root", password="x")
    for user in (arbiter, su):  # the arbiter's permission check reads the deleted round too
        response = _client(user).get(reverse("admin:tournaments_game_history", args=[game_id]))
        assert response.status_code == 200, user
        assert "deleted" in response.content.decode()
    stranger = get_user_model().objects.create_user("stranger", is_staff=True)
    assert _client(stranger).get(reverse("admin:tournaments_game_history", args=[game_id])).status_code == 403
