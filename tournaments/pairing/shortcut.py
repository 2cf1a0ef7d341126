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

from tournaments.pairing.state import STRONG, PState

# Positions in the quality tiers of a pair (dutch._inner_tiers): each counts violations as <= 0.
C10, C11, C12, C13 = 2, 3, 4, 5
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


def first_best_pairing(
    players: Sequence[PState],
    moved_down: int,
    npairs: int,
    compatible: Callable[[int, int], bool],
    inner: Callable[[PState, PState], list[int]],
    floater_ok: Callable[[PState], bool],
    partner_ok: Callable[[PState], bool],
) -> list[tuple[PState, PState]] | None:
    """The first pairing in D order that keeps the absolute criteria (`compatible`), no colour
    criterion beyond its bound (C10 and C11 none at all) and only floaters for whom `floater_ok`;
    None when there is none without exchanges, or the budget runs out first.

    `players` is the bracket in its order, its first `moved_down` players the moved-down ones. D.3:
    each of them, the highest first, takes the first resident it can (a resident for whom
    `partner_ok`); then D.1 on the remainder: S1 its first npairs - moved_down players, against S2
    in the transposition order."""
    mdp, residents = list(players[:moved_down]), list(players[moved_down:])
    lb12, lb13 = colour_bounds(players, len(players) - 2 * npairs)
    taken = [False] * len(residents)
    chosen: list[tuple[PState, PState]] = []
    steps = BUDGET_PER_PLAYER * len(players)

    def fits(a: PState, b: PState, c12: int, c13: int) -> tuple[int, int] | None:
        if not compatible(a.id, b.id):
            return None
        q = inner(a, b)
        if q[C10] or q[C11]:
            return None
        n12, n13 = c12 - q[C12], c13 - q[C13]
        return None if n12 > lb12 or n13 > lb13 else (n12, n13)

    def place_mdp(i: int, c12: int, c13: int) -> bool:
        nonlocal steps
        if steps < 0:
            return False
        if i == len(mdp):
            rest = [p for k, p in enumerate(residents) if not taken[k]]
            s1, s2 = rest[: npairs - len(mdp)], rest[npairs - len(mdp) :]
            if not transpose(s1, s2, [False] * len(s2), 0, c12, c13):
                # the remainder may need an exchange, which still comes before any later partner
                # of a moved-down player in D order: only the matching can tell
                steps = -1
                return False
            return True
        for k, r in enumerate(residents):
            steps -= 1
            if steps < 0:
                return False
            if taken[k] or not partner_ok(r):
                continue
            got = fits(mdp[i], r, c12, c13)
            if got is None:
                continue
            taken[k] = True
            chosen.append((mdp[i], r))
            if place_mdp(i + 1, *got):
                return True
            taken[k] = False
            chosen.pop()
        return False

    def transpose(s1: list[PState], s2: list[PState], used: list[bool], i: int, c12: int, c13: int) -> bool:
        nonlocal steps
        if i == len(s1):
            return all(used[j] or floater_ok(p) for j, p in enumerate(s2))
        for j, b in enumerate(s2):
            steps -= 1
            if steps < 0:
                return False
            if used[j]:
                continue
            got = fits(s1[i], b, c12, c13)
            if got is None:
                continue
            used[j] = True
            chosen.append((s1[i], b))
            if transpose(s1, s2, used, i + 1, *got):
                return True
            used[j] = False
            chosen.pop()
        return False

    found = place_mdp(0, 0, 0)
    return chosen if found and steps >= 0 else None
