"""Settings under way, forbidden pairs, leaving the mode and the set-up notice: the services.

Each path: refused (nothing written), asks (nothing written), confirmed (written, re-checked, recorded)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.tournaments.play import play_swiss_round
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.models import ConformanceEvent, ForbiddenPair, System, Tournament
from tournaments.rounds import pairing_bridge, under_way
from tournaments.rounds.settings_rules import check_settings

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss8(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="s8", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


def edited(t: Tournament, **values: object) -> Tournament:
    t = Tournament.objects.get(pk=t.pk)
    for k, v in values.items():
        setattr(t, k, v)
    return t


def test_before_round_1_settings_change_freely(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="s", rounds_total=5)
    under_way.tournament_save(tournament=edited(t, rounds_total=6, bye_points=1, tiebreaks=["wins"]))
    t.refresh_from_db()
    assert (t.rounds_total, t.bye_points, t.tiebreaks) == (6, 1, ["wins"]) and t.in_conformance
    assert not ConformanceEvent.objects.exists()


@pytest.mark.parametrize(("field", "value", "code"), [
    ("rounds_total", 7, Code.ROUNDS_CHANGED), ("bye_points", 1, Code.BYE_POINTS_CHANGED),
    ("tiebreaks", ["wins", "solkoff_full"], Code.TIEBREAKS_CHANGED),
    ("swiss_order", "standing", Code.SWISS_ORDER_CHANGED),
])
def test_a_setting_under_way_asks_level_4_then_is_rechecked_and_recorded(swiss8, field, value, code,
                                                                          arbiter) -> None:  # type: ignore[no-untyped-def]
    old = getattr(swiss8, field)
    with pytest.raises(events.NeedsConfirmation) as asked:
        under_way.tournament_save(tournament=edited(swiss8, **{field: value}))
    assert [w.code for w in asked.value.warnings] == [code]
    swiss8.refresh_from_db()
    assert getattr(swiss8, field) == old and swiss8.in_conformance and not ConformanceEvent.objects.exists()

    outcome = under_way.tournament_save(tournament=edited(swiss8, **{field: value}), confirmed={str(code)},
                                        user=arbiter)
    swiss8.refresh_from_db()
    assert getattr(swiss8, field) == value
    assert swiss8.conformance_left_round == 2  # level 4: out of the mode, at the round under way
    event = ConformanceEvent.objects.get()
    assert event.code == code and event.level == 4 and event.round_number == 2 and event.created_by == arbiter
    assert event.values["old"] == (old if old else ["-"]) and event.values["new"] == value
    assert event.values["rechecked"] == [1, 2] and outcome.recheck is not None and outcome.recheck.rounds == [1, 2]
    lines = events.trf_lines(swiss8)
    assert lines[0] == "### conformance mode left @ Round 2"
    assert lines[1].startswith(f"### {code} @ Round 2:") and "old=" in lines[1] and "new=" in lines[1]


def test_the_system_never_changes_once_paired(swiss8) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(events.Refused):
        under_way.tournament_save(tournament=edited(swiss8, system=System.ROUND_ROBIN),
                                  confirmed={"system-changed"})
    swiss8.refresh_from_db()
    assert swiss8.system == System.SWISS and swiss8.in_conformance and not ConformanceEvent.objects.exists()
    with pytest.raises(ValidationError):
        check_settings(edited(swiss8, system=System.ROUND_ROBIN))


def test_the_bye_is_only_ever_a_game_score(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="b", rounds_total=3)
    with pytest.raises(ValidationError) as bad:
        edited(t, bye_points=3).full_clean()
    assert "bye_points" in bad.value.message_dict
    for ok in (0, 1, 2):
        edited(t, bye_points=ok).full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(bye_points=3)


def test_the_recheck_says_what_became_wrong(swiss8, arbiter) -> None:  # type: ignore[no-untyped-def]
    game = swiss8.rounds.get(number=1).games.exclude(black=None).first()
    pair = [ForbiddenPair(tournament=swiss8, first=game.white, second=game.black, reason="same club")]
    with pytest.raises(events.NeedsConfirmation):
        under_way.forbidden_pairs_save(tournament=swiss8, save=pair, delete=[])
    assert not ForbiddenPair.objects.exists() and not ConformanceEvent.objects.exists()
    outcome = under_way.forbidden_pairs_save(tournament=swiss8, save=pair, delete=[],
                                             confirmed={"forbidden-pair-late"}, user=arbiter)
    numbers = sorted([game.white.pairing_number, game.black.pairing_number])
    event = ConformanceEvent.objects.get()
    assert event.code == Code.FORBIDDEN_PAIR_LATE and event.values["pair"] == f"{numbers[0]}-{numbers[1]}"
    assert event.values["change"] == "added"
    assert f"R1 forbidden pair {numbers[0]}-{numbers[1]}" in event.values["broken"] or \
        f"R1 forbidden pair {numbers[1]}-{numbers[0]}" in event.values["broken"]
    assert outcome.recheck is not None and 1 in outcome.recheck.broken
    swiss8.refresh_from_db()
    assert not swiss8.in_conformance
    # the TRF now carries the pair (XXP) and the event (###)
    trf = pairing_bridge.export_trf(swiss8)
    assert "### forbidden-pair-late @ Round 2:" in trf


def test_forbidden_pairs_before_round_1_need_nothing(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="f", rounds_total=3)
    a, b = list(t.entries.all())[:2]
    under_way.forbidden_pairs_save(tournament=t, save=[ForbiddenPair(tournament=t, first=a, second=b)], delete=[])
    assert ForbiddenPair.objects.count() == 1 and not ConformanceEvent.objects.exists()


def test_a_reason_alone_is_no_change_of_a_pair(swiss8) -> None:  # type: ignore[no-untyped-def]
    a, b = list(swiss8.entries.all())[:2]
    stored = {1: (a.pairing_number, b.pairing_number)}
    assert under_way.pair_changes(stored, [(1, b, a)], []) == []
    assert under_way.pair_changes(stored, [], [1]) == [("removed", a.pairing_number, b.pairing_number)]


def test_leaving_the_mode_on_purpose_is_level_4_and_for_good(swiss8, arbiter) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(events.NeedsConfirmation):
        under_way.conformance_leave(tournament=swiss8)
    swiss8.refresh_from_db()
    assert swiss8.in_conformance and not ConformanceEvent.objects.exists()
    under_way.conformance_leave(tournament=swiss8, confirmed={"left-mode"}, user=arbiter)
    swiss8.refresh_from_db()
    assert swiss8.conformance_left_round == 2
    with pytest.raises(DomainError):
        under_way.conformance_leave(tournament=swiss8, confirmed={"left-mode"})
    assert ConformanceEvent.objects.get().code == Code.LEFT_MODE


def test_a_form_read_before_leaving_does_not_bring_the_mode_back(swiss8) -> None:  # type: ignore[no-untyped-def]
    stale = Tournament.objects.get(pk=swiss8.pk)  # an arbiter's form, loaded while still in the mode
    under_way.conformance_leave(tournament=swiss8, confirmed={"left-mode"})
    stale.venue = "Elsewhere"
    under_way.tournament_save(tournament=stale)
    swiss8.refresh_from_db()
    assert swiss8.venue == "Elsewhere" and swiss8.conformance_left_round == 2


@pytest.mark.parametrize(("system", "players", "rounds", "notice"), [
    (System.SWISS, 6, 5, False), (System.SWISS, 6, 6, True), (System.SWISS, 7, 7, False),
    (System.SWISS, 7, 8, True), (System.ROUND_ROBIN, 6, None, False), (System.ROUND_ROBIN, 6, 5, False),
    (System.ROUND_ROBIN, 6, 7, True), (System.DOUBLE_ROUND_ROBIN, 5, 8, True),
])
def test_before_round_1_a_notice_when_the_setup_cannot_finish(make_tournament, system, players, rounds,
                                                              notice) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(players, system=system, slug="n", rounds_total=rounds)
    found = under_way.setup_notices(t)
    assert bool(found) is notice
    if notice:
        assert found[0].code == Code.SETUP_CANNOT_FINISH and found[0].level == 2
        assert found[0].values["rounds"] == rounds and found[0].values["players"] == players


def test_a_bye_value_changed_under_way_rescores_the_byes_already_given(make_tournament) -> None:  # type: ignore[no-untyped-def]
    """Q86-88: the change is asked (level 4), the paired rounds are checked again, and the standings count
    every bye already given at the new value (they are worked out from the results when read)."""
    from tournaments import selectors

    t = make_tournament(7, system=System.SWISS, slug="s7", rounds_total=5)
    play_swiss_round(t)
    bye = t.rounds.get(number=1).games.get(black=None).white
    points = {r.player.id: r.points for r in selectors.standings(t)}
    t = Tournament.objects.get(pk=t.pk)
    t.bye_points = 1
    outcome = under_way.tournament_save(tournament=t, confirmed={"bye-points-changed"})
    assert outcome.recheck is not None and outcome.recheck.rounds == [1]
    after = {r.player.id: r.points for r in selectors.standings(Tournament.objects.get(pk=t.pk))}
    # Standing rows are keyed by entry, not by player: the two ids only agree by chance.
    assert after[bye.pk] == points[bye.pk] - 1
    assert all(after[p] == points[p] for p in points if p != bye.pk)
    assert ConformanceEvent.objects.get().values["old"] == 2


def test_the_rating_tie_break_settings_under_way_are_level_4(swiss8) -> None:  # type: ignore[no-untyped-def]
    """How unrated players and later ratings count changes the average-rating tie-break as much as the list."""
    with pytest.raises(events.NeedsConfirmation) as asked:
        under_way.tournament_save(tournament=edited(swiss8, unrated_method="lowest"))
    assert [(w.code, w.values["setting"]) for w in asked.value.warnings] == [
        (Code.RATING_TIEBREAKS_CHANGED, "unrated_method")]
    assert Tournament.objects.get(pk=swiss8.pk).unrated_method != "lowest"
    under_way.tournament_save(tournament=edited(swiss8, unrated_method="lowest"),
                              confirmed={"rating-tiebreaks-changed"})
    t = Tournament.objects.get(pk=swiss8.pk)
    assert t.unrated_method == "lowest" and not t.in_conformance
    assert ConformanceEvent.objects.get().code == "rating-tiebreaks-changed"
