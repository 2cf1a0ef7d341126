"""The one lock order of every writer, and what a locked entry may change.

The pairing holds its tournament's row while it pairs, and every write a public page shows moves the
tournament's cache version (a trigger updates its row), so every transaction ends up holding that row.
A writer that locked a round, a game or an entry first and the tournament last could wait on a writer
that did the opposite: PostgreSQL then kills one of them (a deadlock). Taking the tournament first,
always, makes them wait their turn instead.

What a paired round fixes on an entry is checked here too, under that lock, at the moment of the write.
A form makes these fields read-only once round 1 is paired, but a page read before it, or a second arbiter
pairing while the first saves, reaches the save with the field still open. So every save of an existing
entry (Entry.save) takes the tournament's row first, the lock the pairing holds while it pairs, reads the
entry as stored and refuses: another tournament; a pairing number changed once round 1 is paired (except by
the numbering services, which check it themselves under the same lock); another player once he has games.

tournaments.models calls this module, so it names the models through the app registry, never by import.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import Model, Q
from django.utils.translation import gettext as _

from tournaments.errors import DomainError

Entry = Any


def _manager(name: str) -> Any:
    return apps.get_model("tournaments", name)._default_manager


def lock_tournament(tournament_id: int | None) -> None:
    """The tournament's row, locked until the transaction ends (nothing when it is gone)."""
    if tournament_id is not None:
        list(_manager("Tournament").select_for_update().filter(pk=tournament_id).values_list("pk", flat=True))


def locked_tournament(tournament: Any) -> Any:
    """The tournament read again under its lock: serialises structural changes (pairing, entries)."""
    return _manager("Tournament").select_for_update().get(pk=tournament.pk)


def lock_tournament_of_game(game_id: int | None) -> None:
    lock_tournament(_manager("Game").filter(pk=game_id).values_list("round__tournament_id", flat=True).first())


def lock_tournament_of_round(round_id: int | None) -> None:
    lock_tournament(_manager("Round").filter(pk=round_id).values_list("tournament_id", flat=True).first())


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
