"""What the Dutch rules need to know about each player before a round: score, colours, floats, byes."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from tournaments.pairing.model import Colour, PairingRequest, PlayedRound, SwissPlayer

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
DOWN, UP = "d", "u"


@dataclass
class PState:
    id: int
    pn: int
    score: int
    rank: int  # position in the pairing order (0 = first): score, then pairing number or standing
    colours: tuple[Colour, ...]  # played games only, oldest first
    cd: int  # whites minus blacks
    pref: Colour | None
    strength: int
    float1: str | None  # float received in the previous round
    float2: str | None  # ... two rounds before
    opponents: frozenset[int]  # met over the board
    played: int  # games played over the board
    bye_ok: bool  # C2: no PAB yet and never scored a win without playing
    topscorer: bool
    # The number E.5 reads: the rank of the pairing number among the players who have been in a pairing
    # (a game, a forfeit or the pairing-allocated bye, this round included). A player absent before his
    # first pairing holds no number yet (C.04.2 2.4, late entries), as bbpPairings v6 numbers them.
    e5n: int = 0

    def __post_init__(self) -> None:
        if not self.e5n:
            self.e5n = self.pn

    def other(self, c: Colour) -> Colour:
        return "b" if c == "w" else "w"


def opposite(c: Colour) -> Colour:
    return "b" if c == "w" else "w"


def colour_preference(colours: tuple[Colour, ...]) -> tuple[Colour | None, int]:
    """A.6 of C.04.3: (preferred colour, strength)."""
    if not colours:
        return None, NONE
    cd = colours.count("w") - colours.count("b")
    if cd > 1:
        return "b", ABSOLUTE
    if cd < -1:
        return "w", ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return opposite(colours[-1]), ABSOLUTE
    if cd == 1:
        return "b", STRONG
    if cd == -1:
        return "w", STRONG
    return opposite(colours[-1]), MILD


def _history(p: SwissPlayer, rnd: int) -> list[Any]:
    hist = list(p.history[: rnd - 1])
    # A late entry has fewer entries: the missing rounds, at the start, were not played.
    return [PlayedRound.absent()] * (rnd - 1 - len(hist)) + hist


def build_states(req: PairingRequest) -> dict[int, PState]:
    """Derived state for every player of the request (withdrawn and excused included)."""
    ps = req.points
    rnd = req.round
    hists = {p.id: _history(p, rnd) for p in req.players}
    # score before each round, to know who floated in a played game (A.4)
    before: dict[int, list[int]] = {}
    for pid, h in hists.items():
        acc, seq = 0, []
        for r in h:
            seq.append(acc)
            acc += r.points
        seq.append(acc)
        before[pid] = seq
    max_score = (rnd - 1) * ps.win
    last_round = rnd == req.total_rounds

    def floats(pid: int, k: int) -> str | None:
        """Float received in round k (0-based)."""
        if k < 0:
            return None
        r = hists[pid][k]
        if not r.played:
            # 2025 text 1.4.3: scoring without playing more than a loss is a downfloat
            return DOWN if r.points > ps.loss else None
        mine, theirs = before[pid][k], before.get(r.opponent, [0] * (k + 1))[k]
        return DOWN if mine > theirs else UP if mine < theirs else None

    in_a_pairing = sorted(
        p.pairing_number for p in req.players
        if (not p.withdrawn and not p.excused) or any(r.opponent is not None or r.pab for r in hists[p.id]))
    e5n = {pn: i for i, pn in enumerate(in_a_pairing, start=1)}
    keyf = _order_key(req)
    order = sorted(req.players, key=keyf)
    states: dict[int, PState] = {}
    for rank, p in enumerate(order):
        h = hists[p.id]
        colours = tuple(r.colour for r in h if r.played and r.colour is not None)
        pref, strength = colour_preference(colours)
        bye_ok = not any(r.pab or (not r.played and r.points >= ps.win) for r in h)
        score = before[p.id][-1]
        states[p.id] = PState(
            id=p.id,
            pn=p.pairing_number,
            score=score,
            rank=rank,
            colours=colours,
            cd=colours.count("w") - colours.count("b"),
            pref=pref,
            strength=strength,
            float1=floats(p.id, rnd - 2),
            float2=floats(p.id, rnd - 3),
            opponents=frozenset(r.opponent for r in h if r.played and r.opponent is not None),
            played=len(colours),
            bye_ok=bye_ok,
            topscorer=last_round and 2 * score > max_score,
            e5n=e5n.get(p.pairing_number, p.pairing_number),
        )
    return states


def _order_key(req: PairingRequest) -> Any:
    score = {p.id: _history_score(p, req.round) for p in req.players}
    if req.order == "standing":
        custom = req.standing

        def key(p: SwissPlayer) -> tuple[Any, ...]:
            k: Hashable = custom(p) if custom is not None else p.standing_key
            return (-score[p.id], k, p.pairing_number)

        return key
    return lambda p: (-score[p.id], p.pairing_number)


def _history_score(p: SwissPlayer, rnd: int) -> int:
    return sum(r.points for r in p.history[: rnd - 1])
