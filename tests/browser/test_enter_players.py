"""Forty players entered at keyboard speed, in French, on a 390-px phone, from a 5,000-player FMJD list.

The arbiter opens "Enter players" from the control room and types, for each player, his FMJD id or the first
letters of his name (accents typed or not, a Cyrillic register name found by Latin letters), looks at the
list (an arrow key when his player is not the first line), and presses Enter; two people found nowhere are
typed into the new player's row (Ctrl+Enter, Tab between the fields, Enter). Every key and click is counted
and the seconds measured; the keys are held to a budget (the seconds depend on the machine, so they are
printed, not asserted). The entries are then read from the database: the list's rating and title for each.
Screenshots (artifacts/screenshots/enter-players-*) on the phone and on a desktop, axe on both.
"""

from __future__ import annotations

import datetime
import random
import time
from typing import Any

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.screens import DESKTOP, PHONE, shot
from tests.browser.test_arbiters_day import PASSWORD, Arbiter, log_in

pytestmark = pytest.mark.browser

FRENCH = {"Accept-Language": "fr"}
LIST_ROWS = 5000
SYLLABLES = ["ba", "ke", "lo", "mi", "ran", "sto", "vel", "dor", "ni", "tsa", "gre", "pol", "hu", "zen", "ma",
             "ri", "ko", "sha", "ver", "di", "an", "el", "os", "ut", "bro", "quin", "fa", "jo", "wer", "yil"]
GIVEN = ["Ivar", "Anne", "Pavel", "Jan", "Élise", "Roel", "Alexander", "Ousmane", "Marc", "Inès", "Hugo", "Olga",
         "Tamara", "Noé", "Jean", "Yuri", "Aleksej", "Fatou", "Léa", "Pieter"]
FEDERATIONS = ["NED", "FRA", "RUS", "SEN", "UKR", "POL", "ITA", "CMR", "CIV", "BRA", "CAN", "LAT"]
TITLES = ["", "", "", "", "", "CMI", "MF", "MI", "GMI", "MFF", "MIF"]
# Rows placed in the list for the accents: (surname, given name, what the arbiter types)
ACCENTED = [("Sørensen", "Ivar", "sore"), ("Lefèvre", "Anne", "Lefè"), ("Guérin", "Hugo", "guer"),
            ("Çelik", "Emre", "celi"), ("Łukasik", "Piotr", "luka")]
NEW_PLAYERS = [("Zabłocki, Kamil", "POL", "1650", "CMI"), ("Mbengue, Awa", "SEN", "", "")]
KEY_BUDGET = 360  # 40 players; the count is printed, and this keeps a slower path from creeping in


@pytest.fixture
def desk(transactional_db: None, live_server: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, RatingList, RatingListRow, System, Tournament
    from tournaments.models.register import search_key

    rng = random.Random(40)
    user = get_user_model().objects.create_user("arbitre", password=PASSWORD, is_staff=True)
    lst = RatingList.objects.create(source="FMJD", published_on=datetime.date(2026, 10, 1), row_count=LIST_ROWS)
    rows = []
    for i in range(LIST_ROWS):
        if i < len(ACCENTED):
            surname, given = ACCENTED[i][:2]
        else:
            surname = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
            given = rng.choice(GIVEN)
        rows.append(RatingListRow(
            rating_list=lst, line=i + 1, fmjd_id=30000 + 7 * i, surname=surname, given_name=given,
            federation=rng.choice(FEDERATIONS), title=rng.choice(TITLES), rating=rng.randint(1000, 2450),
            folded=search_key(surname, given)))
    RatingListRow.objects.bulk_create(rows, batch_size=1000)
    rows = list(RatingListRow.objects.filter(rating_list=lst).order_by("line"))
    # The register: a player known from earlier tournaments (linked to his row: shown once, as the register's),
    # and one written only in Cyrillic, in no list.
    linked = rows[10]
    linked.player = Player.objects.create(surname=linked.surname, given_name=linked.given_name,
                                          fmjd_id=linked.fmjd_id, federation=linked.federation,
                                          rating=linked.rating, title=linked.title)
    linked.save(update_fields=["player"])
    chizhov = Player.objects.create(surname="Чижов", given_name="Алексей", federation="RUS", rating=2380,
                                    title="GMI")
    t = Tournament.objects.create(name="Open de Lyon", slug="lyon", system=System.SWISS, rounds_total=7,
                                  chief_arbiter=user, public=False, start_date=datetime.date(2026, 11, 28),
                                  fmjd_list=lst)
    return {"url": str(live_server.url), "tournament": t, "rows": rows, "linked": linked, "chizhov": chizhov}


def french(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any]:
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, locale="fr-FR", extra_http_headers=FRENCH,
                                  device_scale_factor=2 if phone else 1, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def plan(desk: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """The forty, in the order they arrive: (how, what is typed, the expected register record or row)."""
    from tournaments.models.register import search_key

    rows, rng = desk["rows"], random.Random(7)
    by_name = rng.sample(rows[len(ACCENTED) + 20:], 23)
    by_id = rng.sample([r for r in rows[len(ACCENTED) + 20:] if r not in by_name], 8)
    out: list[tuple[str, str, Any]] = []
    for row in by_name:
        letters = 3 + len(out) % 3  # 3, 4 or 5 letters
        out.append(("name", search_key(row.surname)[:letters], row))
    for surname, _given, typed in ACCENTED:
        out.append(("name", typed, next(r for r in rows if r.surname == surname)))
    out.append(("name", "chiz", desk["chizhov"]))
    out.append(("name", search_key(desk["linked"].surname)[:4], desk["linked"]))
    out += [("id", str(row.fmjd_id), row) for row in by_id]
    rng.shuffle(out)
    return out


def expected_name(target: Any) -> str:
    return f"{target.surname}, {target.given_name}" if target.given_name else target.surname


def choose_and_enter(arbiter: Arbiter, typed: str, target: Any) -> None:
    """Type, look at the list, an arrow key down to him when he is not the first line (more letters when he
    is not in it at all), Enter."""
    from tournaments.models.register import search_key

    page = arbiter.page
    arbiter.type(typed)
    name = expected_name(target)
    surname = search_key(target.surname)
    longer = [surname, f"{surname} {search_key(target.given_name)}"]
    index = None
    for attempt in range(3):
        page.wait_for_function("(q) => { const b = document.getElementById('ep-listbox');"
                               " return !b.hidden && b.dataset.for === q; }", arg=page.input_value("#ep-q"))
        names = page.locator("#ep-listbox [role=option] .ep-name").all_inner_texts()
        index = next((i for i, n in enumerate(names) if n.split(" (")[0] == name), None)
        if index is not None or attempt == 2:
            break
        now, wanted = page.input_value("#ep-q"), longer[attempt]
        if wanted.startswith(now):  # not among the first lines: more of his name
            arbiter.type(wanted[len(now):])
        else:
            arbiter.press("Control+a")
            arbiter.type(wanted)
    assert index is not None, (typed, name)
    for _ in range(index):
        arbiter.press("ArrowDown")
    arbiter.press("Enter")


def test_forty_players_by_keyboard_in_french_on_a_phone(desk: dict[str, Any], browser: Any) -> None:  # noqa: PLR0915
    from tournaments.models import Entry, Player

    base, t = desk["url"], desk["tournament"]
    context, page = french(browser, PHONE)
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    arbiter = Arbiter(page)
    started = time.perf_counter()
    arbiter.click("#dc-next")  # "Enter the players": the next step of an empty tournament opens the screen
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.evaluate("document.activeElement.id") == "ep-q", "the screen opens with the cursor in the field"

    people = plan(desk)
    for n, (how, typed, target) in enumerate(people[:20], start=1):
        if how == "id":
            arbiter.type(typed)
            arbiter.press("Enter")  # at once: the id is exact, no need to look
        else:
            choose_and_enter(arbiter, typed, target)
        page.wait_for_function("(n) => document.querySelectorAll('#ep-entered tbody tr').length === n", arg=n)
        assert page.input_value("#ep-q") == "" and page.evaluate("document.activeElement.id") == "ep-q"
        if n == 3:
            shot(page, "enter-players-phone-fr-typing")
    # a look at the list open on the phone: a common beginning, several lines
    arbiter.type("ba")
    page.wait_for_function("() => document.getElementById('ep-listbox').dataset.for === 'ba'")
    shot(page, "enter-players-phone-fr-list")
    assert_accessible(page, "enter players 390px fr, list open")
    arbiter.press("Escape")
    assert page.input_value("#ep-q") == "" and page.locator("#ep-listbox").is_hidden()

    # two people found nowhere: typed, Ctrl+Enter opens the row, Tab between the fields, Enter saves
    for number, (name, federation, rating, title) in enumerate(NEW_PLAYERS):
        arbiter.type(name)
        arbiter.press("Control+Enter")
        assert page.evaluate("document.activeElement.id") == "ep-new-federation", "surname and given name prefilled"
        arbiter.type(federation)
        arbiter.press("Tab")
        arbiter.type(rating)
        arbiter.press("Tab")
        if title:
            page.select_option("#ep-new-title", title)  # a menu: one choice counted as one key
            arbiter.keys += 1
            arbiter.press("Shift+Tab")  # back to a text field, where Enter submits
        if number == 0:
            shot(page, "enter-players-phone-fr-new-player")
            assert_accessible(page, "enter players 390px fr, new player row")
        arbiter.press("Enter")
        page.wait_for_function("(n) => document.querySelectorAll('#ep-entered tbody tr').length === n",
                               arg=21 + number)
        assert page.evaluate("document.activeElement.id") == "ep-q"

    for n, (how, typed, target) in enumerate(people[20:38], start=23):
        if how == "id":
            arbiter.type(typed)
            arbiter.press("Enter")
        else:
            choose_and_enter(arbiter, typed, target)
        page.wait_for_function("(n) => document.querySelectorAll('#ep-entered tbody tr').length === n", arg=n)
    seconds = time.perf_counter() - started
    clicks, keys = arbiter.count()
    shot(page, "enter-players-phone-fr-forty")

    # ===== What was entered: forty, each with his list's rating and title (the register's, for the two
    # register players), the new ones as typed.
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    assert len(entries) == 40, len(entries)
    for _how, _typed, target in people[:38]:
        player = target if isinstance(target, Player) else Player.objects.get(fmjd_id=target.fmjd_id)
        entry = entries[player.pk]
        # The tournament reads its FMJD list: a register player on no list holds no FMJD rating here
        # (ratings.kept_values), and keeps the register's title.
        on_list = not isinstance(target, Player) or target.list_rows.exists()
        expected = (target.rating if on_list else None, target.title)
        assert (entry.rating, entry.title) == expected, (expected_name(target), entry)
    kamil = Player.objects.get(surname="Zabłocki")
    assert (kamil.given_name, kamil.federation, entries[kamil.pk].rating, entries[kamil.pk].title) == (
        "Kamil", "POL", 1650, "CMI")
    awa = Player.objects.get(surname="Mbengue")
    assert entries[awa.pk].rating is None and awa.federation == "SEN"
    assert Player.objects.filter(fmjd_id=desk["linked"].fmjd_id).count() == 1  # the register's record, not a copy

    # an already entered player: said in words, nothing added
    arbiter_after = Arbiter(page)
    arbiter_after.type("sore")
    page.wait_for_function("() => document.getElementById('ep-listbox').dataset.for === 'sore'")
    arbiter_after.press("Enter")
    page.wait_for_function("() => document.getElementById('ep-error').textContent.includes('Sørensen')")
    assert Entry.objects.filter(tournament=t).count() == 40
    context.close()

    print(f"\n40 players entered on a 390-px phone in French: {keys} keys, {clicks} click(s), {seconds:.1f} s "
          f"(machine time; at 4 keys a second a person needs about {keys / 4 + 40 * 1.0:.0f} s, a second's look "
          f"a player included: under 3 minutes)")
    assert clicks == 1, clicks  # the control room's "Enter the players", nothing after it
    assert keys <= KEY_BUDGET, keys

    # ===== The desktop, in French: the same screen with the list open and a refusal in words.
    context, page = french(browser, DESKTOP)
    log_in(page, base)
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/enter-players/")
    page.keyboard.type("chiz")
    page.wait_for_function("() => document.getElementById('ep-listbox').dataset.for === 'chiz'")
    shot(page, "enter-players-desktop-fr-already-entered")
    assert_accessible(page, "enter players desktop fr, list open")
    page.keyboard.press("Escape")
    page.keyboard.type("Zab")
    page.wait_for_function("() => document.getElementById('ep-listbox').dataset.for === 'Zab'")
    page.keyboard.press("Control+Enter")
    page.fill("#ep-new-rating", "abc")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('ep-new-rating-error').textContent.length > 0")
    assert page.input_value("#ep-new-surname") == "Zab" and page.input_value("#ep-new-rating") == "abc"
    shot(page, "enter-players-desktop-fr-new-player-error")
    assert_accessible(page, "enter players desktop fr, new player refused")
    context.close()
