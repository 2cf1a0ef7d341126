"""Shared fixtures."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
CORPUS = SHARED / "corpus" / "pdn"


@pytest.fixture
def corpus_dir() -> Path:
    """The shared PDN corpus, read in place; tests using it skip cleanly when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing() -> None:
    """Django's PBKDF2 costs about 0.4 s per password set or checked, by design; the suite sets and checks
    hundreds (every arbiter fixture, every log-in). Tests only: production keeps settings' hashers, and
    bench/load.py runs with them."""
    from django.test import override_settings

    # override_settings announces the change, so Django drops any hasher list it had already cached.
    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()


@pytest.fixture(scope="session", autouse=True)
def _caches_of_this_process(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test process gets caches of its own: settings' file cache is one folder in /tmp for every process
    of the machine, so two xdist workers (or two checkouts) would read and clear each other's pages. A Redis
    server named by DAMIER_CACHE_URL is kept: CI runs the cache tests against it, one process at a time."""
    import os

    from django.conf import settings
    from django.test import override_settings

    if os.environ.get("DAMIER_CACHE_URL"):
        return
    caches = {**settings.CACHES}
    caches["default"] = {**caches["default"], "LOCATION": str(tmp_path_factory.mktemp("cache"))}
    caches["pages-local"] = {**caches["pages-local"], "LOCATION": f"damier-pages-{os.getpid()}"}
    override_settings(CACHES=caches).enable()


def undo_what_a_test_left(held: Any) -> list[str]:
    """Undo what a test leaves in the process, whatever the order, and name the settings overrides it left
    enabled (`held`: settings' wrapped object before the test).

    A request through the test client activates its reader's language (LocaleMiddleware) or time zone in the
    thread and leaves it there; a later test on the same worker then reads French where it expects English.
    The caches, and the kept answers of the process's WSGI application, hold pages keyed on a tournament's
    id and version, and ids come back after a rollback; a cache a test made fail stays unasked for a while.
    A settings override enabled and never disabled would change every later test.
    """
    from django.conf import settings
    from django.core.cache import caches
    from django.core.signals import setting_changed
    from django.utils import timezone, translation

    translation.deactivate()
    timezone.deactivate()
    for cache in caches.all(initialized_only=True):
        cache.clear()
    served = sys.modules.get("config.wsgi")  # the process's kept answers, once a test has loaded the app
    if served is not None:
        served.application.forget()
    pages = sys.modules.get("tournaments.web.public_cache")  # a cache a test made fail is asked again at once
    if pages is not None:
        pages.shared.forget()
    kept = sys.modules.get("tournaments.public.per_version")  # what the player pages keep per version
    if kept is not None:
        kept.forget()
    left = settings._wrapped
    overridden: set[str] = set()
    while settings._wrapped is not held and hasattr(settings._wrapped, "default_settings"):
        overridden |= {k for k in vars(settings._wrapped) if k.isupper()}
        settings._wrapped = settings._wrapped.default_settings
    for name in overridden:  # as override_settings.disable() announces it: cached values are dropped
        setting_changed.send(sender=held.__class__, setting=name, value=getattr(settings, name, None), enter=False)
    return [] if left is held else sorted(overridden)


@pytest.fixture(autouse=True)
def _nothing_leaks_into_the_next_test() -> Iterator[None]:
    """Every test starts as the first one would (undo_what_a_test_left); an override left enabled fails the
    test that left it, where it happened."""
    from django.conf import settings
    from django.utils import timezone, translation

    translation.deactivate()
    timezone.deactivate()
    held = settings._wrapped
    yield
    overridden = undo_what_a_test_left(held)
    if overridden:
        pytest.fail(f"the test left a settings override enabled: {overridden}")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):  # type: ignore[no-untyped-def]
    """Start the players' ids far from the entries' ids, so that a test (or code) mixing the two up fails
    every time instead of only when xdist happens to give the tables different counters (as CI once did)."""
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = 'tournaments_player'")
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('tournaments_player', 100000)")
        elif connection.vendor == "postgresql":
            cursor.execute("SELECT setval(pg_get_serial_sequence('tournaments_player', 'id'), 100000)")


# The axe-core checks of the browser tests, as their reports carry them (tests/browser/conftest.py); here,
# because under xdist only this conftest is loaded in the process that receives the workers' reports.
AXE_REPORTED: list[dict[str, Any]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "teardown":
        AXE_REPORTED.extend(value for key, value in report.user_properties if key == "axe")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The random order's seed, so that a failing order can be run again; then the axe-core counts of every
    page checked in this run (tests/browser/axe.py), whatever passed."""
    from tests.browser import axe

    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and getattr(config.option, "randomly_reorganize", True):
        terminalreporter.write_line(f"Tests ran in a random order, seed {seed}. The same order again: "
                                    f"make test SEED={seed} (or pytest -p randomly --randomly-seed={seed} ...)")

    lines = axe.summary([(r["line"], r["counts"]) for r in AXE_REPORTED])
    if lines:
        terminalreporter.section("axe-core accessibility checks")
        for line in lines:
            terminalreporter.write_line(line)
