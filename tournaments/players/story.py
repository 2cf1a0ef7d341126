"""A player's whole story in one tournament, for the arbiter: his entry, every round (a game, a bye he
asked for, a round he missed or no longer plays), his withdrawal or expulsion, and every change made to
his entry and his games, oldest first, with who made it and why.

Reads only; codes and values, the words are the page's (templates/admin/tournaments/entry/story.html).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Min, Q

from tournaments import selectors
from tournaments.models import ConformanceEvent, Entry, EntryStatus, Game, Round, numbered

# What a round was for the player when he has no game in it.
NOT_ENTERED = "not_entered"  # a late entrant's round before his entry
REQUESTED_BYE = "requested_bye"  # a round he asked to sit out, worth bye_points (0, 1 or 2)
WITHDRAWN = "withdrawn"  # after his withdrawal or expulsion
NOT_PAIRED = "not_paired"  # a round paired without him, for no recorded reason


@dataclass(frozen=True)
class RoundLine:
    number: int
    status: str  # the round's status: draft, published, completed
    game: selectors.PlayerRound | None  # his game (or the pairing's bye) in that round
    absence: str = ""  # one of the codes above when he has no game
    bye_points: int | None = None  # a requested bye's value
    opponent: str = ""  # "12. Dupont, Jean"


@dataclass(frozen=True)
class Change:
    when: datetime.datetime
    who: str  # the account, "" for the program
    kind: str  # one of the change kinds below
    round: int | None
    fields: tuple[tuple[str, str, str], ...] = ()  # (field, old, new) as shown: names for players, "–" for none
    reason: str = ""
    event: ConformanceEvent | None = None


# The kinds of change a story tells; the normal course (a board paired, its first result) is the rounds
# table's, not a change.
ENTERED = "entered"
ENTRY_CHANGED = "entry_changed"
RESULT_CORRECTED = "result_corrected"  # a result replaced or cleared once given
BOARD_CHANGED = "board_changed"  # a board's players changed after it was paired (by hand, or re-paired)
EVENT = "event"  # a conformance event naming him


@dataclass(frozen=True)
class Story:
    entry: Entry
    card: selectors.PlayerCard | None
    rounds: list[RoundLine]
    changes: list[Change] = field(default_factory=list)
    byes_ahead: list[tuple[int, int]] = field(default_factory=list)  # (round, points) not paired yet


ENTRY_FIELDS = ("pairing_number", "player_id", "status", "withdrawn_after_round", "expelled_after_round",
                "excused_rounds", "bye_points", "rating", "national_rating")


def _shown(value: Any, names: dict[Any, str] | None = None) -> str:
    if value in (None, "", [], {}):
        return "–"
    if names is not None:
        return str(names.get(value, value))
    if isinstance(value, list):  # rounds of the requested byes
        return ", ".join(map(str, value))
    if isinstance(value, dict):  # round -> points of a requested bye
        return ", ".join(f"{k}: +{v}" for k, v in sorted(value.items(), key=lambda kv: int(kv[0])))
    return str(value)


def _changed(record: Any, previous: Any, fields: tuple[str, ...],
             names: dict[str, dict[Any, str]]) -> tuple[tuple[str, str, str], ...]:
    return tuple((name, _shown(getattr(previous, name), names.get(name)), _shown(getattr(record, name),
                                                                               names.get(name)))
                 for name in fields if getattr(previous, name) != getattr(record, name))


def _changes(entry: Entry) -> list[Change]:
    tournament_id = entry.tournament_id
    entries = {e.pk: str(e) for e in Entry.objects.filter(tournament_id=tournament_id).select_related("player")}
    players = {e.player_id: e.player.full_name for e in Entry.objects.filter(tournament_id=tournament_id)
               .select_related("player")}
    changes: list[Change] = []
    previous = None
    for record in entry.history.select_related("history_user").order_by("history_date", "history_id"):
        who, reason = str(record.history_user or ""), record.history_change_reason or ""
        if previous is None:
            changes.append(Change(record.history_date, who, ENTERED, None,
                                  (("pairing_number", "–", _shown(record.pairing_number)),), reason))
        elif fields := _changed(record, previous, ENTRY_FIELDS,
                                {"player_id": players, "status": dict(EntryStatus.choices)}):
            changes.append(Change(record.history_date, who, ENTRY_CHANGED, None, fields, reason))
        previous = record
    games = Game.objects.filter(Q(white_id=entry.pk) | Q(black_id=entry.pk)).select_related("round")
    numbers = {g.pk: g.round.number for g in games}
    last: dict[int, Any] = {}
    for record in Game.history.filter(id__in=list(numbers)).select_related("history_user").order_by(
            "id", "history_date", "history_id"):
        before = last.get(record.id)
        last[record.id] = record
        if before is None:
            continue  # the board as paired: the rounds table tells it
        who, reason, number = str(record.history_user or ""), record.history_change_reason or "", numbers[record.id]
        if before.result and before.result != record.result:
            changes.append(Change(record.history_date, who, RESULT_CORRECTED, number,
                                  (("result", _shown(before.result), _shown(record.result)),), reason))
        seats = _changed(record, before, ("white_id", "black_id"), {"white_id": entries, "black_id": entries})
        if seats:
            changes.append(Change(record.history_date, who, BOARD_CHANGED, number, seats, reason))
    for event in ConformanceEvent.objects.filter(tournament_id=tournament_id).select_related("created_by"):
        named = event.values.get("numbers")
        if isinstance(named, list) and entry.pairing_number in named:
            changes.append(Change(event.created_at, str(event.created_by or ""), EVENT, event.round_number or None,
                                  event=event))
    return sorted(changes, key=lambda c: c.when)


def story(entry: Entry) -> Story:
    """Every round of the tournament so far for this entry, and the changes, oldest first."""
    tournament = entry.tournament
    card = selectors.player_card(tournament, entry.pairing_number, public_only=False)
    games = {r.round: r for r in (card.rounds if card else [])}
    first = entry.history.order_by("history_date").values_list("history_date", flat=True).first()
    out_after = min((n for n in (entry.withdrawn_after_round, entry.expelled_after_round) if n is not None),
                    default=None)
    excused = set(entry.excused_rounds or [])
    paired_at = dict(Round.history.filter(tournament_id=tournament.pk).values("id").annotate(
        first=Min("history_date")).values_list("id", "first"))
    lines = []
    for rnd in tournament.rounds.order_by("number"):
        game = games.get(rnd.number)
        absence, points = "", None
        if game is None:
            asked = int((entry.bye_points or {}).get(str(rnd.number), 0)) if rnd.number in excused else None
            if out_after is not None and rnd.number > out_after:
                absence = WITHDRAWN
            elif first is not None and rnd.pk in paired_at and paired_at[rnd.pk] < first:
                absence, points = NOT_ENTERED, asked  # a late entry's missed round (absent 0 when recorded)
            elif asked is not None:
                absence, points = REQUESTED_BYE, asked
            else:
                absence = NOT_PAIRED
        elif game.result is not None and game.result.is_requested_bye:
            points = game.points
        opponent = game.opponent if game is not None else None
        lines.append(RoundLine(rnd.number, str(rnd.status), game, absence, points,
                               numbered(opponent.pairing_number, opponent.name) if opponent else ""))
    last = lines[-1].number if lines else 0
    ahead = [(n, int((entry.bye_points or {}).get(str(n), 0))) for n in sorted(excused) if n > last]
    return Story(entry, card, lines, _changes(entry), ahead)

