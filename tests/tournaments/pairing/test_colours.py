"""Colour allocation, C.04.3 E.1 to E.5 (2025 text, article 5)."""

from __future__ import annotations

from tournaments.pairing.colours import allocate
from tournaments.pairing.state import PState, colour_preference


def st(pid: int, colours: str, rank: int | None = None, pn: int | None = None) -> PState:
    cols = tuple(colours)
    pref, strength = colour_preference(cols)  # type: ignore[arg-type]
    return PState(
        id=pid,
        pn=pn or pid,
        score=0,
        rank=rank if rank is not None else pid,
        colours=cols,  # type: ignore[arg-type]
        cd=cols.count("w") - cols.count("b"),
        pref=pref,
        strength=strength,
        float1=None,
        float2=None,
        opponents=frozenset(),
        played=len(cols),
        bye_ok=True,
        topscorer=False,
    )


def white(a: PState, b: PState, initial: str = "w") -> int:
    return allocate(a, b, initial)[0].id  # type: ignore[arg-type]


def test_preferences() -> None:
    assert colour_preference(tuple("wbw")) == ("b", 2)
    assert colour_preference(tuple("wbbw")) == ("b", 1)
    assert colour_preference(tuple("bwbb")) == ("w", 3)
    assert colour_preference(tuple("wwbww")) == ("b", 3)
    assert colour_preference(()) == (None, 0)


def test_e1_both_preferences_granted() -> None:
    assert white(st(1, "wb"), st(2, "bw")) == 1  # 1 is due White, 2 Black


def test_e2_stronger_preference_wins() -> None:
    assert white(st(1, "bwb"), st(2, "wbwbb")) == 2  # 2 absolute beats 1 strong


def test_e3_alternate_from_the_last_difference() -> None:
    # both due Black (mild); in the latest round where they differed (the second) 1 had Black
    assert white(st(1, "wbbw"), st(2, "bwbw")) == 1


def test_e4_higher_ranked_player_gets_his_preference() -> None:
    # identical histories, both due Black: the higher ranked one gets Black
    assert white(st(1, "bw"), st(2, "bw")) == 2
    # "Higher ranked" is A.2's ranking, score first (rank), then the pairing number: 2 has more
    # points than 1 here, so 2 gets his Black (bbpPairings' choosePlayerColor; the reference rounds)
    assert white(st(1, "bw", rank=5), st(2, "bw", rank=1)) == 1


def test_e5_initial_colour_by_pairing_number() -> None:
    assert white(st(1, ""), st(2, "")) == 1
    # the higher ranked by score is 2 (even): he gets the other colour than the initial one
    assert white(st(1, "", rank=5), st(2, "", rank=1)) == 1
    assert white(st(1, "", rank=5), st(2, "", rank=1), "b") == 2
    assert white(st(1, ""), st(2, ""), "b") == 2
    assert white(st(4, "", rank=0), st(3, "", rank=1)) == 3


def test_e5_numbers_only_the_players_who_have_been_in_a_pairing() -> None:
    """Round 1 with number 1 absent (a bye asked for in advance): he holds no pairing number yet
    (C.04.2 2.4), so number 2 is the first of the field for E.5 and gets the initial colour, as
    bbpPairings v6 pairs it (12 of the 156 reference tournaments have such a round 1)."""
    from tournaments.pairing import PairingRequest, SwissPlayer, pair_dutch

    players = tuple(SwissPlayer(i, i, rating=2400 - 10 * i, excused=i == 1) for i in range(1, 7))
    res = pair_dutch(PairingRequest(players=players, round=1, total_rounds=5))
    assert sorted((b.white, b.black) for b in res.boards) == [(2, 4), (5, 3)]
    assert res.bye == 6
