"""A small league for the outputs' tests, built through the services as the arbiter builds it: four teams of
two boards, home and away, two match points deducted for a forfeited match, ranked on match points, board
points, the mutual match and Sonneborn-Berger for teams. Not a test module.

The Berger schedule of four teams, home team first: round 1 Club 1-Club 4, Club 2-Club 3; round 2 Club 4-
Club 3, Club 1-Club 2; round 3 Club 2-Club 4, Club 3-Club 1; round 4 Club 4-Club 1, Club 3-Club 2 (then 5
and 6, not played here). Home White on board 1, the away team White on board 2.

- Round 1: Club 1-Club 4: board 1 2-0; Club 4 leaves board 2 unfilled (a board forfeit: Club 1's player wins
  it). 4-0. Club 2-Club 3: board 1 1-1, board 2 2-0 (Club 3 White wins). 1-3.
- Round 2: Club 4-Club 3: Club 3 does not come (a whole-match forfeit): 4-0, and 2 match points off Club 3.
  Club 1-Club 2: board 1 0-2, board 2 0-2 (Club 1 Black wins). 2-2.
- Round 3: Club 2-Club 4: 2-0, 1-1: 3-1. Club 3-Club 1: 1-1, 1-1: 2-2.
- Round 4, being played: Club 4-Club 1: board 1 2-0 (Club 4 White wins), board 2 still playing; Club 3-
  Club 2: nothing in yet.
"""

from __future__ import annotations

from typing import Any

from tests.tournaments.competitions.factory import competition, roster
from tournaments.competitions import lineups
from tournaments.models import Game, Match, MatchForfeit, TeamCompetition, Tournament
from tournaments.rounds import services as round_services

RESULTS: dict[tuple[int, int], list[str]] = {
    (1, 1): ["2-0"], (1, 2): ["1-1", "2-0"],
    (2, 2): ["0-2", "0-2"],
    (3, 1): ["2-0", "1-1"], (3, 2): ["1-1", "1-1"],
    (4, 1): ["2-0"],
}


def match(comp: TeamCompetition, number: int, table: int) -> Match:
    return Match.objects.select_related("home", "away").get(competition=comp, round_number=number, table=table)


def league(slug: str = "outputs", **rules: Any) -> TeamCompetition:
    from tournaments.competitions import setup

    comp = competition(teams=4, boards=2, slug=slug, home_and_away=True, forfeit_deduction=2,
                       order=["match_points", "board_points", "mutual", "sb_teams"], **rules)
    Tournament.objects.filter(pk=comp.tournament_id).update(public=True, venue="Huizum", time_control="90' + 30\"")
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    for number in (1, 2, 3, 4):
        for m in Match.objects.filter(competition=comp, round_number=number).select_related("home", "away"):
            if (number, m.table) == (2, 1):
                lineups.match_forfeit_set(match=m, forfeit=MatchForfeit.AWAY)
                continue
            for side, team in (("home", m.home), ("away", m.away)):
                m.refresh_from_db()
                players: list[Any] = roster(team)[:2]
                if (number, m.table, side) == (1, 1, "away"):
                    players[1] = None  # Club 4 leaves board 2 unfilled
                lineups.lineup_set(match=m, side=side, entries=players)
        lineups.round_publish(competition=comp, number=number)
        for (n, table), results in RESULTS.items():
            if n != number:
                continue
            m = match(comp, n, table)
            for board, result in enumerate(results, start=1):
                game = Game.objects.filter(match_board__match=m, match_board__number=board).first()
                if game is not None:
                    round_services.game_record_result(game=game, result=result)
    comp.refresh_from_db()
    return comp
