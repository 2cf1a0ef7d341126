"""The control room's notice of ratings changed since the entries, as a tag so that the
control room's own view stays as it is: `{% load damier_ratings %}{% rating_notice tournament %}`."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.ratings import entry_rating, rating_changes

register = template.Library()


@register.inclusion_tag("admin/tournaments/tournament/rating_notice.html")
def rating_notice(tournament: Any) -> dict[str, Any]:
    return {"tournament": tournament, "changes": rating_changes(tournament)}


@register.filter
def tournament_rating(entry: Any) -> int | None:
    """The entry's rating as its tournament reads it (the method chosen for the tournament)."""
    return entry_rating(entry)
