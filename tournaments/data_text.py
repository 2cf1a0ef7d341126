"""Words, in the reader's language, for what the pure modules return as data (codes and values).

`tournaments.results` and `tournaments.standings` never import Django: they return a Result or a
Withdrawal, and keep English only for the command line. The pages, PDFs and admin turn them into words
here, with gettext, at the moment they are shown (so the active language, or a PDF's own, is used).
"""

from __future__ import annotations

import datetime
from typing import Protocol

from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.results import Result
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
