"""A Swiss draft as a pairing check reads it: each board's players as the pairing saw them before the round.

Pure reads. The figures come from the pairing's own data: the request the engine pairs from
(`pairing_bridge.pairing_request`) and the states the Dutch rules derive from it (`pairing.state.build_states`),
so the page shows what the engine weighed, not a second reckoning. Codes and numbers only: the page words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.errors import DomainError
from tournaments.models import Round, RoundStatus
from tournaments.pairing.state import PState, build_states
from tournaments.rounds.pairing_bridge import pairing_request


@dataclass(frozen=True)
class Side:
    """One player before the round: points, colours of the games played (oldest first, "w"/"b"), and the
    floats of the two previous rounds as (round number, "u" or "d"), oldest first."""

    points: int
    colours: str
    floats: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class BoardCheck:
    board: int
    white: Side
    black: Side | None  # None on a bye
    group: int  # the score group the board was paired in: the points of the higher player


def _side(state: PState, number: int) -> Side:
    floats = tuple((r, f) for r, f in ((number - 2, state.float2), (number - 1, state.float1)) if f and r >= 1)
    return Side(state.score, "".join(state.colours), floats)


def draft_boards(rnd: Round) -> dict[int, BoardCheck]:
    """Board number -> the check of its players, for a Swiss round still a draft; empty otherwise, or when
    an earlier round lacks a result (the engine could not read the tournament either). A fixed number of
    queries, whatever the number of boards."""
    tournament = rnd.tournament
    if rnd.status != RoundStatus.DRAFT or tournament.is_round_robin:
        return {}
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    try:
        states = build_states(pairing_request(tournament, entries, rnd.number))
    except DomainError:
        return {}
    number_of = {e.pk: e.pairing_number for e in entries}
    out: dict[int, BoardCheck] = {}
    for board, white_id, black_id in rnd.games.values_list("board", "white_id", "black_id"):
        white = states.get(number_of.get(white_id, -1))
        black = states.get(number_of.get(black_id, -1)) if black_id else None
        if white is None or (black_id and black is None):
            continue
        sides = [_side(s, rnd.number) for s in (white, black) if s is not None]
        out[board] = BoardCheck(board, sides[0], sides[1] if black is not None else None,
                                max(s.points for s in sides))
    return out
