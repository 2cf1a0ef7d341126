"""Settings under way and leaving the conformance mode on purpose: the services.

Once a round is paired the pairing system never changes (refused); the number of rounds, the points for a
bye, the tie-break order and the order within a score group change only with a level-4 confirmation, after
which every paired round is checked again with the new settings and what became wrong is said and kept in
the event. Forbidden pairs are set before round 1; later, each change is level 4. Before round 1 a notice
says when the set-up cannot be finished (more rounds than the players allow).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning, refusals
from tournaments.errors import DomainError
from tournaments.models import Entry, ForbiddenPair, System, Tournament
from tournaments.players.rating_lists import entries_retake
from tournaments.rounds.settings_rules import require_settings

# A setting that may change under way, with the event it makes.
WATCHED: dict[str, Code] = {
    "rounds_total": Code.ROUNDS_CHANGED,
    "bye_points": Code.BYE_POINTS_CHANGED,
    "tiebreaks": Code.TIEBREAKS_CHANGED,
    # FMJD's reading or FIDE C.07's changes the values of the tie-breaks already computed, as the list does.
    "tiebreak_convention": Code.TIEBREAK_CONVENTION_CHANGED,
    "swiss_order": Code.SWISS_ORDER_CHANGED,
    # They change the average-rating tie-break as much as its place in the list does (Q208-Q216).
    "unrated_method": Code.RATING_TIEBREAKS_CHANGED,
    "unrated_rating": Code.RATING_TIEBREAKS_CHANGED,
    "tiebreak_rating_round": Code.RATING_TIEBREAKS_CHANGED,
    "tiebreak_rating_per_round": Code.RATING_TIEBREAKS_CHANGED,
}


def setting_warnings(stored: Tournament, new: Tournament) -> list[Warning]:
    """What saving `new` over `stored` breaks, once a round is paired (nothing before round 1)."""
    paired = events.round_under_way(stored)
    if not paired:
        return []
    out = []
    if new.system != stored.system:
        out.append(Warning(Code.SYSTEM_CHANGED, {"old": stored.system, "new": new.system, "round": paired}))
    for name, code in WATCHED.items():
        if name == "rounds_total" and stored.is_round_robin:
            continue  # a round robin's rounds follow from its players: the field means nothing there
        old, value = getattr(stored, name), getattr(new, name)
        if old != value:
            values = {"old": _value(old), "new": _value(value)}
            if code is Code.RATING_TIEBREAKS_CHANGED:
                values["setting"] = name
            out.append(Warning(code, values))
    return out


def _value(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return list(value) or ["-"]
    return "-" if value in (None, "") else value


@dataclass
class Recheck:
    """The paired Swiss rounds checked again: what became wrong, round by round, as the checker's data."""

    rounds: list[int] = field(default_factory=list)
    broken: dict[int, list[Any]] = field(default_factory=dict)  # round -> violations new with the change
    differs: list[int] = field(default_factory=list)  # rounds the engine would now pair otherwise
    unchecked: dict[int, str] = field(default_factory=dict)  # round -> why it could not be checked

    def codes(self) -> list[str]:
        """The violations as short data for an event: 'R3 C1 rematch 1-4'."""
        return [f"R{n} {v.criterion} {'-'.join(map(str, v.players))}" for n, vs in sorted(self.broken.items())
                for v in vs]

    def values(self) -> dict[str, Any]:
        return {"rechecked": self.rounds or ["-"], "broken": self.codes() or ["-"],
                "differs": self.differs or ["-"]}


def _check_all(tournament: Tournament) -> dict[int, Any]:
    from tournaments.rounds.pairing_bridge import check_round

    out: dict[int, Any] = {}
    if tournament.is_round_robin:
        return out
    for number in tournament.rounds.order_by("number").values_list("number", flat=True):
        try:
            out[number] = check_round(tournament, number)
        except DomainError as exc:
            out[number] = str(exc)
    return out


def recheck(before: dict[int, Any], after: dict[int, Any]) -> Recheck:
    result = Recheck(rounds=sorted(after))
    for number, report in sorted(after.items()):
        if isinstance(report, str):
            result.unchecked[number] = report
            continue
        old = before.get(number)
        known = {(v.criterion, v.players) for v in old.violations} if old is not None and \
            not isinstance(old, str) else set()
        new = [v for v in report.violations if (v.criterion, v.players) not in known]
        if new:
            result.broken[number] = new
        was_differing = old is not None and not isinstance(old, str) and old.differs
        if report.differs and not was_differing:
            result.differs.append(number)
    return result


@dataclass
class SaveOutcome:
    recorded: list[Any] = field(default_factory=list)  # the ConformanceEvents kept
    recheck: Recheck | None = None


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def tournament_save(*, tournament: Tournament, confirmed: Collection[str] = (), user: Any = None) -> SaveOutcome:
    """Save the tournament as edited. Once a round is paired, a change of system is refused and a change of
    a watched setting needs its level-4 confirmation; then every paired round is checked again with the new
    settings, and each change is kept as an event with its old and new values and what became wrong."""
    if tournament.pk is None:
        require_settings(tournament)
        tournament.save()
        return SaveOutcome()
    stored = _locked(tournament)
    warnings = setting_warnings(stored, tournament)
    if not refusals(warnings):  # a change of system is refused first, in the policy's words
        # Checked again under the lock: the form checked before round 1 was paired, perhaps, and another
        # caller of this service may not have checked at all.
        require_settings(tournament)
    events.require(warnings, confirmed=confirmed)
    # The mode is never re-entered: an instance read before another arbiter left it must not write it back.
    tournament.conformance_left_round = stored.conformance_left_round
    before = _check_all(stored) if warnings else {}
    tournament.save()
    if (stored.fmjd_list_id, stored.national_list_id) != (tournament.fmjd_list_id, tournament.national_list_id):
        entries_retake(tournament, user=user)  # before round 1 only: afterwards the settings refused it
    return _recheck_and_record(tournament, before, warnings, user)


def _recheck_and_record(tournament: Tournament, before: Any, warnings: list[Warning], user: Any) -> SaveOutcome:
    """After a confirmed change: the paired rounds checked again, each warning kept with what became wrong."""
    outcome = SaveOutcome()
    if warnings:
        outcome.recheck = recheck(before, _check_all(tournament))
        outcome.recorded = [events.record(tournament, w.code, values={**w.values, **outcome.recheck.values()},
                                          user=user) for w in warnings]
    return outcome


# --- Forbidden pairs ---------------------------------------------------------------------------

PairChange = tuple[str, int, int]  # ("added" | "removed", pairing number, pairing number)


def forbidden_pair_warnings(tournament: Tournament, changes: Iterable[PairChange]) -> list[Warning]:
    if not events.round_under_way(tournament):
        return []
    return [Warning(Code.FORBIDDEN_PAIR_LATE, {"pair": f"{min(a, b)}-{max(a, b)}", "change": kind})
            for kind, a, b in changes]


def pair_changes(stored: dict[int, tuple[int, int]], kept: Iterable[tuple[int | None, Entry, Entry]],
                 deleted: Iterable[int]) -> list[PairChange]:
    """Compare the stored pairs (pk -> pairing numbers) with the edited ones: a pair whose players changed
    is removed and added; a reason alone changes nothing the pairing sees."""
    out: list[PairChange] = []
    for pk in deleted:
        if pk in stored:
            out.append(("removed", *stored[pk]))
    for pk, first, second in kept:
        numbers = (first.pairing_number, second.pairing_number)
        if pk is None:
            out.append(("added", *numbers))
        elif pk in stored and set(stored[pk]) != set(numbers):
            out.extend([("removed", *stored[pk]), ("added", *numbers)])
    return out


def stored_pairs(tournament: Tournament) -> dict[int, tuple[int, int]]:
    return {f.pk: (f.first.pairing_number, f.second.pairing_number)
            for f in ForbiddenPair.objects.filter(tournament=tournament).select_related("first", "second")}


@transaction.atomic
def forbidden_pairs_save(*, tournament: Tournament, save: list[ForbiddenPair], delete: list[ForbiddenPair],
                         confirmed: Collection[str] = (), user: Any = None) -> SaveOutcome:
    """Write the edited forbidden pairs; after round 1 each change needs its level-4 confirmation, then the
    paired rounds are checked again and the changes kept as events."""
    tournament = _locked(tournament)
    stored = stored_pairs(tournament)
    changes = pair_changes(stored, [(f.pk, f.first, f.second) for f in save], [f.pk for f in delete])
    warnings = forbidden_pair_warnings(tournament, changes)
    events.require(warnings, confirmed=confirmed)
    before = _check_all(tournament) if warnings else {}
    for pair in delete:
        pair.delete()
    for pair in save:
        pair.tournament = tournament
        pair.full_clean(exclude=["tournament"])
        pair.save()
    return _recheck_and_record(tournament, before, warnings, user)


# --- Leaving the mode, and the set-up notice ----------------------------------------------------


def leave_warnings(tournament: Tournament) -> list[Warning]:
    return [Warning(Code.LEFT_MODE, {})]


@transaction.atomic
def conformance_leave(*, tournament: Tournament, confirmed: Collection[str] = (), user: Any = None) -> Any:
    """The arbiter takes the tournament out of the conformance mode on purpose (level 4, for good)."""
    tournament = _locked(tournament)
    if not tournament.in_conformance:
        raise DomainError(_("%(tournament)s already left the conformance mode (round %(round)s); it cannot "
                            "re-enter it.") % {"tournament": tournament,
                                                "round": tournament.conformance_left_round})
    events.require(leave_warnings(tournament), confirmed=confirmed)
    return events.record(tournament, Code.LEFT_MODE, user=user)


def setup_notices(tournament: Tournament, players: int | None = None) -> list[Warning]:
    """Before round 1: a notice when the rounds set cannot all be paired for the players entered (a Swiss
    over n-1 rounds for an even field, over n for an odd one; a round robin whose number of rounds, when
    given, is not its schedule's). Nothing once a round is paired: the arbiter knows by then."""
    if tournament.pk is None or tournament.rounds.exists():
        return []
    n = tournament.entries.count() if players is None else players
    if n < 2:
        return []
    if tournament.is_round_robin:
        schedule = selectors.rounds_total(tournament, n)
        if tournament.rounds_total and tournament.rounds_total != schedule:
            return [Warning(Code.SETUP_CANNOT_FINISH, {"rounds": tournament.rounds_total, "players": n,
                                                       "possible": schedule})]
        return []
    possible = n - 1 if n % 2 == 0 else n
    if tournament.system == System.SWISS and (tournament.rounds_total or 0) > possible:
        return [Warning(Code.SETUP_CANNOT_FINISH, {"rounds": tournament.rounds_total, "players": n,
                                                   "possible": possible})]
    return []
