"""Words for the admin's templates: the standings heading, tie-break names and values, never keys."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors
from tournaments.models import Tournament
from tournaments.ranking import progress
from tournaments.words import format_tiebreak, tiebreak_label, withdrawal_text

register = template.Library()


@register.simple_tag
def standings_heading(tournament: Tournament, after_round: int | None = None) -> str:
    """'Standings after round N' or 'Standings – round N in progress (k results missing)'."""
    data = selectors.tournament_data(tournament)
    return progress.heading("standings", progress.shown_round(data.games, after_round))


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
