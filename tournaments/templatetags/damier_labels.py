"""Words for the templates: tie-break names and values, never keys, and the 5.9 ruling of a row."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.words import format_tiebreak, tiebreak_label, withdrawal_text

register = template.Library()


@register.filter(name="tiebreak_label")
def tiebreak_label_filter(name: str) -> Any:
    return tiebreak_label(name)


@register.filter(name="tiebreak_value")
def tiebreak_value_filter(value: Any) -> str:
    return format_tiebreak(value)


@register.filter(name="withdrawal_text")
def withdrawal_text_filter(withdrawal: Any) -> str:
    """The 5.9 ruling of a standings row (`row.withdrawal`) in the reader's language."""
    return withdrawal_text(withdrawal)
