"""The round page's reports from the boards: a board's cell looked up by its game's id."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def report_of(cells: Any, game_id: int) -> Any:
    return (cells or {}).get(game_id)
