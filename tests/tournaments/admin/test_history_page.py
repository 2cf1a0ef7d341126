"""The history pages read as a log: one date format for the changes and the conformance events, a dash
where no account or reason is recorded, and the admin home's dates in the reader's words."""

from __future__ import annotations

import datetime
import re

from django.urls import reverse

from tournaments.rounds import services


def test_the_history_has_one_date_format_and_no_none(swiss9, chief) -> None:  # type: ignore[no-untyped-def]
    services.round_pair(tournament=swiss9)  # a change made by the program: no account, a reason
    page = chief.get(reverse("admin:tournaments_tournament_history", args=[swiss9.pk])).content.decode()
    table = page[page.index('id="change-history"'):]
    assert "None" not in table
    assert re.search(r"<td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d</td>", table)
    assert "<td>–</td>" in table  # no account recorded for the program's change


def test_the_admin_home_dates_are_not_american(swiss9, chief) -> None:  # type: ignore[no-untyped-def]
    swiss9.start_date = datetime.date(2026, 11, 14)
    swiss9.save()
    page = chief.get(reverse("admin:index")).content.decode()
    assert "11/14/2026" not in page and "Nov. 14, 2026" in page
    page = chief.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "14 novembre 2026" in page
