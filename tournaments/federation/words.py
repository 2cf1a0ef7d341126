"""The report's and the rating preview's codes in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Why a game is not sent for rating, or what the federation should look at (tournaments.federation.rows).
REASONS = {
    "forfeit": gettext_lazy("forfeit: the game was not played (competition rules 5.7)"),
    "double-forfeit": gettext_lazy("double forfeit: neither player came (5.8)"),
    "pairing-bye": gettext_lazy("bye given by the pairing: no opponent"),
    "requested-bye": gettext_lazy("bye the player asked for: no opponent"),
    "after-withdrawal": gettext_lazy("not played: a player had withdrawn"),
    "unrated": gettext_lazy("marked “not rated” by the arbiter"),
    "ruling": gettext_lazy("result ruled by the arbiter (2.5 c): sent as ruled, for the federation to check"),
    "rating-corrected": gettext_lazy("corrected for the rating report only: the report has %(rating)s, "
                                     "the standings %(played)s"),
    "cancelled": gettext_lazy("not counted in the standings (5.9 A.a): sent as played"),
}

# Why a rating system's expected score and change are not available (tournaments.federation.rating_systems).
MISSING = {
    "fmjd-art3-expected": gettext_lazy("FMJD Annex 9 art. 3 (the expected result) was not found; only art. 1.1–1.3 "
                                       "were read"),
    "fmjd-art3-development": gettext_lazy("the development factor of Annex 9 art. 3.2.3 is named in art. 1.2.2.2 but "
                                          "its value was not found"),
    "fmjd-art4-games": gettext_lazy("Annex 9 art. 4 (the report, which games are rated) was not found"),
    "kndb-text-not-found": gettext_lazy("no KNDB rating regulation was found; “Par = 2” and the “Rlim” cap appear "
                                        "only in a third party's script"),
    "ffjd-symbols-undefined": gettext_lazy("the FFJD note of 2005 gives Pa = N−1+(Y−X)·N/Z and (P−Pa)·K but does not "
                                           "define N, X, Y and P; the regulation (L'Effort no. 287) was not found"),
    "ffjd-2006-changes-unknown": gettext_lazy("the changes announced for January 2006 were not found"),
    "text-not-found": gettext_lazy("the regulation's text was not found"),
    "player-unrated": gettext_lazy("the player has no rating in this list"),
    "event-type-needed": gettext_lazy("choose the event type: the development factor depends on it"),
    "no-counted-game": gettext_lazy("no game counts for this rating"),
}


def reason_text(code: str, *, rating: str = "", played: str = "") -> str:
    return str(REASONS[code]) % {"rating": rating, "played": played} if code == "rating-corrected" else str(
        REASONS[code])


def missing_text(codes: tuple[str, ...]) -> str:
    return _("not available: %(why)s") % {"why": "; ".join(str(MISSING.get(c, c)) for c in codes)}
