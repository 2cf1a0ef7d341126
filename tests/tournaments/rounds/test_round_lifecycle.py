"""The round's life, its state races and deleting a completed round: the services."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.play import play_round, play_swiss_round
from tournaments import selectors
from tournaments.errors import DomainError, PublishNeedsConfirmation, StaleEditError
from tournaments.models import Entry, ForbiddenPair, Game, Numbering, Player, Round, RoundStatus, System
from tournaments.players import roster
from tournaments.rounds import deletion, pairing_bridge, round_control, services

# --- Round versions and row locks ------------------------------------------------------------


def test_every_state_change_bumps_the_version_and_a_stale_one_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    assert rnd.version == 1
    rnd = services.round_publish(round=rnd, expected_version=1)
    assert (rnd.status, rnd.version) == (RoundStatus.PUBLISHED, 2)
    for g in rnd.games.all():
        services.game_record_result(game=g, result="1-1")
    with pytest.raises(StaleEditError, match="Round 1 was changed by someone else since you read it .it is now "
                                             "published.: nothing was done"):
        services.round_complete(round=rnd, expected_version=1)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    rnd = services.round_complete(round=rnd, expected_version=2)
    assert (rnd.status, rnd.version) == (RoundStatus.COMPLETED, 3)
    with pytest.raises(StaleEditError):
        services.round_reopen(round=rnd, expected_version=2)
    assert services.round_reopen(round=rnd, expected_version=3).version == 4


def test_a_stale_copy_saved_whole_never_puts_the_state_back(make_tournament) -> None:
    """The change form's save, read before another arbiter completed the round: the date is
    saved, the round stays completed, and its history records the true state."""
    t = make_tournament(4)
    rnd = play_round(t, complete=False)
    stale = Round.objects.get(pk=rnd.pk)  # the form, read while the round was published
    services.round_complete(round=rnd)
    stale.date = datetime.date(2026, 5, 1)
    stale.save()
    now = Round.objects.get(pk=rnd.pk)
    assert (now.status, now.date, now.version) == (RoundStatus.COMPLETED, datetime.date(2026, 5, 1), 3)
    assert now.history.latest("history_date").status == RoundStatus.COMPLETED


def test_a_step_on_a_deleted_round_says_so(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_delete_draft(round=rnd)
    with pytest.raises(StaleEditError, match="Round 1 no longer exists"):
        services.round_publish(round=rnd, expected_version=1)


def test_pairing_the_same_round_twice_is_refused(make_tournament) -> None:
    t = make_tournament(4)
    services.round_pair(tournament=t, expected_number=1)
    with pytest.raises(StaleEditError, match="Round 1 is already paired"):
        services.round_pair(tournament=t, expected_number=1)
    assert t.rounds.count() == 1


# --- Taking a round back --------------------------------------------------------------------


def test_a_published_round_without_results_goes_back_to_draft_and_is_paired_again(make_tournament) -> None:
    t = make_tournament(5, system=System.SWISS, slug="late", rounds_total=3)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    assert rnd.games.filter(black__isnull=True, result="bye").count() == 1  # the bye is not a typed result
    rnd = services.round_unpublish(round=rnd, expected_version=rnd.version)
    assert rnd.status == RoundStatus.DRAFT
    assert rnd.history.latest("history_date").history_change_reason == "taken back to draft"
    # A late entry: the sixth player arrives; the round is paired again with him, without a bye.
    late = Player.objects.create(surname="Late", rating=2000)
    roster.entry_add(tournament=t, player=late)
    again = services.round_pair_again(round=rnd, expected_version=rnd.version)
    assert again.number == 1 and again.status == RoundStatus.DRAFT
    players = {g.white_id for g in again.games.all()} | {g.black_id for g in again.games.all()}
    assert Entry.objects.get(player=late).pk in players and None not in players


def test_a_late_withdrawal_after_taking_the_round_back(make_tournament) -> None:
    t = make_tournament(6, system=System.SWISS, slug="wd", rounds_total=3)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    rnd = services.round_unpublish(round=rnd, expected_version=rnd.version)
    gone = Entry.objects.get(tournament=t, pairing_number=3)
    roster.entry_withdraw(entry=gone, after_round=0)
    again = services.round_pair_again(round=rnd, expected_version=Round.objects.get(pk=rnd.pk).version)
    assert not again.games.filter(white=gone).exists() and not again.games.filter(black=gone).exists()
    assert again.games.filter(black__isnull=True).count() == 1  # five players left: one bye


def test_a_round_with_a_result_cannot_go_back(make_tournament) -> None:
    t = make_tournament(4)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    services.game_record_result(game=rnd.games.get(board=2), result="2-0")
    with pytest.raises(DomainError, match=r"Round 1 cannot go back to draft: board\(s\) 2 already have a result"):
        services.round_unpublish(round=rnd, expected_version=Round.objects.get(pk=rnd.pk).version)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    draft = services.round_pair  # a draft or a completed round cannot be "taken back" either
    assert draft
    services.game_record_result(game=rnd.games.get(board=1), result="1-1")
    services.round_complete(round=rnd)
    with pytest.raises(DomainError, match="only a published round can go back to draft"):
        services.round_unpublish(round=rnd, expected_version=None)


# --- The absolute criteria guard publish ----------------------------------------------------


def test_a_forbidden_pair_added_after_pairing_needs_a_confirmation_naming_it(make_tournament, arbiter) -> None:
    t = make_tournament(6, system=System.SWISS, slug="fp", rounds_total=3)
    rnd = services.round_pair(tournament=t)
    board1 = rnd.games.get(board=1)
    ForbiddenPair.objects.create(tournament=t, first=board1.white, second=board1.black, reason="same club")
    with pytest.raises(PublishNeedsConfirmation) as refused:
        services.round_publish(round=rnd, expected_version=rnd.version, user=arbiter)
    assert len(refused.value.violations) == 1
    pair = f"{board1.white.pairing_number}"
    assert "forbidden" in refused.value.violations[0].lower() and pair in refused.value.violations[0]
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.DRAFT
    published = services.round_publish(round=rnd, expected_version=rnd.version, confirmed_violations=True,
                                       user=arbiter)
    assert published.status == RoundStatus.PUBLISHED
    record = published.history.latest("history_date")
    assert record.history_user == arbiter
    assert record.history_change_reason.startswith("published with 1 broken absolute criteria, confirmed by chief")


def test_a_hand_made_rematch_needs_a_confirmation(swiss9, arbiter) -> None:
    first = play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    g = first.games.filter(black__isnull=False).first()
    games = list(rnd.games.filter(black__isnull=False).order_by("board"))
    # Put the two players of a round-1 game against each other on board 1, their opponents together.
    a, b = g.white, g.black
    others = [x for game in games for x in (game.white, game.black) if x.pk not in (a.pk, b.pk)]
    boards = {1: (a, b)}
    for i, game in enumerate(games[1:], start=2):
        boards[game.board] = (others[2 * (i - 2)], others[2 * (i - 2) + 1])
    services.round_set_boards(round=rnd, boards=boards)
    violations = pairing_bridge.round_violations(Round.objects.get(pk=rnd.pk))
    assert any("rematch" in v.lower() for v in violations), violations
    with pytest.raises(PublishNeedsConfirmation, match="from the tournament.s control room"):
        services.round_publish(round=rnd)


def test_a_clean_pairing_publishes_without_a_question(swiss9) -> None:
    rnd = services.round_pair(tournament=swiss9)
    assert services.round_publish(round=rnd, expected_version=1).status == RoundStatus.PUBLISHED
    assert not rnd.history.latest("history_date").history_change_reason


# --- Corrections at any time ----------------------------------------------------------------


def test_a_completed_round_is_corrected_by_its_arbiter_with_a_reason(make_tournament, arbiter) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    game = rnd.games.get(board=1)
    with pytest.raises(DomainError, match="give the reason for correcting the result of board 1"):
        services.game_record_result(game=game, result="2-0", user=arbiter, reason="  ")
    stranger = get_user_model().objects.create_user("stranger", is_staff=True)
    with pytest.raises(DomainError, match="only an arbiter of Test t can correct"):
        services.game_record_result(game=game, result="2-0", user=stranger, reason="slip")
    with pytest.raises(DomainError, match="board 1 needs a result; it cannot be cleared"):
        services.game_record_result(game=game, result=None, user=arbiter, reason="slip")
    saved = services.game_record_result(game=game, result="2-0", user=arbiter, reason="slip read wrongly",
                                        expected_version=game.version)
    assert saved.result == "2-0"
    record = Game.history.filter(id=game.pk).latest("history_date")
    assert (record.result, record.history_change_reason, record.history_user) == ("2-0", "slip read wrongly",
                                                                                  arbiter)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.COMPLETED
    standings = {row.player.id: row.points for row in selectors.standings(t)}
    assert standings[game.white_id] == 2 and standings[game.black_id] == 0


def test_results_record_takes_the_reason_for_every_board(make_tournament, arbiter) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    services.results_record(round=rnd, results=[(1, "2-0"), (2, "0-2")], reason="slips swapped", user=arbiter)
    latest = [Game.history.filter(round_id=rnd.pk, board=b).latest("history_date") for b in (1, 2)]
    assert [(h.result, h.history_change_reason) for h in latest] == [("2-0", "slips swapped"),
                                                                      ("0-2", "slips swapped")]
    with pytest.raises(DomainError):
        services.results_record(round=rnd, results=[(1, "1-1")])
    assert rnd.games.get(board=1).result == "2-0"


def test_a_correction_after_the_next_round_is_paired_warns_and_changes_nothing(swiss9, arbiter) -> None:
    first = play_swiss_round(swiss9)
    second = services.round_publish(round=services.round_pair(tournament=swiss9))
    pairing_before = sorted(second.games.values_list("board", "white_id", "black_id"))
    game = first.games.filter(black__isnull=False).order_by("board").first()
    old = game.result
    new = "0-2" if old == "2-0" else "2-0"
    corrected = services.game_record_result(game=game, result=new, reason="wrong slip", user=arbiter,
                                            confirmed={"previous-round-corrected"})  # the conformance mode: level 3
    words = round_control.correction_warnings(corrected)
    assert words[0] == (f"Round 2 was paired when board {game.board} of round 1 read {old} (now {new}). "
                        "Its pairing stands; nothing was changed by itself.")
    assert words[1].startswith("Pairing check of round 2 now: ")
    assert sorted(second.games.values_list("board", "white_id", "black_id")) == pairing_before


def test_no_warning_without_a_later_round_and_a_round_robin_says_nothing_moves(make_tournament, swiss9,
                                                                               arbiter) -> None:
    first = play_swiss_round(swiss9)
    game = first.games.filter(black__isnull=False).first()
    assert round_control.correction_warnings(services.game_record_result(game=game, result="1-1", reason="x")) == []
    rr = make_tournament(4, slug="rr")
    r1 = play_round(rr)
    play_round(rr, complete=False)
    g = r1.games.get(board=1)
    assert round_control.correction_warnings(services.game_record_result(
        game=g, result="2-0", reason="x", confirmed={"previous-round-corrected"})) == [
        "Round 2 is already paired; a round robin follows the Berger tables, which do not depend on results: "
        "nothing else changes."]


# --- Pairing numbers ------------------------------------------------------------------------


def test_a_swiss_numbers_by_rating_when_round_1_is_paired(make_tournament) -> None:
    t = make_tournament(6, system=System.SWISS, slug="csv", rounds_total=3)
    # The file's order: the best player last.
    for e in t.entries.all():
        e.rating = 1500 + 100 * e.pairing_number  # the ratings the tournament holds
        e.save(update_fields=["rating"])  # a service's field, set here directly
    services.round_pair(tournament=t)
    ratings = list(t.entries.order_by("pairing_number").values_list("rating", flat=True))
    assert ratings == sorted(ratings, reverse=True)
    assert t.entries.get(pairing_number=1).rating == 2100


def test_numbers_set_by_hand_are_kept(make_tournament) -> None:
    t = make_tournament(4, system=System.SWISS, slug="hand", rounds_total=3)
    entry = Entry.objects.get(tournament=t, pairing_number=4)
    entry.pairing_number = 9
    entry.save()  # the entry form, or the tournament page's inline
    t.refresh_from_db()
    assert t.numbering == Numbering.MANUAL
    services.round_pair(tournament=t)
    assert Entry.objects.get(pk=entry.pk).pairing_number == 9
    with pytest.raises(DomainError, match="pairing numbers are fixed once round 1 is paired"):
        roster.entries_number_by_rating(tournament=t)


def test_numbering_by_rating_by_hand_step_goes_back_to_automatic(make_tournament) -> None:
    t = make_tournament(4, system=System.SWISS, slug="back", rounds_total=3)
    Entry.objects.filter(tournament=t, pairing_number=4).get().save()  # saved unchanged: not a hand edit
    t.refresh_from_db()
    assert t.numbering == Numbering.AUTO
    roster.entries_keep_numbers(tournament=t)
    t.refresh_from_db()
    assert t.numbering == Numbering.MANUAL
    roster.entries_number_by_rating(tournament=t)
    t.refresh_from_db()
    assert t.numbering == Numbering.AUTO


def test_a_round_robin_draws_its_numbers_by_lot_and_keeps_the_seed(make_tournament) -> None:
    t = make_tournament(6, slug="lot")
    before = list(t.entries.order_by("pairing_number").values_list("player_id", flat=True))
    drawn = roster.entries_draw_lots(tournament=t, seed=20260101)
    t.refresh_from_db()
    assert (t.numbering, t.numbering_seed) == (Numbering.LOT, 20260101)
    assert t.history.latest("history_date").history_change_reason == "pairing numbers drawn by lot (seed 20260101)"
    after = list(t.entries.order_by("pairing_number").values_list("player_id", flat=True))
    assert sorted(after) == sorted(before) and [e.player_id for e in drawn] == after
    import random

    expected = list(before)
    random.Random(20260101).shuffle(expected)
    assert after == expected  # the draw can be repeated from its seed
    schedule = round_control.berger_table(t)
    assert len(schedule) == 5 and all(len(boards) == 3 for boards in schedule)
    services.round_pair(tournament=t)
    assert t.entries.order_by("pairing_number").first().player_id == after[0]  # a round robin keeps its draw
    with pytest.raises(DomainError, match="fixed once round 1 is paired"):
        roster.entries_draw_lots(tournament=t)


def test_a_round_robin_keeps_numbers_only_without_gaps(make_tournament) -> None:
    t = make_tournament(4, slug="gap")
    entry = Entry.objects.get(tournament=t, pairing_number=4)
    entry.pairing_number = 7
    entry.save()
    with pytest.raises(DomainError, match="needs pairing numbers 1 to 4 without gaps .found 1, 2, 3, 7."):
        roster.entries_keep_numbers(tournament=t)
    assert round_control.berger_table(t) == []


# --- Deleting a round (tournaments/rounds/deletion.py) ---------------------------------------


def test_a_round_is_deleted_only_as_the_last_draft(make_tournament) -> None:
    t = make_tournament(4)
    first = play_round(t)
    assert deletion.refusals([first]) == ["Test t – round 1 is completed: its pairing and results are kept. Correct "
                                          "a result on the round's page (with a reason); a published round without "
                                          "any result goes back to draft in the control room (“Take round 1 "
                                          "back to draft”), and a draft can then be deleted or paired again."]
    services.round_pair(tournament=t)
    assert deletion.refusals([first]) == ["Test t – round 1: rounds 2 were paired on it; it cannot be deleted."]
    second = t.rounds.get(number=2)
    assert deletion.refusals([second]) == []  # a draft: paired again at will
