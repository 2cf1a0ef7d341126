"""The package stays light and pure: no Django, networkx only once a matching is computed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_import_is_light() -> None:
    code = "import sys, tournaments.pairing; print('django' in sys.modules, 'networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_no_django_in_the_engine_sources() -> None:
    for path in (REPO / "tournaments" / "pairing").glob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path.name
