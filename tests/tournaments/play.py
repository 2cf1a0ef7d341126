"""Playing rounds in tests: pair, publish, record results and complete, all through the services.

Plain functions, imported by the tests that need them (`from tests.tournaments.play import play_round`);
the fixtures stay in conftest.py, which pytest loads by itself and no test imports.
"""

from __future__ import annotations

from tournaments.models import Tournament
from tournaments.rounds import services


def play_round(tournament: Tournament, results: dict[int, str] | None = None, complete: bool = True):  # type: ignore[no-untyped-def]
    """Pair, publish and fill the next round: results by board, default a draw (bye for a bye)."""
    rnd = services.round_pair(tournament=tournament)
    services.round_publish(round=rnd)
    for game in rnd.games.all():
        if game.result:
            continue
        default = "bye" if game.black_id is None else "1-1"
        services.game_record_result(game=game, result=(results or {}).get(game.board, default))
    if complete:
        services.round_complete(round=rnd)
    return rnd


def results_by_rating(rnd) -> dict[int, str]:  # type: ignore[no-untyped-def]
    """Higher rating wins, so scores spread and later rounds have real score groups."""
    out = {}
    for g in rnd.games.select_related("white__player", "black__player"):
        if g.black_id is None:
            continue
        out[g.board] = "2-0" if g.white.player.rating > g.black.player.rating else "0-2"
    return out


def play_swiss_round(t):  # type: ignore[no-untyped-def]
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    for g in rnd.games.all():
        if not g.result:
            services.game_record_result(game=g, result=results_by_rating(rnd)[g.board])
    services.round_complete(round=rnd)
    return rnd
