"""Pairing engines, pure Python (no Django): the Swiss Dutch system here, round robin next door.

    from tournaments.pairing import SwissPlayer, PlayedRound, PairingRequest, pair_dutch
    result = pair_dutch(PairingRequest(players=..., round=5, total_rounds=9))
    result.boards, result.bye, result.explanation.as_text()
    check_pairing(request, Pairing(boards, bye))   # an arbiter's draft: violations + differs
    write_trf(players, total_rounds=9)               # TRF(x) for bbpPairings / JaVaFo

Light to import: networkx is loaded only when a matching is computed.
"""

from tournaments.pairing.checker import absolute_violations, check_pairing
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
from tournaments.pairing.trf import parse_trf, request_from_trf, write_pairing, write_trf

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
    "absolute_violations",
    "check_pairing",
    "explain",
    "pair_dutch",
    "parse_trf",
    "request_from_trf",
    "write_pairing",
    "write_trf",
]
