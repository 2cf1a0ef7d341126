"""Small builders for hand-made Swiss situations."""

from __future__ import annotations

from tournaments.pairing import PairingRequest, PlayedRound, SwissPlayer


def game(opp: int, colour: str, points: int) -> PlayedRound:
    return PlayedRound(opp, colour, points)  # type: ignore[arg-type]


def bye(points: int = 2) -> PlayedRound:
    return PlayedRound(None, None, points, played=False, pab=True)


def player(pid: int, *rounds: PlayedRound, **kw: object) -> SwissPlayer:
    return SwissPlayer(id=pid, pairing_number=pid, rating=2000 - pid, history=tuple(rounds), **kw)  # type: ignore[arg-type]


def request(*players: SwissPlayer, total: int = 9, **kw: object) -> PairingRequest:
    rnd = max((len(p.history) for p in players), default=0) + 1
    return PairingRequest(players=tuple(players), round=rnd, total_rounds=total, **kw)  # type: ignore[arg-type]


def pairs(result) -> set[frozenset[int]]:  # type: ignore[no-untyped-def]
    return {frozenset((b.white, b.black)) for b in result.boards}


def pset(*ps: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in ps}
