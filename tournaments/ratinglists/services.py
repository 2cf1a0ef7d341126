"""Importing a rating list: the list and its rows kept as published, the register brought up to date.

One transaction. The register (Player.rating for an FMJD list, Player.national_rating for a national
one, the title from an FMJD list, rating_source) follows only the newest list of its source and kind: a
list older than one already imported is kept for the tournaments that choose it and moves nobody.
No entry is ever written: an entry keeps the values its tournament took; where a running tournament's
player now differs, `tournaments.ratings.rating_changes` says so on its pages.

Titles are for life (FMJD Annex 10, 1.3: "The titles are valid from the moment of registration and are
valid for life."): a row without a title never removes one from the register. A row without a rating
leaves the register's rating as it is.
"""

from __future__ import annotations

import datetime
import zlib
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import DomainError
from tournaments.models import Entry, Player, RatingKind, RatingList, RatingListRow, Tournament, search_key
from tournaments.models.register import body_validator
from tournaments.permissions import ALL_FIELDS, players_fixed_fields
from tournaments.ratinglists import selectors
from tournaments.ratinglists.rows import ReadList

CHUNK = selectors.CHUNK
ROW_BATCH = 2000


@dataclass
class ImportResult:
    rating_list: RatingList
    rows: int  # rows stored
    left_out: int  # rows with errors, not stored
    matched: int  # rows matched to the register
    updated: int  # register records changed
    newer: datetime.date | None  # a newer list exists: the register was not moved


def clean_source(source: str) -> str:
    source = source.strip().upper()
    try:
        body_validator(source)
    except ValidationError as exc:
        raise DomainError(_("Source “%(source)s”: %(why)s") % {"source": source[:30], "why": " ".join(exc.messages)}) \
            from None
    return source


def _refuse_foreign(user: Any, changed: list[Player], fields: set[str]) -> None:
    """The players' CSV import's rule: an arbiter updates only the players that are his to change."""
    if user is None:
        return
    fixed: dict[int, Any] = {}
    ids = [p.pk for p in changed]
    for i in range(0, len(ids), CHUNK):
        fixed.update(players_fixed_fields(user, ids[i:i + CHUNK]))
    refused = [p for p in changed if p.pk in fixed and (fixed[p.pk] is ALL_FIELDS or fields & fixed[p.pk])]
    if refused:
        names = ", ".join(str(p) for p in refused[:10]) + (" …" if len(refused) > 10 else "")
        raise DomainError(ngettext(
            "Nothing imported: %(n)s player of this list also plays in tournaments you are not an arbiter of "
            "(%(players)s); ask their arbiter or an administrator to import it.",
            "Nothing imported: %(n)s players of this list also play in tournaments you are not an arbiter of "
            "(%(players)s); ask their arbiter or an administrator to import it.", len(refused))
            % {"n": len(refused), "players": names})


def _lock_their_tournaments(player_ids: list[int]) -> None:
    """The tournaments the changed players are entered in, locked in id order (tournaments/locks.py): a
    player's change moves their cache versions, as a player's page and the pairing take them."""
    held: set[int] = set()
    for i in range(0, len(player_ids), CHUNK):
        held.update(Entry.objects.filter(player_id__in=player_ids[i:i + CHUNK]).values_list("tournament_id", flat=True))
    if held:
        list(Tournament.objects.select_for_update().filter(pk__in=sorted(held)).order_by("pk")
             .values_list("pk", flat=True))


def _update_register(rating_list: RatingList, rows: list[RatingListRow], user: Any) -> int:
    by_player = {r.player_id: r for r in rows if r.player_id is not None}
    stamp = f"{rating_list.source} {rating_list.published_on.isoformat()}"[:160]
    field = "rating" if rating_list.kind == RatingKind.FMJD else "national_rating"
    changed: list[Player] = []
    touched: set[str] = set()
    ids = list(by_player)
    for i in range(0, len(ids), CHUNK):
        for player in Player.objects.filter(pk__in=ids[i:i + CHUNK]):
            row = by_player[player.pk]
            values: dict[str, Any] = {}
            if row.rating is not None:
                values |= {field: row.rating, "rating_source": stamp, "unrated": False}
            if row.title and rating_list.kind == RatingKind.FMJD:
                values["title"] = row.title
            values = {k: v for k, v in values.items() if getattr(player, k) != v}
            if values:
                for key, value in values.items():
                    setattr(player, key, value)
                player.folded = search_key(player.surname, player.given_name, player.native_name)
                touched |= values.keys()
                changed.append(player)
    if not changed:
        return 0
    _refuse_foreign(user, changed, touched)
    _lock_their_tournaments([p.pk for p in changed])
    _write_players(changed, sorted(touched | {"folded"}))
    Player.history.bulk_history_create(  # type: ignore[attr-defined]
        changed, batch_size=500, update=True, default_user=user if getattr(user, "pk", None) else None,
        default_change_reason=_("rating list %(list)s") % {"list": stamp})
    return len(changed)


def _one_import_at_a_time(source: str, kind: str) -> None:
    """Two lists of one source imported at once would each see itself the newest and both move the register,
    the older last: on PostgreSQL they wait for each other on a lock of their own until the transaction
    ends (SQLite's transactions already take the database one at a time: settings, IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [zlib.crc32(f"rating list {source} {kind}".encode())])


UPDATE_BATCH = 150  # rows per UPDATE: 150 x (id + 5 fields) stays under SQLite's oldest limit of 999 values


def _write_players(players: list[Player], fields: list[str]) -> None:
    """One UPDATE ... FROM (VALUES ...) per batch of players (PostgreSQL, SQLite 3.33+): bulk_update builds
    a CASE expression per row and column in Python, which took 20 s for a 30,000-player list here
    (bench/rating_list.py). Every changed row is still updated row by row in the database, so the
    cache-version triggers fire as for any save."""
    meta = Player._meta
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    model_fields = [meta.get_field(name) for name in fields]
    sets = ", ".join(f"{quote(f.column)} = CAST(v.column{i + 2} AS {f.cast_db_type(connection)})"
                     for i, f in enumerate(model_fields))
    row = "(" + ", ".join(["%s"] * (len(model_fields) + 1)) + ")"
    with connection.cursor() as cursor:
        for i in range(0, len(players), UPDATE_BATCH):
            batch = players[i:i + UPDATE_BATCH]
            params = [value for p in batch for value in
                      [p.pk, *(f.get_db_prep_save(getattr(p, f.attname), connection) for f in model_fields)]]
            cursor.execute(f"UPDATE {table} SET {sets} FROM (VALUES {', '.join([row] * len(batch))}) AS v "
                           f"WHERE {table}.{pk} = v.column1", params)


def import_rating_list(*, read: ReadList, source: str, kind: str, published_on: datetime.date, name: str = "",
                       file_name: str = "", file_format: str = "", user: Any = None,
                       leave_out_errors: bool = False) -> ImportResult:
    """Store the list and its good rows, match them to the register and update it if the list is the newest
    of its source and kind. Refused: rows with errors unless `leave_out_errors`; a list of that source, kind
    and date already imported; no good row."""
    source = clean_source(source)
    if kind not in RatingKind.values:
        raise DomainError(_("Unknown kind of list “%(kind)s”.") % {"kind": kind})
    if read.errors and not leave_out_errors:
        n = len(read.bad_lines)
        raise DomainError(ngettext(
            "Nothing imported: %(n)s row has errors. Correct the file, or choose to leave the rows with errors out.",
            "Nothing imported: %(n)s rows have errors. Correct the file, or choose to leave the rows with errors out.",
            n) % {"n": n})
    if not read.rows:
        raise DomainError(_("Nothing imported: the list has no row without errors."))
    with transaction.atomic():
        _one_import_at_a_time(source, kind)
        if (existing := selectors.same_list(source, kind, published_on)) is not None:
            raise DomainError(_already(existing))
        try:
            with transaction.atomic():
                rating_list = RatingList.objects.create(
                    source=source, kind=kind, published_on=published_on, name=name[:200], file_name=file_name[:255],
                    file_format=file_format[:20], imported_by=user if getattr(user, "pk", None) else None,
                    row_count=len(read.rows))
        except IntegrityError:  # the same list imported by another arbiter meanwhile
            raise DomainError(_already(selectors.same_list(source, kind, published_on))) from None
        found = selectors.matches(read.rows, source, kind)
        rows = [RatingListRow(rating_list=rating_list, line=r.line, player_id=found.get(r.line), fmjd_id=r.fmjd_id,
                              national_id=r.national_id, surname=r.surname, given_name=r.given_name,
                              native_name=r.native_name, federation=r.federation, title=r.title, rating=r.rating,
                              sex=r.sex, birth_year=r.birth_year, club=r.club,
                              folded=search_key(r.surname, r.given_name, r.native_name)[:300])
                for r in read.rows]
        RatingListRow.objects.bulk_create(rows, batch_size=ROW_BATCH)
        newer = selectors.newer_list(source, kind, published_on)
        updated = _update_register(rating_list, rows, user) if newer is None else 0
    return ImportResult(rating_list, len(rows), len(read.bad_lines), len(found), updated, newer)


def _already(existing: RatingList | None) -> str:
    if existing is None:
        return _("This list is already imported.")
    return (_("%(list)s (%(kind)s) is already imported (%(rows)s rows, %(when)s). Delete it first to import it "
              "again; a list a tournament uses cannot be deleted.")
            % {"list": existing, "kind": existing.get_kind_display(), "rows": existing.row_count,
               "when": existing.imported_at.strftime("%Y-%m-%d %H:%M")})
