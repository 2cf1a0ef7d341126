"""The first pairing of a homogeneous bracket in the order of C.04.3 D, when it is provably the best.

A bracket's matching weighs the quality criteria first and the D order last. When a pairing reaches,
on every quality criterion, a value no pairing can beat (a lower bound on the criterion's count),
the matching can only choose between such pairings, and the D order then picks the first of them in
the sequence D.1 generates. This module finds that first pairing without a matching:

- it keeps S1 and S2 as they are (no exchange, D.2 comes later in the order), and tries the
  transpositions of S2 in lexicographic order (D.1), a depth-first search that stops at the first
  pairing meeting every bound;
- it gives up (returns None, and the caller runs the matching) when no transposition meets them
  within a budget of steps: the bounds may simply not be reachable.

Only the criteria that can differ between two pairings of a homogeneous bracket with the same
number of pairs are looked at; the callers make sure the others (completion, the next bracket, the
bye assignee's games) cannot tell pairings apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tournaments.pairing.state import STRONG, UP, PState

# Positions in the quality tiers of a pair (dutch._inner_tiers), each a violation count <= 0:
# C10, C11 (topscorers' colours), C12, C13 (preferences), C15, C17, C19, C21 (repeated upfloats).
C10, C11, C12, C13, C15, C17, C19, C21 = 2, 3, 4, 5, 7, 9, 11, 13
BUDGET_PER_PLAYER = 40


class ColourCount:
    """Colour preferences of a set of players, for lower bounds on C12 and C13 over any pairing of
    them that leaves `unpaired` out.

    Two players preferring the same colour cannot both have it: one of them misses it (C12), and
    if both preferences are strong or absolute, a strong one is missed (C13). A player preferring
    white can avoid that only against a player preferring black or with no preference (for C13:
    or with a mild preference for white). So at least (W - B - Z - unpaired) / 2 pairs of white
    seekers meet, and likewise for black."""

    def __init__(self, players: Sequence[PState]) -> None:
        self.n = {"w": 0, "b": 0, None: 0}
        self.strong = {"w": 0, "b": 0}
        for p in players:
            self.change(p, 1)

    def change(self, p: PState, by: int) -> None:
        self.n[p.pref] += by
        if p.pref is not None and p.strength >= STRONG:
            self.strong[p.pref] += by

    def bounds(self, unpaired: int) -> tuple[int, int]:
        lb12 = lb13 = 0
        none = self.n[None]
        for mine, theirs in (("w", "b"), ("b", "w")):
            same, other, strong = self.n[mine], self.n[theirs], self.strong[mine]
            lb12 += max(0, -(-(same - other - none - unpaired) // 2))
            lb13 += max(0, -(-(strong - other - none - (same - strong) - unpaired) // 2))
        return lb12, lb13


def colour_bounds(players: Sequence[PState], unpaired: int) -> tuple[int, int]:
    """Lower bounds on C12 and C13 over every pairing of `players` leaving `unpaired` out."""
    return ColourCount(players).bounds(unpaired)


def upfloat_bounds(costs: Sequence[int], partners: Sequence[PState]) -> dict[int, int]:
    """Lower bounds on C15, C17, C19 and C21 when each moved-down player (who would cost
    `costs[i]` on C19/C21: its score difference) is paired with one of the residents `partners`:
    a resident who upfloated in the previous round (or the one before) upfloats again, so when
    there are fewer other residents than moved-down players, the rest must take such partners,
    at best those with the smallest score differences."""
    out = {}
    cheap = sorted(costs)
    for count, weighted, k in ((C15, C19, 1), (C17, C21, 2)):
        free = sum(1 for p in partners if (p.float1 if k == 1 else p.float2) != UP)
        must = max(0, len(costs) - free)
        out[count], out[weighted] = must, sum(cheap[:must])
    return out


def first_best_pairing(
    players: Sequence[PState],
    moved_down: int,
    npairs: int,
    compatible: Callable[[int, int], bool],
    inner: Callable[[PState, PState], list[int]],
    floater_ok: Callable[[PState], bool],
    bounds: dict[int, int],
    can_pair: Callable[[list[PState], int], bool],
) -> list[tuple[PState, PState]] | None:
    """The first pairing in D order that keeps the absolute criteria (`compatible`), every
    quality tier of `bounds` within its bound, and only floaters for whom `floater_ok`; None when
    there is none without exchanges, or the budget runs out first.

    `players` is the bracket in its order, its first `moved_down` players the moved-down ones. D.3:
    each of them, the highest first, takes the first resident it can; then D.1 on the remainder:
    S1 its first npairs - moved_down players, against S2 in the transposition order. A partner of a
    moved-down player that leaves a remainder unable to make its pairs (`can_pair`) is passed over;
    a remainder that can make them, but not within the bounds without an exchange, ends the search
    (the exchange still comes before any later partner in D order).

    The search looks ahead: a partial pairing is dropped as soon as what it has spent on C12 and
    C13, plus the least the players still to pair must spend (ColourCount), exceeds the bound, or
    when too few players who may float are left to float."""
    mdp, residents = list(players[:moved_down]), list(players[moved_down:])
    floaters = len(players) - 2 * npairs
    tiers = list(bounds)
    limit = [bounds[t] for t in tiers]
    i12, i13 = tiers.index(C12), tiers.index(C13)
    left = ColourCount(players)  # the players not paired yet
    taken = [False] * len(residents)
    chosen: list[tuple[PState, PState]] = []
    steps = BUDGET_PER_PLAYER * len(players)

    def fits(a: PState, b: PState, spent: list[int]) -> list[int] | None:
        if not compatible(a.id, b.id):
            return None
        q = inner(a, b)
        now = [s - q[t] for s, t in zip(spent, tiers, strict=True)]
        if any(s > m for s, m in zip(now, limit, strict=True)):
            return None
        left.change(a, -1)
        left.change(b, -1)
        lb12, lb13 = left.bounds(floaters)
        if now[i12] + lb12 > limit[i12] or now[i13] + lb13 > limit[i13]:
            left.change(a, 1)
            left.change(b, 1)
            return None
        return now

    def undo(a: PState, b: PState) -> None:
        left.change(a, 1)
        left.change(b, 1)
        chosen.pop()

    def place_mdp(i: int, spent: list[int]) -> bool:
        nonlocal steps
        if steps < 0:
            return False
        if i == len(mdp):
            rest = [p for k, p in enumerate(residents) if not taken[k]]
            s1, s2 = rest[: npairs - len(mdp)], rest[npairs - len(mdp) :]
            may_float = sum(1 for p in s2 if floater_ok(p))
            if may_float >= floaters and transpose(s1, s2, [False] * len(s2), 0, spent, may_float):
                return True
            if mdp and steps >= 0 and not can_pair(rest, len(s1)):
                return False  # this partner leaves a remainder without its pairs: try the next
            steps = -1
            return False
        for k, r in enumerate(residents):
            steps -= 1
            if steps < 0:
                return False
            if taken[k]:
                continue
            got = fits(mdp[i], r, spent)
            if got is None:
                continue
            taken[k] = True
            chosen.append((mdp[i], r))
            if place_mdp(i + 1, got):
                return True
            taken[k] = False
            undo(mdp[i], r)
        return False

    def transpose(
        s1: list[PState], s2: list[PState], used: list[bool], i: int, spent: list[int], may_float: int
    ) -> bool:
        nonlocal steps
        if i == len(s1):
            return True  # the players left in S2 float, and enough of them may
        for j, b in enumerate(s2):
            steps -= 1
            if steps < 0:
                return False
            if used[j]:
                continue
            still = may_float - floater_ok(b)
            if still < floaters:
                continue
            got = fits(s1[i], b, spent)
            if got is None:
                continue
            used[j] = True
            chosen.append((s1[i], b))
            if transpose(s1, s2, used, i + 1, got, still):
                return True
            used[j] = False
            undo(s1[i], b)
        return False

    found = place_mdp(0, [0] * len(tiers))
    return chosen if found and steps >= 0 else None
