"""A match's games as one PDN file, by the tournament's own PDN writer (tournaments.sheets.export).

Each game keeps the seven-tag roster (Event: the competition, Round: its round, White, Black, Result) and
the tags every Damier export has; `Board` is the board of the match (PDN 3.0, wiegerw/pdn doc/pdntags.rst:
"Board number in a team event or in a simultaneous exhibition"), and the teams go in `WhiteTeam` and
`BlackTeam`. PDN 3.0 defines no team tag; it allows the file's own ("It is allowed to add user defined
tags. Note that a key must start with a capital."), and these two name what they hold. Every value is
escaped by the writer (a quote and a backslash written \\" and \\\\, a line break as a space). Boards won by
forfeit are not in the file: nothing was played there.
"""

from __future__ import annotations

from tournaments.models import Game, Match, MatchBoard, TeamCompetition
from tournaments.sheets.export import exported_games, games_pdn

from .selectors import settings_of


def match_pdn(competition: TeamCompetition, match: Match, *, public_only: bool = True) -> str:
    """The PDN text of the match's games in board order; '' when none was played yet."""
    tournament = competition.tournament
    boards = {b.game_id: b for b in MatchBoard.objects.filter(match=match, game__isnull=False)}
    games = [g for g in exported_games(tournament, public_only=public_only).filter(pk__in=list(boards))]
    games.sort(key=lambda g: boards[g.pk].number)
    settings = settings_of(competition)
    home, away = match.home.name, match.away.name if match.away else ""

    def more(game: Game) -> dict[str, str]:
        number = boards[game.pk].number
        white, black = (home, away) if settings.first_is_white(number) else (away, home)
        return {"Board": str(number), "WhiteTeam": white, "BlackTeam": black}

    return games_pdn(tournament, games, more)


def match_filename(competition: TeamCompetition, match: Match) -> str:
    return f"{competition.tournament.slug}-round-{match.round_number}-match-{match.table}.pdn"
