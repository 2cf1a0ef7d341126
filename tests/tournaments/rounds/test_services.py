"""Services: the arbiter's writes, their rules and their error messages."""

from __future__ import annotations

import pytest
from django.db.models import Q

from tests.tournaments.play import play_round
from tournaments import selectors
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Game, RoundStatus, System
from tournaments.players import roster
from tournaments.results import Result
from tournaments.rounds import services


def test_round_robin_pairs_every_round_from_berger_tables(make_tournament) -> None:
    t = make_tournament(4)
    seen = set()
    for _ in range(3):
        rnd = play_round(t)
        for g in rnd.games.all():
            seen.add(frozenset({g.white.pairing_number, g.black.pairing_number}))
    assert len(seen) == 6  # everyone met everyone once
    with pytest.raises(DomainError, match="all 3 rounds are paired"):
        services.round_pair(tournament=t)


def test_odd_round_robin_gives_the_free_round_as_a_bye_without_points(make_tournament) -> None:
    t = make_tournament(5)
    rnd = services.round_pair(tournament=t)
    byes = [g for g in rnd.games.all() if g.black_id is None]
    assert len(byes) == 1 and byes[0].result == Result.BYE
    assert selectors.rounds_total(t) == 5


def test_double_round_robin_reverses_colours_in_the_second_cycle(make_tournament) -> None:
    t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug="drr")
    first = {}
    for number in range(1, 7):
        rnd = play_round(t)
        for g in rnd.games.all():
            pair = frozenset({g.white_id, g.black_id})
            if number <= 3:
                first[pair] = g.white_id
            else:
                assert first[pair] == g.black_id
    assert selectors.rounds_total(t) == 6


def test_pairing_before_the_previous_round_is_complete_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    services.game_record_result(game=rnd.games.get(board=1), result="2-0")
    with pytest.raises(DomainError, match=r"Round 1 is not completed \(no result yet on board 2\)"):
        services.round_pair(tournament=t)
    assert t.rounds.count() == 1


def test_result_for_a_completed_round_without_a_reason_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    game = rnd.games.get(board=1)
    with pytest.raises(DomainError, match="Round 1 is completed: give the reason for correcting the result of "
                                          "board 1"):
        services.game_record_result(game=game, result="2-0")
    game.refresh_from_db()
    assert game.result == "1-1"


def test_result_for_a_draft_round_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    with pytest.raises(DomainError, match="publish it before entering results"):
        services.game_record_result(game=rnd.games.first(), result="2-0")


def test_reopen_then_correct_then_complete(make_tournament) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    services.round_reopen(round=rnd)
    services.game_record_result(game=rnd.games.get(board=1), result="0-2")
    services.round_complete(round=rnd)
    assert rnd.games.get(board=1).result == "0-2"
    play_round(t)
    with pytest.raises(DomainError, match="round 2 is already paired"):
        services.round_reopen(round=rnd)


def test_a_player_entered_twice_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    player = t.entries.first().player
    with pytest.raises(DomainError, match="already entered"):
        roster.entry_add(tournament=t, player=player)
    assert t.entries.count() == 4


def test_unknown_result_and_bye_result_on_a_two_player_game_are_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    game = rnd.games.get(board=1)
    with pytest.raises(DomainError, match="Unknown result “3-0”"):
        services.game_record_result(game=game, result="3-0")
    with pytest.raises(DomainError, match="not a result for a game between two players"):
        services.game_record_result(game=game, result="bye")


@pytest.mark.parametrize(
    ("result", "white_points", "black_points"),
    [("2-0", 2, 0), ("1-1", 1, 1), ("0-2", 0, 2), ("2F-0F", 2, 0), ("0F-2F", 0, 2), ("0F-0F", 0, 0)],
)
def test_scoring_of_every_result_kind_reaches_the_standings(make_tournament, result, white_points,
                                                            black_points) -> None:
    t = make_tournament(2, slug=f"s{result.replace('-', '')}")
    rnd = play_round(t, {1: result})
    game = rnd.games.get()
    points = {row.player.id: row.points for row in selectors.standings(t)}
    assert points[game.white_id] == white_points
    assert points[game.black_id] == black_points


def test_stale_save_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    game = rnd.games.get(board=1)
    loaded_version = game.version
    services.game_record_result(game=game, result="2-0", expected_version=loaded_version)
    with pytest.raises(StaleEditError, match="changed by someone else"):
        services.game_record_result(game=game, result="0-2", expected_version=loaded_version)
    game.refresh_from_db()
    assert game.result == "2-0"


def test_withdrawal_marks_later_paired_games_not_played(make_tournament) -> None:
    t = make_tournament(4)
    play_round(t)
    entry = t.entries.get(pairing_number=1)
    roster.entry_withdraw(entry=entry, after_round=1)
    rnd2 = services.round_pair(tournament=t)
    game = Game.objects.get(round=rnd2, white=entry) if Game.objects.filter(round=rnd2, white=entry).exists() \
        else Game.objects.get(round=rnd2, black=entry)
    assert game.result == Result.NOT_PLAYED
    entry.refresh_from_db()
    assert entry.is_withdrawn and entry.withdrawn_after_round == 1
    with pytest.raises(DomainError, match="already withdrew"):
        roster.entry_withdraw(entry=entry)


def test_withdrawal_keeps_a_forfeit_already_entered_in_a_later_round(make_tournament) -> None:
    """He did not come to round 2 (his opponent's 2F-0F is entered), then the arbiter withdraws him after round
    1: the forfeit stands, and only a board with no result yet becomes 'not played'."""
    t = make_tournament(6)
    play_round(t)
    rnd2 = services.round_pair(tournament=t)
    services.round_publish(round=rnd2)
    entry = t.entries.get(pairing_number=1)
    game = Game.objects.get(Q(white=entry) | Q(black=entry), round=rnd2)
    forfeit = "0F-2F" if game.white_id == entry.pk else "2F-0F"
    services.game_record_result(game=game, result=forfeit)
    roster.entry_withdraw(entry=entry, after_round=1)
    game.refresh_from_db()
    assert game.result == forfeit
    assert Entry.objects.get(pk=entry.pk).is_withdrawn


def test_withdrawal_before_a_played_result_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    play_round(t, {1: "2-0", 2: "0-2"})
    entry = t.entries.get(pairing_number=1)
    with pytest.raises(DomainError, match="result over the board in round 1"):
        roster.entry_withdraw(entry=entry, after_round=0)
    assert not Entry.objects.get(pk=entry.pk).is_withdrawn


def test_round_status_goes_draft_published_completed(make_tournament) -> None:
    t = make_tournament(2)
    rnd = services.round_pair(tournament=t)
    assert rnd.status == RoundStatus.DRAFT
    with pytest.raises(DomainError, match="only a published round"):
        services.round_complete(round=rnd)
    rnd = services.round_publish(round=rnd)
    with pytest.raises(DomainError, match="cannot be completed: no result on board 1"):
        services.round_complete(round=rnd)
    services.game_record_result(game=rnd.games.get(), result="1-1")
    assert services.round_complete(round=rnd).status == RoundStatus.COMPLETED


def test_number_by_rating_orders_entries(make_tournament) -> None:
    t = make_tournament(4)
    e = t.entries.get(pairing_number=4)
    e.rating = 2900  # the rating the tournament holds
    e.save(update_fields=["rating"])  # a service's field, set here directly
    roster.entries_number_by_rating(tournament=t)
    assert t.entries.get(pairing_number=1).player == e.player
