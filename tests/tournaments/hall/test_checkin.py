"""Check-in before a round: the services, the player's code and its lockout, the pairing's question."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.tournaments.play import play_round
from tournaments import selectors
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError, StaleEditError
from tournaments.hall import checkin
from tournaments.models import CheckIn, ConformanceEvent, EntryStatus, Game, System
from tournaments.results import Result
from tournaments.rounds import services


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def swiss(make_tournament):  # type: ignore[no-untyped-def]
    return make_tournament(10, system=System.SWISS, slug="hall", rounds_total=5, checkin_enabled=True)


def _entries(t):  # type: ignore[no-untyped-def]
    return list(t.entries.select_related("player").order_by("pairing_number"))


def test_open_draws_a_code_without_look_alikes_and_keeps_it_when_opened_again(swiss, arbiter) -> None:
    t = checkin.checkin_open(tournament=swiss, user=arbiter)
    assert t.checkin_round == 1
    assert len(t.checkin_code) == checkin.CODE_LENGTH
    assert set(t.checkin_code) <= set(checkin.CODE_ALPHABET)
    assert not set("0O1IL2Z5S8B") & set(checkin.CODE_ALPHABET)
    assert checkin.checkin_open(tournament=swiss).checkin_code == t.checkin_code
    assert t.history.first().history_change_reason == "check-in opened for round 1"


def test_open_refused_when_not_switched_on(make_tournament) -> None:
    t = make_tournament(4, system=System.SWISS, slug="off", rounds_total=3)
    with pytest.raises(DomainError, match="not switched on"):
        checkin.checkin_open(tournament=t)


def test_mark_unmark_all_reset_close(swiss, arbiter) -> None:
    checkin.checkin_open(tournament=swiss)
    first, second = _entries(swiss)[:2]
    assert checkin.checkin_mark(tournament=swiss, entry_id=first.pk, present=True, expected_round=1, user=arbiter)
    swiss.refresh_from_db()
    presence = checkin.presence(swiss)
    assert (presence.present, presence.total) == (1, 10)
    assert CheckIn.objects.get(entry=first).by_user == arbiter
    assert checkin.checkin_mark(tournament=swiss, entry_id=first.pk, present=False, expected_round=1) is True
    assert checkin.presence(swiss).present == 0
    checkin.checkin_mark(tournament=swiss, entry_id=second.pk, present=True, expected_round=1)
    assert checkin.checkin_all_present(tournament=swiss, expected_round=1) == 9
    assert checkin.presence(swiss).present == 10
    assert checkin.checkin_reset(tournament=swiss, expected_round=1) == 10
    assert checkin.presence(swiss).present == 0
    checkin.checkin_close(tournament=swiss)
    swiss.refresh_from_db()
    assert checkin.presence(swiss) is None and swiss.checkin_code == ""
    with pytest.raises(StaleEditError, match="closed"):
        checkin.checkin_mark(tournament=swiss, entry_id=first.pk, present=True, expected_round=1)


def test_two_arbiters_marking_the_same_player_at_once_agree(swiss, arbiter) -> None:
    """A mark says what is wanted, not "toggle": the second of two identical marks changes nothing."""
    checkin.checkin_open(tournament=swiss)
    entry = _entries(swiss)[0]
    assert checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=1)
    assert not checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=1)
    assert CheckIn.objects.filter(entry=entry).count() == 1
    assert not checkin.checkin_mark(tournament=swiss, entry_id=_entries(swiss)[1].pk, present=False,
                                    expected_round=1)


def test_a_screen_read_for_another_round_is_refused(swiss) -> None:
    checkin.checkin_open(tournament=swiss)
    checkin.checkin_all_present(tournament=swiss, expected_round=1)
    checkin.pair_round(tournament=swiss, expected_number=1)
    play_round_rest(swiss)
    checkin.checkin_open(tournament=swiss)  # round 2 now
    entry = _entries(swiss)[0]
    with pytest.raises(StaleEditError, match="round 2"):
        checkin.checkin_mark(tournament=swiss, entry_id=entry.pk, present=True, expected_round=1)
    with pytest.raises(StaleEditError):
        checkin.checkin_reset(tournament=swiss, expected_round=1)
    assert not CheckIn.objects.filter(round_number=2).exists()


def play_round_rest(t) -> None:  # type: ignore[no-untyped-def]
    """Publish, fill and complete the draft paired last."""
    rnd = t.rounds.order_by("-number").first()
    services.round_publish(round=rnd)
    for game in rnd.games.filter(result=""):
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)


def test_another_tournaments_player_cannot_be_marked(swiss, make_tournament) -> None:
    other = make_tournament(4, system=System.SWISS, slug="other", rounds_total=3)
    checkin.checkin_open(tournament=swiss)
    with pytest.raises(DomainError, match="not entered"):
        checkin.checkin_mark(tournament=swiss, entry_id=_entries(other)[0].pk, present=True, expected_round=1)


def test_player_checks_in_with_the_code_case_and_spaces_aside(swiss) -> None:
    t = checkin.checkin_open(tournament=swiss)
    typed = " ".join(t.checkin_code.lower())
    checked = checkin.player_checkin(tournament=swiss, pairing_number=3, code=typed, client="10.0.0.1")
    assert (checked.entry.pairing_number, checked.round_number, checked.by) == (3, 1, "player")
    assert checkin.presence(t).present == 1


def test_player_checkin_refused_while_closed(swiss) -> None:
    with pytest.raises(DomainError, match="closed"):
        checkin.player_checkin(tournament=swiss, pairing_number=3, code="AAAAA", client="10.0.0.1")
    assert not CheckIn.objects.exists()


def test_a_code_from_another_tournament_is_wrong(swiss, make_tournament) -> None:
    other = make_tournament(4, system=System.SWISS, slug="other", rounds_total=3, checkin_enabled=True)
    code = checkin.checkin_open(tournament=other).checkin_code
    mine = checkin.checkin_open(tournament=swiss).checkin_code
    if code == mine:  # one chance in ten million: draw again
        swiss.checkin_code = "ACDEF" if code != "ACDEF" else "CDEFG"
        swiss.save(update_fields=["checkin_code"])
    with pytest.raises(DomainError, match="not the code"):
        checkin.player_checkin(tournament=swiss, pairing_number=1, code=code, client="10.0.0.1")
    assert not CheckIn.objects.exists()


def test_wrong_codes_lock_the_address_out_like_logins(swiss, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    code = checkin.checkin_open(tournament=swiss).checkin_code
    wrong = "ACDEF" if code != "ACDEF" else "CDEFG"
    for _ in range(3):
        with pytest.raises(DomainError, match="not the code"):
            checkin.player_checkin(tournament=swiss, pairing_number=1, code=wrong, client="10.0.0.9")
    with pytest.raises(checkin.CodeLocked, match="Too many"):
        checkin.player_checkin(tournament=swiss, pairing_number=1, code=code, client="10.0.0.9")
    assert not CheckIn.objects.exists()
    # another address, the same tournament: not locked
    checkin.player_checkin(tournament=swiss, pairing_number=1, code=code, client="10.0.0.10")
    assert CheckIn.objects.count() == 1


def test_a_withdrawn_player_cannot_check_in(swiss) -> None:
    t = checkin.checkin_open(tournament=swiss)
    code = t.checkin_code
    entry = _entries(swiss)[4]
    entry.status, entry.withdrawn_after_round = EntryStatus.WITHDRAWN, 0
    entry.save(update_fields=["status", "withdrawn_after_round"])
    with pytest.raises(DomainError, match="not to be paired"):
        checkin.player_checkin(tournament=swiss, pairing_number=entry.pairing_number, code=code, client="x")
    assert checkin.presence(t).total == 9


def _three_absent(t):  # type: ignore[no-untyped-def]
    checkin.checkin_open(tournament=t)
    entries = _entries(t)
    for entry in entries[:-3]:
        checkin.checkin_mark(tournament=t, entry_id=entry.pk, present=True, expected_round=None)
    return entries[-3:]


def test_pairing_with_absentees_asks_never_silently(swiss) -> None:
    absent = _three_absent(swiss)
    with pytest.raises(checkin.AbsenteesQuestion) as asked:
        checkin.pair_round(tournament=swiss, expected_number=1)
    assert [e.pk for e in asked.value.absentees] == [e.pk for e in absent]
    assert not swiss.rounds.exists()
    # every other path to the pairing refuses while check-in is open for the round
    with pytest.raises(DomainError, match="Check-in is open"):
        services.round_pair(tournament=swiss, expected_number=1)
    assert not swiss.rounds.exists()


def test_absentees_not_paired_score_zero_and_it_is_recorded(swiss, arbiter) -> None:
    absent = _three_absent(swiss)
    read_at = checkin.absentees_version(absent)
    rnd = checkin.pair_round(tournament=swiss, expected_number=1, answer=checkin.NOT_PAIRED, read_at=read_at,
                             user=arbiter)
    ids = {e.pk for e in absent}
    byes = {g.white_id: g.result for g in rnd.games.filter(black__isnull=True)}
    assert {k: v for k, v in byes.items() if k in ids} == {pk: Result.EXCUSED.value for pk in ids}
    assert not rnd.games.filter(black_id__in=ids).exists()
    swiss.refresh_from_db()
    assert swiss.checkin_round is None and swiss.checkin_code == ""
    event = ConformanceEvent.objects.get(tournament=swiss, code=Code.ABSENT_NOT_PAIRED)
    numbers = sorted(swiss.entries.filter(pk__in=ids).values_list("pairing_number", flat=True))
    assert event.values == {"round": 1, "players": numbers} and event.created_by == arbiter
    play_round_rest(swiss)
    points = {row.player.pairing_number: row.points for row in selectors.standings(swiss)}
    assert [points[n] for n in numbers] == [0, 0, 0]
    assert all(p > 0 for n, p in points.items() if n not in numbers)  # a draw, or the pairing's bye


def test_pair_them_anyway_is_recorded_too(swiss) -> None:
    absent = _three_absent(swiss)
    rnd = checkin.pair_round(tournament=swiss, expected_number=1, answer=checkin.PAIRED,
                             read_at=checkin.absentees_version(absent))
    ids = {e.pk for e in absent}
    paired = set(rnd.games.values_list("white_id", flat=True)) | set(rnd.games.values_list("black_id", flat=True))
    assert ids <= paired
    assert not rnd.games.filter(result=Result.EXCUSED.value).exists()
    assert ConformanceEvent.objects.filter(tournament=swiss, code=Code.ABSENT_PAIRED).count() == 1


def test_an_answer_read_before_another_check_in_is_asked_again(swiss) -> None:
    absent = _three_absent(swiss)
    read_at = checkin.absentees_version(absent)
    code = swiss.__class__.objects.get(pk=swiss.pk).checkin_code
    checkin.player_checkin(tournament=swiss, pairing_number=absent[0].pairing_number, code=code, client="p")
    with pytest.raises(checkin.AbsenteesQuestion) as asked:
        checkin.pair_round(tournament=swiss, expected_number=1, answer=checkin.NOT_PAIRED, read_at=read_at)
    assert asked.value.stale and len(asked.value.absentees) == 2
    assert not swiss.rounds.exists()


def test_everybody_present_pairs_without_a_question_and_closes(swiss) -> None:
    checkin.checkin_open(tournament=swiss)
    checkin.checkin_all_present(tournament=swiss, expected_round=1)
    checkin.pair_round(tournament=swiss, expected_number=1)
    swiss.refresh_from_db()
    assert swiss.checkin_round is None
    assert not ConformanceEvent.objects.filter(code__startswith="checkin").exists()


def test_a_round_robin_keeps_its_boards_and_only_says_who_is_absent(make_tournament) -> None:
    t = make_tournament(6, slug="rr", checkin_enabled=True)
    absent = _three_absent(t)
    with pytest.raises(checkin.AbsenteesQuestion):
        checkin.pair_round(tournament=t, expected_number=1, answer=checkin.NOT_PAIRED,
                           read_at=checkin.absentees_version(absent))
    rnd = checkin.pair_round(tournament=t, expected_number=1, answer=checkin.PAIRED,
                             read_at=checkin.absentees_version(absent))
    assert rnd.games.count() == 3 and not rnd.games.filter(black__isnull=True).exists()


def _absent_twice(t):  # type: ignore[no-untyped-def]
    for _number in (1, 2):
        absent = _three_absent(t)
        checkin.pair_round(tournament=t, expected_number=_number, answer=checkin.NOT_PAIRED,
                           read_at=checkin.absentees_version(absent))
        play_round_rest(t)
    return absent


def test_absent_two_rounds_running_is_proposed_for_withdrawal_never_withdrawn(swiss) -> None:
    absent = _absent_twice(swiss)
    proposed = checkin.withdrawal_proposals(swiss)
    assert [e.pk for e, _rounds in proposed] == [e.pk for e in absent]
    assert all(rounds == [1, 2] for _e, rounds in proposed)
    assert not swiss.entries.exclude(status=EntryStatus.ACTIVE).exists()


def test_absent_once_is_not_proposed(swiss) -> None:
    absent = _three_absent(swiss)
    checkin.pair_round(tournament=swiss, expected_number=1, answer=checkin.NOT_PAIRED,
                       read_at=checkin.absentees_version(absent))
    play_round_rest(swiss)
    assert checkin.withdrawal_proposals(swiss) == []


def test_paired_anyway_counts_as_absent_only_when_lost_by_forfeit(swiss) -> None:
    for number in (1, 2):
        absent = _three_absent(swiss)
        rnd = checkin.pair_round(tournament=swiss, expected_number=number, answer=checkin.PAIRED,
                                 read_at=checkin.absentees_version(absent))
        services.round_publish(round=rnd)
        ids = {e.pk for e in absent}
        for game in rnd.games.all():
            if game.black_id is None:
                continue
            if game.white_id in ids:
                result = Result.DOUBLE_FORFEIT if game.black_id in ids else Result.BLACK_FORFEIT_WIN
            elif game.black_id in ids:
                result = Result.WHITE_FORFEIT_WIN
            else:
                result = Result.DRAW
            services.game_record_result(game=game, result=result)
        for game in rnd.games.filter(result=""):
            services.game_record_result(game=game, result="bye")
        services.round_complete(round=rnd)
    assert {e.pk for e, _r in checkin.withdrawal_proposals(swiss)} == {e.pk for e in absent}
    assert Game.objects.filter(result=Result.WHITE_FORFEIT_WIN.value).exists() or Game.objects.filter(
        result=Result.BLACK_FORFEIT_WIN.value).exists()


def test_withdrawn_player_is_no_longer_proposed(swiss) -> None:
    from tournaments.players import roster

    absent = _absent_twice(swiss)
    roster.entry_withdraw(entry=absent[0], after_round=2)
    assert absent[0].pk not in {e.pk for e, _r in checkin.withdrawal_proposals(swiss)}


def test_unused_play_round_helper_still_pairs_without_checkin(make_tournament) -> None:
    t = make_tournament(4, system=System.SWISS, slug="plain", rounds_total=3)
    assert play_round(t).number == 1
