"""The bye grid saved on one connection while round 3 is paired on another (PostgreSQL): the save waits for
the tournament's lock and is refused as stale (the round it was read before is now paired), never an error
page, never a bye slipped under a pairing that did not see it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction

from tests.tournaments.play import play_round
from tests.tournaments.rounds.test_concurrency import run_together
from tests.tournaments.rounds.test_concurrency_locks import _later, _slow_pairing
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Round, System
from tournaments.players import requested_byes
from tournaments.rounds import services

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...); SQLite serialises every write anyway")


def test_a_grid_saved_while_the_round_is_paired_is_refused_as_stale(make_tournament, monkeypatch) -> None:
    _slow_pairing(monkeypatch)
    failures = []
    for attempt in range(4):
        t = make_tournament(8, system=System.SWISS, slug=f"race{attempt}", rounds_total=5)
        play_round(t)
        play_round(t)
        sitting = t.entries.get(pairing_number=3)
        version = requested_byes.grid_version(t)  # the grid as the arbiter read it, before round 3

        def pair(t: Any = t) -> Any:
            with transaction.atomic():
                return services.round_pair(tournament=t)

        def save(t: Any = t, e: Entry = sitting, v: str = version) -> Any:
            return requested_byes.byes_save_grid(tournament=t, wanted={e.pk: {3: 0}}, read_at=v)

        paired, saved = run_together(pair, _later(0.1, save))
        if not isinstance(paired, Round):
            failures.append(f"{attempt}: round 3 not paired: {paired!r}")
        if isinstance(saved, Exception) and not isinstance(saved, DomainError):
            failures.append(f"{attempt}: {type(saved).__name__}: {saved}")
        stored = Entry.objects.get(pk=sitting.pk).excused_rounds
        if isinstance(saved, StaleEditError):
            if stored:
                failures.append(f"{attempt}: refused, yet saved: {stored}")
        elif stored == [3] and not requested_byes.draft_stale(t) and \
                Round.objects.get(tournament=t, number=3).games.filter(white=sitting, black__isnull=False):
            failures.append(f"{attempt}: a bye under a draft that pairs him, and nothing says so")
    assert not failures, failures
