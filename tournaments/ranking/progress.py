"""Where a tournament stands, in words that are true: which round the standings are after, whether
that round is complete, and the tournament's status on the home page — read from the rounds, never
from the dates.

A round is complete when the arbiter has completed it (status "completed"); until then the standings
are "round N in progress" with the number of results still missing, even when none is missing: the
arbiter has not yet confirmed them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import selectors
from tournaments.models import Game, Round, RoundStatus, Tournament
from tournaments.selectors import rounds_total


@dataclass(frozen=True)
class RoundProgress:
    number: int
    complete: bool
    missing: int  # games of the round without a result


def round_progress(games: Iterable[Game], number: int) -> RoundProgress | None:
    """The state of round `number` from its games (each with its round loaded); None without games."""
    mine = [g for g in games if g.round.number == number]
    if not mine:
        return None
    return RoundProgress(number, mine[0].round.status == RoundStatus.COMPLETED,
                         sum(1 for g in mine if not g.result))


def shown_round(games: Sequence[Game], after_round: int | None) -> RoundProgress | None:
    """The round a table is "after": the one asked for, else the last round with a result."""
    if after_round is None:
        after_round = max((g.round.number for g in games if g.result), default=0)
    return round_progress(games, after_round) if after_round else None


def heading(kind: str, progress: RoundProgress | None) -> str:
    """'Standings after round 9' only for a complete round 9, else 'Standings – round 9 in progress
    (3 results missing)'. kind: 'standings' or 'crosstable'."""
    title = _("Standings") if kind == "standings" else _("Crosstable")
    if progress is None:
        return title
    if progress.complete:
        return (_("Standings after round %(n)s") if kind == "standings"
                else _("Crosstable after round %(n)s")) % {"n": progress.number}
    return f"{title} – {in_progress(progress)}"


def in_progress(progress: RoundProgress) -> str:
    if progress.missing == 0:
        return _("round %(n)s in progress (all results in, not yet completed)") % {"n": progress.number}
    return ngettext("round %(n)s in progress (%(missing)s result missing)",
                    "round %(n)s in progress (%(missing)s results missing)",
                    progress.missing) % {"n": progress.number, "missing": progress.missing}


def tournament_statuses(tournaments: Sequence[Tournament]) -> dict[int, str]:
    """Tournament id -> 'upcoming', 'round N in progress', 'in progress, after round N' or 'finished',
    from the public rounds only (a draft is not news). Two queries whatever the number of tournaments."""
    ids = [t.pk for t in tournaments]
    rounds: dict[int, list[tuple[int, str, int]]] = {}
    for tid, number, status, missing in (
        Round.objects.filter(tournament_id__in=ids).exclude(status=RoundStatus.DRAFT)
        .annotate(missing=Count("games", filter=Q(games__result="")))
        .values_list("tournament_id", "number", "status", "missing")
    ):
        rounds.setdefault(tid, []).append((number, status, missing))
    entries = dict(Tournament.objects.filter(pk__in=ids).annotate(n=Count("entries")).values_list("pk", "n"))
    out: dict[int, str] = {}
    for t in tournaments:
        public = sorted(rounds.get(t.pk, []))
        if not public:
            out[t.pk] = _("upcoming")
            continue
        number, status, _missing = public[-1]
        total = rounds_total(t, entries.get(t.pk, 0))
        if status == RoundStatus.COMPLETED and number >= total:
            out[t.pk] = _("finished")
        elif status == RoundStatus.COMPLETED:
            out[t.pk] = _("in progress, after round %(n)s") % {"n": number}
        else:
            out[t.pk] = _("round %(n)s in progress") % {"n": number}
    return out


def points_before(tournament: Tournament, number: int) -> dict[int, int]:
    """Entry id -> points in the standings after round number - 1 (5.9 applied): what the wall sheet
    prints next to each name. Everyone has 0 before round 1."""
    if number <= 1:
        return {}
    rows = selectors.standings(tournament, after_round=number - 1, public_only=False)
    return {row.player.id: row.points for row in rows}
