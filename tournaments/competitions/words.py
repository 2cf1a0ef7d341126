"""What the cup's codes mean, in the reader's language: why a match went to the team it went to
(`tournaments.teams.scoring.CupReason`, and the bye of `tournaments.competitions.cup`)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def reason_words(code: str) -> str:
    """The reason a cup match was decided, for a page or a print; an unknown code is shown as it is."""
    words = {
        "board_points": _("more board points"),
        "forfeit": _("the other team did not play"),
        "board_count": _("board count (the lower sum of the boards won)"),
        "eliminate_lowest": _("the lowest board eliminated"),
        "barrage": _("the barrage"),
        "lots": _("lots"),
        "undecided": _("not decided yet"),
        "bye": _("a bye"),
    }
    return words.get(code, code)
