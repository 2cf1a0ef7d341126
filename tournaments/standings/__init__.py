"""Standings: results to ranked rows, tie-breaks, withdrawals (5.9) and crosstable cells.

Pure Python (no Django, no ORM). Public API, imported from here:
compute_standings, crosstable_cells, effective_games, TIEBREAKS and the records below.
records.py holds the plain data and scoring, withdrawals.py rule 5.9, tiebreaks.py the registry,
table.py the ranking and the crosstable.
"""

from tournaments.standings.records import (
    DOUBLE_ROUND_ROBIN,
    ROUND_ROBIN,
    SWISS,
    SYSTEMS,
    StandingGame,
    StandingPlayer,
    StandingRow,
    TieBreakValue,
)
from tournaments.standings.table import CrosstableCell, compute_standings, crosstable_cells
from tournaments.standings.tiebreaks import TIEBREAKS, TieBreak, TieBreakContext
from tournaments.standings.withdrawals import WithdrawalRuling, effective_games

__all__ = [
    "DOUBLE_ROUND_ROBIN",
    "ROUND_ROBIN",
    "SWISS",
    "SYSTEMS",
    "TIEBREAKS",
    "CrosstableCell",
    "StandingGame",
    "StandingPlayer",
    "StandingRow",
    "TieBreak",
    "TieBreakContext",
    "TieBreakValue",
    "WithdrawalRuling",
    "compute_standings",
    "crosstable_cells",
    "effective_games",
]
