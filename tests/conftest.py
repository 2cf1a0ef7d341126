"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
CORPUS = SHARED / "corpus" / "pdn"


@pytest.fixture
def corpus_dir() -> Path:
    """The shared PDN corpus, read in place; tests using it skip cleanly when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


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
