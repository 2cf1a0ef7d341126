"""Waiting in the browser tests, under the pages' Content-Security-Policy (script-src 'self').

Playwright's `page.wait_for_function` and `page.add_script_tag` run their text inside the page, as an eval
and as an inline script, which the policy refuses, as it should. `page.evaluate` goes through the
browser's debugging protocol instead, which the policy does not govern: these helpers use it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def wait_until(page: Any, expression: str, timeout: float = 15000) -> None:
    """Poll a JavaScript expression until it is true (`timeout` in milliseconds, as Playwright's)."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(100)


def run_script(page: Any, path: Path) -> None:
    """A script file of the tests (axe-core) run in the page, as add_script_tag would."""
    # Ends with a value: Playwright calls an expression that evaluates to a function.
    page.evaluate(path.read_text(encoding="utf-8") + "\n;0")
