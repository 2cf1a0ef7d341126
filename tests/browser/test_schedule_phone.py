"""The round schedule on a 390-px phone, in French: the tournament page's table of rounds (round, day, start
time) and the round page's "Ronde 1 · samedi 14 novembre 2026, 10:00", without sideways scrolling; axe
passes on each. Screenshots of both."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import PHONE, shot
from tests.browser.test_phone_public import _no_sideways_scroll, open9, phone_fr  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


@pytest.fixture
def planned9(transactional_db: None, live_server: Any) -> dict[str, Any]:
    """Nine players, seven rounds planned two a day (10:00, 15:00) from Saturday 14 November 2026, with
    a time control; round 1 played."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_swiss_round
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.rounds import schedule

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open de Paris des jeunes", slug="paris", system=System.SWISS,
                                  rounds_total=7, chief_arbiter=user, public=True, venue="Paris",
                                  start_date=datetime.date(2026, 11, 14), end_date=datetime.date(2026, 11, 17),
                                  time_control="90 min + 30 s par coup")
    for i in range(9):
        p = Player.objects.create(surname=f"Joueur{i}", given_name="Jean-Baptiste", rating=2300 - 40 * i,
                                  federation="FRA")
        roster.entry_add(tournament=t, player=p)
    schedule.schedule_fill(tournament=t, first_date=datetime.date(2026, 11, 14),
                           start_times=[datetime.time(10), datetime.time(15)])
    play_swiss_round(t)
    return {"url": str(live_server.url), "tournament": t}


def test_the_schedule_on_a_phone_in_french(planned9: dict[str, Any], phone_fr: Any) -> None:  # noqa: F811
    t = planned9["tournament"]
    phone_fr.goto(f"{planned9['url']}/t/{t.slug}/")
    rows = phone_fr.locator("table.timetable tbody tr")
    assert rows.count() == 7
    assert " ".join(rows.nth(6).inner_text().split()) == "Ronde 7 mardi 17 novembre 2026 10:00"
    for i in range(rows.count()):
        box = rows.nth(i).locator("td").last.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], box  # the start time in view
    _no_sideways_scroll(phone_fr, "the tournament page")
    assert_accessible(phone_fr, "phone tournament page with its schedule (fr)")
    print(shot(phone_fr, "phone-fr-schedule-tournament"))
    phone_fr.goto(f"{planned9['url']}/t/{t.slug}/round/1/")
    assert " ".join(phone_fr.locator("h1").inner_text().split()) == "Ronde 1 · samedi 14 novembre 2026, 10:00"
    _no_sideways_scroll(phone_fr, "the round page")
    assert_accessible(phone_fr, "phone round page with its start (fr)")
    print(shot(phone_fr, "phone-fr-schedule-round"))
