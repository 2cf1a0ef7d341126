"""Pairing numbers once the tournament is under way (FIDE C.04.2 2.3-2.4 read for the
FMJD Swiss): exchanging two numbers, regenerating them from the ratings, numbering a late entry, and taking
note of a rating changed since the entry.

- An exchange is between two players of equal tournament rating only, and always asks a confirmation (3).
- A regeneration sorts by the tournament rating and keeps the order equal ratings stand in now (which the
  title and the announced criterion gave at the first numbering, or an exchange the arbiter confirmed); it
  asks a confirmation when it moves two or more numbers.
- Neither is possible once round 4 is paired: from then on the numbers are fixed.
- A late entry in a Swiss gets the number his rating earns (rating, title, announced criterion) and the
  players from that number on move down one; the games already played keep their players (games point at
  entries, not at numbers). A notice (2) is recorded.
- A round robin's numbers are its Berger table: fixed once round 1 is paired, set by hand or by lot before.

Each write is one transaction; the events are recorded in it (tournaments.conformance.events).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from rules.numbers import number_or_none
from tournaments import ratings
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Numbering, Player, RoundStatus, Tournament
from tournaments.permissions import players_fixed_fields

FIXED_FROM_ROUND = 4  # C.04.2: numbers may be exchanged or regenerated until round 4 is paired
# The TRF's starting rank has four columns (5-8); the database column holds up to 32767, so every number
# typed, imported or given stays far inside it, and so do the numbers a renumbering passes through.
MAX_PAIRING_NUMBER = 9999


def number_too_big(number: int) -> str:
    """The refusal of a pairing number beyond the limit, in the active language."""
    return _("Pairing number %(number)s is too big: pairing numbers go from 1 to %(max)s (the TRF's four "
             "columns).") % {"number": number, "max": MAX_PAIRING_NUMBER}


@dataclass(frozen=True)
class Move:
    entry: Entry
    old: int
    new: int


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def numbers_open(tournament: Tournament) -> str:
    """Why the numbers can no longer be exchanged or regenerated, in words; '' while they can."""
    if tournament.is_round_robin:
        return _("A round robin's pairing numbers are its Berger table: they are drawn by lot or set by hand "
                 "before round 1 and never change after.")
    last = events.round_under_way(tournament)
    if last >= FIXED_FROM_ROUND:
        return _("Round %(round)s is paired: pairing numbers can be exchanged or regenerated only until round "
                 "%(fixed)s is paired.") % {"round": last, "fixed": FIXED_FROM_ROUND}
    return ""


def _refuse_unless_open(tournament: Tournament) -> None:
    if why := numbers_open(tournament):
        raise DomainError(why)


def renumber(moves: Sequence[tuple[Entry, int]]) -> None:
    """Give each entry its new number (the caller holds the tournament's lock). Two passes, so the unique
    constraint never sees a duplicate: first to numbers nobody holds or receives (the smallest free ones,
    so they stay in the column's range whatever numbers the field has), then to the new numbers."""
    moves = [(entry, new) for entry, new in moves if entry.pairing_number != new]
    if not moves:
        return
    held = set(Entry.objects.filter(tournament_id=moves[0][0].tournament_id)
               .values_list("pairing_number", flat=True))
    busy = held | {new for _entry, new in moves}
    free = (n for n in range(1, len(busy) + len(moves) + 2) if n not in busy)
    for entry, _new in moves:
        entry.pairing_number = next(free)
        entry.save(update_fields=["pairing_number"], numbering_step=True)
    for entry, new in moves:
        entry.pairing_number = new
        entry.save(update_fields=["pairing_number"], numbering_step=True)



def _name(entry: Entry) -> str:
    return f"{entry.player.full_name} ({entry.pairing_number})"


# --- Exchange ------------------------------------------------------------------------------------


def numbers_version(tournament: Tournament) -> str:
    """A short fingerprint of every entry's number: a page posts it back, and a write made on numbers that
    changed since (another arbiter, a late entry) is refused."""
    pairs = tournament.entries.order_by("pk").values_list("pk", "pairing_number")
    return hashlib.sha256(",".join(f"{pk}:{n}" for pk, n in pairs).encode()).hexdigest()[:16]


@transaction.atomic
def numbers_exchange(*, tournament: Tournament, first: Entry, second: Entry, expected: str | None = None,
                     confirmed: Collection[str] = (), user: Any = None) -> tuple[Entry, Entry]:
    """Swap the pairing numbers of two players of equal tournament rating (a confirmation, 3).

    expected: numbers_version of the page the arbiter saw; refused when the numbers changed since."""
    tournament = _lock(tournament)
    _refuse_unless_open(tournament)
    if expected is not None and numbers_version(tournament) != expected:
        raise StaleEditError(_("The pairing numbers changed since you read them (another arbiter, or a late "
                               "entry): nothing was done; look at them again."))
    found = {e.pk: e for e in Entry.objects.select_for_update(of=("self",)).select_related("player")
             .filter(tournament=tournament, pk__in=[first.pk, second.pk])}
    if first.pk == second.pk or len(found) != 2:
        raise DomainError(_("Choose two different players entered in %(tournament)s.") % {"tournament": tournament})
    a, b = found[first.pk], found[second.pk]
    a.tournament = b.tournament = tournament
    ra, rb = ratings.entry_rating(a), ratings.entry_rating(b)
    if ra != rb:
        raise DomainError(_("%(first)s (%(first_rating)s) and %(second)s (%(second_rating)s) do not have the same "
                            "tournament rating: only players of equal rating may exchange pairing numbers.")
                          % {"first": _name(a), "second": _name(b), "first_rating": ra if ra is not None else "–",
                             "second_rating": rb if rb is not None else "–"})
    warning = Warning(Code.NUMBERS_EXCHANGED, {"first": a.player.full_name, "second": b.player.full_name,
                                               "numbers": [a.pairing_number, b.pairing_number]})
    events.require([warning], confirmed=confirmed)
    renumber([(a, b.pairing_number), (b, a.pairing_number)])
    if not tournament.rounds.exists():
        # Before round 1 the numbering by rating would run again when round 1 is paired and undo the
        # exchange: the numbers are kept as they now stand.
        tournament.numbering = Numbering.MANUAL
        tournament.save(update_fields=["numbering"])
    events.record(tournament, warning.code, values=warning.values, user=user)
    return a, b


# --- Regeneration --------------------------------------------------------------------------------


def regeneration_moves(tournament: Tournament) -> list[Move]:
    """What a regeneration would do, number by number (the entries whose number changes).

    Before round 1 this is the first numbering (rating, title, announced criterion). After it, a stable
    sort by the tournament rating of the order as it stands: equal ratings keep the order chosen."""
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    for e in entries:
        e.tournament = tournament
    if tournament.rounds.exists():
        def key(e: Entry) -> tuple[bool, int]:
            rating = ratings.entry_rating(e)
            return (rating is None, -(rating or 0))
        ordered = sorted(entries, key=key)
    else:
        ordered = sorted(entries, key=ratings.entry_order_key)
    return [Move(e, e.pairing_number, n) for n, e in enumerate(ordered, start=1) if e.pairing_number != n]


def moves_signature(moves: Sequence[Move]) -> str:
    """The moves as the page showed them: 'entry:old>new,...', posted back with the confirmation."""
    return ",".join(f"{m.entry.pk}:{m.old}>{m.new}" for m in moves)


@transaction.atomic
def numbers_regenerate(*, tournament: Tournament, expected: str | None = None, confirmed: Collection[str] = (),
                       user: Any = None) -> list[Move]:
    """Renumber from the tournament ratings until round 4 is paired; a confirmation (3) when two or more
    numbers move. expected: moves_signature of what the arbiter was shown (refused when it changed)."""
    tournament = _lock(tournament)
    _refuse_unless_open(tournament)
    moves = regeneration_moves(tournament)
    if expected is not None and moves_signature(moves) != expected:
        raise StaleEditError(_("The entries or their ratings changed since the page was shown: nothing was done; "
                               "look at the new numbers and confirm again."))
    if not moves:
        return []
    warning = Warning(Code.NUMBERS_REGENERATED, {"moved": len(moves),
                                                 "numbers": [f"{m.old}>{m.new}" for m in moves]})
    if len(moves) >= 2:  # a permutation never moves exactly one number; kept explicit, as the checklist says
        events.require([warning], confirmed=confirmed)
    renumber([(m.entry, m.new) for m in moves])
    if not tournament.rounds.exists():
        tournament.numbering = Numbering.AUTO
        tournament.save(update_fields=["numbering"])
    events.record(tournament, warning.code, values=warning.values, user=user)
    return moves


# --- Late entry ----------------------------------------------------------------------------------


def is_late(tournament: Tournament) -> bool:
    """A Swiss entry made once round 1 is paired. A team competition's entries are its rosters' players,
    never paired by number: a player added to a roster mid-season is no late entry."""
    return not tournament.is_round_robin and not tournament.is_team and tournament.rounds.exists()


def earned_number(tournament: Tournament, player: Player) -> int:
    """The number a late entrant's rating earns: just before the first player (in number order) he ranks
    ahead of by rating, title and the announced criterion; after everyone when there is none."""
    fmjd, national, title = ratings.kept_values(tournament.pk, player)  # what his entry will keep
    rating = ratings.tournament_rating(SimpleNamespace(rating=fmjd, national_rating=national), tournament.rating_method)
    key = ratings.order_key(player, rating, tournament.tie_order, title)
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    for e in entries:
        e.tournament = tournament
        if key < ratings.entry_order_key(e):
            return e.pairing_number
    return (entries[-1].pairing_number if entries else 0) + 1


def make_room(tournament: Tournament, number: int) -> None:
    """Everyone from `number` on moves down one (their games stay theirs: games point at entries)."""
    below = list(tournament.entries.filter(pairing_number__gte=number).order_by("pairing_number"))
    if below and below[-1].pairing_number >= MAX_PAIRING_NUMBER:
        raise DomainError(number_too_big(below[-1].pairing_number + 1))
    renumber([(e, e.pairing_number + 1) for e in below])


def refuse_when_no_round_left(tournament: Tournament, player: Player) -> None:
    """A late entrant needs a round left to be paired in: once the last round is published, he would play
    nothing, and his number would move the players below him in a field whose standings and file are out."""
    total = tournament.rounds_total
    if total and tournament.rounds.filter(number__gte=total).exclude(status=RoundStatus.DRAFT).exists():
        raise DomainError(_("%(player)s cannot be entered in %(tournament)s: all %(rounds)s rounds are paired, "
                            "so he would play none, and the players' numbers are those of the record. To give "
                            "him a round, raise the number of rounds on the tournament's page first (a level-4 "
                            "change).") % {"player": player, "tournament": tournament, "rounds": total})


def place_late_entry(tournament: Tournament, player: Player, pairing_number: int | None) -> int:
    """The number of a late entrant (the caller holds the tournament's lock and creates the entry).

    A number the arbiter typed is accepted only when it is the one the rating earns: C.04.2 leaves no
    choice, and a wrong number would silently reorder the field."""
    refuse_when_no_round_left(tournament, player)
    number = earned_number(tournament, player)
    if pairing_number is not None and pairing_number != number:
        raise DomainError(_("%(player)s enters after round 1 is paired: his rating earns him pairing number "
                            "%(number)s (the players from %(number)s on move down one). Leave the number empty "
                            "or type %(number)s.") % {"player": player, "number": number})
    make_room(tournament, number)
    return number


def record_late_entry(tournament: Tournament, entry: Entry, user: Any = None) -> None:
    events.record(tournament, Code.LATE_ENTRY, values={"player": entry.player.full_name,
                                                       "number": entry.pairing_number}, user=user)


# --- Ratings changed since the entry -------------------------------------------------------------


@transaction.atomic
def ratings_take_note(*, tournament: Tournament, expected: str | None = None, user: Any = None) -> list[
        ratings.RatingChange]:
    """The arbiter takes on the ratings his players now hold where they differ from the tournament's: each
    entry takes its player's ratings and each change is recorded (a notice, 2). Refused once the
    tournament is finished. expected: changes_signature shown."""
    tournament = _lock(tournament)
    if ratings.is_finished(tournament):
        raise DomainError(_("%(tournament)s is finished: it keeps the ratings it was played on, whatever a later "
                            "list says.") % {"tournament": tournament})
    if tournament.fmjd_list_id is not None or tournament.national_list_id is not None:
        # Its entries keep their list's values: a later list is taken through the comparison with it.
        raise DomainError(_("%(tournament)s is rated on a chosen rating list: compare it with a later list below "
                            "and take the changes you choose.") % {"tournament": tournament})
    changes = ratings.rating_changes(tournament)
    if expected is not None and changes_signature(changes) != expected:
        raise StaleEditError(_("The ratings changed again since the page was shown: nothing was done; look at "
                               "them again."))
    for c in changes:
        events.record(tournament, Code.RATING_CHANGED, values={"player": c.entry.player.full_name,
                                                               "old": c.at_entry, "new": c.now}, user=user)
        entry = Entry.objects.select_for_update().get(pk=c.entry.pk)
        entry.take_ratings(c.entry.player)
        if user is not None:
            entry._history_user = user  # type: ignore[attr-defined]
        entry.save(update_fields=["rating", "national_rating"], numbering_step=True)
    return changes


def changes_signature(changes: Sequence[ratings.RatingChange]) -> str:
    return ",".join(f"{c.entry.pk}:{c.at_entry}>{c.now}" for c in changes)


# --- A rating list checked against the entries (VCL4THP 133, 142-144) ----------------------------


@dataclass(frozen=True)
class ListDifference:
    entry: Entry
    field: str  # "rating" or "national_rating"
    old: int | None
    new: int

    @property
    def token(self) -> str:
        """What the page posts back for this difference when the arbiter ticks it."""
        return f"{self.entry.player_id}:{self.field}:{self.new}"


LIST_FIELDS = {"rating": "rating", "fmjd_rating": "rating", "national_rating": "national_rating"}


def list_differences(tournament: Tournament, data: bytes, source: str) -> list[ListDifference]:
    """The ratings a list (CSV: fmjd_id, then rating and/or national_rating) gives the entered players,
    where they differ from the players' own. Nothing is written: the arbiter chooses which to apply, to the
    players; the tournament takes them on only through ratings_take_note."""
    import csv
    import io

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    # newline="": the csv module splits the records itself, at CR LF, LF or a lone CR (an old Mac file).
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return _list_differences(tournament, reader, source)
    except csv.Error as exc:  # a field over the csv module's limit (128 KB), a quote it cannot close...
        raise DomainError(_("%(file)s: unreadable CSV (%(why)s).") % {"file": source, "why": exc}) from None


def _list_differences(tournament: Tournament, reader: Any, source: str) -> list[ListDifference]:
    header = [h.strip().lower().replace(" ", "_") for h in next(reader, [])]
    if "fmjd_id" not in header or not set(header) & set(LIST_FIELDS):
        raise DomainError(_("%(file)s, line 1: a rating list names the columns fmjd_id and rating (or "
                            "national_rating).") % {"file": source})
    by_id = {e.player.fmjd_id: e for e in tournament.entries.select_related("player") if e.player.fmjd_id}
    out: list[ListDifference] = []
    for line, row in enumerate(reader, start=2):
        values = dict(zip(header, (cell.strip() for cell in row), strict=False))
        entry = by_id.get(_number(values.get("fmjd_id", ""), source, line, "fmjd_id") or -1)
        if entry is None:
            continue
        for column, field in LIST_FIELDS.items():
            new = _number(values.get(column, ""), source, line, column)
            old = getattr(entry.player, field)
            if new is not None and new != old:
                if not ratings.RATING_MIN <= new <= ratings.RATING_MAX:
                    raise DomainError(_("%(file)s, line %(line)s: %(column)s %(value)s is not a possible rating "
                                        "(%(low)s to %(high)s).") % {"file": source, "line": line, "column": column,
                                                                    "value": new, "low": ratings.RATING_MIN,
                                                                    "high": ratings.RATING_MAX})
                out.append(ListDifference(entry, field, old, new))
    return out


def _number(text: str, source: str, line: int, column: str) -> int | None:
    if not text:
        return None
    number = number_or_none(text, high=999_999_999)
    if number is None:
        raise DomainError(_("%(file)s, line %(line)s: %(column)s “%(value)s” is not a whole number.")
                          % {"file": source, "line": line, "column": column, "value": text[:20]})
    return number


@transaction.atomic
def ratings_apply(*, tournament: Tournament, chosen: Sequence[str], source: str, user: Any = None) -> list[Player]:
    """Write the differences the arbiter ticked (ListDifference.token), each checked again; the others are
    left as they are. The players keep the list as the source of their ratings."""
    import datetime

    from django.core.exceptions import ValidationError

    # The tournaments of these players, this one among them, locked first and by id: a player's save moves
    # each of their cache versions, and a player's page locks them in that order too (player_edit).
    pks = [pk for t in chosen if (pk := number_or_none(t.split(":")[0])) is not None]
    others = Entry.objects.filter(player_id__in=pks).values_list("tournament_id", flat=True)
    list(Tournament.objects.select_for_update().filter(Q(pk=tournament.pk) | Q(pk__in=others)).order_by("pk")
         .values_list("pk", flat=True))
    tournament = Tournament.objects.get(pk=tournament.pk)
    entered = set(tournament.entries.values_list("player_id", flat=True))
    changed: dict[int, Player] = {}
    for token in chosen:
        parts = token.split(":")
        numbers = [number_or_none(parts[0]), number_or_none(parts[-1])]
        if len(parts) != 3 or parts[1] not in ("rating", "national_rating") or None in numbers \
                or numbers[0] not in entered:
            raise DomainError(_("A chosen rating is not one of this tournament's players: nothing was written."))
        pk, field, value = numbers[0], parts[1], numbers[1]
        player = changed.get(pk) or Player.objects.select_for_update().get(pk=pk)
        setattr(player, field, value)
        changed[pk] = player
    if user is not None:  # a player shared with another arbiter's tournament under way (permissions)
        fixed = players_fixed_fields(user, list(changed))
        kept = sorted(changed[pk].full_name for pk, f in fixed.items() if f is None or "rating" in f)
        if kept:
            raise DomainError(_("Nothing was written: %(players)s also play in another arbiter's tournament under "
                                "way, whose pairings and standings were made on their ratings; only its arbiter or "
                                "an administrator can change them.") % {"players": ", ".join(kept)})
    stamp = f"{source[:140]} ({datetime.date.today().isoformat()})"
    for player in changed.values():
        player.rating_source = stamp
        try:
            player.full_clean(validate_unique=False, validate_constraints=False)
        except ValidationError as exc:
            raise DomainError(f"{player.full_name}: " + " ".join(" ".join(v) for v in exc.message_dict.values())) \
                from None
        if user is not None:
            player._history_user = user  # type: ignore[attr-defined]
        player.save(update_fields=["rating", "national_rating", "rating_source"])
    return list(changed.values())
