"""What a paired round fixes on an entry, checked under the tournament's lock at the moment of the write.

A form makes these fields read-only once round 1 is paired, but a page read before it, or a second arbiter
pairing while the first saves, reaches the save with the field still open. So every save of an existing
entry (Entry.save) takes the tournament's row first, the lock the pairing holds while it pairs, reads the
entry as stored and refuses: another tournament; a pairing number changed once round 1 is paired (except by
the numbering services, which check it themselves under the same lock); another player once he has games.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model, Q
from django.utils.translation import gettext as _

from tournaments.errors import DomainError

# Entry.save calls this module, so it does not import tournaments.models (tests/test_boundaries.py): the
# models are reached from the entry's own class.
Entry = Any


def _model(entry: Entry, relation: str) -> type[Model]:
    return type(entry)._meta.get_field(relation).related_model  # type: ignore[no-any-return]


def lock_tournament_of(entry: Entry, tournament_id: int | None = None) -> None:
    """The entry's tournament row, locked until the transaction ends: the first lock of every writer."""
    tournament = _model(entry, "tournament")
    list(tournament._default_manager.select_for_update().filter(pk=tournament_id or entry.tournament_id)
         .values_list("pk", flat=True))


def check_entry_change(entry: Entry, *, numbering_step: bool = False) -> dict[str, Any] | None:
    """Lock the tournament, then the entry as stored (None if it is gone); DomainError for a change the
    paired rounds forbid. The caller is inside a transaction and writes before it ends."""
    entries = type(entry)._default_manager
    lock_tournament_of(entry, entries.filter(pk=entry.pk).values_list("tournament_id", flat=True).first())
    stored = entries.filter(pk=entry.pk).values("tournament_id", "player_id", "pairing_number",
                                                *type(entry).STATE_FIELDS).first()
    if stored is None:
        return None
    player = _model(entry, "player")._default_manager.filter(pk=stored["player_id"]).first()
    name = str(player) if player is not None else "?"
    if stored["tournament_id"] != entry.tournament_id:
        raise DomainError(_("%(player)s stays in the tournament he is entered in (his games, forbidden pairs and "
                            "history are there): enter him in the other tournament instead.") % {"player": name})
    paired = _model(entry, "tournament")._default_manager.filter(pk=entry.tournament_id,
                                                                 rounds__isnull=False).exists()
    if not numbering_step and stored["pairing_number"] != entry.pairing_number and paired:
        raise DomainError(_("%(player)s keeps pairing number %(number)s: pairing numbers are fixed once round 1 "
                            "is paired. Nothing was changed; reload the page.")
                          % {"player": name, "number": stored["pairing_number"]})
    if stored["player_id"] != entry.player_id and _has_games(entry):
        raise DomainError(_("Pairing number %(number)s stays %(player)s: he has games in this tournament. "
                            "Withdraw him instead.") % {"number": stored["pairing_number"], "player": name})
    return stored


def _has_games(entry: Entry) -> bool:
    game = type(entry)._meta.get_field("games_as_white").related_model
    return bool(game._default_manager.filter(Q(white_id=entry.pk) | Q(black_id=entry.pk)).exists())


def check_entry_delete(entry: Entry) -> None:
    """Before an entry is deleted: the tournament locked, then refused while the entry has games (a page
    read before round 1 was paired would otherwise delete a player the pairing just gave a board)."""
    lock_tournament_of(entry)
    if _has_games(entry):
        raise DomainError(_("%(player)s has games in this tournament: his entry cannot be deleted. Withdraw "
                            "him instead.") % {"player": entry.player})
