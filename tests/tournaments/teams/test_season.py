"""A KNDB-style season: 10 teams, 8 boards, a single round robin of 9 rounds, with one forfeited board,
one board forfeited by both players, and one forfeited match with its deduction.

The settings are those of the stored texts (docs/research/team-competitions.md): board points 2/1/0
(FMJD 5.6-5.8), match points 2/1/0 and ranking on match points then board points (the issue's
"played – match points – board points" of the Dutch standings), and a deduction of two match points
("twee wedstrijdpunten in mindering", KNDB wedstrijdvoorwaarden nationale competitie 2016-2017, art. 1,
as the penalty the competition may impose; here the setting the arbiter chose for a forfeited match).
"""

from __future__ import annotations

from tournaments.results import Result
from tournaments.teams.schedule import round_robin
from tournaments.teams.scoring import Forfeit, Match, standings
from tournaments.teams.settings import TeamSettings

SETTINGS = TeamSettings(boards=8, forfeit_deduction=2)
TEAMS = list("ABCDEFGHIJ")

# The board points the row team scores against each later team, out of 16 (8 boards x 2).
SCORES_TEXT = """
A B10 C9 D12 E8 F11 G10 H13 I12 J14
B C8 D9 E10 F7 G12 H9 I11 J10
C D8 E6 F10 G9 H8 I11 J12
D E9 F7 G8 H10 I9 J11
E F8 G8 H9 I7 J8
F G9 H7 I10 J12
G H8 I9 J10
H I8 J11
I J10
"""
FORFEITED_MATCH = ("E", "J")  # J does not come: the whole match is forfeited
FORFEITED_BOARD = ("A", "B")  # one of A's wins is by forfeit (2F-0F or 0F-2F): it still scores 2
DOUBLE_FORFEIT_BOARD = ("C", "D")  # one drawn board becomes 0F-0F: both teams lose that board's point


def _scores() -> dict[frozenset[str], dict[str, int]]:
    table: dict[frozenset[str], dict[str, int]] = {}
    for line in SCORES_TEXT.strip().splitlines():
        team, *cells = line.split()
        for cell in cells:
            other, points = cell[0], int(cell[1:])
            table[frozenset((team, other))] = {team: points, other: 16 - points}
    return table


def _boards(home_points: int) -> list[Result]:
    """Eight board codes giving the home team `home_points`: its wins first, then draws, then losses;
    the home team has White on the odd boards."""
    if home_points in (0, 16):
        wins, draws = home_points // 2, 0
    elif home_points % 2:
        wins, draws = home_points // 2, 1
    else:
        wins, draws = home_points // 2 - 1, 2
    codes: list[Result] = []
    for board in range(1, 9):
        home_white = board % 2 == 1
        if board <= wins:
            codes.append(Result.WHITE_WINS if home_white else Result.BLACK_WINS)
        elif board <= wins + draws:
            codes.append(Result.DRAW)
        else:
            codes.append(Result.BLACK_WINS if home_white else Result.WHITE_WINS)
    return codes


def _a_wins(code: Result, board: int, a_is_home: bool) -> bool:
    a_is_white = (board % 2 == 1) == a_is_home
    return code is (Result.WHITE_WINS if a_is_white else Result.BLACK_WINS)


def _season() -> list[Match]:
    table = _scores()
    matches: list[Match] = []
    for fixture in round_robin(TEAMS):
        assert fixture.away is not None
        pair = frozenset((fixture.home, fixture.away))
        if pair == frozenset(FORFEITED_MATCH):
            forfeit = Forfeit.AWAY if fixture.away == "J" else Forfeit.HOME
            matches.append(Match(fixture.home, fixture.away, forfeit=forfeit))
            continue
        codes = _boards(table[pair][fixture.home])
        if pair == frozenset(FORFEITED_BOARD):
            a_board = next(i for i, c in enumerate(codes) if _a_wins(c, i + 1, a_is_home=fixture.home == "A"))
            codes[a_board] = (Result.WHITE_FORFEIT_WIN if codes[a_board] is Result.WHITE_WINS
                              else Result.BLACK_FORFEIT_WIN)
        if pair == frozenset(DOUBLE_FORFEIT_BOARD):
            codes[codes.index(Result.DRAW)] = Result.DOUBLE_FORFEIT
        matches.append(Match(fixture.home, fixture.away, tuple(codes)))
    return matches


# Worked out by hand from SCORES_TEXT (and by the independent tally below): each pair's board points,
# with C-D 7-7 (the 0F-0F board), E-J 16-0 (J's forfeit) and J's two match points deducted.
# team: (played, won, drawn, lost, match points, board points, deductions, rank)
EXPECTED = [
    ("A", 9, 8, 1, 0, 17, 99, 0, 1),
    ("B", 9, 6, 1, 2, 13, 82, 0, 2),
    ("C", 9, 4, 3, 2, 11, 78, 0, 3),
    ("F", 9, 5, 1, 3, 11, 75, 0, 4),
    ("D", 9, 4, 2, 3, 10, 72, 0, 5),
    ("E", 9, 3, 3, 3, 9, 79, 0, 6),
    ("G", 9, 2, 3, 4, 7, 67, 0, 7),
    ("H", 9, 2, 3, 4, 7, 67, 0, 7),
    ("I", 9, 2, 1, 6, 5, 61, 0, 9),
    ("J", 9, 0, 0, 9, -2, 38, 2, 10),
]


def _independent_tally() -> list[tuple[str, int, int, int, int, int, int, int, int]]:
    """The same standings from the pair table alone, without the engine or any board code."""
    table = _scores()
    table[frozenset(DOUBLE_FORFEIT_BOARD)] = {"C": 7, "D": 7}
    table[frozenset(FORFEITED_MATCH)] = {"E": 16, "J": 0}
    line = {t: [0, 0, 0, 0, 0, 0, 0] for t in TEAMS}  # played won drawn lost mp bp deductions
    for pair, points in table.items():
        a, b = sorted(pair)
        for me, other in ((a, b), (b, a)):
            line[me][0] += 1
            line[me][5] += points[me]
            if points[me] > points[other]:
                line[me][1] += 1
                line[me][4] += 2
            elif points[me] == points[other]:
                line[me][2] += 1
                line[me][4] += 1
            else:
                line[me][3] += 1
    line["J"][4] -= 2
    line["J"][6] = 2
    order = sorted(TEAMS, key=lambda t: (-line[t][4], -line[t][5], t))
    out = []
    for t in order:
        rank = 1 + sum(1 for o in TEAMS if (line[o][4], line[o][5]) > (line[t][4], line[t][5]))
        out.append((t, *line[t], rank))
    return out  # type: ignore[return-value]


def test_the_season_has_9_rounds_of_5_matches_and_the_special_cases_are_in_it() -> None:
    matches = _season()
    assert len(matches) == 45
    assert max(f.round for f in round_robin(TEAMS)) == 9
    forfeited = [m for m in matches if m.forfeit is not Forfeit.NONE]
    assert [(m.home, m.away) for m in forfeited] in ([("E", "J")], [("J", "E")])
    codes = [c for m in matches for c in m.boards]
    assert codes.count(Result.DOUBLE_FORFEIT) == 1
    assert codes.count(Result.WHITE_FORFEIT_WIN) + codes.count(Result.BLACK_FORFEIT_WIN) == 1


def test_the_independent_tally_agrees_with_the_hand_figures() -> None:
    assert _independent_tally() == EXPECTED


def test_standings_row_by_row() -> None:
    rows = standings(TEAMS, _season(), SETTINGS)
    got = [(r.team, r.played, r.won, r.drawn, r.lost, r.match_points, r.board_points, r.deductions, r.rank)
           for r in rows]
    assert got == EXPECTED
    shared = {r.team for r in rows if r.shared}
    assert shared == {"G", "H"}  # equal on match points and board points: both 7th


def test_all_board_points_are_accounted_for() -> None:
    rows = standings(TEAMS, _season(), SETTINGS)
    # 45 matches x 16, less the point each team lost on the 0F-0F board.
    assert sum(r.board_points for r in rows) == 45 * 16 - 2
