"""Which breach of the competition rules gets which warning level: pure data, no ORM.

The levels are the checklist's (VCL4THP, FIDE Handbook C.02): 2 a notice, 3 a confirmation, 4 a
confirmation that explains the consequence and takes the tournament out of the conformance mode, 5 a
refusal. No setting lowers a level: the checklist fails a program whose warnings can be turned down.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Level(enum.IntEnum):
    NOTICE = 2
    CONFIRM = 3
    LEAVE = 4
    REFUSE = 5


class Code(enum.StrEnum):
    """What happened. The value is stable: it is stored, and written in the TRF's ### lines."""

    # Settings under way
    LEFT_MODE = "left-mode"  # the arbiter took the tournament out of the mode on purpose
    ROUNDS_CHANGED = "rounds-changed"
    BYE_POINTS_CHANGED = "bye-points-changed"
    TIEBREAKS_CHANGED = "tiebreaks-changed"
    TIEBREAK_CONVENTION_CHANGED = "tiebreak-convention-changed"  # FMJD's reading of unplayed rounds or C.07's
    SWISS_ORDER_CHANGED = "swiss-order-changed"
    RATING_TIEBREAKS_CHANGED = "rating-tiebreaks-changed"  # how unrated players / later ratings count
    SYSTEM_CHANGED = "system-changed"  # always refused once a round is paired
    FORBIDDEN_PAIR_LATE = "forbidden-pair-late"
    SETUP_CANNOT_FINISH = "setup-cannot-finish"
    # Corrections
    PREVIOUS_ROUND_CORRECTED = "previous-round-corrected"
    OLD_ROUND_CORRECTED = "old-round-corrected"
    RATING_CORRECTION = "rating-correction"
    # Manual pairing
    MANUAL_PAIRING = "manual-pairing"  # validated with differences from the engine's pairing
    REMATCH = "rematch"
    FORBIDDEN_PAIR_PAIRED = "forbidden-pair-paired"
    BYE_INELIGIBLE = "bye-ineligible"
    COLOUR_BREACH = "colour-breach"
    BOTH_WRONG_COLOUR = "both-wrong-colour"
    ENGINE_CANNOT_PAIR = "engine-cannot-pair"  # a round created empty, to be paired wholly by hand
    # Results
    FULL_POINT_BYE = "full-point-bye"  # a requested bye worth a win
    HALF_POINT_BYE = "half-point-bye"  # a requested bye worth a draw, second or later
    POSTPONED_NOT_DRAW = "postponed-not-draw"
    PAIRED_WITH_POSTPONED = "paired-with-postponed"
    # Numbers and ratings
    NUMBERS_REGENERATED = "numbers-regenerated"
    NUMBERS_EXCHANGED = "numbers-exchanged"
    LATE_ENTRY = "late-entry"
    RATING_CHANGED = "rating-changed"
    RATING_LIST_CHANGED = "rating-list-changed"  # a running tournament compared with a later list
    OTHER_RATING_PICKED = "other-rating-picked"  # the other list's rating, for a player not on the main one
    # Round robin
    SCHEDULE_BY_HAND = "schedule-by-hand"
    # Final standings
    LOTS_DRAWN = "lots-drawn"
    RANKED_BY_HAND = "ranked-by-hand"
    # Import (TRF)
    IMPORT_BROKE_RULES = "import-broke-rules"
    IMPORT_NOT_ENGINE_PAIRING = "import-not-engine-pairing"  # keeps the rules, but not the engine's pairing
    # Long events (Q210-Q211, longevents)
    LONG_EVENT_RATING_TIEBREAKS = "long-event-rating-tiebreaks"
    # Check-in (tournaments/hall/checkin.py): what the players who did not check in got when the round was paired
    ABSENT_NOT_PAIRED = "checkin-absent-not-paired"
    ABSENT_PAIRED = "checkin-absent-paired"


LEVELS: dict[Code, Level] = {
    Code.LEFT_MODE: Level.LEAVE,
    Code.ROUNDS_CHANGED: Level.LEAVE,
    Code.BYE_POINTS_CHANGED: Level.LEAVE,
    Code.TIEBREAKS_CHANGED: Level.LEAVE,
    Code.TIEBREAK_CONVENTION_CHANGED: Level.LEAVE,
    Code.SWISS_ORDER_CHANGED: Level.LEAVE,
    Code.RATING_TIEBREAKS_CHANGED: Level.LEAVE,
    Code.SYSTEM_CHANGED: Level.REFUSE,
    Code.FORBIDDEN_PAIR_LATE: Level.LEAVE,
    Code.SETUP_CANNOT_FINISH: Level.NOTICE,
    Code.PREVIOUS_ROUND_CORRECTED: Level.CONFIRM,
    Code.OLD_ROUND_CORRECTED: Level.LEAVE,
    Code.RATING_CORRECTION: Level.CONFIRM,
    Code.MANUAL_PAIRING: Level.CONFIRM,
    Code.REMATCH: Level.CONFIRM,
    Code.FORBIDDEN_PAIR_PAIRED: Level.CONFIRM,
    Code.BYE_INELIGIBLE: Level.CONFIRM,
    Code.COLOUR_BREACH: Level.CONFIRM,
    Code.BOTH_WRONG_COLOUR: Level.CONFIRM,
    Code.ENGINE_CANNOT_PAIR: Level.CONFIRM,
    Code.FULL_POINT_BYE: Level.NOTICE,
    Code.HALF_POINT_BYE: Level.CONFIRM,
    Code.POSTPONED_NOT_DRAW: Level.CONFIRM,
    Code.PAIRED_WITH_POSTPONED: Level.NOTICE,
    Code.NUMBERS_REGENERATED: Level.CONFIRM,
    Code.NUMBERS_EXCHANGED: Level.CONFIRM,
    Code.LATE_ENTRY: Level.NOTICE,
    Code.RATING_CHANGED: Level.NOTICE,
    # Ratings and titles a running tournament's pairing numbers and tie-breaks were made on change under
    # them, as taking a later rating on does, but for many players at once: confirmed and recorded.
    Code.RATING_LIST_CHANGED: Level.CONFIRM,
    Code.OTHER_RATING_PICKED: Level.NOTICE,
    Code.SCHEDULE_BY_HAND: Level.CONFIRM,
    Code.LOTS_DRAWN: Level.CONFIRM,
    # The checklist asks only that tied players can be ordered by hand (Q205) and sets no level; the order
    # changes no result, point or tie-break (a play-off's outcome, say): confirmed and recorded.
    Code.RANKED_BY_HAND: Level.CONFIRM,
    Code.IMPORT_BROKE_RULES: Level.CONFIRM,
    # As a round paired by hand whose pairing is not the engine's (MANUAL_PAIRING): a played round that
    # stands on the record otherwise than the pairing rules make it is confirmed and recorded (Q55, Q69).
    Code.IMPORT_NOT_ENGINE_PAIRING: Level.CONFIRM,
    Code.LONG_EVENT_RATING_TIEBREAKS: Level.NOTICE,
    # The arbiter's answer to the pairing's question, kept on the record: no rule is broken.
    Code.ABSENT_NOT_PAIRED: Level.NOTICE,
    Code.ABSENT_PAIRED: Level.NOTICE,
}


@dataclass(frozen=True)
class Warning:
    """One breach an action would commit: its code, level and the values its words need (numbers, codes)."""

    code: Code
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def level(self) -> Level:
        return LEVELS[self.code]


def unconfirmed(warnings: list[Warning], confirmed: frozenset[str] | set[str] | list[str]) -> list[Warning]:
    """The warnings of level 3 or 4 the arbiter has not confirmed yet; a notice needs no confirmation."""
    return [w for w in warnings if w.level in (Level.CONFIRM, Level.LEAVE) and str(w.code) not in set(confirmed)]


def refusals(warnings: list[Warning]) -> list[Warning]:
    return [w for w in warnings if w.level is Level.REFUSE]
