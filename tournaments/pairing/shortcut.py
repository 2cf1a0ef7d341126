"""The first pairing of a bracket in the order of C.04.3 D, when it is provably the best.

A bracket's matching weighs the quality criteria first and the D order last. When a pairing reaches,
on every quality criterion, a value no pairing can beat (a lower bound on the criterion's count),
the matching can only choose between such pairings, and the D order then picks the first of them in
the sequence D generates. This module finds that first pairing without a matching:

- the moved-down players take their partners in D.3's order; then, for the remainder, S1 as it is
  and then with one and two exchanges (D.2's order), the transpositions of S2 in lexicographic
  order (D.1); a depth-first search stops at the first pairing meeting every bound;
- it gives up (None: the caller runs the matching) when no such pairing is found with at most two
  exchanges, or within a budget of steps. The bounds may simply not be reachable; then the
  matching decides, as before.

first_if_best says where this is exact: which criteria can differ between the pairings it compares,
and which must be shown not to (completion, the next bracket, the bye assignee's games).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence

from tournaments.pairing.compat import completable, floater_meets_c8_bound, max_pairs
from tournaments.pairing.state import STRONG, UP, PState
from tournaments.pairing.tiers import Bracket, QualityCache, c9_played, unpaired_float_costs

# Positions in the quality tiers of a pair (tiers.inner_tiers), each a violation count <= 0:
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


MAX_EXCHANGES = 2
MAX_CANDIDATES = 400  # S1' tried per number of exchanges, at most


def exchanges(ids: Sequence[PState], k: int) -> Iterator[tuple[list[PState], list[PState]]]:
    """S1' and its complement, in D.2's order: no exchange, then one, then two. Among exchanges of
    as many players, the smallest difference of BSN sums first, then the lowest S1 players out
    and the highest S2 players in (the order of order.HomogeneousOrder's exchange tiers)."""
    n = len(ids)
    yield list(ids[:k]), list(ids[k:])
    for x in range(1, MAX_EXCHANGES + 1):
        if x > min(k, n - k) or math.comb(k, x) * math.comb(n - k, x) > MAX_CANDIDATES:
            return
        found = []
        for out in itertools.combinations(range(k), x):
            for inn in itertools.combinations(range(k, n), x):
                key = (sum(inn) - sum(out), -sum(1 << o for o in out), -sum(1 << (n - 1 - i) for i in inn))
                found.append((key, out, inn))
        found.sort()
        for _, out, inn in found:
            higher = (set(range(k)) - set(out)) | set(inn)
            yield [ids[i] for i in range(n) if i in higher], [ids[i] for i in range(n) if i not in higher]


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
    there is none with at most MAX_EXCHANGES exchanges, or the budget runs out first.

    `players` is the bracket in its order, its first `moved_down` players the moved-down ones. D.3:
    each of them, the highest first, takes the first resident it can; then D.2 and D.1 on the
    remainder: S1' (its first npairs - moved_down players, then exchanges) against the rest in the
    transposition order. A partner of a moved-down player that leaves a remainder unable to make
    its pairs (`can_pair`) is passed over; a remainder that can make them, but not within the
    bounds and the exchanges tried, ends the search (more exchanges still come before any later
    partner in D order).

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
    pos: dict[int, int] = {}  # position in the remainder (the homogeneous part)
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
            pos.clear()
            pos.update((p.id, k) for k, p in enumerate(rest))
            for s1, s2 in exchanges(rest, npairs - len(mdp)):
                may_float = sum(1 for p in s2 if floater_ok(p))
                if may_float >= floaters and transpose(s1, s2, [False] * len(s2), 0, spent, may_float):
                    return True
                if steps < 0:
                    return False
            if mdp and not can_pair(rest, npairs - len(mdp)):
                return False  # this partner leaves a remainder without its pairs: try the next
            steps = -1  # more exchanges would still come before a later partner: give up
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
            if used[j] or pos[b.id] < pos[s1[i].id]:
                continue  # (with an exchange, a pair's higher player must be the one from S1')
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


def first_if_best(
    br: Bracket,
    with_next: list[PState],
    extra: list[PState],
    odd: bool,
    completion: bool,
    quality: QualityCache,
    npairs: int,
) -> list[tuple[PState, PState]] | None:
    """The bracket's pairs without a matching, when the first pairing in D order that reaches a
    lower bound on every quality criterion (first_best_pairing) is provably what the matching
    would choose.

    Where no two moved-down players can meet, a pairing with the most pairs (npairs: C6) that
    pairs every moved-down player with a resident has the best PSD (C7): an unpaired moved-down
    player costs a larger score difference than any it saves. All such pairings have the same C7
    and the same downfloat counts (C14, C16, C18, C20 count the moved-down players and the
    floaters, the same players whoever partners them); what can differ is the colours (C10-C13),
    the upfloats of the partners (C15, C17, C19, C21) and, with a floater, who floats (C8, C9,
    C14-C21). The shortcut is taken only where the floater cannot change the outcome either:
    - every player is paired (the next bracket and the rest of the round then face the same
      players whatever the bracket's pairs), the rest of the round completable (C4) when the
      graph holds it; or
    - one resident floats who had no downfloat in the last two rounds, and C8 and C4 are at
      their best with him (floater_meets_c8_bound), or the next bracket is not weighed (the
      caller found C8 cannot tell the floaters apart); in the last bracket of an odd round he
      is one who may have the PAB, with the most played games among them (C9)."""
    n, compat = len(br.players), quality.compat
    movers = [p for p in br.players if p.id in br.mdp]
    if br.players[: len(movers)] != movers or len(movers) > npairs:
        return None
    if any(compat(a.id, b.id) for i, a in enumerate(movers) for b in movers[i + 1 :]):
        return None
    last_pab = odd and completion and not extra  # the floater of this bracket gets the PAB
    if 2 * npairs == n:
        if completion and not completable(extra, odd, compat):
            return None
    elif 2 * npairs + 1 != n or (extra and not with_next) or (br.c9 and not last_pab):
        return None
    bounds = dict.fromkeys((C10, C11), 0)
    bounds[C12], bounds[C13] = colour_bounds(br.players, n - 2 * npairs)
    residents = br.players[len(movers) :]
    bounds.update(upfloat_bounds([br.cost(p.score - br.resident_score) for p in movers], residents))
    most_played = max((c9_played(br, compat, p) for p in br.players if p.id in compat.bye_pool), default=0)
    # C14, C16, C18, C20 of the floater: no resident can float for less, tier by tier
    least = [min(c) for c in zip(*(unpaired_float_costs(br, p) for p in residents), strict=True)]

    def floater_ok(p: PState) -> bool:
        if list(unpaired_float_costs(br, p)) != least:
            return False
        return not last_pab or (p.id in compat.bye_pool and c9_played(br, compat, p) == most_played)

    def can_pair(rest: list[PState], k: int) -> bool:
        return max_pairs([p.id for p in rest], compat) >= k

    got = first_best_pairing(br.players, len(movers), npairs, compat, quality.inner, floater_ok, bounds, can_pair)
    if got is None or 2 * npairs == n or not with_next:
        return got
    paired = {p.id for pr in got for p in pr}
    floater = next(p for p in br.players if p.id not in paired)
    return got if floater_meets_c8_bound(floater, with_next, extra, odd, compat) else None
