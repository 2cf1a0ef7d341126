"""The order of C.04.3 D as the last tiers of a bracket's edge weights.

Among pairings equal on every criterion, the Dutch system takes the first one its sequential
procedure would meet: in a homogeneous (sub)bracket the fewest exchanges between S1 and S2, then the
smallest difference of BSN sums, then the highest S1 players out and the lowest S2 players in, then
the transpositions of S2 in lexicographic order; in a heterogeneous bracket first which moved-down
players are paired (the highest first) and their partners in transposition order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

N_ORDER = 10  # five tiers for the moved-down players' part, five for the homogeneous part


class HomogeneousOrder:
    """D.1/D.2 on a homogeneous (sub)bracket: fewest exchanges, smallest BSN-sum difference, the
    highest S1 players out and the lowest S2 players in, then transpositions of S2 lexicographically.

    The transposition tier is exponential in the bracket size, and big weights slow the matching
    down a lot; so a large bracket first settles S1' (who plays as the higher player, fixed by the
    exchange tiers), and the transpositions are then weighed over S1' and its complement only."""

    def __init__(self, ids: Sequence[int], npairs: int, s1prime: set[int] | None = None, transpose: bool = True):
        self.pos = {pid: i for i, pid in enumerate(ids)}
        self.n = len(ids)
        self.np = npairs
        self.transpose = transpose
        self.slot: dict[int, int] = {}
        self.value: dict[int, int] = {}
        if s1prime is not None:
            tops = [pid for pid in ids if pid in s1prime]
            rest = [pid for pid in ids if pid not in s1prime]
            self.slot = {pid: len(tops) - 1 - i for i, pid in enumerate(tops)}
            self.value = {pid: len(rest) - i for i, pid in enumerate(rest)}

    def tiers(self, a: int, b: int) -> list[int]:
        pa, pb = self.pos.get(a), self.pos.get(b)
        if pa is None or pb is None:
            return [0] * N_ORDER
        hi, lo = min(pa, pb), max(pa, pb)
        n, s1 = self.n, hi < self.np
        if not self.transpose:
            transp = 0
        elif self.slot:
            top, low = (a, b) if pa < pb else (b, a)
            base = len(self.value) + 1
            transp = base ** self.slot[top] * self.value[low] if top in self.slot and low in self.value else 0
        else:
            transp = (n + 1) ** (n - 1 - hi) * (n - lo)
        return [0] * 5 + [
            -int(not s1),
            -hi,
            -(2**hi) if s1 else 0,
            0 if s1 else 2 ** (n - 1 - hi),
            transp,
        ]


TWO_STAGE = 24


def homogeneous(
    ids: list[int], npairs: int, match: Callable[[HomogeneousOrder], dict[Hashable, Hashable]]
) -> dict[Hashable, Hashable]:
    """The D order of a homogeneous (sub)bracket, in one matching or, when large, in two."""
    if len(ids) <= TWO_STAGE:
        return match(HomogeneousOrder(ids, npairs))
    pos = {pid: i for i, pid in enumerate(ids)}

    def higher(mates: dict[Hashable, Hashable]) -> set[int]:
        return {a for a in ids if (b := mates.get(a)) in pos and pos[a] < pos[b]}  # type: ignore[index]

    # usually nobody is exchanged: try S1' = S1 first, exact whenever the result keeps it
    guess = set(ids[:npairs])
    mates = match(HomogeneousOrder(ids, npairs, s1prime=guess))
    if higher(mates) == guess:
        return mates
    s1prime = higher(match(HomogeneousOrder(ids, npairs, transpose=False)))
    return match(HomogeneousOrder(ids, npairs, s1prime=s1prime))


class MdpOrder:
    """D.3 for the moved-down players: which of them are paired (the highest first), then each one's
    resident partner in transposition order."""

    def __init__(self, ids: Sequence[int], mdp: set[int]) -> None:
        self.mpos = {pid: i for i, pid in enumerate(x for x in ids if x in mdp)}
        res = [pid for pid in ids if pid not in mdp]
        self.rpos = {pid: i for i, pid in enumerate(res)}
        self.nm, self.nr = len(self.mpos), len(res)

    def tiers(self, a: int, b: int) -> list[int]:
        set_bits = sum(2 ** (self.nm - 1 - self.mpos[x]) for x in (a, b) if x in self.mpos)
        m, r = (a, b) if a in self.mpos else (b, a)
        if m in self.mpos and r in self.rpos:
            transp = (self.nr + 1) ** (self.nm - 1 - self.mpos[m]) * (self.nr - self.rpos[r])
        else:
            transp = 0
        return [set_bits, transp, 0, 0, 0] + [0] * 5


class Combined:
    """The moved-down players' order, then a homogeneous order on a presumed remainder."""

    def __init__(self, first: MdpOrder, second: HomogeneousOrder) -> None:
        self.first, self.second = first, second

    def tiers(self, a: int, b: int) -> list[int]:
        return self.first.tiers(a, b)[:5] + self.second.tiers(a, b)[5:]
