"""Checklist Q217: the exported TRF says what the tournament was, in TRF-16's header records (place, dates,
rated players, type, arbiters, time control, round dates), and Damier's own import reads back the place,
the dates and the time control."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model

from tests.tournaments.play import play_swiss_round
from tournaments.exchange.trf_import import import_trf
from tournaments.models import System
from tournaments.pairing.trf import parse_trf
from tournaments.rounds import pairing_bridge


def test_the_export_carries_the_header_records_and_the_import_reads_the_dates(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(7, system=System.SWISS, slug="hdr", rounds_total=5, venue="Salle\u2028des fêtes, Lille",
                        end_date=datetime.date(2026, 1, 3), time_control="90 min + 30 s/coup")
    t.chief_arbiter.first_name, t.chief_arbiter.last_name = "Anne", "Arbitre"
    t.chief_arbiter.save()
    users = get_user_model().objects
    t.deputy_arbiters.add(users.create_user("dep", first_name="Paul", last_name="Adjoint"),
                          users.create_user("nameless"))  # no full name: left out, as on the public pages
    for day in (1, 2):
        rnd = play_swiss_round(t)
        rnd.date = datetime.date(2026, 1, day)
        rnd.save()
    t.entries.filter(pairing_number=7).update(rating=None)

    text = pairing_bridge.export_trf(t)
    lines = text.splitlines()
    header = [line for line in lines if line[:3].isdigit() and line[:3] != "001"]
    assert header[:9] == [
        "012 Test hdr", "022 Salle des fêtes, Lille", "042 2026/01/01", "052 2026/01/03", "062 7", "072 6",
        "092 Individual: Swiss-System (Dutch)", "102 Anne Arbitre", "112 Paul Adjoint"]
    assert "122 90 min + 30 s/coup" in header
    dates = next(line for line in lines if line.startswith("132"))
    first = next(line for line in lines if line.startswith("001"))
    # each date above its round's cell in the player records (TRF-16 columns 92-99, 102-109...)
    assert dates[91:99] == "26/01/01" and dates[101:109] == "26/01/02" and first[91:95].strip().isdigit()
    assert parse_trf(text).total_rounds == 5

    imported = import_trf(text, slug="hdr-again").tournament
    assert (imported.start_date, imported.end_date) == (datetime.date(2026, 1, 1), datetime.date(2026, 1, 3))
    assert (imported.venue, imported.time_control) == ("Salle des fêtes, Lille", "90 min + 30 s/coup")
