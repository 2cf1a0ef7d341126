"""Final standings: provisional until every result of the last round is in and no
postponed game is open; ties the tie-breaks cannot separate drawn by lot or ordered by hand, each recorded.

Drawing lots asks for a confirmation (level 3, LOTS_DRAWN); the seed is drawn once from the system's random
source and kept, so a repeated drawing gives the same order and records nothing new (checklist 206). The seed
the question shows is the one the confirmed draw uses: the page carries it back (`shown`, signed at the
edge), and it is used only for the ties it was shown for; other ties get a fresh seed and a new question. An
order by hand (a play-off, a regulation of the event) asks for a confirmation too (RANKED_BY_HAND, level 3):
the checklist asks only that tied players can be ranked by hand (Q205) and sets no level for it; it changes
no result, point or tie-break, so it does not take the tournament out of the conformance mode.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.models import RoundStatus, Tournament
from tournaments.results import Result
from tournaments.rounds import postponed
from tournaments.standings.final import hand_order_problems, tie_groups


@dataclass(frozen=True)
class FinalState:
    final: bool
    rounds_total: int
    last_completed: int  # the last round the arbiter completed
    open_postponed: tuple[str, ...]  # "R3 B2 5-8": postponed games without a result


def final_state(tournament: Tournament, data: selectors.TournamentData | None = None) -> FinalState:
    data = data or selectors.tournament_data(tournament)
    completed = [g.round.number for g in data.games if g.round.status == RoundStatus.COMPLETED]
    last_completed = max(completed, default=0)
    missing_last = any(not g.result for g in data.games if g.round.number == data.rounds_total)
    # from the games already read: a page asks no more queries for it (tests/tournaments/public/test_views_queries.py)
    number = {e.pk: e.pairing_number for e in data.entries}
    open_games = tuple(f"R{g.round.number} B{g.board} {number.get(g.white_id, 0)}-{number.get(g.black_id or 0, 0)}"
                       for g in data.games if g.result == Result.POSTPONED.value)
    final = (data.rounds_total > 0 and last_completed >= data.rounds_total and not missing_last
             and not open_games)
    return FinalState(final, data.rounds_total, last_completed, open_games)


def status_text(state: FinalState) -> str:
    """What a standings page says under its heading: final, or provisional and why."""
    if state.final:
        return _("Final standings: every result is in.")
    if state.open_postponed:
        return ngettext("Provisional: the postponed game %(games)s counts as a draw until its result is in.",
                        "Provisional: the postponed games %(games)s count as draws until their results are in.",
                        len(state.open_postponed)) % {"games": ", ".join(state.open_postponed)}
    return _("Provisional: the last round (%(total)s) is not completed yet.") % {"total": state.rounds_total}


def _require_final(tournament: Tournament) -> None:
    postponed.refuse_final(tournament, postponed.final_words()["standings"])
    if not final_state(tournament).final:
        raise DomainError(_("%(tournament)s: the final standings come once the last round is completed; ties "
                            "are resolved then.") % {"tournament": tournament})


def _without_resolution(tournament: Tournament) -> Tournament:
    # The ties as the tie-breaks leave them: a copy without the seed and the order by hand.
    bare = Tournament.objects.get(pk=tournament.pk)
    bare.lots_seed, bare.hand_order = None, []
    return bare


@transaction.atomic
def ties_draw_lots(*, tournament: Tournament, confirmed: Collection[str] = (), user: Any = None,
                   shown: Mapping[str, Any] | None = None) -> int:
    """Draw lots for the final standings' ties; returns the seed (the same one when drawn again). `shown` is
    the question the arbiter confirmed (its warning's values: seed and groups): its seed is drawn with, as
    long as the ties are still those; otherwise a fresh seed is asked about again."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_final(tournament)
    if tournament.lots_seed is not None:
        return int(tournament.lots_seed)  # drawn once: a repeated drawing gives the same order
    groups = tie_groups(selectors.standings(_without_resolution(tournament)))
    if not groups:
        raise DomainError(_("%(tournament)s: the tie-breaks separate every player; there is nothing to draw.")
                          % {"tournament": tournament})
    ties = ["=".join(str(r.player.pairing_number) for r in g) for g in groups]
    seed = shown.get("seed") if shown is not None and shown.get("groups") == ties else None
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        seed = secrets.randbelow(10**15)
        if shown is not None:
            confirmed = ()  # what was confirmed was another draw: this one is asked about
    warnings = [Warning(Code.LOTS_DRAWN, {"seed": seed, "groups": ties})]
    events.require(warnings, confirmed=confirmed)
    tournament.lots_seed = seed
    tournament._change_reason = f"ties drawn by lot, seed {seed}"  # type: ignore[attr-defined]
    tournament.save(update_fields=["lots_seed"])
    events.record_all(tournament, warnings, user=user)
    return seed


@transaction.atomic
def ties_order_by_hand(*, tournament: Tournament, order: Sequence[int], confirmed: Collection[str] = (),
                       user: Any = None) -> list[int]:
    """Order tied players by hand: `order` holds pairing numbers, best first, naming every player of each
    tied group it touches."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_final(tournament)
    rows = selectors.standings(_without_resolution(tournament))
    by_number = {r.player.pairing_number: r.player.id for r in rows}
    unknown = [n for n in order if n not in by_number]
    if unknown or not order:
        raise DomainError(_("Order by hand: %(numbers)s is not a pairing number of a ranked player.")
                          % {"numbers": ", ".join(map(str, unknown)) or "–"})
    ids = [by_number[n] for n in order]
    problems = hand_order_problems(rows, ids)
    if problems:
        raise DomainError({
            "twice": _("Order by hand: a player is named twice."),
            "not-tied": _("Order by hand: name only players who share a place after every tie-break."),
            "incomplete": _("Order by hand: name every player of a shared place, not some of them."),
        }[problems[0]])
    warnings = [Warning(Code.RANKED_BY_HAND, {"order": list(order)})]
    events.require(warnings, confirmed=confirmed)
    tournament.hand_order = ids
    tournament._change_reason = "tied players ordered by hand: " + ",".join(map(str, order))  # type: ignore[attr-defined]
    tournament.save(update_fields=["hand_order"])
    events.record_all(tournament, warnings, user=user)
    return ids


def table_heading(tournament: Tournament, data: selectors.TournamentData, kind: str, after_round: int | None) -> str:
    """The heading of a standings or crosstable page or PDF: 'Final standings' only when every result is in
    (checklist 161, 169); the last round's table with a postponed game open says it is provisional; earlier
    tables keep their 'after round N' / 'round N in progress' (tournaments.ranking.progress)."""
    from tournaments.ranking import progress

    shown = progress.shown_round(data.games, after_round)
    base = progress.heading(kind, shown)
    if shown is None or not shown.complete or not selectors.is_last_round(data, after_round):
        return base
    state = final_state(tournament, data)
    if state.final:
        return _("Final standings") if kind == "standings" else _("Final crosstable")
    return f"{base} – {status_text(state)}"
