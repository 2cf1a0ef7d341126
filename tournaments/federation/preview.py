"""The rating-change preview of a finished tournament: the report's rows turned into each player's facts
(tournaments.federation.rating_systems.PlayerFacts) and previewed under one system."""

from __future__ import annotations

from tournaments.federation.rating_systems import NATIONAL_RATING, GameFact, PlayerFacts, PreviewRow, RatingSystem
from tournaments.federation.rating_systems import preview as preview_one
from tournaments.federation.rows import Report, ReportRow


def kept_rating(row: ReportRow, system: RatingSystem) -> int | None:
    """The entry's kept rating in the list the system reads."""
    return row.national_rating if system.rating == NATIONAL_RATING else row.rating


def facts(report: Report, row: ReportRow, system: RatingSystem) -> PlayerFacts:
    by_place = {r.place: r for r in report.rows}
    games = tuple(
        GameFact(round=c.round, opponent_rating=kept_rating(by_place[c.opponent], system), points=c.points or 0,
                 rated=c.rated)
        for c in row.cells if c.opponent is not None and c.opponent in by_place and c.points is not None
    )
    return PlayerFacts(kept_rating(row, system), games)


def preview_rows(report: Report, system: RatingSystem, event_type: str | None = None
                 ) -> list[tuple[ReportRow, PreviewRow]]:
    return [(row, preview_one(system, facts(report, row, system), event_type)) for row in report.rows]
