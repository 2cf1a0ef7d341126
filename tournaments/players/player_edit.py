"""A player's own page saved: the shared register's rules (tournaments.permissions) checked at the moment
of the write, with the locks taken in the order every writer takes them.

A player's save moves the cache version of every tournament he is entered in (a trigger updates their
rows), and the pairing holds its tournament's row while it pairs: so the tournaments come first, by id,
then the player. What this arbiter may not change is read again under those locks, since another
arbiter may have paired round 1 of his tournament since the page was opened.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import Entry, Player, Tournament
from tournaments.permissions import ALL_FIELDS, player_fixed_fields


def fixed_words(player: Player) -> str:
    """Why some of the player's fields are read-only for this arbiter."""
    return _("%(player)s also plays in another arbiter's tournament that is under way: its pairings and "
             "standings were made on his ratings, title, birth year and FMJD id, so only its arbiter or an "
             "administrator can change them. His name, club and federation are yours to correct.") % {
        "player": player.full_name}


@transaction.atomic
def player_save(*, player: Player, user: Any) -> Player:
    if player.pk is not None:
        tournaments = Entry.objects.filter(player_id=player.pk).values_list("tournament_id", flat=True)
        list(Tournament.objects.select_for_update().filter(pk__in=tournaments).order_by("pk")
             .values_list("pk", flat=True))
        fixed = player_fixed_fields(user, player)
        if fixed is ALL_FIELDS:
            raise DomainError(_("%(player)s plays only in tournaments you are not an arbiter of: ask their "
                                "arbiter or an administrator to change him.") % {"player": player.full_name})
        if fixed:
            stored = Player.objects.filter(pk=player.pk).values(*fixed).first() or {}
            changed = sorted(f for f in fixed if f in stored and stored[f] != getattr(player, f))
            if changed:
                names = ", ".join(str(Player._meta.get_field(f).verbose_name) for f in changed)
                raise DomainError(_("Nothing saved (%(fields)s): %(why)s") % {"fields": names,
                                                                             "why": fixed_words(player)})
    player.save()
    return player
