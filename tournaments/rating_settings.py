"""The checks of a tournament's rating tie-break settings (VCL4THP Q208-Q216), called by Tournament.clean.

Apart from period_ratings.py so the model can call it without an import circle (it reads the tournament's
attributes only).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def clean_rating_settings(t: Any) -> None:
    """Tournament.clean's part for these settings: each error names its field."""
    errors: dict[str, Any] = {}
    if t.unrated_method == "fixed" and t.unrated_rating is None:
        errors["unrated_rating"] = _("Type the rating unrated players count at, or choose another method.")
    if t.tiebreak_rating_round is not None or t.tiebreak_rating_per_round:
        field = "tiebreak_rating_round" if t.tiebreak_rating_round is not None else "tiebreak_rating_per_round"
        if not t.long_event:
            errors[field] = _("Players hold several ratings only in a tournament lasting more than 30 days: "
                              "tick “lasts more than 30 days” first, or leave this empty.")
        elif t.tiebreak_rating_round is not None and t.tiebreak_rating_per_round:
            errors["tiebreak_rating_round"] = _(
                "Choose either the ratings of one round or the rating of each game's round, not both.")
        elif t.tiebreak_rating_round is not None and (
                t.tiebreak_rating_round < 1 or (t.rounds_total and t.tiebreak_rating_round > t.rounds_total)):
            errors["tiebreak_rating_round"] = _("Round %(round)s is not a round of this tournament (1 to "
                                                "%(last)s).") % {"round": t.tiebreak_rating_round,
                                                                 "last": t.rounds_total or "?"}
    if errors:
        raise ValidationError(errors)
