"""The round page's save: the results typed on the table or the slip, and a draft round's boards re-paired by hand.

The page's form (tournaments.admin.results_entry) parses what was posted into a `ResultEntry`; this service
writes it in one transaction: every board or none. Each result goes through `services.game_record_result`
(or, for the rating report only, `corrections.game_record_rating_result`), which checks the version the
board was read at and asks the checklist's confirmations; a refusal (DomainError) writes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.models import Entry, Game, Round, RoundStatus
from tournaments.pairing.model import CheckReport
from tournaments.rounds import corrections, manual_pairing, pairing_bridge, round_control, services


@dataclass(frozen=True)
class TypedResult:
    """One board the arbiter changed: its game as the page read it, the result typed ("" clears it), and the
    version of the game the page was loaded with (None when the page did not say)."""

    game: Game
    result: str
    expected_version: int | None = None


@dataclass(frozen=True)
class ResultEntry:
    """What the round page's form read from the table and the slip: nothing here is a request."""

    results: Sequence[TypedResult] = ()
    boards: Mapping[int, tuple[Entry, Entry | None]] = field(default_factory=dict)  # board -> White, Black
    reason: str = ""  # a correction's reason, for a completed round
    rating_only: bool = False  # a correction for the rating report only (C.04.2 4.3)
    confirmed: Collection[str] = ()  # the warnings' codes the arbiter ticked


@dataclass
class EntrySaved:
    """What the save did, for the page to say."""

    games: list[Game] = field(default_factory=list)  # the boards whose result (or rating result) was saved
    correction_warnings: list[str] = field(default_factory=list)  # later rounds paired on a corrected result
    report: CheckReport | None = None  # a Swiss draft edited by hand: the check of its pairing now


@transaction.atomic
def round_enter_results(*, round: Round, entry: ResultEntry, user: Any = None) -> EntrySaved:
    """Save the round page's entry: results in a published or completed round, boards in a draft one."""
    saved = EntrySaved()
    # A reason is a correction's: only a completed round's results are corrections.
    correcting = round.status == RoundStatus.COMPLETED
    for typed in entry.results:
        if entry.rating_only:
            saved.games.append(corrections.game_record_rating_result(
                game=typed.game, result=typed.result, confirmed=entry.confirmed, user=user,
                expected_version=typed.expected_version))
            continue
        game = services.game_record_result(game=typed.game, result=typed.result,
                                           expected_version=typed.expected_version,
                                           reason=entry.reason if correcting else "", user=user,
                                           confirmed=entry.confirmed)
        saved.games.append(game)
        if correcting:
            saved.correction_warnings += [w for w in round_control.correction_warnings(game)
                                          if w not in saved.correction_warnings]
    if entry.boards:
        swiss = not round.tournament.is_round_robin
        if swiss:
            # A hand edit is part of the manual pairing phase: the first one opens it.
            manual_pairing.manual_edit_start(round=round, user=user)
        # A round robin's boards go through its guard (rr_guard), which asks its confirmations.
        services.round_set_boards(round=round, boards=dict(entry.boards), confirmed=entry.confirmed, user=user)
        if swiss:
            saved.report = pairing_bridge.check_round(round.tournament, round.number)
    return saved


def correction_confirmations(round: Round) -> list[Warning]:
    """What a correction of this round asks before anyone types it, as `services.game_record_result` will
    ask it (corrections.warnings_for): nothing while no later round is paired, a confirmation once the next
    one is, leaving the conformance mode after two or more; and, once a later round is paired, the
    confirmation of a correction for the rating report only. Empty for a round that is not completed."""
    if round.status != RoundStatus.COMPLETED:
        return []
    after = events.round_under_way(round.tournament) - round.number
    if after < 1:
        return []
    values = {"round": round.number, "next": round.number + 1, "later": after}
    code = Code.PREVIOUS_ROUND_CORRECTED if after == 1 else Code.OLD_ROUND_CORRECTED
    return [Warning(code, values), Warning(Code.RATING_CORRECTION, values)]
