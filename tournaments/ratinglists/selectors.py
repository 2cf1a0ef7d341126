"""The reads of a list's import: which register records its rows match, what importing would do."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet

from tournaments.models import NationalId, Player, RatingKind, RatingList, Tournament
from tournaments.ratinglists.rows import ListRow, ReadList

CHUNK = 500  # ids per query: SQLite's older builds allow 999 variables


def matches(rows: list[ListRow], source: str, kind: str) -> dict[int, int]:
    """The register's record of each row that has one, by line: an FMJD list by FMJD id, a national list
    by the player's id with the list's source (NationalId.body = source)."""
    found: dict[int, int] = {}
    if kind == RatingKind.FMJD:
        ids = [r.fmjd_id for r in rows if r.fmjd_id is not None]
        by_id: dict[int, int] = {}
        for i in range(0, len(ids), CHUNK):
            by_id.update(Player.objects.filter(fmjd_id__in=ids[i:i + CHUNK]).values_list("fmjd_id", "pk"))
        found = {r.line: by_id[r.fmjd_id] for r in rows if r.fmjd_id in by_id}
    else:
        numbers = [r.national_id for r in rows if r.national_id]
        by_number: dict[str, int] = {}
        for i in range(0, len(numbers), CHUNK):
            by_number.update(NationalId.objects.filter(body=source, number__in=numbers[i:i + CHUNK])
                             .values_list("number", "player_id"))
        found = {r.line: by_number[r.national_id] for r in rows if r.national_id in by_number}
    return found


def newer_list(source: str, kind: str, published_on: datetime.date) -> datetime.date | None:
    """The date of the newest list of this source and kind published after `published_on`, if any."""
    return (RatingList.objects.filter(source=source, kind=kind, published_on__gt=published_on)
            .aggregate(d=Max("published_on"))["d"])


def same_list(source: str, kind: str, published_on: datetime.date) -> RatingList | None:
    return RatingList.objects.filter(source=source, kind=kind, published_on=published_on).first()


def users_of(rating_list: RatingList) -> QuerySet[Tournament]:
    """The tournaments that read this list (Tournament.fmjd_list or national_list)."""
    return Tournament.objects.filter(Q(fmjd_list=rating_list) | Q(national_list=rating_list))


def use_counts(list_ids: list[int]) -> dict[int, int]:
    """How many tournaments read each of these lists (as FMJD list or national list)."""
    counts: dict[int, int] = dict.fromkeys(list_ids, 0)
    for column in ("fmjd_list_id", "national_list_id"):
        for list_id, n in (Tournament.objects.filter(**{f"{column}__in": list_ids}).values(column)
                           .annotate(n=Count("pk")).values_list(column, "n")):
            counts[list_id] += n
    return counts


@dataclass
class Preview:
    total: int  # every row of the file
    good: int  # rows without an error
    bad: int  # rows with at least one error
    matched: int  # good rows whose player is in the register
    new: int  # good rows whose player is not
    newer: datetime.date | None  # a newer list of the source: the register is not moved
    existing: RatingList | None  # this source, kind and date already imported: refused

    @property
    def moves_register(self) -> bool:
        return self.newer is None


def preview(read: ReadList, source: str, kind: str, published_on: datetime.date) -> Preview:
    matched = len(matches(read.rows, source, kind))
    return Preview(total=read.total, good=len(read.rows), bad=len(read.bad_lines), matched=matched,
                   new=len(read.rows) - matched, newer=newer_list(source, kind, published_on),
                   existing=same_list(source, kind, published_on))
