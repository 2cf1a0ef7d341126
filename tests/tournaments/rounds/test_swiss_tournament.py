"""A Swiss tournament in the database, paired by the Dutch engine through the services and the admin."""

from __future__ import annotations

import dataclasses

import pytest

from tests.tournaments.play import play_round, play_swiss_round
from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.models import ForbiddenPair, Game, System
from tournaments.pairing import pair_dutch
from tournaments.pairing.trf import parse_trf, request_from_trf
from tournaments.players import roster
from tournaments.results import Result
from tournaments.rounds import pairing_bridge, services


def meetings(t) -> list[frozenset[int]]:  # type: ignore[no-untyped-def]
    return [frozenset({g.white_id, g.black_id}) for g in Game.objects.filter(round__tournament=t, black__isnull=False)]


def test_swiss_rounds_have_no_rematch_and_one_bye_each(swiss9) -> None:
    for _ in range(5):
        rnd = play_swiss_round(swiss9)
        assert rnd.games.count() == 5
        assert rnd.pairing_explanation.startswith(f"Round {rnd.number}: Dutch system")
    pairs = meetings(swiss9)
    assert len(pairs) == len(set(pairs)) == 20
    byes = list(Game.objects.filter(round__tournament=swiss9, result=Result.BYE).values_list("white_id", flat=True))
    assert len(byes) == len(set(byes)) == 5
    with pytest.raises(DomainError, match="all 5 rounds are paired"):
        services.round_pair(tournament=swiss9)


def test_first_round_pairs_top_half_against_bottom_half(swiss9) -> None:
    rnd = services.round_pair(tournament=swiss9)
    numbers = sorted(
        tuple(sorted((g.white.pairing_number, g.black.pairing_number)))
        for g in rnd.games.select_related("white", "black") if g.black_id
    )
    assert numbers == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert rnd.games.get(black__isnull=True).white.pairing_number == 9


def test_withdrawn_player_is_not_paired_and_excused_player_gets_a_zero_bye(swiss9) -> None:
    play_swiss_round(swiss9)
    gone = swiss9.entries.get(pairing_number=2)
    roster.entry_withdraw(entry=gone, after_round=1)
    resting = swiss9.entries.get(pairing_number=3)
    resting.excused_rounds = [2]
    resting.save()
    rnd = services.round_pair(tournament=swiss9)
    in_round = {g.white_id for g in rnd.games.all()} | {g.black_id for g in rnd.games.all() if g.black_id}
    assert gone.pk not in in_round
    assert rnd.games.get(white=resting).result == Result.EXCUSED
    assert rnd.games.filter(black__isnull=False).count() == 3  # 9 - withdrawn - excused = 7: 3 boards and a bye
    assert rnd.games.filter(result=Result.BYE).count() == 1


def test_forbidden_pair_never_meets(make_tournament) -> None:
    t = make_tournament(8, system=System.SWISS, slug="forbid", rounds_total=4)
    a, b = t.entries.get(pairing_number=1), t.entries.get(pairing_number=5)
    ForbiddenPair.objects.create(tournament=t, first=a, second=b, reason="same club")
    for _ in range(4):
        play_swiss_round(t)
    assert frozenset({a.pk, b.pk}) not in meetings(t)


def test_trf_export_gives_the_same_next_round_to_the_engine(swiss9) -> None:
    for _ in range(3):
        play_swiss_round(swiss9)
    text = pairing_bridge.export_trf(swiss9)
    request = request_from_trf(parse_trf(text), 4)
    expected = pair_dutch(request)
    rnd = services.round_pair(tournament=swiss9)
    ours = {(g.white.pairing_number, g.black.pairing_number) for g in rnd.games.select_related("white", "black")
            if g.black_id}
    assert ours == {(b.white, b.black) for b in expected.boards}


def test_standing_order_pairs_too(make_tournament) -> None:
    """FMJD "Swiss Solkoff": within a score group the standing decides, not the rating. The engine is given
    the standings table's order after the previous round, and at least one round pairs otherwise than the
    rating order would: a wrong order (by rating, reversed, stale) fails here."""
    t = make_tournament(10, system=System.SWISS, slug="solkoff", rounds_total=4, swiss_order="standing",
                        tiebreaks=["solkoff"])
    rating_would_differ = False
    for number in range(1, 5):
        entries = list(t.entries.select_related("player"))
        request = pairing_bridge.pairing_request(t, entries, number)
        number_of = {e.pk: e.pairing_number for e in entries}
        table = [number_of[row.player.id] for row in selectors.standings(t, after_round=number - 1)]
        assert request.order == "standing"
        assert [p.id for p in sorted(request.players, key=lambda p: p.standing_key)] == table
        expected = {(b.white, b.black) for b in pair_dutch(request).boards}
        by_rating = {(b.white, b.black) for b in pair_dutch(dataclasses.replace(request, order="rating")).boards}
        rating_would_differ |= expected != by_rating
        rnd = services.round_pair(tournament=t)
        services.round_publish(round=rnd)
        for g in rnd.games.select_related("white__player", "black__player").filter(black__isnull=False):
            # Upsets on even boards: the standing (score, then Solkoff) parts from the rating order.
            higher_wins = g.white.player.rating > g.black.player.rating
            services.game_record_result(game=g, result="2-0" if higher_wins == (g.board % 2 == 1) else "0-2")
        services.round_complete(round=rnd)
        assert {(g.white.pairing_number, g.black.pairing_number)
                for g in rnd.games.select_related("white", "black") if g.black_id} == expected
    assert rating_would_differ, "the results chosen never make the standing order matter"
    pairs = meetings(t)
    assert len(pairs) == len(set(pairs)) == 20


def test_a_round_needs_every_previous_result(swiss9) -> None:
    play_round(swiss9)
    game = Game.objects.filter(round__tournament=swiss9, black__isnull=False).first()
    Game.objects.filter(pk=game.pk).update(result="")  # a gap that the services never leave
    with pytest.raises(DomainError, match="has no result"):
        pairing_bridge.pair_next_round(swiss9, list(swiss9.entries.select_related("player")), 2)


def test_manual_override_refuses_a_player_twice(swiss9) -> None:
    rnd = services.round_pair(tournament=swiss9)
    g1, g2 = rnd.games.filter(black__isnull=False).order_by("board")[:2]
    with pytest.raises(DomainError, match="would play on boards 1 and 2"):
        services.round_set_boards(round=rnd, boards={2: (g2.white, g1.black)})
    services.round_publish(round=rnd)
    with pytest.raises(DomainError, match="only a draft round can be re-paired"):
        services.round_set_boards(round=rnd, boards={1: (g1.white, g2.black)})


def test_export_trf_command(swiss9, capsys) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    play_swiss_round(swiss9)
    call_command("export_trf", "swiss9")
    out = capsys.readouterr().out
    assert out.startswith("012 Test swiss9") and "XXR 5" in out
    assert len(parse_trf(out).players) == 9
    with pytest.raises(CommandError, match="No tournament with slug 'nope'"):
        call_command("export_trf", "nope")

