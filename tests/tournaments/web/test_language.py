"""The language follows the browser, a shared link's `?lang=`, and the switch on every page."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournaments.management.commands.load_demo import SLUG
from tournaments.words import format_tiebreak


@pytest.fixture
def standings(db) -> str:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return reverse("tournaments:standings", args=[SLUG])


def test_browser_language_is_followed(standings: str) -> None:
    response = Client().get(standings, HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5")
    assert response.headers["Content-Language"] == "ru"
    assert "Положение после" in response.content.decode() or "Положение" in response.content.decode()


def test_shared_link_language_wins_and_is_kept(standings: str) -> None:
    client = Client()
    response = client.get(standings + "?lang=nl", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.headers["Content-Language"] == "nl"
    body = response.content.decode()
    assert "Stand" in body and "Classement" not in body
    # The reader keeps Dutch on the next page, without `lang` in its URL.
    assert response.cookies["django_language"].value == "nl"
    nxt = client.get(reverse("tournaments:crosstable", args=[SLUG]), HTTP_ACCEPT_LANGUAGE="fr")
    assert nxt.headers["Content-Language"] == "nl"
    # The switch sends the reader back to the page without the old `lang`, so his choice wins.
    assert f'name="next" type="hidden" value="{standings}"' in body
    switched = client.post(reverse("set_language"), {"language": "ru", "next": standings})
    assert switched.status_code == 302 and switched.headers["Location"] == standings
    assert client.get(standings).headers["Content-Language"] == "ru"


def test_unknown_lang_is_ignored(standings: str) -> None:
    response = Client().get(standings + "?lang=xx", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.headers["Content-Language"] == "fr" and "django_language" not in response.cookies


def test_shared_link_pages_are_cached_per_language(standings: str) -> None:
    client = Client()
    first = client.get(standings + "?lang=ru").content
    assert client.get(standings + "?lang=ru").content == first
    assert client.get(standings + "?lang=nl").headers["Content-Language"] == "nl"
    assert client.get(standings + "?lang=ru").headers["Content-Language"] == "ru"


@pytest.mark.parametrize(("lang", "text"), [("en", "2185.5"), ("fr", "2185,5"), ("nl", "2185,5"), ("ru", "2185,5")])
def test_averages_read_in_the_readers_format(lang: str, text: str) -> None:
    from fractions import Fraction

    from django.utils import translation

    with translation.override(lang):
        assert format_tiebreak(Fraction(4371, 2)) == text


def test_every_tiebreak_has_one_name() -> None:
    """The registry has keys and functions only; each key's one name for people is in tiebreak_text."""
    from django.utils import translation

    from tournaments.standings import TIEBREAKS
    from tournaments.words import TIEBREAK_LABELS, tiebreak_label

    assert set(TIEBREAK_LABELS) == set(TIEBREAKS)
    with translation.override("en"):
        assert str(tiebreak_label("solkoff_short_truncated")) == "Truncated Solkoff"
