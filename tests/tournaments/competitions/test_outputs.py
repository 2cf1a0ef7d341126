"""The read models of a team competition's outputs, their values written out for the small league of
outputs_data.py (a board forfeit in round 1, a whole-match forfeit with 2 match points deducted in round 2,
round 4 being played): the standings' columns and criteria, the crosstable with both legs, each player's
results by board, a match followed live; a round not published shows nobody's line-up."""

from __future__ import annotations

import pytest

from tests.tournaments.competitions.factory import roster
from tests.tournaments.competitions.outputs_data import league, match
from tournaments.competitions import lineups, outputs, tables
from tournaments.models import Game
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def read() -> outputs.Outputs:
    return outputs.read(league())


def test_the_standings_show_played_won_drawn_lost_match_and_board_points_the_criteria_and_the_deduction(
        read: outputs.Outputs) -> None:
    lines = read.standing_lines()
    got = [(ln.row.rank, ln.row.team, ln.row.played, ln.row.won, ln.row.drawn, ln.row.lost, ln.row.match_points,
            ln.row.board_points, ln.extra, ln.row.deductions) for ln in lines]
    # Club 1: 4-0, 2-2, 2-2. Club 2: 1-3, 2-2, 3-1. Club 4: 0-4, 4-0 (Club 3 absent), 1-3. Club 3: 3-1,
    # 0-4 forfeited (0 - 2 = -2 match points), 2-2. Round 4's matches are not complete: they do not count.
    # SB for teams = sum of the opponent's match points x own board points in the match:
    # Club 1: 2x4 + 3x2 + 1x2 = 16; Club 2: 1x1 + 4x2 + 2x3 = 15; Club 4: 4x0 + 1x4 + 3x1 = 7;
    # Club 3: 3x3 + 2x0 + 4x2 = 17. No two teams equal on match and board points: mutual 0 each.
    assert got == [
        (1, "Club 1", 3, 1, 2, 0, 4, 8, (0, 16), 0),
        (2, "Club 2", 3, 1, 1, 1, 3, 6, (0, 15), 0),
        (3, "Club 4", 3, 1, 0, 2, 2, 5, (0, 7), 0),
        (4, "Club 3", 3, 1, 1, 1, 1, 5, (0, 17), 2),
    ]
    assert [c.value for c in tables.extra_criteria(read.settings)] == ["mutual", "sb_teams"]
    assert tables.deduction_notes(read.rows) == [("Club 3", 2)]


def test_the_crosstable_holds_both_legs_from_the_row_teams_side(read: outputs.Outputs) -> None:
    lines = read.crosstable()
    assert [ln.team for ln in lines] == ["Club 1", "Club 2", "Club 4", "Club 3"]

    def cell(row: int, column: int) -> list[tuple[int, bool, str]]:
        return [(leg.round_number, leg.home, leg.text) for leg in lines[row].legs[column]]

    assert cell(0, 0) == []
    assert cell(0, 1) == [(2, True, "2–2")]
    # Club 1 - Club 4: round 1 at home 4-0 (a board forfeit is not a match forfeit), round 4 away, being played
    assert cell(0, 2) == [(1, True, "4–0"), (4, False, "")]
    assert cell(2, 0) == [(4, True, ""), (1, False, "0–4")]  # the home match first
    assert cell(0, 3) == [(3, False, "2–2")]
    # the whole-match forfeit: F on both sides
    assert cell(2, 3) == [(2, True, "4F–0F")]
    assert cell(3, 2) == [(2, False, "0F–4F")]
    assert cell(1, 3) == [(1, True, "1–3"), (4, False, "")]


def test_each_players_results_by_board(read: outputs.Outputs) -> None:
    players = {ln.entry.player.full_name: ln for ln in read.players()}

    def rows(name: str) -> list[tuple[object, ...]]:
        return [(r.round_number, r.team, r.board, "W" if r.white else "B",
                 r.opponent.player.full_name if r.opponent else None, r.result, r.points, r.forfeit)
                for r in players[name].results]

    assert rows("Team1, P1") == [
        (1, "Club 1", 1, "W", "Team4, P1", "2-0", 2, False),
        (2, "Club 1", 1, "W", "Team2, P1", "0-2", 0, False),
        (3, "Club 1", 1, "B", "Team3, P1", "1-1", 1, False),
        (4, "Club 1", 1, "B", "Team4, P1", "2-0", 0, False),
    ]
    # board 2, round 1: Club 4 left it unfilled, Club 1's player wins it by forfeit (no game); round 4 goes on
    assert rows("Team1, P2") == [
        (1, "Club 1", 2, "B", None, "0F-2F", 2, True),
        (2, "Club 1", 2, "B", "Team2, P2", "0-2", 2, False),
        (3, "Club 1", 2, "W", "Team3, P2", "1-1", 1, False),
        (4, "Club 1", 2, "W", "Team4, P2", "", None, False),
    ]
    assert (players["Team1, P1"].games, players["Team1, P1"].points, players["Team1, P1"].percentage) == (4, 3, 38)
    assert (players["Team1, P2"].games, players["Team1, P2"].points, players["Team1, P2"].percentage) == (3, 5, 83)
    # Club 3 did not come in round 2, Club 4 played nobody: neither has a line for that match
    assert [r.round_number for r in players["Team3, P1"].results] == [1, 3, 4]
    assert [r.round_number for r in players["Team4, P2"].results] == [3, 4]
    # in the standings' order, then by board
    assert [ln.team for ln in read.players()][:2] == ["Club 1", "Club 1"]


def test_a_match_followed_live(read: outputs.Outputs) -> None:
    comp = read.competition
    state = next(s for s in outputs.read(comp, 4).states if s.match.table == 1)
    view = tables.match_view(state, read.settings, published=True)
    assert (view.score.home, view.score.away, view.score.finished, view.score.complete) == (2, 0, 1, False)
    assert [(b.number, b.home.player.full_name, b.home_white, b.away.player.full_name, b.points_text)
            for b in view.boards] == [(1, "Team4, P1", True, "Team1, P1", "2–0"),
                                      (2, "Team4, P2", False, "Team1, P2", "")]
    game = Game.objects.get(match_board__match=state.match, match_board__number=2)
    round_services.game_record_result(game=game, result="0-2")  # Club 4 has Black on board 2 and wins
    state = next(s for s in outputs.read(comp, 4).states if s.match.table == 1)
    view = tables.match_view(state, read.settings, published=True)
    assert (view.score.home, view.score.away, view.score.complete) == (4, 0, True)
    assert view.boards[1].points_text == "2–0"


def test_a_round_not_published_shows_no_line_up(read: outputs.Outputs) -> None:
    comp = read.competition
    m = match(comp, 5, 1)
    lineups.lineup_set(match=m, side="home", entries=roster(m.home)[:2])
    again = outputs.read(comp)
    assert 5 not in again.published
    assert all(r.round_number != 5 for ln in again.players() for r in ln.results)
    state = next(s for s in again.states if s.match.round_number == 5 and s.match.table == 1)
    assert tables.match_view(state, again.settings, published=False).boards == ()
    assert all(leg.round_number != 5 for ln in again.crosstable() for legs in ln.legs for leg in legs)


def test_side_points_turn_white_black_codes_to_the_home_side(read: outputs.Outputs) -> None:
    settings = read.settings
    assert tables.side_points("2-0", 1, settings) == (2, 0)  # home White on board 1
    assert tables.side_points("2-0", 2, settings) == (0, 2)  # the away team White on board 2
    assert tables.side_points("0F-2F", 2, settings) == (2, 0)
    assert tables.side_points("", 1, settings) is None
