"""The round page of a team competition: the same table and keys as an individual round, its boards
grouped by match.

Each match opens with its header ("Club 1 – Club 2", the match score so far), and its boards carry the
match's board numbers (1..n); the round's own board number stays in the row's address and in the slip
box, where the services read it. A board a team left unfilled has no game: its forfeit points are
counted in the match score, which the page's script (static/damier/team-score.js) keeps up to date as
results are typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext

from tournaments.competitions import selectors as team_selectors
from tournaments.models import Match, MatchBoard, MatchForfeit, Round, TeamCompetition
from tournaments.results import Result


@dataclass(frozen=True)
class MatchHead:
    """What a match's header row shows: its teams, its score so far, what the unfilled boards give."""

    key: str  # the match's number in the round, for the page's ids
    label: str  # "Club 1 – Club 2"
    home: str
    away: str
    fixed_home: int  # the points of the boards without a game (a team left them unfilled)
    fixed_away: int
    home_points: int  # the score as stored when the page was made
    away_points: int
    boards: int
    forfeits: str  # "" or the words for the unfilled boards

    @property
    def score(self) -> str:
        return f"{self.home_points} – {self.away_points}"


@dataclass(frozen=True)
class NotPlayed:
    """A match of the round without games: a whole-match forfeit, or a cup's bye."""

    label: str
    words: str


def _side_points(result: str, home_white: bool) -> tuple[int, int]:
    """(home, away) board points of a board's result code; nothing while it has no result."""
    if not result or result not in Result._value2member_map_:
        return 0, 0
    white, black = Result(result).points()
    return (white, black) if home_white else (black, white)


def points_map() -> dict[str, list[int]]:
    """Each result code's (White, Black) board points, for the page's script."""
    return {r.value: list(r.points()) for r in Result}


def competition_of(rnd: Round) -> TeamCompetition | None:
    return TeamCompetition.objects.filter(tournament_id=rnd.tournament_id).first()


def annotate(rnd: Round, forms_: list[forms.Form]) -> dict[str, Any]:
    """Mark the forms of a team round: the first board of each match carries its header (`team_head`), each
    board its number in the match (`match_board`), whether the home team has White (`home_white`) and
    its match (`match_key`). Returns the page's context for a team round; empty for an individual one."""
    competition = competition_of(rnd)
    if competition is None:
        return {}
    settings = team_selectors.settings_of(competition)
    states = {s.match.pk: s for s in team_selectors.match_states(competition, rnd.number)}
    by_game = {b.game_id: b for b in MatchBoard.objects.filter(game__round=rnd).select_related(
        "match__home", "match__away")}
    seen: set[int] = set()
    for form in forms_:
        game = form.instance
        board = by_game.get(game.pk)
        if board is None:
            continue
        match = board.match
        state = states.get(match.pk)
        home_white = settings.first_is_white(board.number)
        form.match_board = board.number  # type: ignore[attr-defined]
        form.home_white = home_white  # type: ignore[attr-defined]
        form.match_key = str(match.table)  # type: ignore[attr-defined]
        if "result" in form.fields:
            form.fields["result"].widget.attrs["aria-label"] = gettext(
                "%(home)s – %(away)s, board %(board)s: %(players)s, result") % {
                "home": match.home, "away": match.away, "board": board.number,
                "players": f"{game.white.player} – {game.black.player if game.black_id else ''}"}
        if match.pk in seen or state is None:
            continue
        seen.add(match.pk)
        form.team_head = _head(match, state, settings)  # type: ignore[attr-defined]
    not_played = [NotPlayed(str(s.match), _not_played_words(s.match)) for s in states.values()
                  if s.match.away_id is None or s.match.forfeit != MatchForfeit.NONE]
    # The rows are White – Black, as in any round; the colour rule says which team is White on a board.
    return {"team_round": True, "team_points": points_map(), "team_not_played": not_played,
            "team_colours": competition.get_colours_display(),
            "team_lineups_url": reverse("admin:tournaments_tournament_team_round",
                                        args=[rnd.tournament_id, rnd.number]),
            "team_cup_url": reverse("admin:tournaments_tournament_team_cup", args=[rnd.tournament_id, rnd.number])
            if competition.kind == "cup" and competition.matches.filter(round_number=rnd.number).exists() else ""}


def _head(match: Match, state: team_selectors.MatchState, settings: Any) -> MatchHead:
    with_game = {b.number for b in state.boards if b.game_id}
    fixed_home = fixed_away = home_points = away_points = 0
    unfilled: list[str] = []
    for number, result in enumerate(state.results, start=1):
        home, away = _side_points(result, settings.first_is_white(number))
        home_points += home
        away_points += away
        if number not in with_game:
            fixed_home += home
            fixed_away += away
            unfilled.append(str(number))
    forfeits = (gettext("board %(boards)s unfilled (forfeit)") % {"boards": ", ".join(unfilled)}
                if unfilled else "")
    away_name = match.away.name if match.away else ""
    return MatchHead(key=str(match.table), label=f"{match.home.name} – {away_name}", home=match.home.name,
                     away=away_name, fixed_home=fixed_home, fixed_away=fixed_away, home_points=home_points,
                     away_points=away_points, boards=settings.boards, forfeits=forfeits)


def _not_played_words(match: Match) -> str:
    if match.away_id is None:
        return gettext("a bye")
    return str(MatchForfeit(match.forfeit).label)
