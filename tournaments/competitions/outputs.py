"""The one read behind every output of a team competition (pages, PDFs, PDN): the competition's matches
as the engine scores them, its standings and which rounds the public may see, in a fixed number of
queries whatever the size of the league. Never a write."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import RoundStatus, TeamCompetition, Tournament
from tournaments.teams import scoring
from tournaments.teams.settings import TeamSettings

from . import tables
from .selectors import MatchState, match_states, settings_of


@dataclass(frozen=True)
class Outputs:
    competition: TeamCompetition
    settings: TeamSettings
    states: list[MatchState]
    rows: list[scoring.Row]
    team_ids: dict[str, int]
    published: set[int]  # numbers of the rounds that are published or completed
    live: set[int]  # the rounds being played (published, not completed)

    def standing_lines(self) -> list[tables.StandingLine]:
        return tables.standing_lines(self.rows, self.team_ids, self.settings)

    def order(self) -> list[tuple[int, str]]:
        """The teams as the standings rank them: (id, name)."""
        return [(self.team_ids[r.team], r.team) for r in self.rows]

    def crosstable(self) -> list[tables.CrossLine]:
        return tables.crosstable(self.order(), self.states, self.published)

    def players(self) -> list[tables.PlayerLine]:
        return tables.player_results(self.states, self.settings, self.published, [r.team for r in self.rows])

    def rounds(self) -> list[tuple[int, list[MatchState]]]:
        """Every round of the schedule, with its matches in table order (barrages after them)."""
        out: dict[int, list[MatchState]] = {}
        for s in self.states:
            out.setdefault(s.match.round_number, []).append(s)
        return [(n, sorted(ms, key=lambda s: (s.match.barrage_of_id is not None, s.match.table)))
                for n, ms in sorted(out.items())]


def competition_of(tournament: Tournament) -> TeamCompetition | None:
    return TeamCompetition.objects.filter(tournament=tournament).select_related("tournament").first()


def read(competition: TeamCompetition, round_number: int | None = None) -> Outputs:
    """The states of every match (or one round's) and the standings on the complete matches of the
    published rounds only: a draft round's line-ups and results are nobody's business yet."""
    settings = settings_of(competition)
    statuses = dict(competition.tournament.rounds.values_list("number", "status"))
    published = {n for n, status in statuses.items() if status != RoundStatus.DRAFT}
    live = {n for n, status in statuses.items() if status == RoundStatus.PUBLISHED}
    all_states = match_states(competition)
    teams = list(competition.teams.order_by("seed").values_list("name", "pk"))
    played = [s.scored for s in all_states if s.scored is not None and s.match.barrage_of_id is None
              and s.match.round_number in published and s.match.away_id is not None]
    rows = scoring.standings([name for name, _pk in teams], played, settings)
    states = all_states if round_number is None else [s for s in all_states if s.match.round_number == round_number]
    return Outputs(competition, settings, states, rows, dict(teams), published, live)
