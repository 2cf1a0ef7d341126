"""Words, in the reader's language, for what the pure modules return as data (codes and values).

`tournaments.results` and `tournaments.standings` never import Django: they return a Result or a
Withdrawal, and keep English only for the command line. The pages, PDFs and admin turn them into words
here, with gettext, at the moment they are shown (so the active language, or a PDF's own, is used).

The tie-breaks' words are here too: names, values, what each one computes and how Damier counts byes,
forfeits and withdrawn opponents (tournaments/standings/tiebreaks.py and withdrawals.py are the
implementation these sentences describe; keep them in step).
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any, Protocol

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from tournaments.results import Result
from tournaments.standings import PRESETS, TIEBREAKS, Preset, TieBreakValue
from tournaments.standings.records import Withdrawal


class Dated(Protocol):
    """What has dates: a tournament (this module never imports the models, which take their labels here)."""

    start_date: datetime.date | None
    end_date: datetime.date | None

RESULT_LABELS = {
    Result.WHITE_WINS: "2-0",
    Result.DRAW: "1-1",
    Result.BLACK_WINS: "0-2",
    Result.WHITE_FORFEIT_WIN: _("2F-0F (Black absent)"),
    Result.BLACK_FORFEIT_WIN: _("0F-2F (White absent)"),
    Result.DOUBLE_FORFEIT: _("0F-0F (double forfeit)"),
    Result.BYE: _("Bye"),
    Result.EXCUSED: _("Excused (0)"),
    Result.NOT_PLAYED: _("Not played"),
    Result.WHITE_RULED: _("1-0 (arbiter's ruling)"),
    Result.BLACK_RULED: _("0-1 (arbiter's ruling)"),
    Result.BOTH_LOSE: _("0-0 (arbiter's ruling: lost for both)"),
    Result.WHITE_WINS_UNRATED: _("2-0 not rated"),
    Result.DRAW_UNRATED: _("1-1 not rated"),
    Result.BLACK_WINS_UNRATED: _("0-2 not rated"),
    Result.POSTPONED: _("Postponed (a draw for now)"),
    Result.EXCUSED_DRAW: _("Requested bye worth a draw (1)"),
    Result.EXCUSED_WIN: _("Requested bye worth a win (2)"),
}


def result_label(value: Result | str) -> str:
    """'2F-0F (Black absent)' in the reader's language; an unknown code is shown as it is."""
    try:
        return str(RESULT_LABELS[Result(value)])
    except ValueError:
        return str(value)


def result_text(value: str) -> str:
    """A game's result as the tables and PDFs print it: '2-0' as it is, forfeits, byes and the like in words;
    '' for no result yet."""
    if not value:
        return ""
    result = Result(value)
    if result.is_single_player or result is Result.NOT_PLAYED or result.is_postponed:
        return result_label(result)
    if result.is_unrated:
        return gettext("%(result)s not rated") % {"result": result.value[:-1]}
    return result.value


def expelled_text() -> str:
    """What the crosstable says of an expelled player (competition rules 2.6)."""
    return gettext("expelled by the arbiter: not ranked; the games he played count for his opponents")


def tournament_dates(tournament: Dated) -> str:
    """'12 March 2026 – 15 March 2026' in the reader's date format; one date for a one-day event."""
    if tournament.start_date is None:
        return ""
    start = date_format(tournament.start_date, "DATE_FORMAT")
    if tournament.end_date is None or tournament.end_date == tournament.start_date:
        return start
    return f"{start} – {date_format(tournament.end_date, 'DATE_FORMAT')}"


def day_text(day: datetime.date) -> str:
    """'Saturday 14 November 2026' in the reader's language: a player plans his day by the weekday. The
    format is translated (Russian puts the month in the genitive: 'E', not 'F')."""
    return date_format(day, pgettext("Django date format of a round's day, with the weekday", "l j F Y"))


def start_text(day: datetime.date | None, time: datetime.time | None) -> str:
    """When a round starts, 'Saturday 14 November 2026, 14:00'; the day alone without a start time, '' with
    neither. The 24-hour clock in every language: a tournament hall's clock, read the same by every player."""
    parts = [day_text(day) if day else "", time.strftime("%H:%M") if time else ""]
    return ", ".join(p for p in parts if p)


def time_control_text(time_control: str) -> str:
    """'Time control: 90 min + 30 s per move' as printed; '' when the arbiter has not given it."""
    return gettext("Time control: %(time_control)s") % {"time_control": time_control} if time_control else ""


def withdrawal_text(withdrawal: Withdrawal | None) -> str:
    """The 5.9 ruling applied to a withdrawn player, for the standings, crosstable and player pages."""
    if withdrawal is None:
        return ""
    values = {"round": withdrawal.after_round, "played": withdrawal.played, "scheduled": withdrawal.scheduled}
    if withdrawal.rule == "5.9 A.a":
        return gettext("withdrew after round %(round)s having played %(played)s of %(scheduled)s games, "
                       "not more than half: results cancelled (5.9 A.a)") % values
    if withdrawal.rule == "5.9 A.b":
        return gettext("withdrew after round %(round)s having played %(played)s of %(scheduled)s games: "
                       "remaining games forfeited (5.9 A.b)") % values
    return gettext("withdrew after round %(round)s: results stand, ranked on the games played (5.9 B)") % values


# The one name of each tie-break, in the reader's language (the registry has keys and functions only).
TIEBREAK_LABELS: dict[str, Any] = {
    "solkoff": _("Solkoff"),
    "solkoff_median": _("Solkoff median"),
    "solkoff_short_truncated": _("Truncated Solkoff"),
    "solkoff_full_truncated": _("Full truncated Solkoff"),
    "solkoff_plus": _("Solkoff plus"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "wins": _("Wins"),
    "mutual_result": _("Mutual result"),
    "average_rating": _("Avg. opp. rating"),
    "ranking_order": _("Results in ranking order"),
    "external": _("External value"),
}



def tiebreak_label(name: str) -> Any:
    """The tie-break's name on every page, PDF and admin form; an unknown key is shown as it is."""
    return TIEBREAK_LABELS.get(name, name)


def format_tiebreak(value: TieBreakValue) -> str:
    """How a tie-break value reads: '–' where it does not apply, averages to one decimal, and the full
    truncated Solkoff as its first steps (the later ones only ever break ties)."""
    if value is None:
        return "–"
    if isinstance(value, tuple):
        return "/".join(str(v) for v in value[:3]) if value else "0"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else number_format(float(value), 1)
    return str(value)


PRESET_LABELS: dict[str, Any] = {
    "fmjd_swiss_solkoff": _("FMJD Swiss on Solkoff"),
    "fmjd_swiss_rating": _("FMJD Swiss on rating"),
    "fmjd_round_robin": _("FMJD round robin"),
    "kndb_round_robin": _("KNDB round robin"),
    "kndb_swiss": _("KNDB Swiss"),
}

PRESET_SOURCES: dict[str, Any] = {
    "fmjd_swiss_solkoff": _("FMJD Annexes (2024) 4.2 and events played under FMJD rules: the final "
                            "classification of a Swiss on Solkoff follows the truncated Solkoff."),
    "fmjd_swiss_rating": _("FMJD competition rules 5.11.1.2.2: first the result between the tied players "
                           "(the FMJD text says it for the first place; Damier applies it to every place), then "
                           "the average rating of the opponents."),
    "fmjd_round_robin": _("FMJD competition rules 5.11.1.2.1, when no play-off is held: most wins, the result "
                          "between the tied players, then the best result in ranking order."),
    "kndb_round_robin": _("KNDB championship conditions: the mutual result, then the highest score in "
                          "ranking order (a play-off, when the conditions hold one, is played before)."),
    "kndb_swiss": _("KNDB youth championship conditions: resistance points (Solkoff), then "
                    "Sonneborn-Berger."),
}

TIEBREAK_HELP: dict[str, Any] = {
    "solkoff": _("The sum of the scores of all his opponents (FMJD Annexes 4.2 a)."),
    "solkoff_median": _("Solkoff minus the highest and the lowest opponent's score (4.2 b). With fewer than "
                        "three opponents nothing is left: 0."),
    "solkoff_short_truncated": _("Solkoff minus the lowest opponent's score (4.2 c)."),
    "solkoff_full_truncated": _("Solkoff minus the lowest score; if still equal, minus the two lowest, and so "
                                "on (4.2 d). The tables show the first three steps. A player with fewer "
                                "opponents has fewer steps and is placed after an equal one with more."),
    "solkoff_plus": _("The sum of his opponents' Solkoffs (4.2 e). A bye or an excused round adds nothing."),
    "sonneborn_berger": _("For each game, his points in it times the opponent's score, added up: a win counts "
                          "the opponent's score twice, a draw once (the chess figure doubled, as points are "
                          "2/1/0). A forfeit counts like the game it gives (2F as a win, 0F as a loss); a bye "
                          "adds nothing."),
    "wins": _("Games won, over the board or by forfeit (2F: the rules give it the points of a win). A bye is "
              "not a win."),
    "mutual_result": _("The points he scored against the other players of the tied group, every game "
                       "between them counted. Used only when every two of them have met (over the board or "
                       "by forfeit); otherwise it separates nobody (shown as –)."),
    "average_rating": _("The average rating of the opponents he met over the board; forfeits and byes are "
                        "left out, unrated opponents count as the tournament says (left out unless it gives "
                        "them a rating). – when there is none."),
    "ranking_order": _("His points against the best placed player outside the tied group, then against the "
                       "next one, and so on: the first difference decides. The others are taken in order of "
                       "points, then pairing number."),
    "external": _("A value computed outside Damier and typed by the arbiter on each player's entry (for a "
                  "tie-break the event's regulations define); higher is better, – where none is typed."),
}

# How every tie-break counts rounds that are not an ordinary game (tiebreaks.py module docstring).
COUNTING_RULES: list[Any] = [
    _("An opponent's score is his total in the same standings, his bye points included, cut at the "
      "same round."),
    _("A forfeit, won, lost or double (2F-0F, 0F-0F): the paired opponent counts like one met over the board "
      "(FMJD 4.2 speaks of all opponents and excepts only the bye)."),
    _("A bye or an excused round: an opponent scoring 0, so it is the lowest score the truncated Solkoffs "
      "drop first."),
    _("A withdrawn opponent in a Swiss (rule 5.9 B): his results stand; he counts with the score he has."),
    _("A withdrawn opponent in a round robin who played more than half his games (5.9 A.b): his remaining "
      "games are forfeits (0F for him, 2F for his opponents) and he counts with the score he has."),
    _("A withdrawn opponent in a round robin who played half his games or fewer (5.9 A.a): his results are "
      "cancelled; the games against him no longer exist for any tie-break, and he is not ranked."),
    _("A game not played after a withdrawal counts for nothing, as if the round had no game."),
]


# The tie-breaks FIDE C.07 counts otherwise (tournaments/standings/fide_c07.py), for a tournament in that convention.
C07_HELP: dict[str, Any] = {
    "solkoff": _("Buchholz (FIDE C.07 8.1): the sum of the opponents' scores; a round without a game over the "
                 "board counts a dummy opponent with the player's own score."),
    "solkoff_median": _("Buchholz Median-1 (C.07 14): Buchholz without its lowest and its highest value; a "
                        "voluntary unplayed round is cut first among the low ones."),
    "solkoff_short_truncated": _("Buchholz Cut-1 (C.07 14): Buchholz without its lowest value; a voluntary "
                                 "unplayed round is cut first unless its value is lower (16.5.1)."),
    "solkoff_full_truncated": _("Buchholz Cut-1, then Cut-2, and so on (C.07 14), compared left to right. The "
                                "tables show the first three steps."),
    "sonneborn_berger": _("Sonneborn-Berger (C.07 9.1): for each round, the opponent's or the dummy's score "
                          "times his points in it (2, 1, 0), added up."),
    "wins": _("The rounds in which he obtained, with or without playing, the points of a win (C.07 7.1): "
              "forfeit wins and byes worth 2 included."),
}

C07_COUNTING_RULES: list[Any] = [
    _("A round without a game over the board (a bye, a forfeit, an absence) counts as a game against a dummy "
      "opponent with the player's own final score (FIDE C.07 16.4)."),
    _("An opponent counts with his score, except that the rounds he missed after his last round played or "
      "allocated (a withdrawal, byes asked for at the end) count as draws (C.07 16.3)."),
    _("Voluntary unplayed rounds (a forfeit loss, a bye asked for worth less than a win, an absence) are cut "
      "first by the truncated and median Buchholz, unless their value is lower than the lowest (C.07 16.5.1)."),
    _("In a round robin a forfeit counts as the game it gives, and the free round counts for nothing (C.07 "
      "15.2)."),
    _("Withdrawals follow FMJD rule 5.9, as in the FMJD reading; the other tie-breaks are the same in both."),
]


def help_text(name: str, convention: str) -> str:
    """What tie-break `name` computes in `convention` ('fmjd' or 'fide_c07'), in the reader's language."""
    if convention == "fide_c07" and name in C07_HELP:
        return str(C07_HELP[name])
    return str(TIEBREAK_HELP.get(name, ""))


def counting_rules(convention: str) -> list[Any]:
    return C07_COUNTING_RULES if convention == "fide_c07" else COUNTING_RULES


def preset_label(preset: Preset) -> str:
    return str(PRESET_LABELS.get(preset.key, preset.key))


def order_text(names: list[str] | tuple[str, ...]) -> str:
    """'Wins, Mutual result, Results in ranking order' in the reader's language."""
    return ", ".join(str(tiebreak_label(n)) for n in names)


def tiebreak_rows() -> list[tuple[str, str, str]]:
    """(key, name, what it computes) for every tie-break of the registry, in registry order."""
    return [(key, str(tiebreak_label(key)), str(TIEBREAK_HELP[key])) for key in TIEBREAKS]


def preset_rows() -> list[tuple[str, str, str, str]]:
    """(key, name, its tie-breaks in order, its source)."""
    return [(p.key, preset_label(p), order_text(p.tiebreaks), str(PRESET_SOURCES[p.key]))
            for p in PRESETS.values()]
