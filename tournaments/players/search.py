"""Finding a player to enter while the arbiter types: the register's players and the rows of the rating
lists the tournament reads, by FMJD id or by the first letters of the names.

A query of digits is an FMJD id: the exact id first, then the ids it begins. Any other query is folded as
the names are (`search_key`: Latin letters, no accents, lower case; "Шварц" reads "shvarts") and each of
its words must begin a word of the names, in any order: "sor iv" finds "Sørensen, Ivar". The register
comes first; a list row whose player the register already shows is not shown twice.

Only the stored `folded` column is read, with LIKE 'w%' and LIKE '% w%' (bench/search.py: a few
milliseconds over 30,000 rows on SQLite and PostgreSQL), and an FMJD id prefix as ranges of the integer
column, so that the id's index answers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from tournaments.models import Entry, Player, RatingKind, RatingList, RatingListRow, Tournament
from tournaments.models.register import search_key
from tournaments.ratings import TITLES, player_ratings

MAX_ID_DIGITS = 9  # an FMJD id prefix is looked up as ranges up to this many digits
WORDS = 4  # words of a query that count: a longer query is a pasted line, its first words decide


@dataclass(frozen=True)
class Candidate:
    """One line the arbiter may choose. `key` names it for the add: "p<id>" a register player, "r<id>" a
    list row (its player, or a new register record made from it)."""

    key: str
    name: str
    native_name: str
    fmjd_id: int | None
    federation: str
    title: str
    rating: int | None
    club: str
    entered: bool
    source: str  # "" for the register; else the list, "FMJD 2026-10-01"
    player_id: int | None


def tournament_lists(tournament: Tournament | None) -> list[RatingList]:
    """The lists a tournament reads: its FMJD and national lists; without either, the newest FMJD list."""
    chosen = [lst for lst in (getattr(tournament, "fmjd_list", None), getattr(tournament, "national_list", None))
              if lst is not None]
    if chosen:
        return chosen
    newest = RatingList.objects.filter(kind=RatingKind.FMJD).order_by("-published_on", "-pk").first()
    return [newest] if newest is not None else []


def list_label(rating_list: RatingList) -> str:
    return f"{rating_list.source} {rating_list.published_on.isoformat()}"


def _id_ranges(prefix: str, field: str) -> Q:
    """The ids beginning with the digits `prefix` as ranges of the integer (an index answers them)."""
    start = int(prefix)
    q = Q()
    for extra in range(MAX_ID_DIGITS - len(prefix) + 1):
        low, high = start * 10**extra, (start + 1) * 10**extra
        if start == 0 and extra:
            break  # "0…" begins no stored id but 0 itself
        q |= Q(**{f"{field}__gte": low, f"{field}__lt": high})
    return q


def _word_filter(words: list[str]) -> Q:
    q = Q()
    for word in words:
        q &= Q(folded__startswith=word) | Q(folded__contains=" " + word)
    return q


def _matching(qs: QuerySet, query: str) -> tuple[QuerySet, bool] | None:
    """The rows matching `query`, best first; None for a query that asks nothing."""
    text = query.strip()
    if text.isascii() and text.isdigit():
        if len(text) > MAX_ID_DIGITS:
            return qs.none(), True
        exact = int(text)
        return (qs.filter(_id_ranges(text, "fmjd_id"))
                .annotate(_exact=Case(When(fmjd_id=exact, then=Value(0)), default=Value(1),
                                      output_field=IntegerField()))
                .order_by("_exact", "fmjd_id")), True
    words = search_key(text).split()[:WORDS]
    if not words:
        return None
    # The surname is typed first: a name that begins with the first word comes before one that has it later.
    return (qs.filter(_word_filter(words))
            .annotate(_first=Case(When(folded__startswith=words[0], then=Value(0)), default=Value(1),
                                  output_field=IntegerField()))
            .order_by("_first", "folded", "pk")), False


def candidates(query: str, *, tournament: Tournament | None = None, limit: int = 8) -> list[Candidate]:
    """Up to `limit` players and list rows matching `query`, the register's first."""
    if limit < 1:
        return []
    found = _matching(Player.objects.all(), query)
    if found is None:
        return []
    players_qs, by_id = found
    lists = tournament_lists(tournament)
    entered: set[int] = set()
    if tournament is not None and tournament.pk is not None:
        entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    players = list(players_qs[:limit])
    chosen = getattr(tournament, "fmjd_list", None)
    kept = _kept_values(players, chosen)
    out = [_of_player(p, chosen is not None, kept.get(p.pk), p.pk in entered) for p in players]
    if len(out) < limit and lists:
        shown_players = {p.pk for p in players}
        shown_ids = {p.fmjd_id for p in players if p.fmjd_id is not None}
        rows_found = _matching(RatingListRow.objects.filter(rating_list__in=lists).select_related("rating_list"),
                               query)
        assert rows_found is not None
        rows_qs = rows_found[0].exclude(player_id__in=shown_players)
        if shown_ids:
            rows_qs = rows_qs.exclude(fmjd_id__in=shown_ids)
        # The register's records of the rows, to mark those already entered under another spelling.
        entered_ids = set(Player.objects.filter(pk__in=entered, fmjd_id__isnull=False)
                          .values_list("fmjd_id", flat=True)) if entered else set()
        seen: set[tuple[str, int]] = set()
        for row in rows_qs[: 2 * limit]:  # an FMJD row and a national row of one player: shown once
            ident = ("p", row.player_id) if row.player_id else ("f", row.fmjd_id) if row.fmjd_id else ("r", row.pk)
            if ident in seen:
                continue
            seen.add(ident)
            out.append(_of_row(row, row.player_id in entered or (row.fmjd_id in entered_ids)))
            if len(out) >= limit:
                break
    if by_id:  # the exact id first, wherever it was found
        exact = int(query.strip())
        out.sort(key=lambda c: c.fmjd_id != exact)
    return out


def _kept_values(players: list[Player], fmjd: RatingList | None) -> dict[int, RatingListRow]:
    """The row of each shown register player on the FMJD list the tournament chose: the rating and title his
    entry will keep (tournaments.ratings.kept_values). The newest list the search falls back on is not one:
    without a chosen list the entry keeps the register's values."""
    if fmjd is None or not players:
        return {}
    ids = {p.fmjd_id: p.pk for p in players if p.fmjd_id is not None}
    out: dict[int, RatingListRow] = {}
    for row in RatingListRow.objects.filter(rating_list=fmjd).filter(
            Q(player_id__in=[p.pk for p in players]) | Q(fmjd_id__in=list(ids))):
        pk = row.player_id if row.player_id in {p.pk for p in players} else ids.get(row.fmjd_id)
        if pk is not None:
            out.setdefault(pk, row)
    return out


def _of_player(p: Player, chosen_list: bool, row: RatingListRow | None, entered: bool) -> Candidate:
    """A register player as his entry will hold him: with a chosen FMJD list, its row's rating (none when he is
    not on it) and its title where it gives one; without one, the register's."""
    rating = (row.rating if row is not None else None) if chosen_list else player_ratings(p)[0]
    title = row.title if row is not None and (not row.title or row.title in TITLES) else p.title
    return Candidate(key=f"p{p.pk}", name=p.full_name, native_name=p.native_name, fmjd_id=p.fmjd_id,
                     federation=p.federation, title=title, rating=rating, club=p.club, entered=entered,
                     source="", player_id=p.pk)


def _of_row(row: RatingListRow, entered: bool) -> Candidate:
    name = f"{row.surname}, {row.given_name}" if row.given_name else row.surname
    return Candidate(key=f"r{row.pk}", name=name, native_name=row.native_name, fmjd_id=row.fmjd_id,
                     federation=row.federation, title=row.title, rating=row.rating, club=row.club,
                     entered=entered, source=list_label(row.rating_list), player_id=row.player_id)
