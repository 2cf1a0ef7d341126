"""The Swiss round in the admin: the arbiter's manual override (flagged by the checker) and the TRF export."""

from __future__ import annotations

import itertools

from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tournaments.models import Game
from tournaments.rounds import services


def test_manual_override_is_saved_and_flagged(swiss9, arbiter) -> None:
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    first_round = {frozenset((g.white_id, g.black_id)) for g in Game.objects.filter(round__number=1,
                                                                                     round__tournament=swiss9)}
    # Swap the black players of boards 1 and 2 so that board 1 becomes a rematch of round 1 if possible.
    games = list(rnd.games.filter(black__isnull=False).order_by("board"))
    rematch = next(((g1, g2) for g1, g2 in itertools.permutations(games, 2)
                    if frozenset((g1.white_id, g2.black_id)) in first_round), None)
    g1, g2 = rematch if rematch else (games[0], games[1])
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    ordered = list(rnd.games.order_by("board"))
    data = {"date": "", "games-TOTAL_FORMS": str(len(ordered)), "games-INITIAL_FORMS": str(len(ordered)),
            "games-MIN_NUM_FORMS": "0", "games-MAX_NUM_FORMS": "1000", "_continue": "1"}
    for i, g in enumerate(ordered):
        white, black = g.white_id, g.black_id
        if g.pk == g1.pk:
            black = g2.black_id
        elif g.pk == g2.pk:
            black = g1.black_id
        data.update({f"games-{i}-id": str(g.pk), f"games-{i}-round": str(rnd.pk),
                     f"games-{i}-white": str(white), f"games-{i}-black": str(black or ""),
                     f"games-{i}-result": g.result, f"games-{i}-loaded_version": str(g.version)})
    response = client.post(url, data, follow=True)
    text = response.content.decode()
    assert response.status_code == 200
    assert Game.objects.get(pk=g1.pk).black_id == g2.black_id
    assert "differs from the engine&#x27;s pairing" in text or "differs from the engine's pairing" in text
    if rematch:
        assert "Rematch: " in text


def test_trf_export_action_in_the_admin(swiss9, arbiter) -> None:
    play_swiss_round(swiss9)
    client = Client()
    client.force_login(arbiter)
    response = client.post(reverse("admin:tournaments_tournament_changelist"),
                           {"action": "export_trf", "_selected_action": [swiss9.pk]})
    assert response["Content-Disposition"] == 'attachment; filename="swiss9.trf"'
    assert "XXR 5" in response.content.decode()
