"""Hand-checked situations, one per criterion of C.04.3 (2/1/0 points: win 2, draw 1).

Opponents numbered 50+ stand for players who are no longer in the field; they only shape histories.
"""

from __future__ import annotations

from tournaments.pairing import PairingRequest, pair_dutch
from tournaments.pairing.checker import absolute_violations

from .helpers import bye, game, pairs, player, pset, request


def test_first_round_top_half_against_bottom_half() -> None:
    res = pair_dutch(request(*(player(i) for i in range(1, 8))))
    # E.5: player 1 (odd) takes the initial colour, player 2 (even) the other one
    assert [(b.white, b.black) for b in res.boards] == [(1, 4), (5, 2), (3, 6)]
    assert res.bye == 7


def test_c1_no_rematch() -> None:
    # all drew in round 1 (1-3, 2-4, White for 1 and 2); the natural 1-3 again is a rematch, so S2
    # is transposed: 1-4 and 2-3, which also gives everyone the colour due
    ps = [
        player(1, game(3, "w", 1)),
        player(2, game(4, "w", 1)),
        player(3, game(1, "b", 1)),
        player(4, game(2, "b", 1)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 4), (2, 3))


def test_c1_forfeited_game_is_no_meeting() -> None:
    from tournaments.pairing import PlayedRound

    ps = [
        player(1, PlayedRound(3, "w", 2, played=False)),
        player(2, game(4, "b", 2)),
        player(3, PlayedRound(1, "b", 0, played=False)),
        player(4, game(2, "w", 0)),
    ]
    res = pair_dutch(request(*ps))
    # 1 and 2 (2 points) meet; 3 and 4 meet although 3 "met" 1 only by forfeit
    assert pairs(res) == pset((1, 2), (3, 4))


def test_c2_no_second_bye() -> None:
    # 3 had the bye; 1 and 2 drew together. 3 leads and must be paired; 1-2 cannot meet again
    ps = [player(1, game(2, "w", 1)), player(2, game(1, "b", 1)), player(3, bye())]
    res = pair_dutch(request(*ps))
    assert res.bye == 2
    assert pairs(res) == pset((3, 1))


def test_c2_no_bye_after_a_forfeit_win() -> None:
    from tournaments.pairing import PlayedRound

    ps = [
        player(1, game(2, "w", 2)),
        player(2, game(1, "b", 0)),
        player(3, PlayedRound(50, "w", 0, played=False)),
        player(4, game(51, "b", 0)),
        player(5, PlayedRound(52, "b", 2, played=False)),  # forfeit win
    ]
    res = pair_dutch(request(*ps))
    assert res.bye is not None and res.bye != 5
    assert not absolute_violations(request(*ps), res.pairing)


def test_c3_same_absolute_colour_preference() -> None:
    # 1 and 3 have had Black twice, 2 and 4 White twice: 1-3 or 2-4 would break C.04.1 f/g
    ps = [
        player(1, game(50, "b", 2), game(51, "b", 0)),
        player(2, game(52, "w", 2), game(53, "w", 0)),
        player(3, game(54, "b", 0), game(55, "b", 2)),
        player(4, game(56, "w", 0), game(57, "w", 2)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 4), (2, 3))
    assert {(b.white, b.black) for b in res.boards} == {(1, 4), (3, 2)}


def test_c4_completion_changes_a_higher_bracket() -> None:
    # 3 and 4 have met; pairing 1-2 would leave them stuck, so both leaders float down
    ps = [
        player(1, game(50, "w", 2)),
        player(2, game(51, "b", 2)),
        player(3, game(4, "w", 0)),
        player(4, game(3, "b", 0)),
    ]
    res = pair_dutch(request(*ps))
    assert frozenset((1, 2)) not in pairs(res) and frozenset((3, 4)) not in pairs(res)
    # of the two completions, 1-4 / 2-3 gives every player the colour due (C10)
    assert pairs(res) == pset((1, 4), (2, 3))


def test_c5_maximize_pairs_in_the_bracket() -> None:
    # 1 has met 3 and 4: the only way to pair the whole top bracket is 1-2 and 3-4
    ps = [
        player(1, game(3, "w", 2), game(4, "b", 2)),
        player(2, game(50, "b", 2), game(51, "w", 2)),
        player(3, game(1, "b", 2), game(52, "w", 2)),
        player(4, game(53, "w", 2), game(1, "w", 2)),
        player(5, game(54, "b", 0), game(55, "w", 0)),
        player(6, game(56, "w", 0), game(57, "b", 0)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 2), (3, 4), (5, 6))
    top = res.explanation.brackets[0]
    assert top.downfloaters == ()


def test_c6_psd_pairs_the_highest_moved_down_player() -> None:
    # 1 (4 points) and 2 (3 points) come down to the 2-point resident 3; only one can be paired
    # there: PSD [3, 2] (pair 1) beats [4, 1] (pair 2)
    # (1 and 2 have met, so they cannot pair in the 3-point bracket). Colours would rather have
    # 1-4 and 2-3, but C6 comes first.
    ps = [
        player(1, game(2, "w", 1), game(51, "b", 2), game(52, "w", 1)),
        player(2, game(1, "b", 1), game(53, "w", 2), game(54, "b", 0)),
        player(3, game(55, "w", 2), game(56, "b", 0), game(57, "w", 0)),
        player(4, game(58, "b", 0), game(59, "w", 0), game(60, "b", 0)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 3), (2, 4))
    reports = {b.score: b for b in res.explanation.brackets}
    assert reports[2].downfloaters == (2,)


def test_c7_downfloater_chosen_for_the_next_bracket() -> None:
    # top bracket 1, 2, 3 (4 points) floats one player. 3 would by D order, but 3 has met both
    # 2-point players (4, 5), and they have met each other: floating 2 gives the next bracket a pair
    ps = [
        player(1, game(50, "w", 2), game(51, "b", 2), game(52, "w", 0)),
        player(2, game(53, "w", 2), game(54, "b", 2), game(55, "w", 0)),
        player(3, game(4, "b", 2), game(5, "w", 2), game(56, "b", 0)),
        player(4, game(3, "w", 0), game(5, "w", 2), game(57, "b", 0)),
        player(5, game(58, "w", 2), game(3, "b", 0), game(4, "b", 0)),
        player(6, game(59, "b", 0), game(60, "w", 0), game(61, "b", 0)),
        player(7, game(62, "w", 0), game(63, "b", 0), game(64, "w", 0)),
        player(8, game(65, "b", 0), game(66, "w", 0), game(67, "b", 0)),
    ]
    res = pair_dutch(request(*ps))
    assert frozenset((1, 3)) in pairs(res)
    assert res.explanation.brackets[0].downfloaters == (2,)
    # floating 3, last in D order, would leave the next bracket without a pair (C7)


def test_c10_colour_preferences() -> None:
    # 1 and 3 are due White, 2 and 4 Black (mild): 1-3 / 2-4 would disappoint two players
    ps = [
        player(1, game(50, "b", 1)),
        player(2, game(51, "w", 1)),
        player(3, game(52, "b", 1)),
        player(4, game(53, "w", 1)),
    ]
    res = pair_dutch(request(*ps))
    assert {(b.white, b.black) for b in res.boards} == {(1, 4), (3, 2)}


def test_c11_strong_colour_preferences() -> None:
    # 1 and 3 are strongly due White (one Black more), 2 mildly due White, 4 mildly due Black.
    # Every pairing disappoints one player (C10 ties); 1-3 would disappoint a strong preference.
    ps = [
        player(1, game(50, "b", 2)),
        player(2, game(51, "w", 1), game(52, "b", 1)),
        player(3, game(53, "b", 2)),
        player(4, game(54, "b", 1), game(55, "w", 1)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 4), (2, 3))
    assert {(b.white, b.black) for b in res.boards} == {(1, 4), (3, 2)}


def test_c12_no_second_downfloat_in_a_row() -> None:
    # 3 floated down last round (the bye is a downfloat), so 2 floats instead of 3
    ps = [
        player(1, game(50, "w", 2), game(51, "b", 0)),
        player(2, game(52, "b", 0), game(53, "w", 2)),
        player(3, game(54, "w", 0), bye()),
        player(4, game(55, "b", 0), game(56, "w", 0)),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) == pset((1, 3), (2, 4))


def test_forbidden_pair_is_absolute() -> None:
    ps = [player(i) for i in range(1, 5)]
    req = PairingRequest(tuple(ps), 1, 5, forbidden_pairs=PairingRequest.forbid([(1, 3)]))
    res = pair_dutch(req)
    assert frozenset((1, 3)) not in pairs(res)
    assert pairs(res) == pset((1, 4), (2, 3))


def test_withdrawn_and_excused_players_are_not_paired() -> None:
    ps = [player(1), player(2, withdrawn=True), player(3, excused=True), player(4), player(5)]
    res = pair_dutch(request(*ps))
    paired = {p for b in res.boards for p in (b.white, b.black)} | {res.bye}
    assert paired == {1, 4, 5}
    assert res.excused == (3,)


def test_late_entry_is_paired_with_missed_rounds_unplayed() -> None:
    ps = [
        player(1, game(2, "w", 2), game(3, "b", 2)),
        player(2, game(1, "b", 0), game(4, "w", 0)),
        player(3, game(4, "b", 1), game(1, "w", 0)),
        player(4, game(3, "w", 1), game(2, "b", 2)),
        player(5),  # enters in round 3 with no points
        player(6),
    ]
    res = pair_dutch(request(*ps))
    assert pairs(res) | ({frozenset((res.bye,))} if res.bye else set()) and len(res.boards) == 3
    assert not absolute_violations(request(*ps), res.pairing)


def test_order_by_standing_within_the_score_group() -> None:
    ps = [player(i, standing_key=(-i,)) for i in range(1, 5)]
    by_rating = pair_dutch(request(*ps))
    by_standing = pair_dutch(request(*ps, order="standing"))
    assert pairs(by_rating) == pset((1, 3), (2, 4))
    # standing puts 4 first, then 3, 2, 1: S1 = {4, 3}, S2 = {2, 1}
    assert pairs(by_standing) == pset((4, 2), (3, 1))
    custom = pair_dutch(request(*ps, order="standing", standing=lambda p: p.pairing_number % 2))
    # key 0 for even numbers: 2, 4, then 1, 3
    assert pairs(custom) == pset((2, 1), (4, 3))


def test_boards_ordered_by_scores() -> None:
    ps = [
        player(1, game(5, "w", 0)),
        player(2, game(6, "b", 1)),
        player(3, game(7, "w", 2)),
        player(4, game(8, "b", 2)),
        player(5, game(1, "b", 2)),
        player(6, game(2, "w", 1)),
        player(7, game(3, "b", 0)),
        player(8, game(4, "w", 0)),
    ]
    res = pair_dutch(request(*ps))
    tops = [
        max(sum(r.points for r in ps[b.white - 1].history), sum(r.points for r in ps[b.black - 1].history))
        for b in res.boards
    ]
    assert tops == sorted(tops, reverse=True)
