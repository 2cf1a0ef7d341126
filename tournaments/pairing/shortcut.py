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


def colour_bounds(players: Sequence[PState], unpaired: int) -> tuple[int, int]:
    """Lower bounds on C12 (preferences not met) and C13 (strong preferences not met) over every
    pairing of `players` that leaves `unpaired` of them out.

    Two players preferring the same colour cannot both have it: one of them misses it (C12), and
    if both preferences are strong or absolute, a strong one is missed (C13). A player preferring
    white can avoid that only against a player preferring black or with no preference (for C13:
    or with a mild preference for white). So at least (W - B - Z - unpaired) / 2 pairs of white
    seekers meet, and likewise for black."""
    lb12 = lb13 = 0
    by = {"w": [p for p in players if p.pref == "w"], "b": [p for p in players if p.pref == "b"]}
    none = sum(1 for p in players if p.pref is None)
    for mine, theirs in (("w", "b"), ("b", "w")):
        same, other = by[mine], len(by[theirs])
        lb12 += max(0, -(-(len(same) - other - none - unpaired) // 2))
        strong = sum(1 for p in same if p.strength >= STRONG)
        lb13 += max(0, -(-(strong - other - none - (len(same) - strong) - unpaired) // 2))
    return lb12, lb13


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
    (the exchange still comes before any later partner in D order)."""
    mdp, residents = list(players[:moved_down]), list(players[moved_down:])
    tiers = list(bounds)
    limit = [bounds[t] for t in tiers]
    taken = [False] * len(residents)
    chosen: list[tuple[PState, PState]] = []
    steps = BUDGET_PER_PLAYER * len(players)

    def fits(a: PState, b: PState, spent: list[int]) -> list[int] | None:
        if not compatible(a.id, b.id):
            return None
        q = inner(a, b)
        now = [s - q[t] for s, t in zip(spent, tiers, strict=True)]
        return None if any(s > m for s, m in zip(now, limit, strict=True)) else now

    def place_mdp(i: int, spent: list[int]) -> bool:
        nonlocal steps
        if steps < 0:
            return False
        if i == len(mdp):
            rest = [p for k, p in enumerate(residents) if not taken[k]]
            s1, s2 = rest[: npairs - len(mdp)], rest[npairs - len(mdp) :]
            if transpose(s1, s2, [False] * len(s2), 0, spent):
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
            chosen.pop()
        return False

    def transpose(s1: list[PState], s2: list[PState], used: list[bool], i: int, spent: list[int]) -> bool:
        nonlocal steps
        if i == len(s1):
            return all(used[j] or floater_ok(p) for j, p in enumerate(s2))
        for j, b in enumerate(s2):
            steps -= 1
            if steps < 0:
                return False
            if used[j]:
                continue
            got = fits(s1[i], b, spent)
            if got is None:
                continue
            used[j] = True
            chosen.append((s1[i], b))
            if transpose(s1, s2, used, i + 1, got):
                return True
            used[j] = False
            chosen.pop()
        return False

    found = place_mdp(0, [0] * len(tiers))
    return chosen if found and steps >= 0 else None
