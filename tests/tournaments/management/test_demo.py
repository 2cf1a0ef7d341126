"""`make demo` loads a 10-player round robin: all rounds paired, most results in, an arbiter login."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournaments import selectors
from tournaments.management.commands.load_demo import ARBITER_PASSWORD, ARBITER_USERNAME, SLUG
from tournaments.models import Game, RoundStatus, Tournament


@pytest.mark.django_db
def test_load_demo_is_complete_and_idempotent(capsys) -> None:
    call_command("load_demo")
    out = capsys.readouterr().out
    assert f"username: {ARBITER_USERNAME}" in out and f"password: {ARBITER_PASSWORD}" in out
    t = Tournament.objects.get(slug=SLUG)
    assert t.entries.count() == 10
    assert t.rounds.count() == 9
    assert t.rounds.filter(status=RoundStatus.COMPLETED).count() == 8
    missing = Game.objects.filter(round__tournament=t, result="").count()
    assert 0 < missing <= 3
    user = get_user_model().objects.get(username=ARBITER_USERNAME)
    assert user.is_staff and user.is_active and user.check_password(ARBITER_PASSWORD)
    call_command("load_demo")
    assert Tournament.objects.filter(slug=SLUG).count() == 1
    assert Game.objects.filter(round__tournament=t).count() == 45
    rows = selectors.standings(t)
    assert len(rows) == 10 and rows[0].rank == 1
    assert sum(r.points for r in rows) == sum(
        2 for g in Game.objects.filter(round__tournament=t).exclude(result__in=["", "0F-0F", "bye", "not played"])
    )
