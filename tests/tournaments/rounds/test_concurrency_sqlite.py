"""On SQLite, two arbiters at once wait for each other (busy timeout, IMMEDIATE transactions) instead
of one answering 500 "database is locked"; the outcome is the one PostgreSQL gives."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _sqlite_only() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite settings; PostgreSQL has its own test in test_concurrency")


def test_the_sqlite_settings_wait_instead_of_failing() -> None:
    options = connection.settings_dict["OPTIONS"]
    assert options["timeout"] >= 10 and options["transaction_mode"] == "IMMEDIATE"


def _two_writers(tmp_path, options: dict) -> list[object]:  # type: ignore[no-untyped-def]
    """Two requests on a file database with these options, each reading then writing in one transaction
    begun as Django's atomic() begins it (as ATOMIC_REQUESTS does), the second starting while the first is
    inside its transaction. Own connections: the test database is an in-memory one shared between threads."""
    import threading
    import time

    from django.db.backends.sqlite3.base import DatabaseWrapper

    settings_dict = {**connection.settings_dict, "NAME": str(tmp_path / "race.sqlite3"), "OPTIONS": options}

    def open_wrapper() -> DatabaseWrapper:
        wrapper = DatabaseWrapper(settings_dict, alias="race")
        wrapper.ensure_connection()
        return wrapper

    setup = open_wrapper()
    setup.connection.execute("CREATE TABLE IF NOT EXISTS board (n integer)")
    setup.close()
    inside = threading.Event()
    outcome: list[object] = [None, None]

    def request(i: int) -> None:
        wrapper = open_wrapper()
        try:
            if i == 1:
                inside.wait(5)
            wrapper._start_transaction_under_autocommit()  # what transaction.atomic() runs on SQLite
            cursor = wrapper.connection.cursor()
            cursor.execute("SELECT count(*) FROM board")
            if i == 0:
                inside.set()
                time.sleep(0.5)
            cursor.execute("INSERT INTO board VALUES (?)", [i])
            wrapper.connection.commit()
            outcome[i] = "saved"
        except Exception as exc:  # the second writer's fate is the point of the test
            outcome[i] = exc
        finally:
            wrapper.close()

    threads = [threading.Thread(target=request, args=(i,)) for i in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return outcome


def test_two_writers_wait_for_each_other_instead_of_failing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    configured = settings.DATABASES["default"]["OPTIONS"]
    assert _two_writers(tmp_path, configured) == ["saved", "saved"]
    # Without them (SQLite's defaults), the second request fails at once: a server error.
    default = _two_writers(tmp_path, {"timeout": 0})
    assert "locked" in str(default[1]) or "locked" in str(default[0]), default
