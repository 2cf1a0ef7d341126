"""Checking a round-robin schedule made or changed by hand: pure Python, no ORM.

A schedule is a list of rounds, each a list of boards (white, black or None for the free round), by
pairing number. Two rules of a round robin, FIDE C.05 read for the FMJD round robin:
- each pair meets once in each cycle (a double round robin has two cycles of equal length);
- nobody plays the same colour three times in a row. A round without a game (the free round of an odd
  field) neither breaks nor extends a run: colours alternate over the games played, as in the Swiss.
The findings are data (a code, the round, the pairing numbers); the words are made at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing.roundrobin import Board, berger_rounds

REPEAT = "repeat"
COLOUR_THREE = "colour-three"


@dataclass(frozen=True)
class Finding:
    code: str  # REPEAT or COLOUR_THREE
    round: int  # 1-based: the round where the pair meets again, or the third game of the run
    players: tuple[int, ...]  # the pair (REPEAT) or the player (COLOUR_THREE)
    earlier: int = 0  # REPEAT: the round they met before in the same cycle


def cycle_length(n_players: int) -> int:
    return berger_rounds(n_players)


def check_schedule(rounds: list[list[Board]], n_players: int) -> list[Finding]:
    """Every finding of the schedule, round by round (the rounds given may be fewer than the whole)."""
    per_cycle = cycle_length(n_players)
    findings: list[Finding] = []
    met: dict[frozenset[int], int] = {}
    colours: dict[int, list[str]] = {}
    for index, boards in enumerate(rounds):
        number = index + 1
        if index % per_cycle == 0:
            met = {}  # a new cycle: everyone meets everyone again
        for white, black in boards:
            if black is None:
                continue
            pair = frozenset((white, black))
            if pair in met:
                findings.append(Finding(REPEAT, number, tuple(sorted(pair)), met[pair]))
            met.setdefault(pair, number)
            for player, colour in ((white, "w"), (black, "b")):
                run = colours.setdefault(player, [])
                run.append(colour)
                if len(run) >= 3 and run[-1] == run[-2] == run[-3]:
                    findings.append(Finding(COLOUR_THREE, number, (player,)))
    return findings
