"""The conformance events a TRF carries as `###` lines, read back (VCL4THP Q45: the mode is never entered
again, not even by a round trip through a file).

Damier writes them after the header (tournaments.conformance.events.trf_lines):

    ### conformance mode left @ Round 2          (or: @ before Round 1)
    ### rounds-changed @ Round 2: new=6 old=5
    ### rating-correction @ Round 3: board=2 new=2-0 old=1-1 round=3

The import keeps them: a file that says the mode was left makes a tournament outside the mode, from the
same round; each event line becomes the same event again, and the rating tie-breaks' settings and later
ratings (`### rating tie-breaks: ...`, `### later rating: ...`) the same settings and ratings, so the copy
ranks its players as the original does. Other `###` lines (another program's comments, column rulers) are
left alone. The values come back as
the line gives them: whole numbers as numbers, the keys that hold lists (players, pairs, ...) as lists,
everything else as text, so the copy's TRF writes the same lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from simple_history.utils import bulk_create_with_history

from rules.numbers import number_or_none
from tournaments.conformance.policy import LEVELS, Code, Level
from tournaments.models import ConformanceEvent, EntryRating, TiebreakConvention, Tournament
from tournaments.pairing.trf import TrfError, trf_lines
from tournaments.rounds.settings_rules import check_settings

_CONVENTION = re.compile(r"### tie-break convention: (?P<value>\S+)(?: .*)?")
# ASCII digits only, as everywhere in a TRF: `\d` takes every script's digits, and int() reads them too.
_LEFT = re.compile(r"### conformance mode left @ (?:Round (?P<round>[0-9]+)|(?P<before>before Round 1))\s*")
_EVENT = re.compile(r"### (?P<code>[a-z][a-z0-9-]*) @ Round (?P<round>[0-9]+)(?:: (?P<values>.*))?")
_VALUE = re.compile(r"([a-z_][a-z0-9_]*)=(.*?)(?= [a-z_][a-z0-9_]*=|$)")
# Values the services store as lists (tournaments.conformance and its callers): read back as lists even
# with one item, since the pages that read them iterate over them.
LIST_KEYS = frozenset({"numbers", "pairs", "criteria", "players", "games", "pairing", "engine", "order", "groups",
                       "tiebreaks", "rechecked", "broken", "differs", "file"})
# A list key may hold one word instead (the engine could not pair the round to compare).
WORDS = frozenset({"not-possible"})
_CODES = {str(c) for c in Code}


@dataclass(frozen=True)
class FileEvent:
    line: int
    code: str
    round: int
    values: dict[str, Any]


@dataclass
class RatingSettings:
    """The rating tie-breaks' settings period_ratings.trf_lines writes when they differ from the default."""

    unrated_method: str = "drop"
    unrated_rating: int | None = None
    long_event: bool = False
    rating_round: int | None = None
    per_round: bool = False
    later: list[tuple[int, int, int, int]] = field(default_factory=list)  # (line, player, from round, rating)


@dataclass
class FileConformance:
    left_round: int | None = None  # the round the file says the mode was left (0: before round 1)
    left_line: int = 0
    events: list[FileEvent] = field(default_factory=list)
    ratings: RatingSettings | None = None
    convention: str | None = None  # how the tie-breaks count unplayed rounds, when not FMJD's reading

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
            left = 0 if m["before"] else _round(number, m["round"])
            if found.left_round is None or left < found.left_round:
                found.left_round, found.left_line = left, number
            continue
        if line.startswith(("### rating tie-breaks:", "### later rating:")):
            _rating_line(found, number, line)
            continue
        if m := _CONVENTION.fullmatch(line):
            if m["value"] not in TiebreakConvention.values:
                raise TrfError(f"line {number} (###): tie-break convention {m['value'][:40]!r} is not one Damier "
                               f"knows ({', '.join(TiebreakConvention.values)})")
            found.convention = m["value"]
            continue
        m = _EVENT.fullmatch(line)
        if m is None or m["code"] not in _CODES or LEVELS[Code(m["code"])] is Level.REFUSE:
            continue  # not an event (a refusal never is one: nothing was done)
        found.events.append(FileEvent(number, m["code"], _round(number, m["round"]), _values(m["values"] or "")))
    if found.left_round is None:
        leaving = [e for e in found.events if LEVELS[Code(e.code)] is Level.LEAVE]
        if leaving:  # an event that leaves the mode says so, whether or not the line above is there
            found.left_round, found.left_line = min(e.round for e in leaving), leaving[0].line
    return found


def _round(line: int, raw: str) -> int:
    """A round number of a ### line; one too long for int() (4,300 digits) is refused naming the line, as one
    beyond the tournament's rounds is by the import."""
    value = number_or_none(raw)
    if value is None:
        raise TrfError(f"line {line} (###): round {raw[:12]}{'...' if len(raw) > 12 else ''} is not a round of "
                       "this tournament")
    return value


_SETTINGS = re.compile(r"### rating tie-breaks: unrated=(?P<method>drop|fixed|lowest|average)"
                       r"(?: (?P<rating>[0-9]{1,4}))? "
                       r"ratings=(?:(?P<first>first)|(?P<per>per-round)|round (?P<round>[0-9]{1,2})) "
                       r"long-event=(?P<long>yes|no)")
_LATER = re.compile(r"### later rating: player=(?P<player>[0-9]{1,4}) from-round=(?P<round>[0-9]{1,2}) "
                    r"rating=(?P<rating>[0-9]{1,4})")


def _rating_line(found: FileConformance, number: int, line: str) -> None:
    """The rating tie-breaks' settings and the players' later ratings (long events, VCL4THP Q208-Q216): the
    standings of the copy must be the original's. A line in Damier's words that does not read is an error."""
    settings = found.ratings or RatingSettings()
    if m := _SETTINGS.fullmatch(line):
        settings.unrated_method = m["method"]
        # the figure after lowest / average is worked out again from the ratings; after fixed it is the setting
        settings.unrated_rating = int(m["rating"]) if m["method"] == "fixed" and m["rating"] else None
        settings.long_event = m["long"] == "yes"
        settings.per_round = bool(m["per"])
        settings.rating_round = int(m["round"]) if m["round"] else None
    elif m := _LATER.fullmatch(line):
        player, from_round = int(m["player"]), int(m["round"])
        # an entry holds one rating from each round (EntryRating's unique pair)
        if twice := next((x[0] for x in settings.later if x[1:3] == (player, from_round)), None):
            raise TrfError(f"line {number} (###): player {player}'s rating from round {from_round} is already given "
                           f"on line {twice}")
        settings.later.append((number, player, from_round, int(m["rating"])))
    else:
        shown = repr(line[4:64]) + ("..." if len(line) > 64 else "")
        raise TrfError(f"line {number} (###): {shown} is not read: expected '### rating tie-breaks: "
                       "unrated=M ratings=R long-event=yes|no' or '### later rating: player=N from-round=R rating=X'")
    found.ratings = settings


def _values(text: str) -> dict[str, Any]:
    return {key: _value(key, raw.strip()) for key, raw in _VALUE.findall(text.strip())}


def _value(key: str, raw: str) -> Any:
    if key in LIST_KEYS and raw not in WORDS:
        return [_number(item) for item in raw.split(",") if item] if raw else []
    return _number(raw)


def _number(raw: str) -> Any:
    return int(raw) if re.fullmatch(r"-?[0-9]{1,9}", raw) else raw


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
    if found.ratings is not None:
        _keep_ratings(tournament, found.ratings)
    if found.convention is not None:
        Tournament.objects.filter(pk=tournament.pk).update(tiebreak_convention=found.convention)
        tournament.tiebreak_convention = found.convention
    return made


def _keep_ratings(tournament: Tournament, settings: RatingSettings) -> None:
    r = settings
    fields = {"unrated_method": r.unrated_method, "unrated_rating": r.unrated_rating, "long_event": r.long_event,
              "tiebreak_rating_round": r.rating_round, "tiebreak_rating_per_round": r.per_round}
    for name, value in fields.items():
        setattr(tournament, name, value)
    try:
        tournament.full_clean(validate_unique=False, validate_constraints=False)
        check_settings(tournament)
    except ValidationError as exc:
        detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise TrfError(f"### rating tie-breaks: {detail}") from None
    Tournament.objects.filter(pk=tournament.pk).update(**fields)
    entries = {e.pairing_number: e for e in tournament.entries.all()}
    later = []
    for line, player, from_round, rating in r.later:
        if player not in entries:
            raise TrfError(f"line {line} (###): player {player} is not a starting rank of the file")
        item = EntryRating(entry=entries[player], from_round=from_round, rating=rating)
        try:
            item.full_clean(exclude=["entry"])
        except ValidationError as exc:
            detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
            raise TrfError(f"line {line} (###): {detail}") from None
        later.append(item)
    bulk_create_with_history(later, EntryRating)
