"""The TRF's 132 record (TRF-16: "Dates of the round", YY/MM/DD, round r in columns 92+10(r-1) to
99+10(r-1)) holds the dates of the rounds paired, which take their planned date; the planned dates of
rounds not yet paired stay out of it, as a report of the rounds played."""

from __future__ import annotations

import datetime

import pytest

from tournaments.models import System
from tournaments.rounds import pairing_bridge, schedule, services

pytestmark = pytest.mark.django_db


def test_the_132_record_holds_the_paired_rounds_dates_only(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="trf", rounds_total=3)
    schedule.schedule_fill(tournament=t, first_date=datetime.date(2026, 11, 14), start_times=[datetime.time(14)])
    services.round_publish(round=services.round_pair(tournament=t))
    line = next(ln for ln in pairing_bridge.export_trf(t).splitlines() if ln.startswith("132"))
    assert line[91:99] == "26/11/14"  # columns 92-99: round 1
    assert len(line) == 99  # nothing for rounds 2 and 3, planned but not paired
