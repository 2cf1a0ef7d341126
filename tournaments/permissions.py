"""Who may change what: the object-level rules every admin page, action, upload and export applies.

Superusers may do everything. A staff user may change a tournament only when he is its chief or a
deputy arbiter. Players are shared between tournaments, so a player may be changed only by someone
who arbitrates every tournament the player is entered in (a player entered nowhere yet, by any
arbiter): otherwise an arbiter could alter a rating that another tournament's standings depend on.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from tournaments.models import Entry, Game, GameSheet, Player, Round, Tournament


def is_staff_arbiter(user: Any) -> bool:
    """May use the arbiter's workplace at all (not yet: for which tournament)."""
    return bool(getattr(user, "is_active", False) and getattr(user, "is_staff", False))


def tournament_of(obj: object) -> Tournament | None:
    try:
        if isinstance(obj, Tournament):
            return obj
        if isinstance(obj, (Entry, Round)):
            return obj.tournament
        if isinstance(obj, Game):
            return obj.round.tournament
        if isinstance(obj, GameSheet):
            return obj.game.round.tournament
    except ObjectDoesNotExist:  # a deleted object's history page: its round is gone too
        return _tournament_from_history(obj)
    return None


def _tournament_from_history(obj: object) -> Tournament | None:
    """The tournament a deleted game or sheet belonged to, as its rounds' history remembers it."""
    game_id = getattr(obj, "game_id", None)
    round_id = getattr(obj, "round_id", None)
    if game_id is not None:
        round_id = Game.history.filter(id=game_id).values_list("round_id", flat=True).last()  # type: ignore[attr-defined]
    tournament_id = (Round.history.filter(id=round_id).values_list("tournament_id", flat=True).last()  # type: ignore[attr-defined]
                     if round_id is not None else None)
    return Tournament.objects.filter(pk=tournament_id).first() if tournament_id is not None else None


def arbitrated_by(user: Any, through: str = "") -> Q:
    """The rows whose tournament `user` arbitrates, as chief or deputy; `through` is the path from the rows to
    their tournament ("" for tournaments, "tournament", "round__tournament"...). The one query of what an
    arbiter may touch: every scope (admin lists, forms, the control room menu) is built on it."""
    prefix = f"{through}__" if through else ""
    return Q(**{f"{prefix}chief_arbiter_id": user.pk}) | Q(**{f"{prefix}deputy_arbiters__id": user.pk})


def managed_tournaments(user: Any) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return qs
    if not is_staff_arbiter(user):
        return qs.none()
    return qs.filter(arbitrated_by(user)).distinct()


def colleagues(user: Any) -> QuerySet[Any]:
    """The accounts an arbiter may see named in a form: himself and who arbitrates with him. Every other
    account (and its login name) stays hidden; an administrator sees all."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.all()
    if getattr(user, "is_superuser", False):
        return users
    if not is_staff_arbiter(user):
        return users.none()
    mine = managed_tournaments(user)
    return users.filter(Q(pk=user.pk) | Q(chief_of__in=mine) | Q(deputy_of__in=mine)).distinct()


def can_manage(user: Any, obj: object) -> bool:
    """May change this tournament, or the entry, round, game or sheet of one."""
    if getattr(user, "is_superuser", False):
        return True
    tournament = tournament_of(obj)
    return is_staff_arbiter(user) and tournament is not None and tournament.is_arbiter(user)


def require_manage(user: Any, obj: object) -> Tournament:
    """For views outside the admin: the tournament, or PermissionDenied naming it."""
    tournament = tournament_of(obj)
    if tournament is None or not can_manage(user, obj):
        if tournament is None:
            raise PermissionDenied(gettext("You are not an arbiter of this tournament."))
        raise PermissionDenied(gettext("You are not an arbiter of %(tournament)s.") % {"tournament": tournament})
    return tournament


def can_change_player(user: Any, player: Player | None) -> bool:
    if getattr(user, "is_superuser", False):
        return True
    if not is_staff_arbiter(user):
        return False
    if player is None or player.pk is None:
        return True
    foreign = Entry.objects.filter(player=player).exclude(tournament__in=managed_tournaments(user))
    return not foreign.exists()
