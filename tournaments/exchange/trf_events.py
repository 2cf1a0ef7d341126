"""The conformance events a TRF carries as `###` lines, read back (VCL4THP Q45: the mode is never entered
again, not even by a round trip through a file).

Damier writes them after the header (tournaments.conformance.events.trf_lines):

    ### conformance mode left @ Round 2          (or: @ before Round 1)
    ### rounds-changed @ Round 2: new=6 old=5
    ### rating-correction @ Round 3: board=2 new=2-0 old=1-1 round=3

The import keeps them: a file that says the mode was left makes a tournament outside the mode, from the
same round; each event line becomes the same event again. Other `###` lines (another program's comments,
column rulers, the rating tie-break settings) are not events and are left alone. The values come back as
the line gives them: whole numbers as numbers, the keys that hold lists (players, pairs, ...) as lists,
everything else as text, so the copy's TRF writes the same lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tournaments.conformance.policy import LEVELS, Code, Level
from tournaments.models import ConformanceEvent, Tournament
from tournaments.pairing.trf import trf_lines

_LEFT = re.compile(r"### conformance mode left @ (?:Round (?P<round>\d+)|(?P<before>before Round 1))\s*")
_EVENT = re.compile(r"### (?P<code>[a-z][a-z0-9-]*) @ Round (?P<round>\d+)(?:: (?P<values>.*))?")
_VALUE = re.compile(r"([a-z_][a-z0-9_]*)=(.*?)(?= [a-z_][a-z0-9_]*=|$)")
# Values the services store as lists (tournaments.conformance and its callers): read back as lists even
# with one item, since the pages that read them iterate over them.
LIST_KEYS = frozenset({"numbers", "pairs", "criteria", "players", "games", "pairing", "engine", "order", "groups",
                       "tiebreaks", "rechecked", "broken", "differs"})
_CODES = {str(c) for c in Code}


@dataclass(frozen=True)
class FileEvent:
    line: int
    code: str
    round: int
    values: dict[str, Any]


@dataclass
class FileConformance:
    left_round: int | None = None  # the round the file says the mode was left (0: before round 1)
    left_line: int = 0
    events: list[FileEvent] = field(default_factory=list)

    def has(self, code: str, round_number: int) -> bool:
        return any(e.code == code and e.round == round_number for e in self.events)


def read_conformance(text: str) -> FileConformance:
    """The mode and the events the `###` lines say (nothing written)."""
    found = FileConformance()
    for number, line in enumerate(trf_lines(text), start=1):
        if not line.startswith("###"):
            continue
        line = line.rstrip()
        if m := _LEFT.fullmatch(line):
            left = 0 if m["before"] else int(m["round"])
            if found.left_round is None or left < found.left_round:
                found.left_round, found.left_line = left, number
            continue
        m = _EVENT.fullmatch(line)
        if m is None or m["code"] not in _CODES or LEVELS[Code(m["code"])] is Level.REFUSE:
            continue  # not an event (a refusal never is one: nothing was done)
        found.events.append(FileEvent(number, m["code"], int(m["round"]), _values(m["values"] or "")))
    if found.left_round is None:
        leaving = [e for e in found.events if LEVELS[Code(e.code)] is Level.LEAVE]
        if leaving:  # an event that leaves the mode says so, whether or not the line above is there
            found.left_round, found.left_line = min(e.round for e in leaving), leaving[0].line
    return found


def _values(text: str) -> dict[str, Any]:
    return {key: _value(key, raw.strip()) for key, raw in _VALUE.findall(text.strip())}


def _value(key: str, raw: str) -> Any:
    if key in LIST_KEYS:
        return [_number(item) for item in raw.split(",") if item] if raw else []
    return _number(raw)


def _number(raw: str) -> Any:
    return int(raw) if re.fullmatch(r"-?\d{1,9}", raw) else raw


def keep(tournament: Tournament, found: FileConformance) -> list[ConformanceEvent]:
    """Write what the file says into the new tournament (the caller's transaction): its events, with their
    levels, and the round the mode was left; the event that left it is marked, as events.record marks it."""
    made = []
    marked = False
    for e in found.events:
        level = LEVELS[Code(e.code)]
        leaves = level is Level.LEAVE and not marked and found.left_round is not None
        marked |= leaves
        made.append(ConformanceEvent(tournament=tournament, round_number=e.round, code=e.code, level=int(level),
                                     values=e.values, left_mode=leaves))
    made = ConformanceEvent.objects.bulk_create(made)
    if found.left_round is not None:
        Tournament.objects.filter(pk=tournament.pk).update(conformance_left_round=found.left_round)
        tournament.conformance_left_round = found.left_round
    return made
