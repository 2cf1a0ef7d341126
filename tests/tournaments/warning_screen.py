"""Checking that a page shows its conformance warnings through the one warning screen.

Plain functions, imported by the tests of each page that shows a warning
(`from tests.tournaments.warning_screen import assert_one_screen`).
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape

from tournaments.admin import warnings

TEMPLATE = "admin/tournaments/warnings.html"


def assert_one_screen(response: Any, *levels: int) -> str:
    """The response rendered the one template (the renderer's marker in its HTML), with the one wording of
    what confirming does for each level given; returns the page's HTML."""
    assert TEMPLATE in [t.name for t in response.templates], "the page does not use the one warning screen"
    html = response.content.decode()
    assert "data-warning-screen" in html
    for level in levels:
        assert escape(warnings.consequence(level)) in html, f"not the one wording of level {level}"
    return html
