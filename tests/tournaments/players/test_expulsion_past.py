"""An expulsion never changes a result already given (competition rules 2.6, 5.7; VCL4THP Q189, Q191)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Game, Round, System, Tournament
from tournaments.players import roster
from tournaments.results import Result
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def _absent_in_rounds_2_to_4(make_tournament):  # type: ignore[no-untyped-def]
    """Six players, six rounds: round 1 drawn throughout; in rounds 2-4 player 6 is absent (his opponent wins
    2F-0F), every other game a draw; round 5 paired and published, no result yet."""
    t = make_tournament(6, system=System.SWISS, slug="absent", rounds_total=6)
    absent = t.entries.get(pairing_number=6)
    for _number in range(1, 5):
        rnd = services.round_pair(tournament=t)
        services.round_publish(round=rnd)
        for g in rnd.games.all():
            if g.result:
                continue
            if absent.pk in (g.white_id, g.black_id) and rnd.number > 1:
                result = Result.WHITE_FORFEIT_WIN if g.black_id == absent.pk else Result.BLACK_FORFEIT_WIN
            else:
                result = Result.DRAW
            services.game_record_result(game=g, result=result)
        services.round_complete(round=rnd)
    fifth = services.round_pair(tournament=t)
    services.round_publish(round=fifth)
    return t, absent, fifth


def _his_games(absent) -> dict[int, str]:  # type: ignore[no-untyped-def]
    return {g.round.number: g.result for g in Game.objects.filter(round__tournament=absent.tournament)
            .filter(white=absent).select_related("round")} | {
        g.round.number: g.result for g in Game.objects.filter(black=absent).select_related("round")}


def test_expelling_after_round_1_keeps_the_forfeit_wins_of_completed_rounds(make_tournament, arbiter) -> None:
    t, absent, fifth = _absent_in_rounds_2_to_4(make_tournament)
    before = _his_games(absent)
    assert {before[n] for n in (2, 3, 4)} <= {"2F-0F", "0F-2F"} and before[5] == ""
    roster.entry_expel(entry=absent, after_round=1, user=arbiter)
    after = _his_games(absent)
    assert {n: after[n] for n in (1, 2, 3, 4)} == {n: before[n] for n in (1, 2, 3, 4)}  # completed rounds stand
    assert after[5] == Result.NOT_PLAYED  # the game of the current round had no result: it will not be played
    t = Tournament.objects.get(pk=t.pk)
    assert t.in_conformance and not t.conformance_events.exists()  # nothing was corrected
    assert [r.status for r in Round.objects.filter(tournament=t, number__lt=5)] == ["completed"] * 4


def test_a_result_entered_in_the_current_round_stands_too(make_tournament) -> None:
    t, absent, fifth = _absent_in_rounds_2_to_4(make_tournament)
    game = fifth.games.get(white=absent) if fifth.games.filter(white=absent).exists() else fifth.games.get(black=absent)
    forfeit = Result.BLACK_FORFEIT_WIN if game.white_id == absent.pk else Result.WHITE_FORFEIT_WIN
    services.game_record_result(game=game, result=forfeit)
    roster.entry_expel(entry=absent, after_round=4)
    game.refresh_from_db()
    assert game.result == forfeit


def test_the_expel_action_says_the_results_that_stand_and_how_to_correct_one(make_tournament) -> None:
    t, absent, _fifth = _absent_in_rounds_2_to_4(make_tournament)
    root = Client()
    root.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    page = root.post(reverse("admin:tournaments_entry_changelist"),
                     {"action": "expel", "_selected_action": [str(absent.pk)], "after_round": "1", "apply": "1"},
                     follow=True)
    text = page.content.decode()
    assert "expelled after round 1" in text
    assert "his results of rounds 2, 3, 4 stand" in text and "correct it on its round" in text
    assert set(_his_games(absent).values()) >= {"2F-0F"} or set(_his_games(absent).values()) >= {"0F-2F"}
