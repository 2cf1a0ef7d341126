"""axe-core over every public page of the demo and the arbiter's admin screens: desktop (1280 px) and
phone (390 px), English and French, light and dark colour scheme. No critical or serious violation;
every count is printed at the end of the run (see conftest.py).

A new page is one line in PUBLIC or ADMIN: a name and a path, where {slug}, {tournament}, {round},
{game}... are filled in from the demo (see `demo_ids`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import DESKTOP, PHONE

# `make test-browser` runs with xdist's --dist loadfile: one worker runs this whole file, so what the
# matrix saw (SEEN, RUNS) is in the process that checks it.
pytestmark = pytest.mark.browser

PUBLIC = [
    ("list", "/"),
    ("tournament", "/t/{slug}/"),
    ("standings", "/t/{slug}/standings/"),
    ("standings after 3", "/t/{slug}/standings/?round=3"),
    ("crosstable", "/t/{slug}/crosstable/"),
    ("round 9", "/t/{slug}/round/9/"),
    ("round 1", "/t/{slug}/round/1/"),
    ("player", "/t/{slug}/player/1/"),
    ("rank list", "/t/{slug}/rank-list/?order=club"),
    ("schedule", "/t/{slug}/schedule/"),
    ("game", "/t/{slug}/game/{game}/?ply=30"),
    ("game irregular", "/t/{slug}/game/{irregular}/"),
    ("game no sheet", "/t/{slug}/game/{unsheeted}/"),
    ("swiss standings", "/t/{swiss}/standings/"),
    ("swiss crosstable", "/t/{swiss}/crosstable/"),
    ("not found", "/t/no-such-tournament/"),
]

ADMIN = [
    ("admin index", "/admin/"),
    ("admin tournaments", "/admin/tournaments/tournament/"),
    ("admin tournament", "/admin/tournaments/tournament/{tournament}/change/"),
    ("admin standings", "/admin/tournaments/tournament/{tournament}/standings/"),
    ("admin standings after 3", "/admin/tournaments/tournament/{tournament}/standings/?round=3"),
    ("admin control room", "/admin/tournaments/tournament/{tournament}/control/"),
    ("admin schedule", "/admin/tournaments/tournament/{tournament}/schedule/"),
    ("admin rounds", "/admin/tournaments/round/"),
    ("admin round", "/admin/tournaments/round/{round}/change/"),
    ("admin round sheets", "/admin/tournaments/round/{round}/sheets/"),
    ("admin game sheet", "/admin/tournaments/game/{game}/sheet/"),
    ("admin game sheet irregular", "/admin/tournaments/game/{irregular}/sheet/"),
    ("admin games", "/admin/tournaments/game/"),
    ("admin players", "/admin/tournaments/player/"),
    ("admin player import", "/admin/tournaments/player/import-csv/"),
    ("admin entries", "/admin/tournaments/entry/"),
    ("admin entry", "/admin/tournaments/entry/{entry}/change/"),
    ("admin manual", "/admin/manual/"),
    ("admin manual chapter", "/admin/manual/conformance/"),
]

# Violations tolerated while their fix is under way: (page, rule id), on that page only. An entry that shows
# nowhere in a full run fails the run, so none outlives its fix.
KNOWN: dict[tuple[str, str], str] = {}
SEEN: dict[str, set[str]] = {}  # page -> rule ids violated in any configuration of this run
RUNS: set[str] = set()

VIEWPORTS = {"1280px": DESKTOP, "390px": PHONE}
LANGUAGES = {"en": "en-GB", "fr": "fr-FR"}
SCHEMES = ("light", "dark")


def demo_ids() -> dict[str, Any]:
    from bench.pages import build_swiss
    from tournaments.management.commands.load_demo import SLUG
    from tournaments.models import Entry, Game, GameSheet, Round, SheetStatus, Tournament

    t = Tournament.objects.get(slug=SLUG)
    sheets = GameSheet.objects.filter(game__round__tournament=t).order_by("game__round__number", "game__board")
    return {
        "slug": SLUG,
        "tournament": t.pk,
        "round": Round.objects.get(tournament=t, number=9).pk,
        "game": sheets.filter(status=SheetStatus.VERIFIED).first().game_id,  # type: ignore[union-attr]
        "irregular": sheets.filter(status=SheetStatus.IRREGULAR).first().game_id,  # type: ignore[union-attr]
        "unsheeted": Game.objects.filter(round__tournament=t, sheet__isnull=True,
                                         black__isnull=False).order_by("round__number", "board").first().pk,  # type: ignore[union-attr]
        "entry": Entry.objects.filter(tournament=t).order_by("pairing_number").first().pk,  # type: ignore[union-attr]
        "swiss": build_swiss(15, 4, slug="swiss-a11y").slug,
    }


@pytest.fixture
def context_factory(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def make(viewport: str, language: str, scheme: str) -> Any:
        phone = viewport == "390px"
        ctx = browser.new_context(viewport=VIEWPORTS[viewport], locale=LANGUAGES[language], color_scheme=scheme,
                                  is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def log_in(pg: Any, base: str) -> None:
    from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME

    pg.goto(base + "/admin/login/")
    pg.fill("#id_username", ARBITER_USERNAME)
    pg.fill("#id_password", ARBITER_PASSWORD)
    with pg.expect_navigation():
        pg.click("input[type=submit]")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_axe_finds_nothing_critical_or_serious(demo: str, context_factory: Any, viewport: str, language: str,
                                               scheme: str) -> None:
    axe.require_axe()
    ids = demo_ids()
    pg = context_factory(viewport, language, scheme).new_page()
    pg.set_default_timeout(20000)
    failures: list[str] = []

    def visit(name: str, path: str) -> None:
        pg.goto(demo + path.format(**ids))
        result = axe.check(pg, f"{name} {viewport} {language} {scheme}")
        SEEN.setdefault(name, set()).update(v["id"] for v in result.violations)
        bad = result.failing(rule for page, rule in KNOWN if page == name)
        if bad:
            failures.append(result.describe(bad))

    for name, path in PUBLIC:
        visit(name, path)
    visit("admin login", "/admin/login/")
    log_in(pg, demo)
    for name, path in ADMIN:
        visit(name, path)

    assert not failures, "\n".join(failures)
    RUNS.add(f"{viewport} {language} {scheme}")


def test_known_violations_are_still_there() -> None:
    """Runs after the whole matrix above (pytest keeps the file's order): a tolerated violation that no
    configuration showed has been fixed, and its KNOWN entry must go."""
    if len(RUNS) < len(VIEWPORTS) * len(LANGUAGES) * len(SCHEMES):
        pytest.skip("needs the whole matrix of test_axe_finds_nothing_critical_or_serious in this run")
    stale = [f"{page}: {rule} ({why})" for (page, rule), why in KNOWN.items() if rule not in SEEN.get(page, set())]
    assert not stale, f"no longer violated anywhere, remove from KNOWN: {stale}"
