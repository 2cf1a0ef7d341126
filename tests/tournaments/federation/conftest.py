"""Two finished tournaments for the report to the federation, built through the services with results set so
the final order is known: a 10-player round robin and a 30-player Swiss with a forfeit, a double forfeit, a
requested bye worth a draw, pairing-allocated byes, a withdrawal after round 3, a game marked "not rated",
an arbiter's ruling and a result corrected for the rating report only."""

from __future__ import annotations

import datetime

import pytest

from tournaments.models import Player, System, Tournament
from tournaments.players import requested_byes, roster
from tournaments.rounds import corrections, services


def _players(n: int, base: int, *, titles: dict[int, str] | None = None,
             names: dict[int, tuple[str, str]] | None = None, national: bool = False) -> list[Player]:
    """Player i (1..n): rating 2400 - 10 i, FMJD id base + i, federation FRA (odd) or NED (even)."""
    out = []
    for i in range(1, n + 1):
        surname, given = (names or {}).get(i, (f"Player{i:02d}", "Test"))
        out.append(Player.objects.create(
            surname=surname, given_name=given, rating=2400 - 10 * i, fmjd_id=base + i,
            national_rating=(2000 - 10 * i) if national else None,
            federation="FRA" if i % 2 else "NED", title=(titles or {}).get(i, "")))
    return out


def _tournament(slug: str, system: str, players: list[Player], **kwargs: object) -> Tournament:
    from django.contrib.auth import get_user_model

    chief = get_user_model().objects.create_user(f"chief-{slug}", password="pw-chief-123", is_staff=True,
                                                 first_name="Anna", last_name="Arbiter")
    t = Tournament.objects.create(name=f"Open {slug}", slug=slug, system=system, chief_arbiter=chief,
                                  venue="Lille", start_date=datetime.date(2026, 11, 20),
                                  end_date=datetime.date(2026, 11, 22), time_control="80 min + 1 min/move",
                                  public=True, **kwargs)
    for p in players:
        roster.entry_add(tournament=t, player=p)
    return t


def _play(t: Tournament, results: dict[int, str]) -> None:
    """Pair, publish, record: a result by board where given; else the higher-rated player wins."""
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    for g in rnd.games.select_related("white", "black"):
        if g.result:
            continue
        if g.black_id is None:
            services.game_record_result(game=g, result="bye")
            continue
        default = "2-0" if (g.white.rating or 0) > (g.black.rating or 0) else "0-2"
        services.game_record_result(game=g, result=results.get(g.board, default))
    services.round_complete(round=rnd)


@pytest.fixture
def round_robin10(db: None) -> Tournament:
    """Ten players, one cycle (9 rounds), pairing numbers kept as entered (by rating); the higher-rated player
    wins every game, so player i ends with 2 (10 - i) points, in place i."""
    players = _players(10, 10000, titles={1: "GMI", 2: "MI", 3: "MF"}, national=True)
    t = _tournament("rr10", System.ROUND_ROBIN, players)
    roster.entries_keep_numbers(tournament=t)
    for _ in range(9):
        _play(t, {})
    return t


@pytest.fixture
def swiss30(db: None) -> Tournament:
    players = _players(30, 20000, titles={1: "GMI", 2: "GMIF", 3: "MI", 5: "MF"},
                       names={4: ("Dupont; Durand", 'Jean "Jeannot"'), 6: ("=cmd", "Eve")})
    t = _tournament("swiss30", System.SWISS, players, rounds_total=5)
    by_number = {e.player.fmjd_id - 20000: e for e in t.entries.select_related("player")}
    # round 1: board 3 a forfeit (Black absent), board 5 a double forfeit, board 7 a game marked "not rated"
    _play(t, {3: "2F-0F", 5: "0F-0F", 7: "1-1U"})
    # round 2: player 12 asked for a bye worth a draw; 29 are paired, so one has the pairing's bye
    requested_byes.bye_request(entry=by_number[12], round_number=2, points=1)
    _play(t, {2: "1-0"})  # board 2: the arbiter's ruling, White a draw's points, Black none
    _play(t, {})
    # after round 3 player 20 withdraws: 29 left, a pairing bye in rounds 4 and 5
    roster.entry_withdraw(entry=by_number[20], after_round=3)
    _play(t, {})
    # round 1 board 1 was found to be a draw for the rating report only (C.04.2 4.3), once later rounds stand
    g = t.rounds.get(number=1).games.get(board=1)
    corrections.game_record_rating_result(game=g, result="1-1", confirmed={"rating-correction"})
    _play(t, {})
    return t
