"""The admin index's shortcut to each control room of the arbiter's own tournaments."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.permissions import managed_tournaments

register = template.Library()


@register.simple_tag(takes_context=True)
def arbiter_tournaments(context: dict[str, Any], limit: int = 10) -> list[Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        return []
    return list(managed_tournaments(user).order_by("-start_date", "name")[:limit])
