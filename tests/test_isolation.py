"""What one test leaves in the process never reaches the next (tests/conftest.py), whatever the order."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings
from django.utils import timezone, translation

from tests.conftest import undo_what_a_test_left


@pytest.mark.django_db
def test_a_french_reader_s_language_time_zone_and_pages_are_undone() -> None:
    held = settings._wrapped
    Client().get("/", HTTP_ACCEPT_LANGUAGE="fr")
    translation.activate("fr")  # as LocaleMiddleware leaves it in the thread
    timezone.activate("Asia/Tokyo")
    caches["default"].set("page", "kept")
    caches["pages-local"].set("page", "kept")
    from config.wsgi import application

    application._kept[("key",)] = object()  # type: ignore[index]
    assert undo_what_a_test_left(held) == []
    assert translation.get_language() == settings.LANGUAGE_CODE == "en"
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE
    assert caches["default"].get("page") is None and caches["pages-local"].get("page") is None
    assert not application._kept


def test_a_settings_override_left_enabled_is_named_and_undone() -> None:
    held = settings._wrapped
    override_settings(DAMIER_PAGE_CACHE=not settings.DAMIER_PAGE_CACHE, LANGUAGE_CODE="fr").enable()
    assert undo_what_a_test_left(held) == ["DAMIER_PAGE_CACHE", "LANGUAGE_CODE"]
    assert settings._wrapped is held and settings.LANGUAGE_CODE == "en"
    assert translation.gettext("Page not found") == "Page not found"  # the default catalogue is English again


def test_a_page_cache_a_test_made_fail_is_asked_again() -> None:
    """The shared page cache, once it failed, is left unasked for a few seconds: the next test must not
    inherit that (it would read every page as a miss)."""
    from tournaments.web import public_cache

    public_cache.shared._down_until = float("inf")
    assert undo_what_a_test_left(settings._wrapped) == []
    assert public_cache.shared._down_until is None
