"""A team's roster filled by keyboard, in Dutch, on a desktop and a 390-px phone: the arbiter types a surname and
presses Enter, the cursor stays in the field and the row appears; a person found nowhere is typed in the row
(Ctrl+Enter, the federation, Enter). The schedule is then made by its one button. Screenshots
(artifacts/screenshots/team-setup-*), axe on the team page and the new competition's page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.test_arbiters_day import PASSWORD, log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def league(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.competitions import setup
    from tournaments.models import Player

    user = get_user_model().objects.create_user("arbitre", password=PASSWORD, is_staff=True)
    comp = setup.competition_create(name="Nationale competitie", slug="nc", boards=8, user=user)
    for name in ("Huizum", "Heerenveen", "Winschoten", "Britsum"):
        setup.team_add(competition=comp, name=name, club=name, federation="NED")
    for i in range(1, 13):
        Player.objects.create(surname=f"Dammer{i:02}", given_name="Jan", federation="NED", rating=1500 + i)
    return {"base": str(live_server.url), "comp": comp}


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_roster_is_filled_by_keyboard_in_dutch(league: dict[str, Any], browser: Any, viewport: dict[str, int],
                                                 name: str) -> None:
    from django.urls import reverse
    from playwright.sync_api import expect

    from tournaments.models import RosterMember

    comp = league["comp"]
    team = comp.teams.order_by("seed").first()
    extra = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True} if name == "phone" else {}
    context = browser.new_context(viewport=viewport, locale="nl-NL", **extra)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        log_in(page, league["base"])
        page.goto(league["base"] + reverse("admin:tournaments_teamcompetition_team", args=[comp.pk, team.pk]))
        assert page.locator("html").get_attribute("lang") == "nl"
        field = page.locator("#ep-q")
        rows = page.locator("#ep-entered tbody input[name=member]")
        for i in range(1, 11):
            field.type(f"dammer{i:02}")
            field.press("Enter")
            expect(rows).to_have_count(i)
            expect(field).to_be_focused()
        field.type("Nieuw, Piet")
        field.press("Control+Enter")
        # the row opens on its first empty field: surname and given name are filled, so the federation's
        expect(page.locator("#ep-new-federation")).to_be_focused()  # the row opens when the search has answered
        page.keyboard.type("NED")
        page.keyboard.press("Enter")
        expect(rows).to_have_count(11)
        members = list(RosterMember.objects.filter(team=team).order_by("position"))
        assert [m.reserve for m in members] == [False] * 8 + [True] * 3
        assert members[-1].entry.player.surname == "Nieuw"
        # the page's other forms follow the version: a licence saved right after the adds goes through
        page.fill(f"#dt-licence-{members[0].pk}", "NL-1")
        with page.expect_navigation(wait_until="load"):
            page.locator(f"#dt-licence-{members[0].pk}").press("Enter")
        members[0].refresh_from_db()
        assert members[0].licence == "NL-1", page.locator(".messagelist").all_inner_texts()
        page.locator(".select2-selection[aria-label]").wait_for()  # static/damier/teams.js names the box
        shot(page, f"team-setup-roster-{name}")
        assert_accessible(page, f"team roster ({name})")
        page.goto(league["base"] + reverse("admin:tournaments_teamcompetition_teams", args=[comp.pk]))
        with page.expect_navigation(wait_until="load"):
            page.click("#dt-schedule")
        assert page.locator(".dt-round").count() == 3
        shot(page, f"team-setup-teams-{name}")
        page.goto(league["base"] + reverse("admin:tournaments_teamcompetition_add"))
        assert_accessible(page, f"new team competition ({name})")
        shot(page, f"team-setup-new-{name}")
    finally:
        context.close()
