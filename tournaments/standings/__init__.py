"""Standings: results to ranked rows, tie-breaks, withdrawals (5.9) and crosstable cells.

Pure Python (no Django, no ORM). Public API, imported from here:
compute_standings, crosstable_cells, effective_games, TIEBREAKS, the named PRESETS and the records below.
records.py holds the plain data and scoring, withdrawals.py rule 5.9, tiebreaks.py the registry,
fide_c07.py FIDE's convention for unplayed rounds (C.07), presets.py the named presets, table.py the
ranking and the crosstable.
"""

from tournaments.standings.fide_c07 import CONVENTIONS, FIDE_C07, FMJD
from tournaments.standings.presets import (
    PRESETS,
    ROUND_ROBIN_MEANINGLESS,
    Preset,
    default_preset,
    meaningless_in_round_robin,
    preset_of,
)
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
    "CONVENTIONS",
    "FIDE_C07",
    "FMJD",
    "DOUBLE_ROUND_ROBIN",
    "PRESETS",
    "ROUND_ROBIN_MEANINGLESS",
    "ROUND_ROBIN",
    "SWISS",
    "SYSTEMS",
    "TIEBREAKS",
    "CrosstableCell",
    "Preset",
    "StandingGame",
    "StandingPlayer",
    "StandingRow",
    "TieBreak",
    "TieBreakContext",
    "TieBreakValue",
    "WithdrawalRuling",
    "compute_standings",
    "crosstable_cells",
    "default_preset",
    "effective_games",
    "meaningless_in_round_robin",
    "preset_of",
]
