"""Who can meet whom (the absolute criteria), and whether a set of players can all be paired.

The Dutch engine asks the second question all the time: can the rest of the round still be
completed (C4), how many pairs can a bracket make (C6), can the next bracket pair a floater (C8).
A greedy pass answers most of them; the Karp-Sipser pass and, failing it, an exact cardinality
matching answer the rest.
"""

from __future__ import annotations

from tournaments.pairing.colours import compatible_colours
from tournaments.pairing.matching import greedy_perfect, has_perfect_matching, max_weight_matching
from tournaments.pairing.model import Colour
from tournaments.pairing.state import ABSOLUTE, PState


class Compat:
    """The absolute criteria between two players: C1 rematch, C3 colours, forbidden pairs."""

    def __init__(self, states: dict[int, PState], forbidden: frozenset[frozenset[int]], initial: Colour = "w") -> None:
        self.initial = initial
        self.states = states
        self.forbidden = forbidden
        self.bye_pool: set[int] = {p.id for p in states.values() if p.bye_ok}
        self.bye_score: int | None = None  # C5: the lowest score the PAB assignee can have
        self._cache: dict[tuple[int, int], bool] = {}
        # who cannot meet whom, as sets (adjacency): a rematch whichever side recorded the game,
        # a forbidden pair, two non-topscorers with the same absolute colour preference (C3)
        self._never: dict[int, set[int]] = {i: set(p.opponents) for i, p in states.items()}
        for i, p in states.items():
            for o in p.opponents:
                self._never.setdefault(o, set()).add(i)
        for pair in forbidden:
            for x in pair:
                self._never.setdefault(x, set()).update(pair)
        self._absolute: dict[int, str] = {
            i: p.pref for i, p in states.items() if p.pref and not p.topscorer and p.strength == ABSOLUTE
        }

    def __call__(self, a: int, b: int) -> bool:
        key = (a, b) if a < b else (b, a)
        got = self._cache.get(key)
        if got is None:
            pa, pb = self.states[a], self.states[b]
            got = (
                b not in pa.opponents
                and a not in pb.opponents
                and frozenset(key) not in self.forbidden
                and compatible_colours(pa, pb, self.initial)
            )
            self._cache[key] = got
        return got

    def adjacency(self, ids: list[int]) -> dict[int, set[int]]:
        """For each of `ids`, those of `ids` he can meet: the same answers as calling the object
        on every pair, by set operations."""
        everyone = set(ids)
        same_absolute: dict[str, set[int]] = {"w": set(), "b": set()}
        for i in ids:
            if i in self._absolute:
                same_absolute[self._absolute[i]].add(i)
        can: dict[int, set[int]] = {}
        for a in ids:
            mine = everyone - self._never.get(a, set())
            mine.discard(a)
            if a in self._absolute:
                mine -= same_absolute[self._absolute[a]]
            can[a] = mine
        return can


def completable(rest: list[PState], odd: bool, compat: Compat) -> bool:
    ids = [p.id for p in sorted(rest, key=lambda p: p.rank)]
    bye_ok = {i for i in ids if i in compat.bye_pool} if odd else None
    if odd and not bye_ok:
        return False
    return pairable(ids, compat, bye_ok)


def pairable(ids: list[int], compat: Compat, sit_out: set[int] | None) -> bool:
    """Whether the players (in rank order) can all be paired, one of `sit_out` left out when given."""
    if greedy_pairs(ids, compat, sit_out):
        return True
    return has_perfect_matching(ids, compat.adjacency(ids), sit_out)


def greedy_pairs(ids: list[int], compat: Compat, bye_ok: set[int] | None) -> bool:
    """A quick sufficient test: the lowest bye candidate sits out, the others pair off greedily from
    the bottom (where the players with the fewest possible opponents usually are)."""
    free = list(reversed(ids))
    if bye_ok is not None:
        free.remove(next(i for i in free if i in bye_ok))
    while free:
        a = free.pop(0)
        for k, b in enumerate(free):
            if compat(a, b):
                del free[k]
                break
        else:
            return False
    return True


def max_pairs(ids: list[int], compat: Compat) -> int:
    """The most pairs the players can make among themselves: all but one when a greedy pass or
    the Karp-Sipser pass manages it, else a maximum cardinality matching."""
    odd = set(ids) if len(ids) % 2 else None
    if greedy_pairs(ids, compat, odd):
        return len(ids) // 2
    can = compat.adjacency(ids)
    if greedy_perfect(ids, can, odd):
        return len(ids) // 2
    edges = [(a, b, 1) for i, a in enumerate(ids) for b in ids[i + 1 :] if b in can[a]]
    return len(max_weight_matching(edges)) // 2


def floater_meets_c8_bound(f: PState, nxt: list[PState], extra: list[PState], odd: bool, compat: Compat) -> bool:
    """Whether the bracket's one floater `f` lets the next bracket reach the best C8 any floater
    could give it, with the rest of the round completed around it when `extra` holds it (C4).

    The bracket's possible floaters all have the same score (residents: the moved-down players are
    all paired wherever the shortcut applies), so they weigh the same in the next bracket: C8 is at
    its best when f is paired there and the next bracket's own players are all paired but at most
    one (pairing f costs the next bracket less than leaving it unpaired, its SD being the larger).
    With the rest of the round in the graph, that one player and everyone below must then be
    completable by themselves (edges that weigh C4 alone, as in _core_then_complete)."""
    ids = [p.id for p in nxt]
    if not extra:
        return pairable([f.id, *ids], compat, set(ids) if len(ids) % 2 == 0 else None)
    outer = [p for p in extra if p.id not in set(ids)]
    if len(ids) % 2:
        return pairable([f.id, *ids], compat, None) and completable(outer, odd, compat)
    for sitter in list(reversed(nxt))[:3]:  # a few tries, the lowest first; else the matching decides
        others = [i for i in ids if i != sitter.id]
        if pairable([f.id, *others], compat, None) and completable([*outer, sitter], odd, compat):
            return True
    return False
