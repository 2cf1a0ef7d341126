"""The pairing log an arbiter reads in the admin (Round.pairing_explanation): each decision in words,
in the arbiter's language, with the FIDE rule in brackets."""

from __future__ import annotations

from django.utils import translation

from tests.tournaments.play import play_swiss_round
from tournaments.models import System
from tournaments.players import roster
from tournaments.rounds import pairing_bridge, services


def test_log_tells_groups_floaters_bye_and_colours(make_tournament) -> None:
    t = make_tournament(10, system=System.SWISS, slug="log", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    roster.entry_withdraw(entry=t.entries.get(pairing_number=10), after_round=2)
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


def test_the_log_follows_the_reader_not_the_arbiter_who_paired(make_tournament, arbiter) -> None:
    """An international arbiters' team: a French deputy pairs, the chief reads the round page in Russian."""
    from django.test import Client
    from django.urls import reverse

    t = make_tournament(7, system=System.SWISS, slug="logru", rounds_total=4)
    with translation.override("fr"):
        rnd = services.round_pair(tournament=t)
    assert rnd.pairing_explanation.startswith("Ronde 1 : système hollandais")  # the pairer's words, kept
    assert rnd.pairing_record["round"] == 1 and rnd.pairing_record["paired"] == 7
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = client.get(url, headers={"accept-language": "ru"}).content.decode()
    with translation.override("ru"):
        expected = pairing_bridge.pairing_log(rnd.pairing_record)
    assert expected.splitlines()[0] in page and "Couleurs" not in page and "Ronde 1" not in page
    english = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "Round 1: Dutch system (FIDE C.04.3), 7 players paired." in english


def test_a_round_paired_before_the_record_keeps_its_words(make_tournament) -> None:
    t = make_tournament(6, system=System.SWISS, slug="logold", rounds_total=4)
    rnd = services.round_pair(tournament=t)
    rnd.pairing_record = None
    rnd.pairing_explanation = "Paired in 2025 by hand."
    assert pairing_bridge.round_pairing_log(rnd) == "Paired in 2025 by hand."
