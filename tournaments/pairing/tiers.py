"""The criteria of a bracket as integer tiers of an edge's weight (C6, C7, C8, C9, C10-C21).

A bracket's matching weighs every edge by these tiers, stacked lexicographically (dutch._combine);
the D order (order.py) comes after them. Criteria that count unpaired players (floaters) are moved
onto the edges: for a quantity f summed over the bracket's unpaired players,
sum_unpaired f = sum_all f - sum_pairs (f(u) + f(v)), so each edge carries f(u) + f(v) minus
whatever the pair itself costs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.pairing.colours import allocate, facts
from tournaments.pairing.compat import Compat
from tournaments.pairing.model import Colour, PairingRequest
from tournaments.pairing.state import DOWN, UP, PState


@dataclass
class Bracket:
    players: list[PState]  # bracket order: moved-down players first, then residents
    resident_score: int
    win: int
    initial: Colour
    mdp: set[int] = field(default_factory=set)
    c9: bool = False  # C9 (unplayed games of the PAB assignee) applies to this bracket
    pos: dict[int, int] = field(default_factory=dict)
    sd_rank: dict[int, int] = field(default_factory=dict)
    base: int = 2

    def __post_init__(self) -> None:
        self.pos = {p.id: i for i, p in enumerate(self.players)}
        self.mdp = {p.id for p in self.players if p.score > self.resident_score}
        values = {self.float_sd(p) for p in self.players}
        values |= {abs(a.score - b.score) for a in self.players for b in self.players}
        self.sd_rank = {v: i for i, v in enumerate(sorted(values))}
        self.base = len(self.players) + 2

    def float_sd(self, p: PState) -> int:
        # A.8: a downfloater counts against an artificial score one win below the bracket's lowest
        return p.score - self.resident_score + self.win

    def cost(self, sd: int) -> int:
        """Lexicographic weight of a score difference: one SD outweighs any number of smaller ones."""
        return self.base ** self.sd_rank[sd]


class QualityCache:
    """Tier values C6, C7, C10..C21 of bracket edges and C8 values of next-bracket edges, cached
    across the bracket's matchings."""

    def __init__(self, br: Bracket, compat: Compat, req: PairingRequest) -> None:
        self.br = br
        self.compat = compat
        self.req = req
        self.cache: dict[tuple[int, int], list[int]] = {}

    def inner(self, a: PState, b: PState) -> list[int]:
        key = (a.id, b.id)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = inner_tiers(self.br, a, b)
        return got


def unpaired_float_costs(br: Bracket, p: PState) -> tuple[int, int, int, int]:
    """(C14, C16, C18, C20) a player pays when left unpaired, i.e. floating down."""
    c = br.cost(br.float_sd(p))
    return (
        int(p.float1 == DOWN),
        int(p.float2 == DOWN),
        c if p.float1 == DOWN else 0,
        c if p.float2 == DOWN else 0,
    )


def inner_tiers(br: Bracket, a: PState, b: PState) -> list[int]:
    """C6, C7, C10..C21 for a pair inside the bracket (a ranked above b)."""
    sd = abs(a.score - b.score)
    psd = br.cost(br.float_sd(a)) + br.cost(br.float_sd(b)) - br.cost(sd)
    white, black = allocate(a, b, br.initial)
    fw, fb = facts(white, "w"), facts(black, "b")
    top = a.topscorer or b.topscorer
    c8 = -(fw.cd_over_2 + fb.cd_over_2) if top else 0
    c9 = -(fw.three_in_row + fb.three_in_row) if top else 0
    c10 = -(fw.pref_unmet + fb.pref_unmet)
    c11 = -(fw.strong_unmet + fb.strong_unmet)
    ua, ub = unpaired_float_costs(br, a), unpaired_float_costs(br, b)
    hi, lo = (a, b) if a.score >= b.score else (b, a)
    floats = sd > 0
    cost = br.cost(sd)
    pd1 = int(floats and hi.float1 == DOWN)
    pu1 = int(floats and lo.float1 == UP)
    pd2 = int(floats and hi.float2 == DOWN)
    pu2 = int(floats and lo.float2 == UP)
    return [
        1,  # C6
        psd,  # C7
        c8,
        c9,
        c10,
        c11,
        ua[0] + ub[0] - pd1,  # C14
        -pu1,  # C15
        ua[1] + ub[1] - pd2,  # C16
        -pu2,  # C17
        ua[2] + ub[2] - pd1 * cost,  # C18
        -pu1 * cost,  # C19
        ua[3] + ub[3] - pd2 * cost,  # C20
        -pu2 * cost,  # C21
    ]


N_QUALITY = 14


def c9_played(br: Bracket, compat: Compat, p: PState) -> int:
    """C9: the games a possible PAB assignee has played (the more, the fewer unplayed), counted as
    bbpPairings counts them: only where C9 applies, and only for players at the PAB's score."""
    return p.played if br.c9 and p.score == compat.bye_score and p.id in compat.bye_pool else 0


def next_psd_in(nxt_br: Bracket | None, p: PState) -> int:
    """C8: what a player costs the next bracket's PSD when unpaired there."""
    if nxt_br is None:
        return 0
    return nxt_br.cost(nxt_br.float_sd(p)) if nxt_br.float_sd(p) in nxt_br.sd_rank else 0
