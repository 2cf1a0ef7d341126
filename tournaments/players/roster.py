"""The roster's writes: entering a player, numbering the field, a withdrawal, an expulsion.

Each service is one transaction and raises DomainError with a message the arbiter can act on; nothing
is ever half-written. The tournament's row is taken first (tournaments/locks.py).
"""

from __future__ import annotations

import random
import secrets

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.locks import lock_tournament_of, locked_tournament
from tournaments.models import Entry, EntryStatus, Game, Numbering, Player, RoundStatus, Tournament
from tournaments.players import numbering, requested_byes
from tournaments.players.expulsion import entry_expel  # noqa: F401  (a roster service: competition rules 2.6)
from tournaments.results import Result


def round_robin_closed() -> str:
    """The refusal of a late entry in a round robin (also the CSV import's), in the active language."""
    return _("%(tournament)s: a round robin cannot take a new player once round 1 is paired.")



@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, pairing_number: int | None = None,
              user: object = None) -> Entry:
    """Enter a player. A Swiss entry once round 1 is paired is a late entry (tournaments.players.numbering): the
    number his rating earns, the players below move down one, and a notice is recorded."""
    tournament = locked_tournament(tournament)
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise DomainError(_("%(player)s is already entered in %(tournament)s.")
                          % {"player": player, "tournament": tournament})
    if tournament.is_round_robin and tournament.rounds.exists():
        raise DomainError(round_robin_closed() % {"tournament": tournament})
    if pairing_number is not None and not 1 <= pairing_number <= numbering.MAX_PAIRING_NUMBER:
        raise DomainError(numbering.number_too_big(pairing_number) if pairing_number > 0 else
                          _("A pairing number is 1 or more, not %(number)s.") % {"number": pairing_number})
    late = numbering.is_late(tournament)
    if late:
        pairing_number = numbering.place_late_entry(tournament, player, pairing_number)
    elif pairing_number is None:
        last = tournament.entries.aggregate(m=Max("pairing_number"))["m"] or 0
        pairing_number = last + 1
        if pairing_number > numbering.MAX_PAIRING_NUMBER:
            raise DomainError(numbering.number_too_big(pairing_number))
    elif tournament.entries.filter(pairing_number=pairing_number).exists():
        raise DomainError(_("%(tournament)s: pairing number %(number)s is already taken.")
                          % {"tournament": tournament, "number": pairing_number})
    try:
        with transaction.atomic():
            entry = Entry.objects.create(tournament=tournament, player=player, pairing_number=pairing_number)
    except IntegrityError as exc:  # a concurrent request won the race
        raise DomainError(_("%(player)s could not be entered in %(tournament)s: someone else entered a player at "
                            "the same moment; look at the entries and try again.")
                          % {"player": player, "tournament": tournament}) from exc
    if late:
        numbering.record_late_entry(tournament, entry, user=user)
        requested_byes.record_missed_rounds(entry)
    return entry


def late_entry_message(entry: Entry) -> str:
    """Said where a late entry is made, right after it: his number, the players it moved, and what his missed
    rounds score. "van den Heuvel entered as no. 6; nos. 6–15 are now 7–16." The FMJD competition rules say
    nothing of late entries, so the missed rounds are absent (0), recorded as requested byes worth 0."""
    last = entry.tournament.entries.aggregate(m=Max("pairing_number"))["m"] or entry.pairing_number
    n = entry.pairing_number
    values = {"player": entry.player.full_name, "number": n, "first": n, "last": last - 1, "first_now": n + 1,
              "last_now": last}
    if last == n:
        words = _("%(player)s entered late as no. %(number)s; nobody's number changed.") % values
    elif last == n + 1:
        words = _("%(player)s entered late as no. %(number)s; no. %(first)s is now %(first_now)s.") % values
    else:
        words = _("%(player)s entered late as no. %(number)s; nos. %(first)s–%(last)s are now "
                  "%(first_now)s–%(last_now)s.") % values
    missed = requested_byes.missed_rounds(entry)
    if missed:
        words += " " + ngettext(
            "He missed round %(rounds)s: the FMJD competition rules say nothing of what a late entrant's missed "
            "rounds score, so it is recorded as absent (0), a requested bye worth 0.",
            "He missed rounds %(rounds)s: the FMJD competition rules say nothing of what a late entrant's missed "
            "rounds score, so they are recorded as absent (0), requested byes worth 0.",
            len(missed)) % {"rounds": ", ".join(map(str, missed))}
    draft = entry.tournament.rounds.filter(status=RoundStatus.DRAFT).order_by("-number").first()
    if draft is not None:
        words += " " + _("Round %(round)s was paired as a draft without him: pair it again in the control room.") \
            % {"round": draft.number}
    return words



def renumber(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """Pairing numbers 1..n in the given order (tournaments.players.numbering.renumber: two passes, in range)."""
    numbering.renumber([(e, number) for number, e in enumerate(entries, start=1)])
    return entries


def _before_round_one(tournament: Tournament) -> None:
    if tournament.rounds.exists():
        raise DomainError(_("%(tournament)s: pairing numbers are fixed once round 1 is paired.")
                          % {"tournament": tournament})


def _set_numbering(tournament: Tournament, numbering: str, seed: int | None, reason: str) -> None:
    tournament.numbering, tournament.numbering_seed = numbering, seed
    tournament._change_reason = reason  # type: ignore[attr-defined]  # kept in the history
    tournament.save(update_fields=["numbering", "numbering_seed"])


@transaction.atomic
def entries_number_by_rating(*, tournament: Tournament) -> list[Entry]:
    """Pairing numbers 1..n by rating, then title, then name: before round 1 only.

    The tournament goes back to numbering by rating on its own (until round 1 is paired)."""
    tournament = locked_tournament(tournament)
    _before_round_one(tournament)
    entries = sorted(tournament.entries.select_related("player"), key=selectors.rating_order_key)
    renumber(tournament, entries)
    _set_numbering(tournament, Numbering.AUTO, None, "pairing numbers set by rating")
    return entries


@transaction.atomic
def entries_draw_lots(*, tournament: Tournament, seed: int | None = None) -> list[Entry]:
    """Pairing numbers drawn by lot (a round robin's draw), before round 1; the seed is kept with the
    tournament so the draw can be shown and repeated: the entries in their order before the draw,
    shuffled by random.Random(seed)."""
    tournament = locked_tournament(tournament)
    _before_round_one(tournament)
    if seed is None:
        seed = secrets.randbelow(10**12)
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    random.Random(seed).shuffle(entries)
    renumber(tournament, entries)
    _set_numbering(tournament, Numbering.LOT, seed, f"pairing numbers drawn by lot (seed {seed})")
    return entries


@transaction.atomic
def entries_keep_numbers(*, tournament: Tournament) -> Tournament:
    """The arbiter keeps the numbers as they stand (set by hand): round 1 is paired on them."""
    tournament = locked_tournament(tournament)
    _before_round_one(tournament)
    numbers = list(tournament.entries.order_by("pairing_number").values_list("pairing_number", flat=True))
    if tournament.is_round_robin and numbers != list(range(1, len(numbers) + 1)):
        raise DomainError(_("%(tournament)s: a round robin needs pairing numbers 1 to %(n)s without gaps "
                            "(found %(found)s); draw them by lot or number them by rating.")
                          % {"tournament": tournament, "n": len(numbers), "found": ", ".join(map(str, numbers))})
    _set_numbering(tournament, Numbering.MANUAL, None, "pairing numbers kept as set by hand")
    return tournament


@transaction.atomic
def entry_withdraw(*, entry: Entry, after_round: int | None = None) -> Entry:
    """Competition rules 5.9: the player takes no further part after `after_round`.

    Default: after the last round already paired (he leaves after the current round). Games of
    later rounds already paired that have no result yet become 'not played'; a result already given there
    (a forfeit the arbiter entered) stands, since a withdrawal never changes a result by itself: changing it
    is a correction. The standings apply 5.9 A (round robin: cancellation or forfeits) or B (Swiss: results
    stand) from there.
    """
    lock_tournament_of(entry)  # the tournament first, as the pairing takes it: never a lock-order circle
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    tournament = entry.tournament
    if entry.is_withdrawn:
        raise DomainError(_("%(player)s already withdrew after round %(round)s.")
                          % {"player": entry.player, "round": entry.withdrawn_after_round})
    last_paired = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    if after_round is None:
        after_round = last_paired
    if after_round < 0 or after_round > last_paired:
        raise DomainError(_("%(player)s: “withdrawn after round” must be between 0 and %(last)s.")
                          % {"player": entry.player, "last": last_paired})
    later = Game.objects.filter(Q(white=entry) | Q(black=entry), round__number__gt=after_round).select_related("round")
    for game in later:
        if game.parsed_result is not None and game.parsed_result.is_played:
            raise DomainError(_("%(player)s has a result over the board in round %(round)s (%(result)s); he "
                                "cannot have withdrawn after round %(after)s.")
                              % {"player": entry.player, "round": game.round.number, "result": game.result,
                                 "after": after_round})
        if game.round.status == RoundStatus.COMPLETED:
            raise DomainError(_("Round %(round)s is completed; reopen it before withdrawing after round %(after)s.")
                              % {"round": game.round.number, "after": after_round})
    for game in later:
        if game.parsed_result is not None:
            continue
        game.result = Result.NOT_PLAYED.value
        game.version += 1
        game.save(update_fields=["result", "version"])
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_after_round = after_round
    entry.save(update_fields=["status", "withdrawn_after_round"])
    return entry
