"""What the outputs of a team competition show, computed once from `selectors.match_states` and
`selectors.standings`: the standings' columns, the team crosstable, each player's results board by board
and one match followed board by board. Pure over the states (no query here): the pages, the PDFs and the
tests read the same values. Words are made at the edge (`words_of`, the templates), never here.

Only what the public may see is read: the boards of a round that is not published yet are the captains'
line-ups still open to change, so they are left out (`published` in every function that reads boards).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.models import Entry, Match, MatchForfeit
from tournaments.results import Result
from tournaments.teams import scoring
from tournaments.teams.settings import Criterion, TeamSettings

from .selectors import MatchState

# The criteria every standings line shows as its own columns; the others of the order follow them.
SHOWN_ALWAYS = (Criterion.MATCH_POINTS, Criterion.BOARD_POINTS)


def extra_criteria(settings: TeamSettings) -> tuple[Criterion, ...]:
    """The criteria of the competition's order shown after played-won-drawn-lost-MP-BP, in its order."""
    return tuple(c for c in settings.order if c not in SHOWN_ALWAYS)


def side_points(result: str, board: int, settings: TeamSettings) -> tuple[int, int] | None:
    """(home, away) board points of one board's result code; None while the board has no result."""
    if not result:
        return None
    white, black = Result(result).points()
    return (white, black) if settings.first_is_white(board) else (black, white)


@dataclass(frozen=True)
class LiveScore:
    """The match score as it stands: board points of the boards finished so far."""

    home: int
    away: int
    finished: int  # boards with a result
    boards: int
    forfeit: str  # MatchForfeit value: "none" when the match is played

    @property
    def complete(self) -> bool:
        return self.forfeit != MatchForfeit.NONE or self.finished == self.boards


def live_score(state: MatchState, settings: TeamSettings) -> LiveScore:
    """The score a spectator follows: the engine's once the match is complete, the sum of the finished
    boards before that (a whole-match forfeit: the forfeit's board points at once)."""
    match = state.match
    if state.score is not None:
        return LiveScore(state.score.home_board_points, state.score.away_board_points, settings.boards,
                         settings.boards, match.forfeit)
    home = away = finished = 0
    for number, result in enumerate(state.results, start=1):
        points = side_points(result, number, settings)
        if points is not None:
            home, away, finished = home + points[0], away + points[1], finished + 1
    return LiveScore(home, away, finished, settings.boards, match.forfeit)


@dataclass(frozen=True)
class BoardLine:
    """One board of a match as the match page shows it: the home player first, whatever his colour."""

    number: int
    home: Entry | None  # None: the board was left unfilled by that team
    away: Entry | None
    home_white: bool
    result: str  # the game's code (White's score first), "" while it is being played
    home_points: int | None
    away_points: int | None
    forfeit: bool  # decided by an absence, not over the board
    game_id: int | None

    @property
    def away_white(self) -> bool:
        return not self.home_white

    @property
    def points_text(self) -> str:
        """'2–0' from the home side, '2F–0F' for a forfeit (FMJD 5.7), '' while the game goes on."""
        return pair_text(self.home_points, self.away_points, self.forfeit)


def pair_text(own: int | None, other: int | None, forfeit: bool) -> str:
    if own is None or other is None:
        return ""
    mark = "F" if forfeit else ""
    return f"{own}{mark}–{other}{mark}"


@dataclass(frozen=True)
class MatchView:
    state: MatchState
    score: LiveScore
    boards: tuple[BoardLine, ...]
    published: bool


def match_view(state: MatchState, settings: TeamSettings, published: bool) -> MatchView:
    """Both line-ups board by board with the results so far; no board at all before publication, nor for
    a match forfeited as a whole (its line-ups were never played)."""
    by_number = {b.number: b for b in state.boards}
    lines: list[BoardLine] = []
    if published and state.match.forfeit == MatchForfeit.NONE and state.match.away_id is not None:
        for number in range(1, settings.boards + 1):
            b = by_number.get(number)
            result = state.results[number - 1] if len(state.results) >= number else ""
            points = side_points(result, number, settings)
            lines.append(BoardLine(
                number=number, home=b.home_entry if b is not None else None,
                away=b.away_entry if b is not None else None, home_white=settings.first_is_white(number),
                result=result, home_points=points[0] if points else None, away_points=points[1] if points else None,
                forfeit=bool(result) and Result(result).is_forfeit,
                game_id=b.game_id if b is not None else None))
    return MatchView(state, live_score(state, settings), tuple(lines), published)


@dataclass(frozen=True)
class StandingLine:
    row: scoring.Row
    team_id: int
    extra: tuple[int, ...]  # the values of extra_criteria, in order


def standing_lines(rows: Sequence[scoring.Row], team_ids: dict[str, int], settings: TeamSettings
                   ) -> list[StandingLine]:
    extra = extra_criteria(settings)
    return [StandingLine(r, team_ids[r.team], tuple(r.values.get(c, 0) for c in extra)) for r in rows]


@dataclass(frozen=True)
class Leg:
    """One match between the row's team and the column's, from the row team's side."""

    round_number: int
    table: int
    home: bool  # the row's team played at home
    own: int | None  # board points; None while the match is not complete
    other: int | None
    forfeit: bool

    @property
    def text(self) -> str:
        return pair_text(self.own, self.other, self.forfeit)


@dataclass
class CrossLine:
    team: str
    team_id: int
    legs: list[list[Leg]] = field(default_factory=list)  # one list per column team, empty on the diagonal


def crosstable(order: Sequence[tuple[int, str]], states: Iterable[MatchState], published: set[int]
               ) -> list[CrossLine]:
    """The teams (id, name) in the standings' order, each line holding its matches against every team of
    the order, the home match first (two legs in a home-and-away league), then in round order. Matches of
    rounds not published are left out; a match under way shows no score yet; barrages are the cup's, never
    the league's table."""
    index = {team_id: i for i, (team_id, _name) in enumerate(order)}
    lines = [CrossLine(name, team_id, [[] for _ in order]) for team_id, name in order]
    for state in states:
        match = state.match
        if match.away_id is None or match.barrage_of_id is not None or match.round_number not in published:
            continue
        if match.home_id not in index or match.away_id not in index:
            continue
        score = state.score
        forfeit = match.forfeit != MatchForfeit.NONE
        h, a = index[match.home_id], index[match.away_id]
        lines[h].legs[a].append(Leg(match.round_number, match.table, True,
                                    score.home_board_points if score else None,
                                    score.away_board_points if score else None, forfeit))
        lines[a].legs[h].append(Leg(match.round_number, match.table, False,
                                    score.away_board_points if score else None,
                                    score.home_board_points if score else None, forfeit))
    for line in lines:
        for legs in line.legs:
            legs.sort(key=lambda leg: (not leg.home, leg.round_number))
    return lines


@dataclass(frozen=True)
class PlayerResult:
    """One board a player was lined up on, from his side."""

    round_number: int
    match: Match
    team: str
    opponent_team: str
    board: int
    white: bool
    opponent: Entry | None  # None: the other team left the board unfilled
    result: str  # the game's code, White first; "" while it is being played
    points: int | None  # his board points
    forfeit: bool
    game_id: int | None


@dataclass
class PlayerLine:
    entry: Entry
    team: str
    results: list[PlayerResult] = field(default_factory=list)

    @property
    def counted(self) -> list[PlayerResult]:
        return [r for r in self.results if r.points is not None]

    @property
    def games(self) -> int:
        """Boards with a result, a forfeit included: what his team scored on his board."""
        return len(self.counted)

    @property
    def points(self) -> int:
        return sum(r.points or 0 for r in self.counted)

    @property
    def percentage(self) -> int | None:
        """Rounded to a whole per cent of the 2 points a board is worth; None before his first result."""
        return round(100 * self.points / (2 * self.games)) if self.games else None


def player_results(states: Iterable[MatchState], settings: TeamSettings, published: set[int],
                   team_order: Sequence[str] = ()) -> list[PlayerLine]:
    """Every player who sat on a board of a published round, with each of his boards. A board his
    opponent's team left unfilled is his win by forfeit (no game); a match forfeited as a whole was not
    played and gives nobody a line. In `team_order`, then by the lowest board each played, then by name."""
    lines: dict[tuple[str, int], PlayerLine] = {}
    for state in states:
        match = state.match
        if (match.away_id is None or match.round_number not in published
                or match.forfeit != MatchForfeit.NONE):
            continue
        home_name, away_name = match.home.name, match.away.name if match.away else ""
        for b in state.boards:
            if not 1 <= b.number <= settings.boards:
                continue
            result = state.results[b.number - 1] if len(state.results) >= b.number else ""
            points = side_points(result, b.number, settings)
            home_white = settings.first_is_white(b.number)
            forfeit = bool(result) and Result(result).is_forfeit
            for entry, opponent, team, other, white, mine in (
                    (b.home_entry, b.away_entry, home_name, away_name, home_white, points[0] if points else None),
                    (b.away_entry, b.home_entry, away_name, home_name, not home_white,
                     points[1] if points else None)):
                if entry is None:
                    continue
                line = lines.setdefault((team, entry.pk), PlayerLine(entry, team))
                line.results.append(PlayerResult(match.round_number, match, team, other, b.number, white, opponent,
                                                 result, mine, forfeit, b.game_id))
    rank = {name: i for i, name in enumerate(team_order)}
    out = list(lines.values())
    for line in out:
        line.results.sort(key=lambda r: (r.round_number, r.match.table))
    out.sort(key=lambda ln: (rank.get(ln.team, len(rank)), ln.team, min(r.board for r in ln.results),
                             ln.entry.player.full_name))
    return out


def deduction_notes(rows: Iterable[scoring.Row]) -> list[tuple[str, int]]:
    """(team, match points deducted) for every team with a deduction, for the note under the standings."""
    return [(r.team, r.deductions) for r in rows if r.deductions]
