"""Checking an action's warnings against what the arbiter confirmed, and keeping the confirmed breaches.

A service that may break the competition rules works out its warnings (policy.Warning), then calls
`require(tournament, warnings, confirmed=...)` before writing: a refusal (level 5) raises, a level 3 or 4
warning the arbiter has not confirmed raises `NeedsConfirmation` (the admin shows the warnings with their
consequences and asks again), and once confirmed `record` keeps each one as an event in the same
transaction. A level-4 event takes the tournament out of the mode for good.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from django.db.models import Max

from tournaments.conformance.policy import Code, Level, Warning, refusals, unconfirmed
from tournaments.errors import DomainError
from tournaments.models import ConformanceEvent, Tournament


class NeedsConfirmation(DomainError):
    """The action breaks the competition rules: it is done only once the arbiter confirms each warning."""

    def __init__(self, warnings: list[Warning]) -> None:
        from tournaments.conformance.words import describe, level_name

        self.warnings = warnings
        super().__init__(" ".join(f"[{level_name(w.level)}] {describe(w)}" for w in warnings))


class Refused(DomainError):
    def __init__(self, warnings: list[Warning]) -> None:
        from tournaments.conformance.words import describe

        self.warnings = warnings
        super().__init__(" ".join(describe(w) for w in warnings))


def round_under_way(tournament: Tournament) -> int:
    """The number of the last paired round (0 before round 1): where an event is placed."""
    return int(tournament.rounds.aggregate(m=Max("number"))["m"] or 0)


def require(warnings: list[Warning], *, confirmed: Collection[str] = ()) -> None:
    """Raise unless every warning of level 3 or 4 is in `confirmed` (codes); a refusal always raises."""
    if refused := refusals(warnings):
        raise Refused(refused)
    if missing := unconfirmed(warnings, set(confirmed)):
        raise NeedsConfirmation(missing)


def record(tournament: Tournament, code: Code, *, values: dict[str, Any] | None = None, user: Any = None,
           round_number: int | None = None) -> ConformanceEvent:
    """Keep one event; a level-4 code takes the tournament out of the mode (in the caller's transaction)."""
    level = Warning(code).level
    number = round_under_way(tournament) if round_number is None else round_number
    leaves = level is Level.LEAVE
    event = ConformanceEvent.objects.create(
        tournament=tournament, round_number=number, code=str(code), level=int(level), values=values or {},
        left_mode=leaves and tournament.conformance_left_round is None,
        created_by=user if getattr(user, "is_authenticated", False) else None)
    if leaves and tournament.conformance_left_round is None:
        Tournament.objects.filter(pk=tournament.pk, conformance_left_round__isnull=True).update(
            conformance_left_round=number)
        tournament.conformance_left_round = number
    return event


def record_all(tournament: Tournament, warnings: Iterable[Warning], *, user: Any = None,
               round_number: int | None = None) -> list[ConformanceEvent]:
    return [record(tournament, w.code, values=w.values, user=user, round_number=round_number) for w in warnings]


def trf_lines(tournament: Tournament) -> list[str]:
    """The events as TRF `###` comment lines: '### <code> @ Round <n>: key=value ...' (English codes, as
    the file is read by programs and arbiters of every country; the values are numbers and codes)."""
    lines = []
    if tournament.conformance_left_round is not None:
        where = tournament.conformance_left_round
        lines.append(f"### conformance mode left @ Round {where}" if where else
                     "### conformance mode left @ before Round 1")
    for event in tournament.conformance_events.all():
        details = " ".join(f"{k}={_trf_value(v)}" for k, v in sorted(event.values.items()))
        lines.append(f"### {event.code} @ Round {event.round_number}" + (f": {details}" if details else ""))
    return lines


def _trf_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_trf_value(v) for v in value)
    # One line per event whatever a value holds (a reason typed by an arbiter may hold a newline).
    return " ".join(str(value).split())
