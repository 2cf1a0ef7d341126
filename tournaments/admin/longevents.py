"""The tournament form's rating tie-break settings (VCL4THP Q208-Q216): the long-event suggestion, C.07
Article 10's notice, and each player's later ratings on his entry's page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import ratings
from tournaments.admin import warnings
from tournaments.admin.base import ScopedInline
from tournaments.conformance.policy import Warning
from tournaments.models import EntryRating, Tournament
from tournaments.players import period_ratings

RATING_FIELDS = ("long_event", "unrated_method", "unrated_rating", "tiebreak_rating_round",
                 "tiebreak_rating_per_round")
FIELDSET = (_("Rating tie-breaks"), {"fields": RATING_FIELDS})


def notices(t: Tournament) -> list[Warning]:
    """The level-2 notices of the stored settings."""
    return period_ratings.long_event_notices(t.long_event, t.tiebreaks)


class LongEventFormMixin:
    """Says under the flag when the dates suggest ticking it, and what C.07 Art. 10 advises once ticked."""

    fields: dict[str, Any]
    instance: Tournament

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("long_event")
        if field is None or self.instance.pk is None:
            return
        parts = []
        if period_ratings.long_event_suggested(self.instance):
            days = period_ratings.span_days(period_ratings.event_dates(self.instance))
            parts.append(format_html('<strong id="long-event-suggestion">{}</strong>', gettext(
                "Suggested: the dates of this tournament span %(days)s days.") % {"days": days}))
        if found := notices(self.instance):
            parts.append(warnings.block(None, found, block_id="long-event-rating-tiebreaks"))
        if parts:
            field.help_text = format_html("{} {}", format_html(" ".join(["{}"] * len(parts)), *parts),
                                          field.help_text)


class LongEventAdminMixin:
    """After a save, the notice C.07 Art. 10 gives a long event ranked on ratings (level 2: nothing to confirm)."""

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)  # type: ignore[misc]
        for row in warnings.rows(notices(obj)):
            messages.warning(request, row.line)


class EntryRatingInline(ScopedInline):
    """The entry's later ratings, typed while the tournament runs. Once it is finished they are the ratings
    its rating tie-breaks were ranked on: shown, never changed (as the entries' own ratings)."""

    model = EntryRating
    extra = 1
    fields = ("from_round", "rating")
    verbose_name = _("later rating (a tournament lasting more than 30 days)")
    verbose_name_plural = _("later ratings (a tournament lasting more than 30 days)")

    def _open(self, request: HttpRequest, obj: Any) -> bool:
        return self._allowed(request, obj) and (obj is None or not ratings.is_finished(obj.tournament))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)
