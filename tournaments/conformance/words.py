"""What each conformance code says to a person, in the reader's language (the edge of policy.py).

The services store codes and values; these words are made when a warning or an event is shown. A value a
text needs and the record lacks shows as '?', never as an error: an old event must stay readable.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.conformance.policy import Code, Level


class _HasCode(Protocol):
    code: Any
    values: dict[str, Any]


_LEVELS = {
    Level.NOTICE: gettext_lazy("notice"),
    Level.CONFIRM: gettext_lazy("confirmation"),
    Level.LEAVE: gettext_lazy("leaves the conformance mode"),
    Level.REFUSE: gettext_lazy("refused"),
}

_TEXTS: dict[Code, Any] = {
    Code.LEFT_MODE: gettext_lazy("The arbiter took the tournament out of the conformance mode."),
    Code.ROUNDS_CHANGED: gettext_lazy("The number of rounds changed from %(old)s to %(new)s."),
    Code.BYE_POINTS_CHANGED: gettext_lazy("The points for a bye changed from %(old)s to %(new)s."),
    Code.TIEBREAKS_CHANGED: gettext_lazy("The tie-break order changed from %(old)s to %(new)s."),
    Code.TIEBREAK_CONVENTION_CHANGED: gettext_lazy(
        "How the tie-breaks count unplayed rounds changed from %(old)s to %(new)s."),
    Code.SWISS_ORDER_CHANGED: gettext_lazy("The order within a score group changed from %(old)s to %(new)s."),
    Code.RATING_TIEBREAKS_CHANGED: gettext_lazy(
        "How the rating tie-breaks count changed (%(setting)s: from %(old)s to %(new)s)."),
    Code.SYSTEM_CHANGED: gettext_lazy("The pairing system cannot change once round 1 is paired."),
    Code.FORBIDDEN_PAIR_LATE: gettext_lazy(
        "A forbidden pair (%(pair)s) was changed after round 1 was paired: the competition rules set them "
        "before round 1."),
    Code.SETUP_CANNOT_FINISH: gettext_lazy(
        "%(rounds)s rounds cannot all be paired with %(players)s players without a rematch."),
    Code.PREVIOUS_ROUND_CORRECTED: gettext_lazy(
        "A result of round %(round)s was corrected after round %(next)s was paired."),
    Code.OLD_ROUND_CORRECTED: gettext_lazy(
        "A result of round %(round)s was corrected after two or more later rounds were paired."),
    Code.RATING_CORRECTION: gettext_lazy(
        "Round %(round)s, board %(board)s: %(old)s corrected to %(new)s for the rating report only; pairings "
        "and standings keep %(old)s."),
    Code.MANUAL_PAIRING: gettext_lazy("Round %(round)s was paired by hand and differs from the engine's pairing."),
    Code.REMATCH: gettext_lazy("%(pair)s have already played each other."),
    Code.FORBIDDEN_PAIR_PAIRED: gettext_lazy("%(pair)s may not meet (a forbidden pair)."),
    Code.BYE_INELIGIBLE: gettext_lazy("%(player)s may not receive the bye (already had one or a forfeit win)."),
    Code.COLOUR_BREACH: gettext_lazy("%(player)s would play the same colour three times in a row or be two "
                                     "games out of balance."),
    Code.BOTH_WRONG_COLOUR: gettext_lazy("%(pair)s: both players get the colour they are not due."),
    Code.ENGINE_CANNOT_PAIR: gettext_lazy(
        "The engine cannot pair round %(round)s without breaking an absolute criterion (players %(players)s): "
        "the round is created empty and paired by hand."),
    Code.FULL_POINT_BYE: gettext_lazy(
        "%(player)s gets a requested bye worth a win: the competition rules do not describe it; keep it "
        "exceptional."),
    Code.HALF_POINT_BYE: gettext_lazy("%(player)s gets another requested bye worth a draw."),
    Code.POSTPONED_NOT_DRAW: gettext_lazy(
        "The postponed game %(pair)s counted as a draw for the pairing; its result is not a draw."),
    Code.PAIRED_WITH_POSTPONED: gettext_lazy("Round %(round)s was paired while a postponed game had no result."),
    Code.NUMBERS_REGENERATED: gettext_lazy("The pairing numbers were regenerated from the ratings."),
    Code.NUMBERS_EXCHANGED: gettext_lazy("%(first)s and %(second)s exchanged pairing numbers."),
    Code.LATE_ENTRY: gettext_lazy("%(player)s entered late and was given pairing number %(number)s."),
    Code.RATING_CHANGED: gettext_lazy("The rating of %(player)s changed from %(old)s to %(new)s."),
    Code.RATING_LIST_CHANGED: gettext_lazy(
        "The tournament's rating list changes from %(old)s to %(new)s: %(taken)s player(s) take the new "
        "list's rating and title (%(changes)s); the pairing numbers and the rating tie-breaks read them from "
        "now on."),
    Code.OTHER_RATING_PICKED: gettext_lazy(
        "%(player)s has no rating on the tournament's list: the arbiter picked his rating of %(rating)s from "
        "the other list."),
    Code.SCHEDULE_BY_HAND: gettext_lazy("Round %(round)s of the round robin was scheduled by hand."),
    Code.LOTS_DRAWN: gettext_lazy("Ties the tie-breaks could not separate were drawn by lot (seed %(seed)s)."),
    Code.RANKED_BY_HAND: gettext_lazy("Tied players were ordered by hand: %(order)s."),
    Code.IMPORT_BROKE_RULES: gettext_lazy("An imported round (%(round)s) breaks the pairing rules."),
    Code.IMPORT_NOT_ENGINE_PAIRING: gettext_lazy(
        "An imported round (%(round)s) is not the pairing the engine makes from the same standings (imported: "
        "%(file)s; engine: %(engine)s)."),
    Code.LONG_EVENT_RATING_TIEBREAKS: gettext_lazy(
        "This tournament lasts more than 30 days and its tie-breaks use ratings, which change during it: FIDE "
        "C.07 Article 10 advises against rating-based tie-breaks in such events. FMJD rules have no text on "
        "it; the choice is the organiser's."),
    Code.ABSENT_NOT_PAIRED: gettext_lazy(
        "Round %(round)s: not checked in, not paired, 0 points (pairing numbers %(players)s)."),
    Code.ABSENT_PAIRED: gettext_lazy(
        "Round %(round)s: not checked in, paired anyway (pairing numbers %(players)s)."),
}


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def describe(item: _HasCode) -> str:
    try:
        code = Code(str(item.code))
    except ValueError:
        return str(item.code)
    values = _Lenient({k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                       for k, v in (item.values or {}).items()})
    if code is Code.TIEBREAK_CONVENTION_CHANGED:
        values.update({k: _CONVENTION_NAMES.get(str(values[k]), values[k]) for k in ("old", "new") if k in values})
    return str(_TEXTS[code]) % values


# The stored values are tournaments.standings.fide_c07's codes; the names are the bodies' own, in every language.
_CONVENTION_NAMES = {"fmjd": "FMJD", "fide_c07": "FIDE C.07"}


def level_name(level: int) -> str:
    try:
        return str(_LEVELS[Level(level)])
    except ValueError:
        return str(level)


def left_mode_text(left_round: int) -> str:
    if left_round == 0:
        return _("This tournament left the conformance mode before round 1.")
    return _("This tournament left the conformance mode during round %(round)s.") % {"round": left_round}
