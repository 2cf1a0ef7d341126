"""Entering players one after another from the search (tournaments.players.search): a register player, a
rating list's row (its register record, or a new one made from the row), or a person found nowhere, typed
in. Each entry goes through roster.entry_add, so a late entry and a round robin already paired follow the
roster's rules and words, and the entry keeps the values of the tournament's list as every entry does.

The version a screen was read at is the state of the tournament's rounds: a round paired, published or
deleted since turns an entry into a late entry (or into a refusal) the arbiter did not see coming, so the
add is refused. Another arbiter's entry meanwhile is not a reason: two desks may enter players at once.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import locked_tournament
from tournaments.models import Entry, NationalId, Player, RatingKind, RatingListRow, Tournament
from tournaments.players import roster
from tournaments.players.search import tournament_lists

NEW_PLAYER_FIELDS = ("surname", "given_name", "federation", "rating", "title")


def entry_version(tournament: Tournament) -> str:
    """What an entry screen was read at: the system and every round's state."""
    rounds = list(tournament.rounds.order_by("number").values_list("number", "status"))
    text = f"{tournament.system}|" + ",".join(f"{n}:{s}" for n, s in rounds)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _check(tournament: Tournament, read_at: str) -> Tournament:
    tournament = locked_tournament(tournament)
    if entry_version(tournament) != read_at:
        raise StaleEditError(_("The rounds of %(tournament)s changed since this page was read (a round paired, "
                               "published or deleted): nothing was entered. What you typed is kept; look at the "
                               "page as it now stands and enter him again.") % {"tournament": tournament})
    return tournament


def player_of_row(row: RatingListRow) -> Player:
    """The register's record of a list row: the one it is linked to, the one with its FMJD id or its national
    id, or a new record made from the row (the row is then linked to it)."""
    if row.player_id is not None:
        return Player.objects.get(pk=row.player_id)
    lst = row.rating_list
    found = None
    if row.fmjd_id is not None:
        found = Player.objects.filter(fmjd_id=row.fmjd_id).first()
    if found is None and row.national_id:
        national = NationalId.objects.filter(body=lst.source, number=row.national_id).select_related("player").first()
        found = national.player if national is not None else None
    if found is None:
        national = lst.kind == RatingKind.NATIONAL
        found = Player(surname=row.surname, given_name=row.given_name, native_name=row.native_name,
                       fmjd_id=row.fmjd_id, federation=row.federation, title=row.title, sex=row.sex,
                       birth_year=row.birth_year, club=row.club,
                       rating=None if national else row.rating, national_rating=row.rating if national else None)
        found.rating_source = f"{lst.source} {lst.published_on.isoformat()}"[:160]
        try:
            found.full_clean()
        except ValidationError as exc:
            raise DomainError(_("Line %(line)s of the list %(list)s cannot make a player: %(why)s")
                              % {"line": row.line, "list": lst, "why": _words(exc)}) from exc
        found.save()
        if national and row.national_id:
            NationalId.objects.create(player=found, body=lst.source, number=row.national_id)
    row.player = found
    row.save(update_fields=["player"])
    return found


def player_of_key(tournament: Tournament, key: str) -> Player:
    """The player a search line names (`key`: "p<id>" a register player, "r<id>" a row of one of the
    tournament's lists, whose register record is found or made)."""
    kind, number = key[:1], key[1:]
    if kind not in {"p", "r"} or not number.isascii() or not number.isdigit():
        raise DomainError(_("“%(key)s” names no player: search again.") % {"key": key[:20]})
    if kind == "p":
        player = Player.objects.filter(pk=int(number)).first()
        if player is None:
            raise DomainError(_("This player is no longer in the register (merged or deleted): search again."))
    else:
        row = (RatingListRow.objects.select_related("rating_list")
               .filter(pk=int(number), rating_list__in=tournament_lists(tournament)).first())
        if row is None:
            raise DomainError(_("This line is not in the rating lists of %(tournament)s: search again.")
                              % {"tournament": tournament})
        player = player_of_row(row)
    return player


@transaction.atomic
def entry_add_found(*, tournament: Tournament, key: str, read_at: str, user: Any = None) -> Entry:
    """Enter the player a search line names (`key`: "p<id>" a register player, "r<id>" a row of one of the
    tournament's lists), on the rounds read at `read_at` (entry_version)."""
    tournament = _check(tournament, read_at)
    player = player_of_key(tournament, key)
    return roster.entry_add(tournament=tournament, player=player, user=user)


def new_player(values: dict[str, Any]) -> Player:
    """A register record made from a new player's row (surname, given name, federation, rating, title)."""
    player = Player(**{name: values.get(name) for name in NEW_PLAYER_FIELDS})
    for name in ("given_name", "federation", "title"):
        player.__dict__[name] = player.__dict__[name] or ""
    player.full_clean()  # a ValidationError names the field; the page's form shows it there
    player.save()
    return player


@transaction.atomic
def entry_add_new_player(*, tournament: Tournament, values: dict[str, Any], read_at: str,
                         user: Any = None) -> Entry:
    """A person in no list and not in the register: a new register record from `values` (surname, given
    name, federation, rating, title, already read by the page's form), then his entry."""
    tournament = _check(tournament, read_at)
    player = new_player(values)
    entry = roster.entry_add(tournament=tournament, player=player, user=user)
    if player.rating is not None and entry.rating is None:
        # On no list the tournament reads, he holds no rating from it: the one typed in his row is the
        # arbiter's own, and what he typed is never thrown away.
        entry.rating = player.rating
        if user is not None:
            entry._history_user = user  # type: ignore[attr-defined]
        entry.save(update_fields=["rating"], numbering_step=True)
    return entry


def _words(exc: ValidationError) -> str:
    if hasattr(exc, "error_dict"):
        return "; ".join(f"{name}: {' '.join(str(m) for m in msgs)}" for name, msgs in exc.message_dict.items())
    return " ".join(str(m) for m in exc.messages)
