"""Expelling a player (competition rules 2.6, issue 19 item 5, checklist 197-198): he is no longer paired
and takes no place in the standings, while the games he played still count for his opponents."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from tournaments.entry_guard import lock_tournament_of
from tournaments.errors import DomainError
from tournaments.models import Entry, EntryStatus, Game
from tournaments.results import Result


@transaction.atomic
def entry_expel(*, entry: Entry, after_round: int | None = None, user: object = None) -> Entry:
    """Competition rules 2.6: the arbiter expels a player. He is not paired after `after_round` (default: the
    last round paired; his games of later paired rounds become 'not played') and is left out of the standings,
    while the games he played still count for his opponents."""
    lock_tournament_of(entry)  # the tournament first, as the pairing takes it: never a lock-order circle
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    if entry.is_expelled:
        raise DomainError(_("%(player)s was already expelled after round %(round)s.")
                          % {"player": entry.player, "round": entry.expelled_after_round})
    last_paired = entry.tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    after_round = last_paired if after_round is None else after_round
    if after_round < 0 or after_round > last_paired:
        raise DomainError(_("%(player)s: “expelled after round” must be between 0 and %(last)s.")
                          % {"player": entry.player, "last": last_paired})
    for game in Game.objects.filter(Q(white=entry) | Q(black=entry), round__number__gt=after_round):
        if game.parsed_result is not None and game.parsed_result.is_played:
            raise DomainError(_("%(player)s has a result over the board in round %(round)s; he cannot have been "
                                "expelled after round %(after)s.")
                              % {"player": entry.player, "round": game.round.number, "after": after_round})
        game.result = Result.NOT_PLAYED.value
        game.version += 1
        game.save(update_fields=["result", "version"])
    entry.status = EntryStatus.EXPELLED
    entry.expelled_after_round = after_round
    entry._change_reason = f"expelled after round {after_round}"  # type: ignore[attr-defined]
    if user is not None:
        entry._history_user = user  # type: ignore[attr-defined]
    entry.save(update_fields=["status", "expelled_after_round"])
    return entry
