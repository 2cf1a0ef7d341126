"""An entry's rating as its tournament reads it, for the control room's order by rating (the view gives the
entries with their tournament, so the filter reads nothing)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.ratings import entry_rating

register = template.Library()


@register.filter
def tournament_rating(entry: Any) -> int | None:
    """The entry's rating as its tournament reads it (the method chosen for the tournament)."""
    return entry_rating(entry)
