"""The absolute-criteria checker and the arbiter's manual override."""

from __future__ import annotations

from tournaments.pairing import Board, Pairing, pair_dutch
from tournaments.pairing.checker import check_pairing

from .helpers import bye, game, player, request


def _req():  # type: ignore[no-untyped-def]
    return request(
        player(1, game(3, "w", 2), game(4, "b", 2)),
        player(2, game(4, "w", 1), game(3, "b", 2)),
        player(3, game(1, "b", 0), game(2, "w", 0)),
        player(4, game(2, "b", 1), game(1, "w", 0)),
        player(5, bye(), game(6, "w", 1)),
        player(6, game(50, "w", 0), game(5, "b", 1)),
        player(7, game(51, "b", 0), game(52, "w", 0)),
    )


def test_engine_pairing_passes() -> None:
    req = _req()
    rep = check_pairing(req, pair_dutch(req).pairing)
    assert rep.ok and not rep.differs


def test_swapped_colours_allowed_but_flagged() -> None:
    req = _req()
    eng = pair_dutch(req)
    first = eng.boards[0]
    boards = (Board(first.black, first.white),) + eng.boards[1:]
    rep = check_pairing(req, Pairing(boards, eng.bye))
    assert rep.differs and rep.ok or any(v.criterion == "C3 colour" for v in rep.violations)
    assert (first.black, first.white) in rep.only_proposed


def test_rematch_second_bye_and_missing_player_are_violations() -> None:
    req = _req()
    rep = check_pairing(req, Pairing((Board(1, 3), Board(2, 6), Board(4, 7)), bye=5))
    kinds = {v.criterion for v in rep.violations}
    assert {"C1 rematch", "C2 second bye"} <= kinds
    rep = check_pairing(req, Pairing((Board(1, 2), Board(3, 4)), bye=None))
    assert "not paired" in {v.criterion for v in rep.violations}


def test_colour_rule_c04_1() -> None:
    req = request(
        player(1, game(50, "w", 2), game(51, "w", 2)),
        player(2, game(52, "b", 2), game(53, "b", 2)),
    )
    bad = check_pairing(req, Pairing((Board(1, 2),)))
    assert [v.criterion for v in bad.violations] == ["C3 colour", "C3 colour"]
    good = check_pairing(req, Pairing((Board(2, 1),)))
    assert good.ok and not good.differs
