"""Check-in before a round: who is present, marked by the arbiter or by the player from his phone.

Switched on per tournament (`Tournament.checkin_enabled`), open for one round at a time (`checkin_round`)
with a short code shown in the hall (`checkin_code`) that a player types on his own player page. Every
writer here takes the tournament's row first, as every writer does (tournaments/locks.py): a check-in and
the pairing of its round never cross.

Two arbiters marking at once: a mark says what the arbiter wants (present, or not), never "toggle", so two
marks of one player give the same state whichever lands first, and each carries the round the screen was
read for: a mark made on a screen read before check-in was closed or opened for another round is refused.

The pairing asks what the players not checked in get (`pair_round`): not paired and 0 points (the requested
bye worth 0 of tournaments/players/requested_byes.py: the round in the entry's `excused_rounds`), or paired
anyway; the answer is kept as a conformance notice (on the record and in the TRF), never given silently.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import locked_tournament
from tournaments.models import CheckIn, Entry, Game, Round, Tournament
from tournaments.models.hall import CheckInBy
from tournaments.results import Result
from tournaments.rounds import services

# Read aloud and typed on a phone: no 0/O, 1/I/L, 2/Z, 5/S, 8/B look-alikes.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 5
# Rounds in a row without checking in before the arbiter is offered a withdrawal. The FMJD competition rules
# (art. 5.7, 5.9) say what an absence scores and what a withdrawal does, never after how many absences a
# player counts as withdrawn: two is the smallest run that is more than one bad morning.
ABSENCES_BEFORE_PROPOSAL = 2
# The answers the pairing's question takes.
NOT_PAIRED, PAIRED = "not_paired", "paired"


class CodeLocked(DomainError):
    """Too many wrong codes from one address for one tournament: refused until the cool-off ends."""


# --- Reads ------------------------------------------------------------------------------------------


def next_round(tournament: Tournament) -> int:
    return int(tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1


def is_open(tournament: Tournament) -> bool:
    return bool(tournament.checkin_enabled and tournament.checkin_round)


def expected(tournament: Tournament, number: int) -> list[Entry]:
    """Who is to be paired in round `number` and so to check in: not gone, not sitting it out by request."""
    return [e for e in tournament.entries.select_related("player").order_by("pairing_number")
            if not e.gone_before(number) and number not in (e.excused_rounds or [])]


@dataclass(frozen=True)
class Line:
    entry: Entry
    present: bool
    by: str  # "" when absent, else CheckInBy


@dataclass(frozen=True)
class Presence:
    """The check-in of the open round: each expected player present or not, and the count."""

    round: int
    code: str
    lines: list[Line]

    @property
    def present(self) -> int:
        return sum(1 for line in self.lines if line.present)

    @property
    def total(self) -> int:
        return len(self.lines)

    @property
    def absent(self) -> list[Entry]:
        return [line.entry for line in self.lines if not line.present]


def presence(tournament: Tournament) -> Presence | None:
    """None while check-in is closed (or switched off)."""
    if not is_open(tournament):
        return None
    number = int(tournament.checkin_round or 0)
    marked = dict(CheckIn.objects.filter(entry__tournament=tournament, round_number=number)
                  .values_list("entry_id", "by"))
    lines = [Line(e, e.pk in marked, marked.get(e.pk, "")) for e in expected(tournament, number)]
    return Presence(number, tournament.checkin_code, lines)


def absentees_version(entries: Iterable[Entry]) -> str:
    """What the pairing's question was read at: the ids of the players it named."""
    return ",".join(str(e.pk) for e in sorted(entries, key=lambda e: e.pk))


def _absent_by_round(tournament: Tournament) -> dict[int, set[int]]:
    """Pairing numbers absent at check-in, by round: not paired, or paired anyway and lost by forfeit."""
    forfeits: dict[int, set[int]] = {}
    lost = Game.objects.filter(round__tournament=tournament).filter(
        Q(result__in=[Result.BLACK_FORFEIT_WIN.value, Result.DOUBLE_FORFEIT.value])
        | Q(result=Result.WHITE_FORFEIT_WIN.value))
    for number, result, white, black in lost.values_list("round__number", "result", "white__pairing_number",
                                                         "black__pairing_number"):
        if result != Result.WHITE_FORFEIT_WIN.value:
            forfeits.setdefault(number, set()).add(white)
        if result != Result.BLACK_FORFEIT_WIN.value and black is not None:
            forfeits.setdefault(number, set()).add(black)
    absent: dict[int, set[int]] = {}
    for code, values in tournament.conformance_events.filter(
            code__in=[Code.ABSENT_NOT_PAIRED, Code.ABSENT_PAIRED]).values_list("code", "values"):
        number = int(values.get("round", 0))
        players = {int(p) for p in values.get("players", [])}
        if code == Code.ABSENT_PAIRED:
            players &= forfeits.get(number, set())
        absent.setdefault(number, set()).update(players)
    return absent


def withdrawal_proposals(tournament: Tournament) -> list[tuple[Entry, list[int]]]:
    """Players still in the tournament who did not check in for the last ABSENCES_BEFORE_PROPOSAL rounds paired
    (not paired for it, or paired and lost by forfeit), with those rounds: offered to the arbiter for a
    withdrawal, never withdrawn here."""
    last = next_round(tournament) - 1
    if last < ABSENCES_BEFORE_PROPOSAL:
        return []
    rounds = list(range(last - ABSENCES_BEFORE_PROPOSAL + 1, last + 1))
    absent = _absent_by_round(tournament)
    numbers = set.intersection(*(absent.get(n, set()) for n in rounds))
    if not numbers:
        return []
    return [(e, rounds) for e in tournament.entries.select_related("player").filter(
        pairing_number__in=numbers).order_by("pairing_number") if not e.gone_before(last + 1)]


# --- The arbiter's writes ---------------------------------------------------------------------------


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _save(tournament: Tournament, reason: str, user: Any) -> None:
    tournament._change_reason = reason  # type: ignore[attr-defined]
    if getattr(user, "is_authenticated", False):
        tournament._history_user = user  # type: ignore[attr-defined]
    tournament.save(update_fields=["checkin_round", "checkin_code"])


def _open_for(tournament: Tournament, expected_round: int | None) -> int:
    """The round check-in is open for, as the screen read it: refused when it was closed or moved since."""
    if not tournament.checkin_enabled:
        raise DomainError(_("Check-in is not switched on for %(tournament)s (its settings).")
                          % {"tournament": tournament})
    if not tournament.checkin_round:
        raise StaleEditError(_("Check-in is closed (the round was paired, or another arbiter closed it): nothing "
                               "was changed; look at the check-in screen again."))
    if expected_round is not None and tournament.checkin_round != expected_round:
        raise StaleEditError(_("Check-in is now open for round %(round)s, not the round this screen showed: "
                               "nothing was changed; look at it again.") % {"round": tournament.checkin_round})
    return int(tournament.checkin_round)


@transaction.atomic
def checkin_open(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Open check-in for the next round with a new code; already open for it: as it is (the code kept)."""
    tournament = locked_tournament(tournament)
    if not tournament.checkin_enabled:
        raise DomainError(_("Check-in is not switched on for %(tournament)s: tick “check-in before each round” "
                            "in its settings first.") % {"tournament": tournament})
    number = next_round(tournament)
    total = selectors.rounds_total(tournament)
    if total and number > total:
        raise DomainError(_("%(tournament)s: all %(total)s rounds are paired; there is no round to check in "
                            "for.") % {"tournament": tournament, "total": total})
    if tournament.checkin_round == number and tournament.checkin_code:
        return tournament
    tournament.checkin_round, tournament.checkin_code = number, new_code()
    _save(tournament, f"check-in opened for round {number}", user)
    return tournament


@transaction.atomic
def checkin_close(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Close check-in; the marks are kept (the pairing does not ask about a closed check-in)."""
    tournament = locked_tournament(tournament)
    if tournament.checkin_round:
        number = tournament.checkin_round
        tournament.checkin_round, tournament.checkin_code = None, ""
        _save(tournament, f"check-in closed for round {number}", user)
    return tournament


def _entry(tournament: Tournament, entry_id: int, number: int) -> Entry:
    entry = Entry.objects.select_related("player").filter(pk=entry_id, tournament=tournament).first()
    if entry is None:
        raise DomainError(_("That player is not entered in %(tournament)s: nothing was changed.")
                          % {"tournament": tournament})
    if entry.gone_before(number):
        raise DomainError(_("%(player)s has left the tournament: he is not paired in round %(round)s.")
                          % {"player": entry, "round": number})
    return entry


@transaction.atomic
def checkin_mark(*, tournament: Tournament, entry_id: int, present: bool, expected_round: int | None,
                 user: Any = None) -> bool:
    """The arbiter marks a player present (or not) for the open round; True when it changed anything."""
    tournament = locked_tournament(tournament)
    number = _open_for(tournament, expected_round)
    entry = _entry(tournament, entry_id, number)
    if not present:
        return CheckIn.objects.filter(entry=entry, round_number=number).delete()[0] > 0
    _, created = CheckIn.objects.get_or_create(
        entry=entry, round_number=number,
        defaults={"by": CheckInBy.ARBITER, "by_user": user if getattr(user, "is_authenticated", False) else None})
    return created


@transaction.atomic
def checkin_all_present(*, tournament: Tournament, expected_round: int | None, user: Any = None) -> int:
    """Every player expected for the open round present; the number newly marked."""
    tournament = locked_tournament(tournament)
    number = _open_for(tournament, expected_round)
    done = set(CheckIn.objects.filter(entry__tournament=tournament, round_number=number)
               .values_list("entry_id", flat=True))
    by_user = user if getattr(user, "is_authenticated", False) else None
    new = [CheckIn(entry=e, round_number=number, by=CheckInBy.ARBITER, by_user=by_user)
           for e in expected(tournament, number) if e.pk not in done]
    CheckIn.objects.bulk_create(new)
    return len(new)


@transaction.atomic
def checkin_reset(*, tournament: Tournament, expected_round: int | None) -> int:
    """Nobody present for the open round any more (the code stays); the number of marks removed."""
    tournament = locked_tournament(tournament)
    number = _open_for(tournament, expected_round)
    return int(CheckIn.objects.filter(entry__tournament=tournament, round_number=number).delete()[0])


# --- The player's own check-in, from his phone ------------------------------------------------------


def _attempts_key(tournament: Tournament, client: str) -> str:
    return f"damier:checkin-code:{tournament.pk}:{client}"


def _failures(key: str) -> int:
    try:
        return int(cache.get(key) or 0)
    except Exception:  # a cache that fails is a miss, as for the pages: the code itself still guards
        return 0


def _count_failure(key: str) -> None:
    timeout = int(settings.AXES_COOLOFF_TIME.total_seconds())
    try:
        if not cache.add(key, 1, timeout):
            cache.incr(key)
    except Exception:  # noqa: S110  (see _failures)
        pass


@transaction.atomic
def player_checkin(*, tournament: Tournament, pairing_number: int, code: str, client: str) -> CheckIn:
    """A player checks himself in from his player page with the code shown in the hall. Wrong codes are counted
    per address and tournament, and after as many as a login may fail (AXES_FAILURE_LIMIT) the address is
    refused for the login's cool-off (AXES_COOLOFF_TIME), the right code included."""
    key = _attempts_key(tournament, client or "?")
    limit = int(settings.AXES_FAILURE_LIMIT)
    if _failures(key) >= limit:
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        raise CodeLocked(_("Too many wrong codes from this connection: try again in %(minutes)s minutes, or ask "
                           "the arbiter to mark you present.") % {"minutes": minutes})
    tournament = locked_tournament(tournament)
    if not is_open(tournament):
        raise DomainError(_("Check-in is closed: ask the arbiter."))
    number = int(tournament.checkin_round or 0)
    typed = "".join((code or "").split()).upper()
    if not typed or not secrets.compare_digest(typed, tournament.checkin_code.upper()):
        _count_failure(key)
        raise DomainError(_("That is not the code shown in the hall: nothing was recorded. Check it and type it "
                            "again."))
    # A hall of phones checks in within minutes, each post waiting for the tournament's row: as few round
    # trips as can be while it is held. Whether he is checked in already comes with his entry, and the row
    # lock keeps every other writer of check-ins out (they all take it first), so a plain insert is safe.
    entry = (Entry.objects.select_related("player").filter(tournament=tournament, pairing_number=pairing_number)
             .annotate(checked=Exists(CheckIn.objects.filter(entry=OuterRef("pk"), round_number=number))).first())
    if entry is None or entry.gone_before(number):
        raise DomainError(_("This player is not to be paired in round %(round)s: ask the arbiter.")
                          % {"round": number})
    if entry.checked:
        return CheckIn.objects.select_related("entry__player").get(entry=entry, round_number=number)
    return CheckIn.objects.create(entry=entry, round_number=number, by=CheckInBy.PLAYER, checked_at=timezone.now())


# --- Pairing with check-in open ---------------------------------------------------------------------


class AbsenteesQuestion(DomainError):
    """Check-in is open for the round to pair and some players did not check in: what do they get?"""

    def __init__(self, tournament: Tournament, number: int, absentees: list[Entry], *, stale: bool = False) -> None:
        self.tournament, self.number, self.absentees, self.stale = tournament, number, absentees, stale
        self.read_at = absentees_version(absentees)
        super().__init__(_("Round %(round)s: %(n)s player(s) did not check in; say what they get.")
                         % {"round": number, "n": len(absentees)})


@transaction.atomic
def pair_round(*, tournament: Tournament, expected_number: int, answer: str | None = None,
               read_at: str | None = None, user: Any = None) -> Round:
    """Pair the next round. With check-in open for it and players not checked in, the arbiter's answer is
    needed (AbsenteesQuestion until it is given, and again when the absentees changed since the question was
    read): NOT_PAIRED gives each a bye worth 0 (Swiss; a round robin keeps its boards and its forfeits are
    entered with the results), PAIRED pairs them. The answer is recorded; check-in for the round closes."""
    tournament = locked_tournament(tournament)
    number = next_round(tournament)
    if not (is_open(tournament) and tournament.checkin_round == number == expected_number):
        return services.round_pair(tournament=tournament, expected_number=expected_number)
    absent = [line.entry for line in (presence(tournament) or Presence(number, "", [])).lines if not line.present]
    if absent and (answer not in (NOT_PAIRED, PAIRED) or (answer == NOT_PAIRED and tournament.is_round_robin)):
        raise AbsenteesQuestion(tournament, number, absent)
    if absent and read_at != absentees_version(absent):
        raise AbsenteesQuestion(tournament, number, absent, stale=True)
    if absent and answer == NOT_PAIRED:
        for entry in absent:
            entry.excused_rounds = sorted({*(entry.excused_rounds or []), number})
            entry._change_reason = f"not checked in for round {number}: not paired, 0 points"  # type: ignore[attr-defined]
            if getattr(user, "is_authenticated", False):
                entry._history_user = user  # type: ignore[attr-defined]
            entry.save(update_fields=["excused_rounds"])
    tournament.checkin_round, tournament.checkin_code = None, ""
    _save(tournament, f"check-in closed: round {number} paired", user)
    rnd = services.round_pair(tournament=tournament, expected_number=expected_number)
    if absent:  # the numbers as round 1's pairing left them (a Swiss numbered by rating is numbered then)
        numbers = sorted(Entry.objects.filter(pk__in=[e.pk for e in absent]).values_list("pairing_number", flat=True))
        events.record(tournament, Code.ABSENT_NOT_PAIRED if answer == NOT_PAIRED else Code.ABSENT_PAIRED,
                      values={"round": number, "players": numbers}, user=user, round_number=number)
    return rnd
