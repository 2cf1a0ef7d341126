"""Maximum weight matching on exact integer weights, and a cheap perfect-matching test."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

# Up to this many vertices a matching is found by exhaustive search: exact, and far cheaper than
# importing networkx (0.1-0.2 s) for a command-line run whose only matchings are tiny.
SMALL_GRAPH = 10


def max_weight_matching(edges: Iterable[tuple[Hashable, Hashable, int]]) -> dict[Hashable, Hashable]:
    """Mate of each matched vertex, in a matching of maximum weight. networkx keeps to integer
    arithmetic when every weight is an int, so the lexicographic weights stay exact however many
    bits they need. When several matchings have the maximum weight, which one comes back is not
    specified (the callers only read what all of them share)."""
    edges = list(edges)
    if not edges:
        return {}
    vertices = list(dict.fromkeys(v for a, b, _ in edges for v in (a, b)))
    if len(vertices) <= SMALL_GRAPH:
        return _exhaustive(vertices, edges)
    import networkx as nx  # imported here: the package must stay light to import

    g = _graph_class(nx)()
    g.add_weighted_edges_from(edges)
    mates: dict[Hashable, Hashable] = {}
    for a, b in nx.max_weight_matching(g, maxcardinality=False):
        mates[a] = b
        mates[b] = a
    return mates


def _exhaustive(vertices: list[Hashable], edges: list[tuple[Hashable, Hashable, int]]) -> dict[Hashable, Hashable]:
    """Maximum weight matching of a small graph: the first free vertex is left alone or matched to
    each neighbour in turn, the best of the rest remembered for every set of free vertices."""
    index = {v: i for i, v in enumerate(vertices)}
    weight: dict[tuple[int, int], int] = {}
    for a, b, w in edges:
        i, j = sorted((index[a], index[b]))
        if i != j:
            weight[i, j] = w  # a repeated edge: the last weight counts, as in networkx
    best: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {0: (0, ())}

    def solve(free: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        got = best.get(free)
        if got is not None:
            return got
        i = (free & -free).bit_length() - 1
        rest = free & ~(1 << i)
        got = solve(rest)
        for j in range(i + 1, len(vertices)):
            w = weight.get((i, j))
            if w is not None and rest >> j & 1:
                total, pairs = solve(rest & ~(1 << j))
                if total + w > got[0]:
                    got = (total + w, ((i, j), *pairs))
        best[free] = got
        return got

    mates: dict[Hashable, Hashable] = {}
    for i, j in solve((1 << len(vertices)) - 1)[1]:
        mates[vertices[i]] = vertices[j]
        mates[vertices[j]] = vertices[i]
    return mates


_GRAPH: type | None = None


def _graph_class(nx):  # type: ignore[no-untyped-def]
    """nx.Graph whose g[v] is the plain adjacency dict instead of a fresh read-only AtlasView.

    max_weight_matching reads g[v][w] for the slack of an edge in its innermost loop; the view it
    builds each time was half of its running time. The algorithm only reads, so the same run, on
    the same dicts in the same order, gives the same matching."""
    global _GRAPH
    if _GRAPH is None:

        class _FastGraph(nx.Graph):  # type: ignore[misc,name-defined]
            def __getitem__(self, n):  # type: ignore[no-untyped-def]
                return self._adj[n]

        _GRAPH = _FastGraph
    return _GRAPH


def has_perfect_matching(vertices: Sequence[int], can_pair: dict[int, set[int]], bye_ok: set[int] | None) -> bool:
    """True when `vertices` can all be paired, one of `bye_ok` sitting out if their number is odd.

    A greedy pass settles the usual dense case; only when it fails is an exact matching computed.
    """
    odd = len(vertices) % 2 == 1
    if odd and not bye_ok:
        return False
    if greedy_perfect(vertices, can_pair, bye_ok if odd else None):
        return True
    edges: list[tuple[Hashable, Hashable, int]] = []
    vs = set(vertices)
    for a in vertices:
        for b in can_pair.get(a, ()):
            if b in vs and a < b:
                edges.append((a, b, 1))
    if odd:
        edges.extend((a, "BYE", 1) for a in vertices if a in (bye_ok or ()))
    need = len(vertices) + (1 if odd else 0)
    return len(max_weight_matching(edges)) == need


def greedy_perfect(vertices: Sequence[int], can_pair: dict[int, set[int]], bye_ok: set[int] | None) -> bool:
    """Karp-Sipser: pair a player who has a single possible opponent left with him, else the player
    with the fewest possible opponents with his own most constrained opponent. It finds a perfect
    matching of a Swiss round's compatibility graph almost always, in O(n^2) instead of the exact
    matching's O(n^3); a miss only costs the exact test after it."""
    order = {v: i for i, v in enumerate(vertices)}
    adj: dict[int | None, set[int | None]] = {v: {w for w in can_pair.get(v, ()) if w in order} for v in vertices}
    if bye_ok is not None:  # the bye is one more vertex, next to every player who may have it
        adj[None] = {v for v in bye_ok if v in order}
        for v in adj[None]:
            adj[v].add(None)
    free = set(adj)
    rank = {**order, None: -1}

    def key(x: int | None) -> tuple[int, int]:
        return len(adj[x]), rank[x]

    while free:
        v = min(free, key=key)
        if not adj[v]:
            return False
        w = min(adj[v], key=key)
        for x in (v, w):
            free.discard(x)
            for y in adj[x]:
                adj[y].discard(x)
            adj[x] = set()
    return True
