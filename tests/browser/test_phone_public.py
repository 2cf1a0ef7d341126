"""A 390-px phone reads the public pages without scrolling sideways: a card a board on the round page (Black's
name in view), the standings' rank, name, points and first tie-break, the tournament list, the starting rank
list; axe passes on each. Screenshots in French of the round page and the standings."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import PHONE, shot

pytestmark = pytest.mark.browser

NAMES = ["Lefèvre", "Groeneveld", "Van den Heuvel-Schoonhoven", "Kouadio", "Sørensen", "Baliakine",
         "Ndiaye", "Georgiev", "Van der Meulen"]


@pytest.fixture
def open9(transactional_db: None, live_server: Any) -> dict[str, Any]:
    """A nine-player Swiss with long names, two rounds played (a bye each round)."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.play import play_swiss_round
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster
    from tournaments.standings import default_preset

    user = get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    t = Tournament.objects.create(name="Open de Paris des jeunes", slug="paris", system=System.SWISS,
                                  rounds_total=7, chief_arbiter=user, public=True, venue="Paris",
                                  start_date=datetime.date(2026, 11, 28),
                                  tiebreaks=list(default_preset(System.SWISS, "solkoff").tiebreaks))
    for i, name in enumerate(NAMES):
        p = Player.objects.create(surname=name, given_name="Jean-Baptiste", rating=2300 - 40 * i,
                                  federation="FRA", title="MF" if i < 2 else "", club="Damier Club Paris")
        roster.entry_add(tournament=t, player=p)
    play_swiss_round(t)
    play_swiss_round(t)
    return {"url": str(live_server.url), "tournament": t}


@pytest.fixture
def phone_fr(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR")
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


def _no_sideways_scroll(pg: Any, what: str) -> None:
    overflow = pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{what} scrolls sideways by {overflow}px"
    boxes = pg.evaluate("[...document.querySelectorAll('.scroll')].map(b => b.scrollWidth - b.clientWidth)")
    assert all(b <= 0 for b in boxes), f"{what}: a table scrolls inside its box by {boxes}px"


def _in_view(pg: Any, locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None and box["width"] > 0
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def test_round_page_shows_black_on_a_phone(open9: dict[str, Any], phone_fr: Any) -> None:
    t = open9["tournament"]
    phone_fr.goto(f"{open9['url']}/t/{t.slug}/round/2/")
    rows = phone_fr.locator("table.boards tbody tr")
    assert rows.count() == 5
    for i in range(rows.count()):
        row = rows.nth(i)
        black = row.locator("td.black")
        if black.inner_text().strip():  # the bye's card has no Black
            _in_view(phone_fr, black)
        _in_view(phone_fr, row.locator("td.white"))
        _in_view(phone_fr, row.locator("td.result"))
    assert sum(1 for i in range(5) if rows.nth(i).locator("td.black").is_visible()) == 4  # and a bye
    # the card reads board · White – Black · result, in that order on the screen
    order = [rows.first.locator(f"td.{c}").bounding_box() for c in ("board", "white", "black", "result")]
    places = [(round(b["y"]), b["x"]) for b in order]
    assert places == sorted(places), places
    assert rows.first.locator("td.board").inner_text().strip() == "1"
    _no_sideways_scroll(phone_fr, "the round page")
    assert_accessible(phone_fr, "phone round page (fr)")
    print(shot(phone_fr, "phone-fr-round"))


def test_standings_keep_points_and_first_tiebreak_on_a_phone(open9: dict[str, Any], phone_fr: Any) -> None:
    t = open9["tournament"]
    assert len(t.tiebreaks) >= 2
    phone_fr.goto(f"{open9['url']}/t/{t.slug}/standings/")
    head = phone_fr.locator("table#standings thead th")
    names = [head.nth(i).inner_text().strip() for i in range(head.count())]
    shown = [i for i in range(head.count()) if head.nth(i).is_visible()]
    # rank, player, points, then the tie-breaks: the rating and the games give way
    assert [names[i] for i in shown][:3] == ["Rang", "Joueur", "Pts"], names
    row = phone_fr.locator("table#standings tbody tr").first
    cells = row.locator("td, th")
    for i in shown[:4]:  # rank, name, points, first tie-break: in view without scrolling
        _in_view(phone_fr, cells.nth(i))
        _in_view(phone_fr, head.nth(i))
    overflow = phone_fr.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the standings scroll the page sideways by {overflow}px"
    assert_accessible(phone_fr, "phone standings (fr)")
    print(shot(phone_fr, "phone-fr-standings"))


def test_home_and_rank_list_fit_a_phone(open9: dict[str, Any], phone_fr: Any) -> None:
    t = open9["tournament"]
    for what, url in (("the tournament list", "/"), ("the starting rank list", f"/t/{t.slug}/rank-list/"),
                      ("the tournament page", f"/t/{t.slug}/"), ("a player's page", f"/t/{t.slug}/player/3/")):
        phone_fr.goto(open9["url"] + url)
        _no_sideways_scroll(phone_fr, what)
        assert_accessible(phone_fr, f"phone {what} (fr)")
        if "rank list" in what:
            print(shot(phone_fr, "phone-fr-rank-list"))
    # the language buttons stand clear of the site's name
    brand = phone_fr.locator("header.site .brand").bounding_box()
    for i in range(phone_fr.locator("form.lang button").count()):
        button = phone_fr.locator("form.lang button").nth(i).bounding_box()
        apart = (button["x"] >= brand["x"] + brand["width"] + 4 or button["y"] >= brand["y"] + brand["height"] + 4)
        assert apart, (brand, button)
    print(shot(phone_fr, "phone-fr-tournament"))


def test_crosstable_marks_on_a_phone(open9: dict[str, Any], phone_fr: Any) -> None:
    """Requested byes worth 0, 1 and 2 in round 3: short marks in their cells, each with its legend line."""
    from tests.tournaments.play import play_swiss_round
    from tournaments.players import requested_byes

    t = open9["tournament"]
    entries = {e.pairing_number: e for e in t.entries.all()}
    for number, points in ((3, 0), (4, 1), (5, 2)):
        requested_byes.bye_request(entry=entries[number], round_number=3, points=points, confirmed=["*"])
    play_swiss_round(t)
    phone_fr.goto(f"{open9['url']}/t/{t.slug}/crosstable/")
    cells = phone_fr.locator("table#crosstable td.cell").all_inner_texts()
    assert not [c for c in cells if "excused" in c or c.strip() == "bye"], cells
    assert len(phone_fr.locator("ul.legend li").all()) >= 4
    assert_accessible(phone_fr, "phone crosstable (fr)")
    print(shot(phone_fr, "phone-fr-crosstable"))


def test_round_robin_schedule_on_a_phone(transactional_db: None, live_server: Any, phone_fr: Any) -> None:
    from tournaments.models import Player, System, Tournament
    from tournaments.players import roster

    t = Tournament.objects.create(name="Championnat de Picardie", slug="picardie", system=System.ROUND_ROBIN,
                                  public=True, start_date=datetime.date(2026, 12, 5))
    for i, name in enumerate(NAMES[:5]):
        roster.entry_add(tournament=t, player=Player.objects.create(surname=name, given_name="Marie",
                                                                     rating=2000 - 10 * i, federation="FRA"))
    roster.entries_draw_lots(tournament=t, seed=3)
    phone_fr.goto(f"{live_server.url}/t/{t.slug}/schedule/")
    assert phone_fr.locator("section.sched-round").count() == 5
    _no_sideways_scroll(phone_fr, "the schedule")
    assert_accessible(phone_fr, "phone schedule (fr)")
    print(shot(phone_fr, "phone-fr-schedule"))
