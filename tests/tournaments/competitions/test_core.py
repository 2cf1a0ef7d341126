"""A team competition through its services: the schedule, line-ups checked against the roster and the rules,
a round published as ordinary games with the colours per board, results by the round services, standings."""

from __future__ import annotations

import pytest

from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tournaments.competitions import lineups, selectors, setup
from tournaments.errors import DomainError
from tournaments.models import Game, LineupRule, Match, MatchForfeit, Player, RoundStatus
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def test_a_league_schedule_is_a_round_robin_with_home_teams() -> None:
    comp = competition(teams=4)
    setup.schedule_make(competition=comp)
    matches = list(Match.objects.filter(competition=comp))
    assert len(matches) == 6
    assert {frozenset((m.home.seed, m.away.seed)) for m in matches} == {
        frozenset((a, b)) for a in range(1, 5) for b in range(a + 1, 5)}
    comp.tournament.refresh_from_db()
    assert comp.tournament.rounds_total == 3 and comp.tournament.is_team


def test_a_published_round_makes_games_with_the_home_team_white_on_odd_boards() -> None:
    comp = competition(teams=4, boards=4)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    rnd = lineups.round_publish(competition=comp, number=1)
    assert rnd.status == RoundStatus.PUBLISHED
    match = Match.objects.get(competition=comp, round_number=1, table=2)
    home, away = roster(match.home), roster(match.away)
    games = {g.board: g for g in Game.objects.filter(round=rnd)}
    assert sorted(games) == list(range(1, 9))
    # match 2 holds the round's boards 5-8; board 1 of the match: home White, board 2: away White
    assert (games[5].white_id, games[5].black_id) == (home[0].pk, away[0].pk)
    assert (games[6].white_id, games[6].black_id) == (away[1].pk, home[1].pk)
    for board, result in zip(range(1, 9), ["2-0", "1-1", "0-2", "2-0", "2-0", "2-0", "1-1", "0F-2F"], strict=True):
        round_services.game_record_result(game=games[board], result=result)
    states = {s.match.table: s for s in selectors.match_states(comp, 1)}
    # match 1: board 1 home White wins (2-0), board 2 a draw, board 3 home White loses (0-2), board 4 away
    # White wins (2-0): home 2 + 1 + 0 + 0, away 0 + 1 + 2 + 2
    assert (states[1].score.home_board_points, states[1].score.away_board_points) == (3, 5)
    # match 2: board 5 home wins (2), board 6 White = away wins (0), board 7 draw (1), board 8 0F-2F:
    # White (away) absent, so home wins it by forfeit (2)
    assert (states[2].score.home_board_points, states[2].score.away_board_points) == (5, 3)
    rows = selectors.standings(comp)
    assert [r.match_points for r in rows] == [2, 2, 0, 0]


def test_a_line_up_is_refused_with_every_problem_named() -> None:
    comp = competition(teams=4, boards=4, lineup_rule=LineupRule.ROSTER_ORDER, licence_required=True)
    setup.schedule_make(competition=comp)
    match = Match.objects.filter(competition=comp, round_number=1).select_related("home", "away").first()
    home, away = roster(match.home), roster(match.away)
    stranger = setup.roster_add(team=match.away, player=Player.objects.create(given_name="No", surname="Licence"))
    with pytest.raises(DomainError) as refused:
        lineups.lineup_set(match=match, side="home", entries=[home[1], home[0], away[0], home[1]])
    text = str(refused.value)
    assert "Board 2:" in text and "roster order" in text
    assert "Board 3:" in text and "not on the team's roster" in text
    assert "Board 4:" in text and "already on board 1" in text
    with pytest.raises(DomainError, match="no licence number"):
        lineups.lineup_set(match=match, side="away", entries=[away[0], away[1], away[2], stranger.entry])
    assert not match.boards.exists()  # nothing half-written


def test_a_player_cannot_play_for_two_teams() -> None:
    comp = competition(teams=4, boards=2)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    first = Match.objects.get(competition=comp, round_number=1, table=1)
    player = roster(first.home)[0].player
    later = Match.objects.filter(competition=comp, round_number=2).exclude(home=first.home).exclude(
        away=first.home).first()
    setup.roster_add(team=later.home, player=player)
    with pytest.raises(DomainError, match="one team only"):
        lineups.lineup_set(match=later, side="home", entries=[roster(later.home)[-1], None])


def test_publish_asks_for_every_line_up_or_the_forfeit() -> None:
    comp = competition(teams=4, boards=2)
    setup.schedule_make(competition=comp)
    match = Match.objects.filter(competition=comp, round_number=1).first()
    with pytest.raises(DomainError, match="has no line-up"):
        lineups.round_publish(competition=comp, number=1)
    lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.AWAY)
    other = Match.objects.filter(competition=comp, round_number=1).exclude(pk=match.pk).get()
    for side, team in (("home", other.home), ("away", other.away)):
        other.refresh_from_db()
        lineups.lineup_set(match=other, side=side, entries=roster(team)[:2])
    lineups.round_publish(competition=comp, number=1)
    state = next(s for s in selectors.match_states(comp, 1) if s.match.pk == match.pk)
    assert (state.score.home_board_points, state.score.away_board_points) == (4, 0)


def test_individual_pairing_is_refused_in_a_team_competition() -> None:
    comp = competition(teams=2, boards=1)
    with pytest.raises(DomainError, match="team competition"):
        round_services.round_pair(tournament=comp.tournament)


def test_a_stale_line_up_is_refused() -> None:
    comp = competition(teams=2, boards=1)
    setup.schedule_make(competition=comp)
    match = Match.objects.get(competition=comp)
    read = match.version
    lineups.lineup_set(match=match, side="home", entries=roster(match.home)[:1], expected_version=read)
    with pytest.raises(DomainError, match="changed by someone else"):
        lineups.lineup_set(match=match, side="home", entries=roster(match.home)[1:2], expected_version=read)
