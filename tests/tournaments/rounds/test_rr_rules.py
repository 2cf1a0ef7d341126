"""Round robin: the double round robin's reversal against the published Berger tables,
only meaningful tie-breaks, and a round made by hand checked (each pair once per cycle, no three colours)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.pairing.test_roundrobin import published
from tests.tournaments.play import play_round
from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.models import System
from tournaments.pairing.roundrobin import berger_schedule
from tournaments.pairing.rr_check import COLOUR_THREE, REPEAT, Finding, check_schedule
from tournaments.rounds import rr_schedule, services
from tournaments.rounds.settings_rules import check_settings
from tournaments.standings import PRESETS, ROUND_ROBIN_MEANINGLESS, TIEBREAKS, meaningless_in_round_robin


def _reverse(rnd: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    return [(b, w) if b is not None else (w, None) for w, b in rnd]


# --- Berger tables: the double round robin's reversal -----------------------------------------


@pytest.mark.parametrize("n_players", range(3, 17))
def test_reversal_swaps_the_last_two_published_rounds_of_cycle_one(n_players: int) -> None:
    table = published(n_players)  # FIDE Handbook C.05 Annex 1, as printed
    schedule = berger_schedule(n_players, double=True, reverse_last_two=True)
    assert schedule[: len(table)] == [*table[:-2], table[-1], table[-2]]
    assert schedule[len(table):] == [_reverse(r) for r in table]


@pytest.mark.parametrize("n_players", range(3, 17))
def test_reversed_double_round_robin_never_gives_three_same_colours(n_players: int) -> None:
    assert check_schedule(berger_schedule(n_players, double=True, reverse_last_two=True), n_players) == []


@pytest.mark.parametrize("n_players", range(4, 17, 2))
def test_without_the_reversal_an_even_field_has_three_same_colours(n_players: int) -> None:
    # Why the tables recommend it: the last round of cycle 1 and the first of cycle 2 repeat a colour.
    findings = check_schedule(berger_schedule(n_players, double=True), n_players)
    assert findings and {f.code for f in findings} == {COLOUR_THREE}


def test_a_single_round_robin_ignores_the_setting() -> None:
    assert berger_schedule(6, reverse_last_two=True) == berger_schedule(6)


@pytest.mark.django_db
def test_the_setting_drives_the_rounds_paired(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug="drr")
    assert t.rr_reverse_last_two  # a new double round robin reverses, as the tables recommend
    for _ in range(3):
        play_round(t)
    rnd3 = [(g.white.pairing_number, g.black.pairing_number) for g in t.rounds.get(number=3).games.all()]
    assert rnd3 == published(4)[1]  # round 2 of the printed table is played third
    t.rr_reverse_last_two = False
    with pytest.raises(ValidationError, match="fixed once round 1 is paired"):
        check_settings(t)


# --- Tie-breaks --------------------------------------------------------------------------------


def test_buchholz_type_tiebreaks_are_not_offered_to_a_round_robin() -> None:
    assert {"solkoff", "solkoff_median", "solkoff_short_truncated", "solkoff_full_truncated",
            "solkoff_plus", "average_rating"} == ROUND_ROBIN_MEANINGLESS
    assert set(TIEBREAKS) - ROUND_ROBIN_MEANINGLESS == {"sonneborn_berger", "wins", "mutual_result", "ranking_order",
                                                        "external"}
    for preset in PRESETS.values():
        if System.SWISS not in preset.systems:
            assert meaningless_in_round_robin(preset.tiebreaks) == []


@pytest.mark.django_db
def test_a_round_robin_refuses_them_with_the_reason(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    t.tiebreaks = ["wins", "solkoff"]
    with pytest.raises(ValidationError) as exc:
        check_settings(t)
    assert "mean nothing in a round robin" in " ".join(exc.value.message_dict["tiebreaks"])
    t.tiebreaks = ["wins", "sonneborn_berger", "mutual_result", "ranking_order"]
    t.full_clean()
    check_settings(t)


# --- A round made by hand ----------------------------------------------------------------------


def test_the_checker_finds_a_repeat_in_a_cycle_and_three_colours() -> None:
    rounds = [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 2), (4, 3)]]
    assert check_schedule(rounds, 4) == [Finding(REPEAT, 3, (1, 2), 1), Finding(COLOUR_THREE, 3, (1,)),
                                         Finding(REPEAT, 3, (3, 4), 1)]
    # The second cycle of a double round robin meets everyone again: no repeat there.
    double = berger_schedule(4, double=True, reverse_last_two=True)
    assert check_schedule(double, 4) == []


@pytest.fixture
def rr6(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(6, slug="rr6")
    play_round(t)
    play_round(t)
    return t, services.round_pair(tournament=t)  # round 3, a draft


@pytest.mark.django_db
def test_the_tables_round_needs_nothing(rr6) -> None:  # type: ignore[no-untyped-def]
    t, rnd = rr6
    check = rr_schedule.rr_round_by_hand(round=rnd, boards=rr_schedule.round_boards(rnd))
    assert not check.differs and t.conformance_events.count() == 0


@pytest.mark.django_db
def test_a_hand_round_asks_then_is_saved_and_recorded(rr6, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd = rr6
    played = {frozenset((g.white.pairing_number, g.black.pairing_number))
              for g in t.rounds.get(number=1).games.all()}
    again = sorted(next(iter(p)) for p in played)[:1]
    first_pair = next(p for p in played if again[0] in p)
    a, b = sorted(first_pair)
    others = sorted(set(range(1, 7)) - {a, b})
    boards = {1: (a, b), 2: (others[0], others[1]), 3: (others[2], others[3])}
    with pytest.raises(events.NeedsConfirmation) as asked:
        rr_schedule.rr_round_by_hand(round=rnd, boards=boards)
    codes = [str(w.code) for w in asked.value.warnings]
    assert codes[0] == "schedule-by-hand" and "rematch" in codes
    rnd.refresh_from_db()
    assert rr_schedule.round_boards(rnd) != boards  # nothing written
    rr_schedule.rr_round_by_hand(round=rnd, boards=boards, expected_version=rnd.version, confirmed=set(codes),
                                 user=arbiter)
    rnd.refresh_from_db()
    assert rr_schedule.round_boards(rnd) == boards
    recorded = list(t.conformance_events.values_list("code", "round_number", "level"))
    assert ("schedule-by-hand", 3, 3) in recorded and ("rematch", 3, 3) in recorded
    assert any(line.startswith("### schedule-by-hand @ Round 3") for line in events.trf_lines(t))


@pytest.mark.django_db
def test_a_hand_round_is_refused_when_it_cannot_be_played(rr6) -> None:  # type: ignore[no-untyped-def]
    t, rnd = rr6
    with pytest.raises(DomainError, match="would play on boards 1 and 2"):
        rr_schedule.rr_round_by_hand(round=rnd, boards={1: (1, 2), 2: (1, 3), 3: (5, 6)},
                                     confirmed={"schedule-by-hand", "rematch", "colour-breach"})
    with pytest.raises(DomainError, match="missing"):
        rr_schedule.rr_round_by_hand(round=rnd, boards={1: (1, 2), 2: (3, 4), 3: (5, None)},
                                     confirmed={"schedule-by-hand", "rematch", "colour-breach"})
    services.round_publish(round=rnd)
    with pytest.raises(DomainError, match="only a draft round"):
        rr_schedule.rr_round_by_hand(round=rnd, boards=rr_schedule.round_boards(rnd))


@pytest.mark.django_db
def test_an_export_from_before_the_setting_keeps_the_plain_second_cycle(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.transfer import export_tournament, import_tournament

    t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug="old")
    doc = export_tournament(t)
    assert doc["tournament"]["rr_reverse_last_two"] is True  # carried by an export of today
    del doc["tournament"]["rr_reverse_last_two"]
    imported = import_tournament(doc, replace=True).tournament
    assert imported.rr_reverse_last_two is False


@pytest.mark.django_db
def test_a_round_robin_saved_before_the_rule_keeps_its_list_until_changed(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.models import Tournament

    t = make_tournament(4, slug="kept")
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["solkoff"])
    t.refresh_from_db()
    check_settings(t)  # unchanged: accepted
    t.tiebreaks = ["solkoff", "wins"]
    with pytest.raises(ValidationError):
        check_settings(t)


def _rematch_boards(t, rnd):  # type: ignore[no-untyped-def]
    """Round 3 seated so that a pair of round 1 meets again (pairing numbers, every player once)."""
    first = sorted(sorted((g.white.pairing_number, g.black.pairing_number))
                   for g in t.rounds.get(number=1).games.select_related("white", "black"))
    a, b = first[0]
    others = sorted(set(range(1, 7)) - {a, b})
    return {1: (a, b), 2: (others[0], others[1]), 3: (others[2], others[3])}


def _round_page_post(rnd, boards):  # type: ignore[no-untyped-def]
    by_number = {e.pairing_number: e.pk for e in rnd.tournament.entries.all()}
    games = list(rnd.games.order_by("board"))
    data = {"date": "", "games-TOTAL_FORMS": str(len(games)), "games-INITIAL_FORMS": str(len(games)),
            "games-MIN_NUM_FORMS": "0", "games-MAX_NUM_FORMS": "1000", "_continue": "1"}
    for i, g in enumerate(games):
        white, black = boards[g.board]
        data.update({f"games-{i}-id": str(g.pk), f"games-{i}-round": str(rnd.pk),
                     f"games-{i}-white": str(by_number[white]), f"games-{i}-black": str(by_number.get(black, "")),
                     f"games-{i}-result": g.result, f"games-{i}-loaded_version": str(g.version)})
    return data


@pytest.mark.django_db
def test_a_round_robin_draft_re_paired_on_the_round_page_asks_then_is_recorded(rr6, arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client
    from django.urls import reverse

    t, rnd = rr6
    boards = _rematch_boards(t, rnd)
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = client.post(url, _round_page_post(rnd, boards))
    assert page.status_code == 200  # the page comes back asking, with what was typed
    text = page.content.decode()
    assert 'value="schedule-by-hand"' in text and 'value="rematch"' in text
    assert rr_schedule.round_boards(rnd) != boards and t.conformance_events.count() == 0  # nothing written
    confirmed = _round_page_post(rnd, boards)
    response = client.post(url, {**confirmed, "confirmed": ["schedule-by-hand", "rematch", "colour-breach"]})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert rr_schedule.round_boards(rnd) == boards
    recorded = set(t.conformance_events.values_list("code", "round_number", "level"))
    assert {("schedule-by-hand", 3, 3), ("rematch", 3, 3)} <= recorded
    assert any(line.startswith("### rematch @ Round 3") for line in events.trf_lines(t))


@pytest.mark.django_db
def test_every_path_that_reseats_a_round_robin_goes_through_its_guard(rr6, arbiter) -> None:  # type: ignore[no-untyped-def]
    # services.round_set_boards is where the round page, the hand-round page and the manual pairing write.
    t, rnd = rr6
    boards = _rematch_boards(t, rnd)
    entries = {e.pairing_number: e for e in t.entries.all()}
    by_entry = {b: (entries[w], entries[bl]) for b, (w, bl) in boards.items()}
    with pytest.raises(events.NeedsConfirmation) as asked:
        services.round_set_boards(round=rnd, boards=by_entry)
    assert {"schedule-by-hand", "rematch"} <= {str(w.code) for w in asked.value.warnings}
    with pytest.raises(DomainError, match="missing"):  # a player left out is no round-robin round
        services.round_set_boards(round=rnd, boards={1: (rnd.games.get(board=1).white, None)},
                                  confirmed={"schedule-by-hand", "rematch", "colour-breach"})
    services.round_set_boards(round=rnd, boards=by_entry, confirmed={"schedule-by-hand", "rematch", "colour-breach"},
                              user=arbiter)
    assert {"schedule-by-hand", "rematch"} <= set(t.conformance_events.values_list("code", flat=True))


@pytest.mark.django_db
def test_a_third_same_colour_made_on_the_round_page_asks_then_is_recorded(rr6, arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client
    from django.urls import reverse

    t, rnd = rr6
    colours = {}
    for number in (1, 2):
        for g in t.rounds.get(number=number).games.select_related("white", "black"):
            colours.setdefault(g.white.pairing_number, []).append("w")
            colours.setdefault(g.black.pairing_number, []).append("b")
    boards = rr_schedule.round_boards(rnd)
    # a player with the same colour in rounds 1 and 2, given it again in round 3 by turning his board round
    board, (white, black) = next((b, (w, bl)) for b, (w, bl) in boards.items()
                                 if colours[bl] == ["w", "w"] or colours[w] == ["b", "b"])
    boards[board] = (black, white)
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = client.post(url, _round_page_post(rnd, boards)).content.decode()
    assert 'value="colour-breach"' in page and rr_schedule.round_boards(rnd) != boards
    response = client.post(url, {**_round_page_post(rnd, boards), "confirmed": ["schedule-by-hand", "colour-breach"]})
    assert response.status_code == 302
    assert rr_schedule.round_boards(rnd) == boards
    assert ("colour-breach", 3, 3) in set(t.conformance_events.values_list("code", "round_number", "level"))


@pytest.mark.django_db
@pytest.mark.parametrize("forged", ["a game of round 1", "no board stored"])
def test_a_round_page_posting_a_board_the_round_does_not_have_is_refused_in_words(rr6, arbiter, forged) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client
    from django.urls import reverse

    t, rnd = rr6
    boards = _rematch_boards(t, rnd)
    data = _round_page_post(rnd, boards)
    if forged == "a game of round 1":  # its board was read as None: sorting the boards raised (a 500)
        data["games-0-id"] = str(t.rounds.get(number=1).games.first().pk)
    else:  # every board posted as a new one: the save read a White the form never cleaned (a 500)
        data["games-INITIAL_FORMS"] = "0"
    client = Client()
    client.force_login(arbiter)
    before = rr_schedule.round_boards(rnd)
    page = client.post(reverse("admin:tournaments_round_change", args=[rnd.pk]), data)
    assert page.status_code == 200
    assert "not a board of this round" in page.content.decode()
    assert rr_schedule.round_boards(rnd) == before and rnd.games.count() == 3
    assert t.conformance_events.count() == 0
