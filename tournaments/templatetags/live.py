"""Whether a public page follows a round in progress, and so updates itself (static/damier/live.js)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import RoundStatus

register = template.Library()

# Pages that change while a round is being played: its pairings and results, and what they feed.
FOLLOWS_ANY_ROUND = {"standings", "crosstable", "player", "team_home", "team_crosstable", "team_players"}
FOLLOWS_ITS_ROUND = {"round", "game", "team_round", "team_match"}


@register.simple_tag(takes_context=True)
def live_page(context: Any) -> bool:
    section = context.get("section")
    if section in FOLLOWS_ITS_ROUND:
        rnd = context.get("round")
        return getattr(rnd, "status", None) == RoundStatus.PUBLISHED
    if section in FOLLOWS_ANY_ROUND:
        return any(getattr(r, "status", None) == RoundStatus.PUBLISHED for r in context.get("rounds") or ())
    return False
