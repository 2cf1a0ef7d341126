"""The pairing log an arbiter reads in the admin (Round.pairing_explanation): each decision in words,
in the arbiter's language, with the FIDE rule in brackets."""

from __future__ import annotations

from django.utils import translation

from tests.tournaments.rounds import play_swiss_round
from tournaments import services
from tournaments.models import System


def test_log_tells_groups_floaters_bye_and_colours(make_tournament) -> None:
    t = make_tournament(10, system=System.SWISS, slug="log", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    services.entry_withdraw(entry=t.entries.get(pairing_number=10), after_round=2)
    log = services.round_pair(tournament=t).pairing_explanation
    assert log.startswith("Round 3: Dutch system (FIDE C.04.3), 9 players paired.")
    assert "Withdrawn, not paired: 10. Player10, Test." in log
    assert "Score group 4 points, " in log and "Pairs: " in log
    assert "Pairing-allocated bye (2 points): " in log and "(C5)." in log
    assert "Colours:" in log and "Board 1: " in log
    assert any(f"(E.{k})." in log for k in range(1, 6))
    lines = log.splitlines()
    assert sum(line.startswith("  Board ") for line in lines) == 4


def test_log_in_french(make_tournament) -> None:
    t = make_tournament(7, system=System.SWISS, slug="logfr", rounds_total=4)
    resting = t.entries.get(pairing_number=3)
    resting.excused_rounds = [1]
    resting.save()
    with translation.override("fr"):
        log = services.round_pair(tournament=t).pairing_explanation
    assert log.startswith("Ronde 1 : système hollandais (FIDE C.04.3), 6 joueurs appariés.")
    assert "Exempt à sa demande (0 point), non apparié : 3. Player03, Test." in log
    assert "Couleurs :" in log and "(E.5)." in log
