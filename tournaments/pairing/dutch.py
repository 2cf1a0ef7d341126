"""The FIDE Dutch system (C.04.3) by maximum weight matching, bracket by bracket.

Each bracket is paired by one matching whose integer edge weights stack the criteria
lexicographically (a tier only matters when every tier above it ties), the way bbpPairings does it:

  C4 completion > C6 pairs > C7 PSD > C8 next bracket > C10..C13 colours > C14..C21 floats
  > the order of C.04.3 D (order.py) as the last word,
with the PAB assignee's played games (C9 of the 2025 text, the PAB preferably to a player with fewer
unplayed games) right after C8, in the brackets its note names only. Numbers are the 2025 text's
(C5 PAB score, C6 pairs, C7 PSD, C8 next bracket, C9 PAB's unplayed games, C10-C13 colours,
C14-C21 floats); C5 is settled before the brackets (_lowest_bye_pool). The tiers are in tiers.py.

The D order needs to know how many pairs the bracket makes and, in a heterogeneous bracket, which
residents the moved-down players take; a cardinality test tells the former, and the remainder's
order rides along on a presumption checked afterwards (else it gets its own matching). Lower
brackets are left out of large rounds (only C8 looks at the next one, and only when it can tell the
floaters apart); when what is left cannot be completed, the bracket is paired again with every
remaining player in the graph (C4).

Two exact fast paths spare most matchings (a 50-player round would otherwise take 19):
- shortcut.first_if_best: when the first pairing in D order reaches a lower bound on every
  criterion, it is what the matching would choose; no matching at all;
- _core_then_complete: the bracket and the next bracket are matched without the rest of the round,
  which is then shown completable around that matching; only otherwise the full graph.
"""

from __future__ import annotations

from collections.abc import Hashable

from tournaments.pairing.compat import Compat, completable, greedy_pairs, max_pairs
from tournaments.pairing.matching import has_perfect_matching, max_weight_matching
from tournaments.pairing.model import PairingRequest
from tournaments.pairing.order import N_ORDER, Combined, HomogeneousOrder, MdpOrder, homogeneous
from tournaments.pairing.shortcut import first_if_best
from tournaments.pairing.state import PState
from tournaments.pairing.tiers import N_QUALITY, Bracket, QualityCache, c9_played, next_psd_in

__all__ = ["BYE", "Bracket", "Compat", "pair_brackets"]

BYE = "BYE"
# Up to this many players left, a bracket is paired in a graph holding all of them (exact C4 and C8);
# above it, lower brackets join only when the rest of the round cannot be completed.
FULL_GRAPH_LIMIT = 64

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
        br.c9 = odd and _single_downfloater_gets_bye(score, bracket_players, below, compat)
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
    if completable(rest, odd, compat):
        return got, False
    return _solve(br, nxt, below, odd, compat, req, completion=True), True


def _single_downfloater_gets_bye(score: int, players: list[PState], below: list[PState], compat: Compat) -> bool:
    """Whether C9 (2025 text: minimise the unplayed games of the PAB assignee) applies to the bracket.
    Its note restricts it to "brackets that downfloat exactly one player, who will end up receiving
    the pairing-allocated bye": the PAB is to come out of this scoregroup (C5), everyone below can
    be paired among themselves, and the bracket can pair all its players but one who may have the PAB
    (C6 puts the most pairs first, so it will). A bracket that must let two more players float down
    to be paired lower down is not such a bracket, however its PAB is then chosen."""
    if compat.bye_score is None or score > compat.bye_score or len(players) % 2 == 0:
        return False
    if below and (len(below) % 2 or not completable(below, False, compat)):
        return False
    return completable(players, True, compat)


def _lowest_bye_pool(players: list[PState], compat: Compat) -> set[int]:
    """C4 with an odd number of players: the bye goes to the lowest score that still lets everyone
    else be paired (as bbpPairings settles the bye assignee's score before pairing the brackets)."""
    eligible = [p for p in players if p.bye_ok]
    for score in sorted({p.score for p in eligible}):
        compat.bye_pool = {p.id for p in eligible if p.score <= score}
        if completable(players, True, compat):
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
    """The bracket's pairs: the D-order shortcut, else up to three matchings, each refining the
    previous one's free choices."""
    quality = QualityCache(br, compat, req)
    extra = below if completion else []
    inb = {p.id for p in br.players}
    # 1. how many pairs the bracket can make at best (C6 alone: a maximum cardinality matching)
    ids = [p.id for p in br.players]
    npairs = max_pairs(ids, compat)
    with_next = nxt if (completion or npairs * 2 < len(br.players)) else []
    if with_next and not completion and _c7_indifferent(br, nxt, npairs, compat):
        got = _solve_rest(br, [], extra, odd, completion, quality, npairs, ids, inb)
        floaters = inb - {p.id for pr in got for p in pr}
        if len(floaters) == 1 and not floaters & br.mdp:
            return got
    return _solve_rest(br, with_next, extra, odd, completion, quality, npairs, ids, inb)


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
        if not greedy_pairs(rest, compat, set(rest) if len(rest) % 2 else None):
            return False
    return True


def _solve_rest(
    br: Bracket,
    with_next: list[PState],
    extra: list[PState],
    odd: bool,
    completion: bool,
    quality: QualityCache,
    npairs: int,
    ids: list[int],
    inb: set[int],
) -> list[tuple[PState, PState]]:
    if npairs == 0:
        return []  # nothing to choose: no two players of the bracket can meet
    first = first_if_best(br, with_next, extra, odd, completion, quality, npairs)
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


def _bracket_pairs(br: Bracket, mates: dict[Hashable, Hashable]) -> list[tuple[PState, PState]]:
    by_id = {p.id: p for p in br.players}
    out = []
    for p in br.players:
        m = mates.get(p.id)
        if isinstance(m, int) and m in by_id and br.pos[p.id] < br.pos[m]:
            out.append((p, by_id[m]))
    return out


def _match(
    br: Bracket,
    players: list[PState],
    nxt: list[PState],
    extra: list[PState],
    with_bye: bool,
    quality: QualityCache,
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
                c7 = [0, next_psd_in(nxt_br, a) + next_psd_in(nxt_br, b)] if nxt_br else [0, 0]
                o = order.tiers(a.id, b.id) if order else zero_o
            elif (
                nxt_br
                and (a.id in nxt_ids or b.id in nxt_ids)
                and (a_in or a.id in nxt_ids)
                and (b_in or b.id in nxt_ids)
            ):
                q, o = zero_q, zero_o
                sd = abs(a.score - b.score)
                c7 = [1, next_psd_in(nxt_br, a) + next_psd_in(nxt_br, b) - nxt_br.cost(sd)]
            elif completion:
                q, o, c7 = zero_q, zero_o, [0, 0]
            else:
                continue
            # C9 without a bye vertex: the pairs take the players with the fewest played games,
            # leaving the one with the most to float down to the PAB
            c9 = -(c9_played(br, compat, a) + c9_played(br, compat, b)) if br.c9 and not with_bye else 0
            rows.append((a.id, b.id, c4 + q[:2] + c7 + [c9] + q[2:] + o))
    bye_rows: list[tuple[Hashable, Hashable, list[int]]] = []
    if with_bye:
        for p in core + outer:
            if p.id in compat.bye_pool:
                played = c9_played(br, compat, p) if p.id in inb else 0
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


def _combine(rows: list[tuple[Hashable, Hashable, list[int]]], most_pairs: int) -> list[tuple[Hashable, Hashable, int]]:
    """Stack the tiers into one integer per edge, each tier weighing more than all below it together."""
    if not rows:
        return []
    columns = list(zip(*(r[2] for r in rows), strict=True))
    ntier = len(columns)
    scales = [1] * ntier
    for t in range(ntier - 2, -1, -1):
        col = columns[t + 1]
        bound = max(max(col), -min(col)) * most_pairs
        # any two matchings differ by less than 2 * (bound + 1) units of the tier below
        scales[t] = scales[t + 1] * (2 * bound + 3)
    return [(a, b, sum(v * s for v, s in zip(tiers, scales, strict=True) if v)) for a, b, tiers in rows]
