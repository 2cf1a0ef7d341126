"""Playwright on Debian's headless chromium against pytest-django's live server, with the demo loaded."""

from __future__ import annotations

import datetime
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.screens import DESKTOP, PHONE

CHROMIUM = os.environ.get("DAMIER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium; .ci/run does it)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make while it
    # runs (looking up ids, building a tournament) would otherwise be refused as "async unsafe".
    # Set only while the browser is up, so the rest of the suite keeps Django's check.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def demo(transactional_db: None, live_server: Any) -> str:
    """The demo tournament on the live server; returns the server's base URL."""
    from django.core.management import call_command

    call_command("load_demo", stdout=io.StringIO())
    return str(live_server.url)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="en-GB")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.fixture(autouse=True)
def _axe_results_in_the_report(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each axe check of a test travels in its report, so the summary (tests/conftest.py) is complete
    under xdist too: the checks run in the workers, the summary is printed by the process that collects
    the reports."""
    from tests.browser import axe

    start = len(axe.RESULTS)
    yield
    for result in axe.RESULTS[start:]:
        request.node.user_properties.append(("axe", {"line": result.line(), "counts": result.counts()}))


@pytest.fixture
def swiss8(transactional_db: None, live_server: Any) -> dict[str, Any]:
    """An 8-player, 5-round Swiss in Bordeaux with two rounds played, and the live server's address."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_swiss_round
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.standings import default_preset

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open de Bordeaux", slug="bordeaux", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=user, public=True, start_date=datetime.date(2026, 5, 1),
                                  tiebreaks=list(default_preset(System.SWISS, "rating").tiebreaks))
    for i, name in enumerate(["Dupont", "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand"]):
        p = Player.objects.create(surname=name, given_name="Jean", rating=1800 + 60 * i, federation="FRA")
        roster.entry_add(tournament=t, player=p)
    play_swiss_round(t)
    play_swiss_round(t)
    return {"url": str(live_server.url), "tournament": t}
