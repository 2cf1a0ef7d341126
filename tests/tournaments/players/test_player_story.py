"""One screen for a player's whole story in a tournament: entry, rounds, byes, absences, withdrawal,
results, corrections and history."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tournaments.models import Player, System
from tournaments.players import requested_byes, roster
from tournaments.players.story import (
    BOARD_CHANGED,
    ENTERED,
    NOT_ENTERED,
    REQUESTED_BYE,
    RESULT_CORRECTED,
    WITHDRAWN,
    story,
)
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(make_tournament, arbiter):  # type: ignore[no-untyped-def]
    """A 6-player Swiss: round 1 played; a late entrant; a requested bye (+1) in round 2; a correction of
    round 1 after round 2 is paired; a withdrawal after round 2; round 3 paired."""
    t = make_tournament(6, system=System.SWISS, slug="story", rounds_total=5)
    first = play_swiss_round(t)
    late = roster.entry_add(tournament=t, player=Player.objects.create(surname="Laat", given_name="Kees",
                                                                          rating=1500))
    sitter = t.entries.get(pairing_number=2)
    requested_byes.bye_request(entry=sitter, round_number=2, points=1, user=arbiter)
    second = play_swiss_round(t)
    game = first.games.exclude(black=None).first()
    services.game_record_result(game=game, result="1-1", reason="score sheet misread", user=arbiter,
                                confirmed=["previous-round-corrected"])
    leaver = t.entries.get(pairing_number=3)
    leaver = roster.entry_withdraw(entry=leaver, after_round=2)
    services.round_pair(tournament=t)
    return t, late, t.entries.get(pk=sitter.pk), leaver, game, second


def test_every_round_is_told(season) -> None:  # type: ignore[no-untyped-def]
    t, late, sitter, leaver, game, _second = season
    told = story(late)
    assert [line.absence for line in told.rounds][:1] == [NOT_ENTERED]
    sat = next(line for line in story(sitter).rounds if line.number == 2)
    # the pairing gives the requested bye as his row of the round: worth a draw here
    assert sat.game is not None and sat.game.result is not None and sat.game.result.is_requested_bye
    assert sat.bye_points == 1 and sat.absence == ""
    requested_byes.bye_request(entry=sitter, round_number=5, points=2)
    ahead = story(sitter.__class__.objects.get(pk=sitter.pk))  # a bye for a round not paired yet
    assert ahead.byes_ahead == [(5, 2)] and REQUESTED_BYE not in [line.absence for line in ahead.rounds]
    gone = story(leaver).rounds
    assert gone[2].absence == WITHDRAWN and gone[2].status == "draft"
    corrected = game.white if game.white_id != leaver.pk else game.black
    changes = story(corrected).changes
    assert [(c.kind, c.round, c.fields[0][2], c.reason) for c in changes if c.kind == RESULT_CORRECTED] == [
        (RESULT_CORRECTED, 1, "1-1", "score sheet misread")], changes
    assert [c.kind for c in changes][0] == ENTERED
    assert not any(c.kind == BOARD_CHANGED for c in changes)  # the boards as paired are the rounds table's


def test_the_page_tells_it_and_only_to_the_tournaments_arbiters(season, chief) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model
    from django.test import Client

    t, late, sitter, leaver, _game, _second = season
    for entry, words in ((late, "Not entered yet (late entry)"), (leaver, "No longer plays"), (late, "Entered"),
                         (leaver, "Withdrawn after round 2."), (leaver, "Entry changed: status Active → Withdrawn")):
        page = chief.get(reverse("admin:tournaments_entry_story", args=[entry.pk])).content.decode()
        assert words in page
    requested_byes.bye_request(entry=sitter, round_number=4, points=0)
    assert "round 4 (+0)" in chief.get(reverse("admin:tournaments_entry_story", args=[sitter.pk])).content.decode()
    page = chief.get(reverse("admin:tournaments_entry_change", args=[sitter.pk])).content.decode()
    assert reverse("admin:tournaments_entry_story", args=[sitter.pk]) in page
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("other", is_staff=True))
    assert stranger.get(reverse("admin:tournaments_entry_story", args=[sitter.pk])).status_code in (403, 404)
    assert Client().get(reverse("admin:tournaments_entry_story", args=[sitter.pk])).status_code == 302
