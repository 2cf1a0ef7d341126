"""The report to the federation read from a tournament: one row per player in final order, one cell per round,
as codes and values; the file, the PDF and the rating preview are all made from it. Reads only.

Each cell is the result the rating report has: Game.rating_result where the arbiter set one (a correction for
the rating report only, tournaments/rounds/corrections.py), else the result. The row's points are the
tournament's (the standings, which keep the result as played).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.models import Game, Tournament
from tournaments.ranking import final_standings
from tournaments.results import Result
from tournaments.standings import CrosstableCell, crosstable_cells

# What a cell is, for the rating report.
GAME = "game"  # played over the board, sent for rating
FORFEIT = "forfeit"  # 5.7 / 5.8: not played, scored
UNRATED = "unrated"  # played, counts here, the arbiter marked it "not rated" (2-0U, 1-1U, 0-2U)
BYE = "bye"  # the pairing's bye
REQUESTED_BYE = "requested-bye"  # a bye asked for in advance, worth 0, 1 or 2
NONE = "none"  # no game: not yet entered, withdrawn, a round robin's free round, a game a withdrawal left unplayed

# Why a cell is not rated, or what the federation should look at (tournaments.federation.words).
REASONS = ("forfeit", "double-forfeit", "pairing-bye", "requested-bye", "after-withdrawal", "unrated", "ruling",
           "rating-corrected", "cancelled")


@dataclass(frozen=True)
class ReportCell:
    round: int
    kind: str
    opponent: int | None = None  # the opponent's place
    colour: str | None = None  # "w" or "b"
    points: int | None = None  # this side's points in the result sent for rating; None: no game
    reasons: tuple[str, ...] = ()
    played: Result | None = None  # the result as played (Game.result)
    for_rating: Result | None = None  # Game.rating_result when the arbiter set one
    board: int | None = None

    @property
    def rated(self) -> bool:
        return self.kind == GAME


@dataclass(frozen=True)
class ReportRow:
    place: int  # the line in the final order (tied players keep distinct lines, so a cell names one player)
    rank: int | None
    fmjd_id: int | None
    title: str
    name: str
    federation: str
    rating: int | None  # the entry's kept FMJD rating
    national_rating: int | None  # the entry's kept national rating
    points: int  # tournament points
    withdrawn_after: int | None
    expelled: bool
    cells: tuple[ReportCell, ...]


@dataclass(frozen=True)
class Report:
    tournament: Tournament
    rounds: int
    round_robin: bool
    rows: tuple[ReportRow, ...]


def refuse_unless_final(tournament: Tournament, data: selectors.TournamentData | None = None) -> None:
    state = final_standings.final_state(tournament, data)
    if not state.final:
        raise DomainError(_("%(tournament)s: the report to the federation is made once the last round (%(total)s) "
                            "is completed with every result in; %(status)s")
                          % {"tournament": tournament, "total": state.rounds_total,
                             "status": final_standings.status_text(state)})


def read_report(tournament: Tournament) -> Report:
    """The report of a finished tournament; a DomainError before the last round is completed."""
    data = selectors.tournament_data(tournament)
    refuse_unless_final(tournament, data)
    lines = selectors.standing_lines(tournament, data, None, with_expelled=True)
    place = {line.player.entry_id: i for i, line in enumerate(lines, start=1)}
    entries = {e.pk: e for e in data.entries}
    games: dict[tuple[int, int], Game] = {}
    for g in data.games:
        games[(g.white_id, g.round.number)] = g
        if g.black_id is not None:
            games[(g.black_id, g.round.number)] = g
    last = selectors.last_round_with_results(data, None)
    cells = crosstable_cells(data.standing_players(), data.standing_games(),
                             system=selectors.standings_system(tournament),
                             rounds_total=data.rounds_total, bye_points=selectors.bye_points_for(tournament),
                             after_round=last or None)
    rows = []
    for line in lines:
        entry = entries[line.player.entry_id]
        row_cells = tuple(_cell(c, games.get((entry.pk, c.round)), place, tournament.is_round_robin)
                          for c in cells.get(entry.pk, []))
        rows.append(ReportRow(
            place=place[entry.pk], rank=line.row.rank, fmjd_id=entry.player.fmjd_id, title=entry.title,
            name=entry.player.full_name, federation=entry.player.federation, rating=entry.rating,
            national_rating=entry.national_rating, points=line.row.points,
            withdrawn_after=entry.withdrawn_after_round if entry.is_withdrawn else None,
            expelled=entry.is_expelled, cells=row_cells,
        ))
    return Report(tournament, data.rounds_total, tournament.is_round_robin, tuple(rows))


def _cell(c: CrosstableCell, game: Game | None, place: dict[int, int], round_robin: bool) -> ReportCell:
    played = c.result
    board = game.board if game is not None else None
    if played is None:
        return ReportCell(c.round, NONE)
    if played is Result.NOT_PLAYED:
        return ReportCell(c.round, NONE, opponent=place.get(c.opponent or 0),
                          colour={"white": "w", "black": "b"}.get(c.colour or ""), reasons=("after-withdrawal",),
                          played=played, board=board)
    if played.is_single_player or c.opponent is None:
        if played is Result.BYE and round_robin:
            return ReportCell(c.round, NONE, played=played, board=board)  # the free round: nothing happened
        kind, why = (BYE, "pairing-bye") if played is Result.BYE else (REQUESTED_BYE, "requested-bye")
        return ReportCell(c.round, kind, points=c.points, reasons=(why,), played=played, board=board)
    white = c.colour == "white"
    # a game a withdrawal turned into a forfeit (5.9 A.b) keeps the forfeit: no correction was made on it
    corrected = Result(game.rating_result) if game is not None and game.rating_result and not (
        c.forfeit_after_withdrawal) else None
    sent = corrected or played
    reasons: list[str] = ["rating-corrected"] if corrected is not None else []
    if sent.is_forfeit:
        kind = FORFEIT
        reasons.append("double-forfeit" if sent is Result.DOUBLE_FORFEIT else "forfeit")
    elif sent.is_unrated:
        kind = UNRATED
        reasons.append("unrated")
    else:
        kind = GAME
        if sent.is_ruling:
            reasons.append("ruling")
    if c.forfeit_after_withdrawal:
        reasons.append("after-withdrawal")  # 5.9 A.b: the games a withdrawal left are forfeits
    if c.cancelled:
        reasons.append("cancelled")
    return ReportCell(c.round, kind, opponent=place.get(c.opponent), colour="w" if white else "b",
                      points=sent.points()[0 if white else 1], reasons=tuple(reasons), played=played,
                      for_rating=corrected, board=board)
