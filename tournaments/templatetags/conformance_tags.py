"""The permanent mark of a tournament that left the conformance mode, for any template."""

from __future__ import annotations

from django import template

from tournaments.conformance.words import left_mode_text

register = template.Library()


@register.filter
def conformance_mark(tournament: object) -> str:
    """The words saying the tournament left the mode (in the reader's language), or ''."""
    left = getattr(tournament, "conformance_left_round", None)
    return "" if left is None else left_mode_text(left)
