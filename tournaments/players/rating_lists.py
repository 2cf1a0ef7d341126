"""The rating lists a tournament is rated on: chosen before round 1, compared with a later list after.

Before round 1 the lists are settings: choosing or changing one makes every entry take its values from it
again (its rating and title on the FMJD list, its rating on the national list; tournaments.ratings
.kept_values), and the numbering by rating follows when round 1 is paired. Once round 1 is paired the
settings refuse the field (tournaments.rounds.settings_rules): the pairing numbers and the rating
tie-breaks were made on the entries' values. A running tournament changes its list only through the
compare-a-list step: each entry whose values differ on a later list is shown, old and new, the arbiter ticks
the ones to take, confirms the warning, and the step is recorded; the tournament's field then names the new
list. A finished tournament keeps its lists and values for good.

A player with no rating on the list the tournament reads alone (“FMJD rating only”, “national rating
only”) but one on the other list may have that one picked for him, entry by entry, recorded (VCL4THP Q129).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import ratings
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError, StaleEditError
from tournaments.locks import locked_tournament
from tournaments.models import Entry, RatingKind, RatingList, Tournament

# The tournament's field holding its list of each kind.
LIST_FIELD = {RatingKind.FMJD: "fmjd_list", RatingKind.NATIONAL: "national_list"}


def lists_offered(kind: str) -> QuerySet[RatingList]:
    """The lists of a kind a tournament may choose, newest first."""
    return RatingList.objects.filter(kind=kind).order_by("-published_on", "source")


def list_label(rating_list: RatingList) -> str:
    """“FMJD 2026-10-01 (30,012 players)”: the source, the date and the size, as a menu shows a list."""
    n = rating_list.row_count
    return ngettext("%(source)s %(date)s (%(n)s player)", "%(source)s %(date)s (%(n)s players)", n) % {
        "source": rating_list.source, "date": rating_list.published_on.isoformat(), "n": f"{n:,}"}


def list_valid_at(kind: str, day: datetime.date | None) -> RatingList | None:
    """The list valid on a day: the latest published on or before it (the list valid at a tournament's
    start, VCL4THP Q137); None when there is none."""
    if day is None:
        return None
    return lists_offered(kind).filter(published_on__lte=day).first()


# --- Before round 1: the entries take their values from the lists chosen ---------------------------------


def entries_retake(tournament: Tournament, *, user: Any = None) -> int:
    """Every entry takes its values from the tournament's lists as they are now (the caller holds the
    tournament's lock, inside its transaction; before round 1 only). The number of entries changed."""
    if tournament.rounds.exists():
        raise DomainError(_("Round 1 of %(tournament)s is paired: its rating lists change only through the "
                            "comparison with a later list, on the pairing-numbers page.")
                          % {"tournament": tournament})
    changed = 0
    for entry in Entry.objects.select_for_update().select_related("player").filter(tournament_id=tournament.pk):
        before = (entry.rating, entry.national_rating, entry.title, entry.other_rating_picked)
        entry.take_ratings(entry.player)
        entry.other_rating_picked = False  # a pick was made on the other list's values: made again if wanted
        if (entry.rating, entry.national_rating, entry.title, entry.other_rating_picked) != before:
            if user is not None:
                entry._history_user = user  # type: ignore[attr-defined]
            entry.save(update_fields=["rating", "national_rating", "title", "other_rating_picked"],
                       numbering_step=True)
            changed += 1
    return changed


# --- After round 1: the compare-a-list step --------------------------------------------------------------


@dataclass(frozen=True)
class ListChange:
    """An entry whose values differ on the later list: rating (the list's kind), then title (FMJD lists)."""

    entry: Entry
    old_rating: int | None
    new_rating: int | None
    old_title: str
    new_title: str

    @property
    def token(self) -> str:
        return str(self.entry.pk)

    @property
    def text(self) -> str:
        """'2340>2500 MI>GMI', as the event keeps it."""
        def show(v: object) -> str:
            return "-" if v in (None, "") else str(v)
        out = f"{self.entry.pairing_number}: {show(self.old_rating)}>{show(self.new_rating)}"
        return out + (f" {show(self.old_title)}>{show(self.new_title)}" if self.old_title != self.new_title else "")


def later_lists(tournament: Tournament) -> list[RatingList]:
    """The lists a running tournament may move to: of each kind, those published after the one it holds
    (any, where it holds none), newest first."""
    out: list[RatingList] = []
    for kind, field in LIST_FIELD.items():
        held = getattr(tournament, field)
        offered = lists_offered(kind)
        out += list(offered.filter(published_on__gt=held.published_on) if held is not None else offered)
    return out


def check_later_list(tournament: Tournament, rating_list: RatingList) -> None:
    """DomainError unless the list is a later list of one of the tournament's kinds."""
    _later_list(tournament, rating_list)


def _later_list(tournament: Tournament, rating_list: RatingList) -> str:
    """The field the later list replaces; DomainError when it is not a later list of one of the tournament's
    kinds."""
    field = LIST_FIELD.get(RatingKind(rating_list.kind))
    current = getattr(tournament, f"{field}_id") if field else None
    if current == rating_list.pk:
        raise DomainError(_("%(list)s is already this tournament's list.") % {"list": rating_list})
    if current is not None:
        held = RatingList.objects.get(pk=current)
        if rating_list.published_on <= held.published_on:
            raise DomainError(_("%(list)s is not later than the tournament's list %(held)s: a running "
                                "tournament moves only to a later list.") % {"list": rating_list, "held": held})
    return str(field)


def list_comparison(tournament: Tournament, rating_list: RatingList) -> list[ListChange]:
    """The entries whose kept values differ from the later list's, by pairing number. A player not on the
    list would lose his rating; his title stays (a list without him says nothing of it)."""
    out = []
    for entry in tournament.entries.select_related("player").order_by("pairing_number"):
        row = ratings.list_row(rating_list.pk, entry.player)
        new = row.rating if row is not None else None
        if rating_list.kind == RatingKind.FMJD:
            old, title = entry.rating, entry.title
            if row is not None and (not row.title or row.title in ratings.TITLES):
                title = row.title
        else:
            old, title = entry.national_rating, entry.title
        if (old, entry.title) != (new, title):
            out.append(ListChange(entry, old, new, entry.title, title))
    return out


def comparison_signature(changes: list[ListChange]) -> str:
    """What the page showed, posted back: a write made on other values is refused."""
    return hashlib.sha256(",".join(f"{c.entry.pk}:{c.text}" for c in changes).encode()).hexdigest()[:16]


@transaction.atomic
def list_change(*, tournament: Tournament, rating_list: RatingList, chosen: Collection[str],
                expected: str | None = None, confirmed: Collection[str] = (), user: Any = None) -> list[ListChange]:
    """A running tournament moves to a later list: the ticked entries (ListChange.token) take its values,
    the others keep theirs; a confirmation (3), then one recorded event. Refused before round 1 (the
    settings choose the list then) and once the tournament is finished."""
    tournament = locked_tournament(tournament)
    if ratings.is_finished(tournament):
        raise DomainError(_("%(tournament)s is finished: it keeps the ratings it was played on, whatever a later "
                            "list says.") % {"tournament": tournament})
    if not tournament.rounds.exists():
        raise DomainError(_("Round 1 is not paired yet: choose the list on the tournament's settings, and every "
                            "entry takes its values from it."))
    field = _later_list(tournament, rating_list)
    changes = list_comparison(tournament, rating_list)
    if expected is not None and comparison_signature(changes) != expected:
        raise StaleEditError(_("The entries or their values changed since the comparison was shown: nothing was "
                               "done; look at it again."))
    known = {c.token: c for c in changes}
    if unknown := [t for t in chosen if t not in known]:
        raise DomainError(_("A ticked player (%(token)s) is not one whose values differ on %(list)s: nothing was "
                            "done.") % {"token": unknown[0][:20], "list": rating_list})
    taken = [known[t] for t in dict.fromkeys(chosen)]
    old = getattr(tournament, field)
    warning = Warning(Code.RATING_LIST_CHANGED, {
        "old": str(old) if old is not None else "-", "new": str(rating_list), "taken": len(taken),
        "changes": [c.text for c in taken] or ["-"]})
    events.require([warning], confirmed=confirmed)
    rating_field = "rating" if rating_list.kind == RatingKind.FMJD else "national_rating"
    for c in taken:
        entry = Entry.objects.select_for_update().get(pk=c.entry.pk)
        setattr(entry, rating_field, c.new_rating)
        entry.title = c.new_title
        if user is not None:
            entry._history_user = user  # type: ignore[attr-defined]
        entry.save(update_fields=[rating_field, "title"], numbering_step=True)
    setattr(tournament, field, rating_list)
    if user is not None:
        tournament._history_user = user  # type: ignore[attr-defined]
    tournament.save(update_fields=[field])
    events.record(tournament, warning.code, values=warning.values, user=user)
    return taken


# --- The other list's rating, picked for one player (Q129) ----------------------------------------------


def main_rating_field(method: str) -> str | None:
    """The entry's rating a method reads alone (None: the method falls back or takes the higher by itself)."""
    return {"fmjd_only": "rating", "national_only": "national_rating"}.get(method)


def can_pick(entry: Entry, method: str) -> bool:
    """No rating on the list the tournament reads alone, one on the other, not picked yet."""
    main = main_rating_field(method)
    if main is None or entry.other_rating_picked:
        return False
    other = "national_rating" if main == "rating" else "rating"
    return getattr(entry, main) is None and getattr(entry, other) is not None


@transaction.atomic
def other_rating_pick(*, tournament: Tournament, entry: Entry, user: Any = None) -> Entry:
    """The tournament reads the entry's rating from the other list (a notice, recorded). Refused once the
    tournament is finished, and for an entry that does not qualify (can_pick)."""
    tournament = locked_tournament(tournament)
    if ratings.is_finished(tournament):
        raise DomainError(_("%(tournament)s is finished: it keeps the ratings it was played on, whatever a later "
                            "list says.") % {"tournament": tournament})
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, tournament=tournament)
    if not can_pick(entry, tournament.rating_method):
        raise DomainError(_("%(player)s: nothing to pick. Only a player with no rating on the list the "
                            "tournament reads alone, but one on the other list, can have that one picked.")
                          % {"player": entry})
    entry.other_rating_picked = True
    if user is not None:
        entry._history_user = user  # type: ignore[attr-defined]
    entry.save(update_fields=["other_rating_picked"], numbering_step=True)
    entry.tournament = tournament
    events.record(tournament, Code.OTHER_RATING_PICKED,
                  values={"player": entry.player.full_name, "rating": ratings.entry_rating(entry)}, user=user)
    return entry
