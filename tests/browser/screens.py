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


def phone_in_french(browser: Any, base: str, *, username: str = "chief", password: str = "pw-chief-123",
                    timeout: float = 20000) -> tuple[Any, Any]:
    """A 390-px phone in French, signed in to the admin: (the browser context, its page)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="fr-FR", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(timeout)
    page.goto(f"{base}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("input[type=submit]")
    return context, page
