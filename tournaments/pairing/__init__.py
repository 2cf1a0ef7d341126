"""Pairing engines, pure Python (no Django): the Swiss Dutch system here, round robin next door.

Light to import: networkx is loaded only when a matching is computed.
"""

from tournaments.pairing.engine import explain, pair_dutch
from tournaments.pairing.model import (
    Board,
    BracketReport,
    CheckReport,
    Explanation,
    Pairing,
    PairingRequest,
    PairingResult,
    PlayedRound,
    PointSystem,
    SwissPlayer,
    Violation,
)

__all__ = [
    "Board",
    "BracketReport",
    "CheckReport",
    "Explanation",
    "Pairing",
    "PairingRequest",
    "PairingResult",
    "PlayedRound",
    "PointSystem",
    "SwissPlayer",
    "Violation",
    "explain",
    "pair_dutch",
]
