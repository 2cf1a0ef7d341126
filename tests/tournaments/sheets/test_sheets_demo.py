"""`make demo` shows every sheet status: verified, not verifiable, irregular, mismatch, a flagged early
draw, and missing sheets; loading twice attaches nothing twice."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.management.commands.load_demo import SLUG
from tournaments.models import Game, GameSheet, RoundStatus, Tournament
from tournaments.sheets import MISSING, game_sheet_status


@pytest.mark.django_db
def test_demo_has_sheets_of_every_status(capsys) -> None:
    call_command("load_demo")
    assert "Game sheets attached:" in capsys.readouterr().out
    t = Tournament.objects.get(slug=SLUG)
    sheets = GameSheet.objects.filter(game__round__tournament=t)
    statuses = list(sheets.values_list("status", flat=True))
    assert statuses.count("irregular") == 1 and statuses.count("mismatch") == 1
    assert statuses.count("verified") >= 5 and statuses.count("not_verifiable") >= 5
    irregular = sheets.get(status="irregular")
    assert irregular.report["irregular"][0]["article"] == "5.4.6"
    assert "recorded" in sheets.get(status="mismatch").summary
    early = sheets.filter(status="not_verifiable", needs_look=True, summary__contains="competition rules 5.3")
    assert early.count() == 1
    games = Game.objects.filter(round__tournament=t).select_related("sheet")
    missing = [g for g in games if game_sheet_status(g) == MISSING]
    assert any(g.round.status == RoundStatus.COMPLETED for g in missing)
    assert any(g.round.status == RoundStatus.PUBLISHED for g in missing)
    count = sheets.count()
    call_command("load_demo")
    assert "Game sheets attached" not in capsys.readouterr().out
    assert GameSheet.objects.filter(game__round__tournament=t).count() == count
