"""One permission check and one formatting of a player: the admin, the services and the templates ask
tournaments.permissions who may touch a tournament, and name a player by number as str(entry) does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Entry, numbered
from tournaments.permissions import can_manage, can_manage_or_list

ROOT = Path(__file__).resolve().parents[2]


def _sources(*patterns: str) -> list[Path]:
    return [p for pattern in patterns for p in sorted(ROOT.glob(pattern)) if "migrations" not in p.parts]


def test_only_permissions_asks_the_model_who_arbitrates() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _sources("tournaments/**/*.py")
             if p.name != "permissions.py" for n, line in enumerate(p.read_text().splitlines(), 1)
             if ".is_arbiter(" in line]
    assert not found, "derive who may touch a tournament through tournaments.permissions: " + ", ".join(found)


NUMBER_AND_NAME = [re.compile(r"pairing_number\}\. \{"), re.compile(r"pairing_number \}\}\. \{\{"),
                   re.compile(r"\{n\}\. \{")]


def test_a_player_is_named_by_number_in_one_place() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _sources("tournaments/**/*.py", "templates/**/*.html")
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if any(r.search(line) for r in NUMBER_AND_NAME)]
    assert not found, "name a player by number with str(entry) or tournaments.models.numbered: " + ", ".join(found)


@pytest.mark.django_db
def test_str_of_an_entry_is_the_one_format(make_tournament) -> None:  # type: ignore[no-untyped-def]
    entry = Entry.objects.select_related("player").get(tournament=make_tournament(2), pairing_number=2)
    assert str(entry) == numbered(2, entry.player.full_name) == f"2. {entry.player.surname}, {entry.player.given_name}"


@pytest.mark.django_db
def test_the_admin_check_without_an_object_is_the_workplace(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2)
    users = get_user_model().objects
    outsider = users.create_user("outsider", is_staff=True)
    visitor = users.create_user("visitor")
    root = users.create_superuser("root", password="pw-root-123")
    assert can_manage_or_list(outsider, None) and not can_manage_or_list(outsider, t)
    assert not can_manage_or_list(visitor, None) and can_manage_or_list(root, t)
    assert can_manage_or_list(arbiter, t) == can_manage(arbiter, t) is True
    t.deputy_arbiters.add(outsider)
    assert can_manage_or_list(outsider, t.entries.first())
