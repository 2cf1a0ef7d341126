"""Who may change what: the object-level rules every admin page, action, upload and export applies.

Superusers may do everything. A staff user may change a tournament only when he is its chief or a
deputy arbiter.

Players are shared between tournaments. Another arbiter's entry never locks anyone out of a player, and
nobody changes what another arbiter's played tournament was played on:
- a player entered nowhere, or only in tournaments the arbiter arbitrates, is his to change, whole;
- a player also entered in another arbiter's tournament may be changed by whoever arbitrates one of the
  player's tournaments or created the player: whole, while none of those other tournaments has a round
  paired (their arbiters see a rating changed since the entry before they pair); once one has, his name,
  club and federation only, never what the pairing and the standings read (RECORD_FIELDS);
- anyone else may not change him.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from tournaments.models import Entry, Game, GameSheet, HallScreen, Player, Round, Tournament


def is_staff_arbiter(user: Any) -> bool:
    """May use the arbiter's workplace at all (not yet: for which tournament)."""
    return bool(getattr(user, "is_active", False) and getattr(user, "is_staff", False))


def tournament_of(obj: object) -> Tournament | None:
    try:
        if isinstance(obj, Tournament):
            return obj
        if isinstance(obj, (Entry, Round, HallScreen)):
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


def arbitrates(user: Any, tournament: Tournament) -> bool:
    """Chief or deputy arbiter of the tournament, or a superuser: the services' check of who may correct a
    result (the pages check can_manage, which also asks for the workplace)."""
    return tournament.is_arbiter(user)


def can_manage(user: Any, obj: object) -> bool:
    """May change this tournament, or the entry, round, game or sheet of one."""
    if getattr(user, "is_superuser", False):
        return True
    tournament = tournament_of(obj)
    return is_staff_arbiter(user) and tournament is not None and arbitrates(user, tournament)


def can_manage_or_list(user: Any, obj: object | None) -> bool:
    """The admin's object-level check: an object as can_manage says; without one (a list, an add page),
    whether the user may use the arbiter's workplace at all."""
    if obj is None:
        return bool(getattr(user, "is_superuser", False)) or is_staff_arbiter(user)
    return can_manage(user, obj)


def can_choose_arbiters(user: Any, tournament: Tournament) -> bool:
    """Who arbitrates is the chief arbiter's decision (or an administrator's), not a deputy's."""
    return bool(getattr(user, "is_superuser", False)) or tournament.chief_arbiter_id == getattr(user, "pk", None)


def require_manage(user: Any, obj: object) -> Tournament:
    """For views outside the admin: the tournament, or PermissionDenied naming it."""
    tournament = tournament_of(obj)
    if tournament is None or not can_manage(user, obj):
        if tournament is None:
            raise PermissionDenied(gettext("You are not an arbiter of this tournament."))
        raise PermissionDenied(gettext("You are not an arbiter of %(tournament)s.") % {"tournament": tournament})
    return tournament


# What a played tournament's pairing numbers, pairings and standings read from its players: the ratings
# (numbers, rating tie-breaks), the title and the birth year (the order of equal ratings), the FMJD id (the
# order of equal ratings, and how rating lists and imports find the player).
RECORD_FIELDS = frozenset({"rating", "national_rating", "unrated", "title", "birth_year", "fmjd_id"})
ALL_FIELDS = None  # the player is not this arbiter's to change at all


def players_fixed_fields(user: Any, player_ids: Any = None) -> dict[int, frozenset[str] | None]:
    """The players (of `player_ids`, default all) `user` may not change freely, with the fields he may not
    change (ALL_FIELDS: none may be). Players missing from the answer are his to change."""
    if getattr(user, "is_superuser", False):
        return {}
    entries = Entry.objects.all() if player_ids is None else Entry.objects.filter(player_id__in=player_ids)
    if not is_staff_arbiter(user):
        ids = set(player_ids) if player_ids is not None else set(Player.objects.values_list("pk", flat=True))
        return dict.fromkeys(ids, ALL_FIELDS)
    mine = managed_tournaments(user)
    foreign = set(entries.exclude(tournament__in=mine).values_list("player_id", flat=True))
    if not foreign:
        return {}
    his = set(entries.filter(tournament__in=mine, player_id__in=foreign).values_list("player_id", flat=True))
    his |= set(Player.history.filter(id__in=foreign, history_type="+", history_user_id=user.pk)  # type: ignore[attr-defined]
               .values_list("id", flat=True))
    played = set(entries.exclude(tournament__in=mine).filter(tournament__rounds__isnull=False, player_id__in=his)
                 .values_list("player_id", flat=True))
    return {pk: ALL_FIELDS if pk not in his else RECORD_FIELDS for pk in foreign if pk not in his or pk in played}


def player_fixed_fields(user: Any, player: Player | None) -> frozenset[str] | None:
    """The fields of `player` `user` may not change (empty: all are his to change; ALL_FIELDS: none)."""
    if not getattr(user, "is_superuser", False) and not is_staff_arbiter(user):
        return ALL_FIELDS
    if player is None or player.pk is None:
        return frozenset()
    return players_fixed_fields(user, [player.pk]).get(player.pk, frozenset())


def can_change_player(user: Any, player: Player | None) -> bool:
    return player_fixed_fields(user, player) is not ALL_FIELDS
