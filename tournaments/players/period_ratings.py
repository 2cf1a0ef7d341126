"""Rating-based tie-breaks in long events and for unrated players, on the database side (VCL4THP Q208-Q216).

The pure rules are tournaments/standings/unrated.py and rating_rounds.py; this module reads a tournament's
settings and its players' later ratings into them, checks the settings, suggests the long-event flag,
gives the notice C.07 Article 10 advises for long events, and says in words which ratings count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments.conformance.policy import Code, Warning
from tournaments.models import Entry, EntryRating, Tournament, UnratedMethod
from tournaments.selectors import tiebreak_ratings, uses_later_ratings
from tournaments.standings.rating_rounds import TieBreakRatings, lasts_over_30_days, span_days
from tournaments.standings.unrated import uses_ratings


def event_dates(t: Tournament) -> list[Any]:
    return [t.start_date, t.end_date, *t.rounds.exclude(date=None).values_list("date", flat=True)]


def long_event_suggested(t: Tournament) -> bool:
    """The dates span more than 30 days and the flag is off (Q210: suggested, the arbiter decides)."""
    return t.pk is not None and not t.long_event and lasts_over_30_days(event_dates(t))


def long_event_notices(long_event: bool, tiebreaks: Iterable[str]) -> list[Warning]:
    """C.07 Article 10 advises against rating-based tie-breaks in an event over 30 days (Q211), a notice."""
    names = uses_ratings(tiebreaks)
    if not long_event or not names:
        return []
    return [Warning(Code.LONG_EVENT_RATING_TIEBREAKS, {"tiebreaks": names})]


def unrated_text(t: Tournament, ratings: TieBreakRatings | None = None) -> str:
    method = t.unrated_method
    if method == UnratedMethod.DROP:
        return _("Unrated opponents are left out.")
    if method == UnratedMethod.FIXED:
        return _("An unrated opponent counts at %(rating)s, the rating the arbiter set.") % {
            "rating": t.unrated_rating}
    figure = None
    if ratings is not None and not ratings.per_round:
        figure = ratings.stand_in_of(ratings.round)
    if method == UnratedMethod.LOWEST:
        return (_("An unrated opponent counts at the lowest rating in the field (%(rating)s).")
                % {"rating": figure} if figure is not None else
                _("An unrated opponent counts at the lowest rating in the field."))
    return (_("An unrated opponent counts at the average rating of the rated players (%(rating)s).")
            % {"rating": figure} if figure is not None else
            _("An unrated opponent counts at the average rating of the rated players."))


def rounds_text(t: Tournament) -> str:
    if uses_later_ratings(t) and t.tiebreak_rating_per_round:
        return _("Each opponent counts at the rating he held in the round the game was played.")
    if uses_later_ratings(t):
        return _("The ratings are those players held in round %(round)s.") % {"round": t.tiebreak_rating_round}
    return _("Each player's first rating counts (FIDE C.07 Art. 10).")


def explanation(t: Tournament, entries: Sequence[Entry] | None = None) -> str:
    """How this tournament's rating-based tie-breaks count, in the reader's language."""
    ratings = tiebreak_ratings(t, entries if entries is not None
                               else list(t.entries.select_related("player")))
    return f"{rounds_text(t)} {unrated_text(t, ratings)}"


def help_for(t: Tournament, name: str, base: str) -> str:
    """A tie-break's explanation for this tournament: a rating-based one also says which ratings count."""
    return f"{base} {explanation(t)}" if uses_ratings([name]) else base


def note(t: Tournament) -> str:
    """Under a standings table: which ratings the rating-based tie-breaks used ('' when none is listed)."""
    return explanation(t) if uses_ratings(t.tiebreaks) else ""


def trf_lines(t: Tournament) -> list[str]:
    """The settings as TRF `###` comment lines, for a reader of the file to recompute the tie-breaks."""
    # Only what differs from C.07's default (first ratings, unrated left out): a plain file stays as it was.
    if not uses_ratings(t.tiebreaks) or (t.unrated_method == UnratedMethod.DROP and not t.long_event):
        return []
    entries = list(t.entries.select_related("player"))
    ratings = tiebreak_ratings(t, entries)
    unrated = str(t.unrated_method)
    if ratings is not None and t.unrated_method != UnratedMethod.DROP and not ratings.per_round:
        unrated += f" {ratings.stand_in_of(ratings.round)}"
    which = ("per-round" if uses_later_ratings(t) and t.tiebreak_rating_per_round else
             f"round {t.tiebreak_rating_round}" if uses_later_ratings(t) else "first")
    lines = [f"### rating tie-breaks: unrated={unrated} ratings={which} long-event={'yes' if t.long_event else 'no'}"]
    if uses_later_ratings(t):
        numbers = {e.pk: e.pairing_number for e in entries}
        for r in EntryRating.objects.filter(entry__tournament=t).order_by("entry__pairing_number", "from_round"):
            lines.append(f"### later rating: player={numbers[r.entry_id]} from-round={r.from_round} rating={r.rating}")
    return lines


__all__ = ["explanation", "help_for", "long_event_notices", "long_event_suggested", "note",
           "span_days", "trf_lines"]
