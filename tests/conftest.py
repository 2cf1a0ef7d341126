"""Shared fixtures."""

from __future__ import annotations

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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The axe-core counts of every page checked in this run (tests/browser/axe.py), whatever passed."""
    from tests.browser import axe

    lines = axe.summary([(r["line"], r["counts"]) for r in AXE_REPORTED])
    if lines:
        terminalreporter.section("axe-core accessibility checks")
        for line in lines:
            terminalreporter.write_line(line)
