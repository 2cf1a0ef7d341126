"""The FIDE Dutch system (C.04.3) by maximum weight matching, bracket by bracket.

Each bracket is paired by one matching whose integer edge weights stack the criteria
lexicographically (a tier only matters when every tier above it ties), the way bbpPairings does it:

  C4 completion > C6 pairs > C7 PSD > C8 next bracket > C10..C13 colours > C14..C21 floats
  > the order of C.04.3 D (order.py) as the last word,
with the PAB assignee's played games (C9 of the 2025 text, the PAB preferably to a player with fewer
unplayed games) right after C8, in the brackets its note names only. Numbers are the 2025 text's
(C5 PAB score, C6 pairs, C7 PSD, C8 next bracket, C9 PAB's unplayed games, C10-C13 colours,
C14-C21 floats); C5 is settled before the brackets (_lowest_bye_pool).

Criteria that count unpaired players (floaters) are moved onto the edges: for a quantity f summed over
the bracket's unpaired players, sum_unpaired f = sum_all f - sum_pairs (f(u) + f(v)), so each edge
carries f(u) + f(v) minus whatever the pair itself costs.

The D order needs to know how many pairs the bracket makes and, in a heterogeneous bracket, which
residents the moved-down players take; a greedy pass or a first matching tells the former, and
the remainder's order rides along on a presumption checked afterwards (else it gets its own
matching). Lower brackets are left out of large rounds (only C8 looks at the next one, and only
when it can tell the floaters apart); when what is left cannot be completed, the bracket is
paired again with every remaining player in the graph (C4).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from tournaments.pairing.colours import allocate, compatible_colours, facts
from tournaments.pairing.matching import greedy_perfect, has_perfect_matching, max_weight_matching
from tournaments.pairing.model import Colour, PairingRequest
from tournaments.pairing.order import N_ORDER, Combined, HomogeneousOrder, MdpOrder, homogeneous
from tournaments.pairing.shortcut import C10, C11, C12, C13, colour_bounds, first_best_pairing, upfloat_bounds
from tournaments.pairing.state import ABSOLUTE, DOWN, UP, PState

BYE = "BYE"
# Up to this many players left, a bracket is paired in a graph holding all of them (exact C4 and C8);
# above it, lower brackets join only when the rest of the round cannot be completed.
FULL_GRAPH_LIMIT = 64

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


def pair_brackets(
    req: PairingRequest, states: dict[int, PState], active: list[PState]
) -> tuple[list[tuple[PState, PState]], PState | None, list[PState], list[dict[str, object]]]:
    """Pairs, bye, players left unpaired, one report dict per bracket."""
    compat = Compat(states, req.forbidden_pairs, req.initial_colour)
    remaining = sorted(active, key=lambda p: p.rank)
    odd = len(remaining) % 2 == 1
    if odd:
        compat.bye_pool = _lowest_bye_pool(remaining, compat)
        compat.bye_score = max((compat.states[i].score for i in compat.bye_pool), default=None)
    pairs: list[tuple[PState, PState]] = []
    reports: list[dict[str, object]] = []
    movers: list[PState] = []
    scores = sorted({p.score for p in remaining}, reverse=True)
    for gi, score in enumerate(scores):
        mover_ids = {p.id for p in movers}
        residents = [p for p in remaining if p.score == score and p.id not in mover_ids]
        bracket_players = movers + residents
        below = [p for p in remaining if p.score < score]
        nxt = [p for p in below if p.score == scores[gi + 1]] if gi + 1 < len(scores) else []
        br = Bracket(bracket_players, score, req.points.win, req.initial_colour)
        br.c9 = odd and _single_downfloater_gets_bye(score, below, compat)
        got, completion = _pair_bracket(br, nxt, below, odd, compat, req)
        paired_ids = {p.id for pr in got for p in pr}
        movers = [p for p in bracket_players if p.id not in paired_ids]
        pairs.extend(got)
        reports.append({"bracket": br, "pairs": got, "floaters": list(movers), "completion": completion})
        remaining = below + movers
        remaining.sort(key=lambda p: p.rank)
    bye: PState | None = None
    left = movers
    if odd and left:
        eligible = [p for p in left if p.id in compat.bye_pool] or [p for p in left if p.bye_ok]
        if eligible:
            bye = eligible[-1]
            left = [p for p in left if p is not bye]
    return pairs, bye, left, reports


def _pair_bracket(
    br: Bracket,
    nxt: list[PState],
    below: list[PState],
    odd: bool,
    compat: Compat,
    req: PairingRequest,
) -> tuple[list[tuple[PState, PState]], bool]:
    if not below:
        return _solve(br, [], below, odd, compat, req, completion=True), False
    if len(br.players) + len(below) <= FULL_GRAPH_LIMIT:
        # small enough to weigh C8 against what the whole rest of the round can do, as bbpPairings does
        return _solve(br, nxt, below, odd, compat, req, completion=True), False
    got = _solve(br, nxt, below, odd, compat, req, completion=False)
    rest = below + [p for p in br.players if p.id not in {x.id for pr in got for x in pr}]
    if _completable(rest, odd, compat):
        return got, False
    return _solve(br, nxt, below, odd, compat, req, completion=True), True


def _completable(rest: list[PState], odd: bool, compat: Compat) -> bool:
    ids = [p.id for p in sorted(rest, key=lambda p: p.rank)]
    bye_ok = {i for i in ids if i in compat.bye_pool} if odd else None
    if odd and not bye_ok:
        return False
    return _pairable(ids, compat, bye_ok)


def _pairable(ids: list[int], compat: Compat, sit_out: set[int] | None) -> bool:
    """Whether the players (in rank order) can all be paired, one of `sit_out` left out when given."""
    if _greedy_pairs(ids, compat, sit_out):
        return True
    return has_perfect_matching(ids, compat.adjacency(ids), sit_out)


def _greedy_pairs(ids: list[int], compat: Compat, bye_ok: set[int] | None) -> bool:
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


def _single_downfloater_gets_bye(score: int, below: list[PState], compat: Compat) -> bool:
    """Whether C9 (2025 text: minimise the unplayed games of the PAB assignee) applies to the bracket.
    Its note restricts it to "brackets that downfloat exactly one player, who will end up receiving
    the pairing-allocated bye": the PAB is to come out of this scoregroup (C5) and everyone below can
    be paired among themselves, so the one player the bracket leaves unpaired is the assignee."""
    if compat.bye_score is None or score > compat.bye_score:
        return False
    return not below or (len(below) % 2 == 0 and _completable(below, False, compat))


def _lowest_bye_pool(players: list[PState], compat: Compat) -> set[int]:
    """C4 with an odd number of players: the bye goes to the lowest score that still lets everyone
    else be paired (as bbpPairings settles the bye assignee's score before pairing the brackets)."""
    eligible = [p for p in players if p.bye_ok]
    for score in sorted({p.score for p in eligible}):
        compat.bye_pool = {p.id for p in eligible if p.score <= score}
        if _completable(players, True, compat):
            return compat.bye_pool
    return {p.id for p in eligible}


def _solve(
    br: Bracket,
    nxt: list[PState],
    below: list[PState],
    odd: bool,
    compat: Compat,
    req: PairingRequest,
    completion: bool,
) -> list[tuple[PState, PState]]:
    """The bracket's pairs: up to three matchings, each refining the previous one's free choices."""
    quality = _QualityCache(br, compat, req)
    extra = below if completion else []
    inb = {p.id for p in br.players}
    # 1. how many pairs the bracket can make at best (C6 alone: a maximum cardinality matching)
    ids = [p.id for p in br.players]
    npairs = _max_pairs(ids, compat)
    with_next = nxt if (completion or npairs * 2 < len(br.players)) else []
    if with_next and not completion and _c7_indifferent(br, nxt, npairs, compat):
        got = _solve_rest(br, [], extra, odd, completion, quality, npairs, ids, inb)
        floaters = inb - {p.id for pr in got for p in pr}
        if len(floaters) == 1 and not floaters & br.mdp:
            return got
    return _solve_rest(br, with_next, extra, odd, completion, quality, npairs, ids, inb)


def _max_pairs(ids: list[int], compat: Compat) -> int:
    """The most pairs the players can make among themselves: all but one when a greedy pass or
    the Karp-Sipser pass manages it, else a maximum cardinality matching."""
    odd = set(ids) if len(ids) % 2 else None
    if _greedy_pairs(ids, compat, odd):
        return len(ids) // 2
    can = compat.adjacency(ids)
    if greedy_perfect(ids, can, odd):
        return len(ids) // 2
    edges = [(a, b, 1) for i, a in enumerate(ids) for b in ids[i + 1 :] if b in can[a]]
    return len(max_weight_matching(edges)) // 2


def _c7_indifferent(br: Bracket, nxt: list[PState], npairs: int, compat: Compat) -> bool:
    """True when C8 cannot tell the bracket's possible floaters apart: one resident floats, and
    whichever it is, the next bracket still pairs it and all but at most one of its own players
    (a greedy pass shows it). The next bracket then stays out of the graph, which halves it."""
    if len(br.players) - 2 * npairs != 1:
        return False
    others = [p.id for p in nxt]
    for d in (p.id for p in br.players if p.id not in br.mdp):
        partner = next((n for n in others if compat(d, n)), None)
        if partner is None:
            return False
        rest = [n for n in others if n != partner]
        if not _greedy_pairs(rest, compat, set(rest) if len(rest) % 2 else None):
            return False
    return True


def _solve_rest(
    br: Bracket,
    with_next: list[PState],
    extra: list[PState],
    odd: bool,
    completion: bool,
    quality: _QualityCache,
    npairs: int,
    ids: list[int],
    inb: set[int],
) -> list[tuple[PState, PState]]:
    if npairs == 0:
        return []  # nothing to choose: no two players of the bracket can meet
    first = _first_if_best(br, with_next, extra, odd, completion, quality, npairs)
    if first is not None:
        return first
    if not br.mdp:

        def whole(order: HomogeneousOrder) -> dict[Hashable, Hashable]:
            return _match(br, br.players, with_next, extra, odd and completion, quality, order)

        got = _bracket_pairs(br, homogeneous(ids, npairs, whole))
        if len(got) == npairs or not completion:
            return got
        # completing the round costs the bracket pairs: S1 shrinks accordingly
        mates = _match(br, br.players, with_next, extra, odd and completion, quality, None)
        return _bracket_pairs(br, homogeneous(ids, len(_bracket_pairs(br, mates)), whole))
    mdp_order = MdpOrder([p.id for p in br.players], br.mdp)
    # Presume every moved-down player takes one of the top residents and the rest pair off: the
    # remainder's order can then ride along in the same matching, exact whenever the result
    # bears the presumption out (checked below); otherwise the remainder gets its own matching.
    residents = [p.id for p in br.players if p.id not in br.mdp]
    guess_rest = residents[len(br.mdp) :]
    guess_pairs = min(len(guess_rest) // 2, npairs - len(br.mdp))
    guess_s1 = set(guess_rest[:guess_pairs])
    combined = Combined(mdp_order, HomogeneousOrder(guess_rest, guess_pairs, s1prime=guess_s1))
    mates = _match(br, br.players, with_next, extra, odd and completion, quality, combined)
    bpairs = _bracket_pairs(br, mates)
    fixed = [pr for pr in bpairs if pr[0].id in br.mdp or pr[1].id in br.mdp]
    fixed_ids = {p.id for pr in fixed for p in pr}
    remainder = [p for p in br.players if p.id not in br.mdp and p.id not in fixed_ids]
    if [p.id for p in remainder] == guess_rest and len(fixed) == len(br.mdp):
        rr = [pr for pr in bpairs if pr not in fixed]
        if len(rr) == guess_pairs and {a.id for a, _ in rr} == guess_s1:
            return bpairs
    if len(remainder) < 2:
        return fixed
    unpaired_mdp = [p for p in br.players if p.id in br.mdp and p.id not in fixed_ids]
    r_pairs = len(bpairs) - len(fixed)
    players = unpaired_mdp + remainder
    blocked = {(a.id, b.id) for a in unpaired_mdp for b in remainder}

    def rest(order: HomogeneousOrder) -> dict[Hashable, Hashable]:
        return _match(br, players, with_next, extra, odd and completion, quality, order, blocked=blocked, inb=inb)

    mates = homogeneous([p.id for p in remainder], r_pairs, rest)
    return fixed + _bracket_pairs(br, mates)


def _first_if_best(
    br: Bracket,
    with_next: list[PState],
    extra: list[PState],
    odd: bool,
    completion: bool,
    quality: _QualityCache,
    npairs: int,
) -> list[tuple[PState, PState]] | None:
    """The bracket's pairs without a matching, when the first pairing in D order that reaches a
    lower bound on every quality criterion (shortcut.py) is provably what the matching would choose.

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
      their best with him (_floater_meets_c8_bound), or the next bracket is not weighed (the
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
        if completion and not _completable(extra, odd, compat):
            return None
    elif 2 * npairs + 1 != n or (extra and not with_next) or (br.c9 and not last_pab):
        return None
    bounds = dict.fromkeys((C10, C11), 0)
    bounds[C12], bounds[C13] = colour_bounds(br.players, n - 2 * npairs)
    residents = br.players[len(movers) :]
    bounds.update(upfloat_bounds([br.cost(p.score - br.resident_score) for p in movers], residents))
    most_played = max((_c9_played(br, compat, p) for p in br.players if p.id in compat.bye_pool), default=0)
    # C14, C16, C18, C20 of the floater: no resident can float for less, tier by tier
    least = [min(c) for c in zip(*(_unpaired_float_costs(br, p) for p in residents), strict=True)]

    def floater_ok(p: PState) -> bool:
        if list(_unpaired_float_costs(br, p)) != least:
            return False
        return not last_pab or (p.id in compat.bye_pool and _c9_played(br, compat, p) == most_played)

    def can_pair(rest: list[PState], k: int) -> bool:
        return _max_pairs([p.id for p in rest], compat) >= k

    got = first_best_pairing(br.players, len(movers), npairs, compat, quality.inner, floater_ok, bounds, can_pair)
    if got is None or 2 * npairs == n or not with_next:
        return got
    paired = {p.id for pr in got for p in pr}
    floater = next(p for p in br.players if p.id not in paired)
    return got if _floater_meets_c8_bound(floater, with_next, extra, odd, compat) else None


def _floater_meets_c8_bound(f: PState, nxt: list[PState], extra: list[PState], odd: bool, compat: Compat) -> bool:
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
        return _pairable([f.id, *ids], compat, set(ids) if len(ids) % 2 == 0 else None)
    outer = [p for p in extra if p.id not in set(ids)]
    if len(ids) % 2:
        return _pairable([f.id, *ids], compat, None) and _completable(outer, odd, compat)
    for sitter in list(reversed(nxt))[:3]:  # a few tries, the lowest first; else the matching decides
        others = [i for i in ids if i != sitter.id]
        if _pairable([f.id, *others], compat, None) and _completable([*outer, sitter], odd, compat):
            return True
    return False


def _bracket_pairs(br: Bracket, mates: dict[Hashable, Hashable]) -> list[tuple[PState, PState]]:
    by_id = {p.id: p for p in br.players}
    out = []
    for p in br.players:
        m = mates.get(p.id)
        if isinstance(m, int) and m in by_id and br.pos[p.id] < br.pos[m]:
            out.append((p, by_id[m]))
    return out


class _QualityCache:
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
            got = self.cache[key] = _inner_tiers(self.br, a, b)
        return got


def _unpaired_float_costs(br: Bracket, p: PState) -> tuple[int, int, int, int]:
    """(C14, C16, C18, C20) a player pays when left unpaired, i.e. floating down."""
    c = br.cost(br.float_sd(p))
    return (
        int(p.float1 == DOWN),
        int(p.float2 == DOWN),
        c if p.float1 == DOWN else 0,
        c if p.float2 == DOWN else 0,
    )


def _inner_tiers(br: Bracket, a: PState, b: PState) -> list[int]:
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
    ua, ub = _unpaired_float_costs(br, a), _unpaired_float_costs(br, b)
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


def _match(
    br: Bracket,
    players: list[PState],
    nxt: list[PState],
    extra: list[PState],
    with_bye: bool,
    quality: _QualityCache,
    order: HomogeneousOrder | MdpOrder | Combined | None,
    blocked: set[tuple[int, int]] | None = None,
    inb: set[int] | None = None,
) -> dict[Hashable, Hashable]:
    """One matching over the bracket (plus the next bracket for C8, plus everyone for C4)."""
    compat = quality.compat
    inb = inb if inb is not None else {p.id for p in br.players}
    completion = bool(extra) or with_bye
    nxt_ids = {p.id for p in nxt}
    nxt_score = nxt[0].score if nxt else 0
    core: list[PState] = list(players) + [p for p in nxt if p.id not in inb]
    seen = {p.id for p in core}
    outer = [p for p in extra if p.id not in seen]
    # tiers: [C4] + C6, C7 + [C8 pairs, C8 PSD] + [C9 PAB's played games] + C10..C21 + D order
    rows: list[tuple[Hashable, Hashable, list[int]]] = []
    nxt_br = (
        Bracket([p for p in br.players] + [p for p in nxt if p.id not in inb], nxt_score, br.win, br.initial)
        if nxt
        else None
    )
    zero_q = [0] * N_QUALITY
    zero_o = [0] * N_ORDER
    c4 = [1 if completion else 0]
    for i, a in enumerate(core):
        for b in core[i + 1 :]:
            if not compat(a.id, b.id):
                continue
            if blocked and ((a.id, b.id) in blocked or (b.id, a.id) in blocked):
                continue
            a_in, b_in = a.id in inb, b.id in inb
            if a_in and b_in:
                q = quality.inner(a, b)
                c7 = [0, _next_psd_in(nxt_br, a) + _next_psd_in(nxt_br, b)] if nxt_br else [0, 0]
                o = order.tiers(a.id, b.id) if order else zero_o
            elif (
                nxt_br
                and (a.id in nxt_ids or b.id in nxt_ids)
                and (a_in or a.id in nxt_ids)
                and (b_in or b.id in nxt_ids)
            ):
                q, o = zero_q, zero_o
                sd = abs(a.score - b.score)
                c7 = [1, _next_psd_in(nxt_br, a) + _next_psd_in(nxt_br, b) - nxt_br.cost(sd)]
            elif completion:
                q, o, c7 = zero_q, zero_o, [0, 0]
            else:
                continue
            # C9 without a bye vertex: the pairs take the players with the fewest played games,
            # leaving the one with the most to float down to the PAB
            c9 = -(_c9_played(br, compat, a) + _c9_played(br, compat, b)) if br.c9 and not with_bye else 0
            rows.append((a.id, b.id, c4 + q[:2] + c7 + [c9] + q[2:] + o))
    bye_rows: list[tuple[Hashable, Hashable, list[int]]] = []
    if with_bye:
        for p in core + outer:
            if p.id in compat.bye_pool:
                played = _c9_played(br, compat, p) if p.id in inb else 0
                bye_rows.append((p.id, BYE, [1, 0, 0, 0, 0, played] + [0] * (N_QUALITY - 2 + N_ORDER)))
    if outer:
        got = _core_then_complete(core, outer, rows, bye_rows, with_bye, compat)
        if got is not None:
            return got
        # the whole rest of the round in the graph: every edge to it weighs C4 alone
        graph = core + outer
        one = c4 + [0] * (N_QUALITY + 2 + 1 + N_ORDER)
        for i, a in enumerate(graph):
            for b in graph[max(i + 1, len(core)) :]:
                if compat(a.id, b.id):
                    rows.append((a.id, b.id, one))
    else:
        graph = core
    return max_weight_matching(_combine(rows + bye_rows, len(graph) // 2 + 1))


def _core_then_complete(
    core: list[PState],
    outer: list[PState],
    rows: list[tuple[Hashable, Hashable, list[int]]],
    bye_rows: list[tuple[Hashable, Hashable, list[int]]],
    with_bye: bool,
    compat: Compat,
) -> dict[Hashable, Hashable] | None:
    """The full graph's answer from a matching of its core (the bracket and the next bracket), when
    the rest of the round can be completed around it; None when that is not shown.

    Every edge touching `outer` (the players below the next bracket) weighs C4 alone, as does a bye
    edge of weight zero on the lower tiers. Let M be a best matching of the core on the tiers below
    C4, and suppose the players M leaves unmatched, with `outer` (and the bye if M did not take it),
    can be paired using only such C4-alone edges (none between two players left by M). Then M plus
    that pairing is complete (the best C4) and no complete matching does better on the lower tiers,
    since its core part is a matching of the core: so it is a best matching of the full graph. Its
    bracket pairs are those of every best matching: the D order tiers tell any two bracket pairings
    apart (and the callers that pass no order only count pairs, which all best matchings share)."""
    core_rows = [(a, b, t[1:]) for a, b, t in rows]
    core_rows += [(a, b, t[1:]) for a, b, t in bye_rows if any(t[1:])]
    n_core = len(core) + (1 if with_bye else 0)
    mates = max_weight_matching(_combine(core_rows, n_core // 2 + 1))
    left = {p.id for p in core if p.id not in mates}
    zero_bye = {a for a, _, t in bye_rows if not any(t[1:])}
    bye_ok = None
    if with_bye and BYE not in mates:
        bye_ok = {p.id for p in core + outer if p.id in zero_bye and p.id not in mates}
    if bye_ok is not None and not bye_ok:
        return None
    ids = [p.id for p in sorted([p for p in core if p.id in left] + outer, key=lambda p: p.rank)]
    can = compat.adjacency(ids)
    for a in left:
        can[a] -= left
    return mates if has_perfect_matching(ids, can, bye_ok) else None


def _c9_played(br: Bracket, compat: Compat, p: PState) -> int:
    """C9: the games a possible PAB assignee has played (the more, the fewer unplayed), counted as
    bbpPairings counts them: only where C9 applies, and only for players at the PAB's score."""
    return p.played if br.c9 and p.score == compat.bye_score and p.id in compat.bye_pool else 0


def _next_psd_in(nxt_br: Bracket | None, p: PState) -> int:
    """C8: what a player costs the next bracket's PSD when unpaired there."""
    if nxt_br is None:
        return 0
    return nxt_br.cost(nxt_br.float_sd(p)) if nxt_br.float_sd(p) in nxt_br.sd_rank else 0


def _combine(rows: list[tuple[Hashable, Hashable, list[int]]], max_pairs: int) -> list[tuple[Hashable, Hashable, int]]:
    """Stack the tiers into one integer per edge, each tier weighing more than all below it together."""
    if not rows:
        return []
    columns = list(zip(*(r[2] for r in rows), strict=True))
    ntier = len(columns)
    scales = [1] * ntier
    for t in range(ntier - 2, -1, -1):
        col = columns[t + 1]
        bound = max(max(col), -min(col)) * max_pairs
        # any two matchings differ by less than 2 * (bound + 1) units of the tier below
        scales[t] = scales[t + 1] * (2 * bound + 3)
    return [(a, b, sum(v * s for v, s in zip(tiers, scales, strict=True) if v)) for a, b, tiers in rows]
