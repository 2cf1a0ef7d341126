"""Screen sizes and screenshots for the browser tests (imported by them; the fixtures are in conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def shot(pg: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path
