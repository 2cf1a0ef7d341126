"""Maximum weight matching on exact integer weights, and a cheap perfect-matching test."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence


def max_weight_matching(edges: Iterable[tuple[Hashable, Hashable, int]]) -> dict[Hashable, Hashable]:
    """Mate of each matched vertex. networkx keeps to integer arithmetic when every weight is an int,
    so the lexicographic weights stay exact however many bits they need."""
    import networkx as nx  # imported here: the package must stay light to import

    g = nx.Graph()
    g.add_weighted_edges_from(edges)
    mates: dict[Hashable, Hashable] = {}
    for a, b in nx.max_weight_matching(g, maxcardinality=False):
        mates[a] = b
        mates[b] = a
    return mates


def has_perfect_matching(vertices: Sequence[int], can_pair: dict[int, set[int]], bye_ok: set[int] | None) -> bool:
    """True when `vertices` can all be paired, one of `bye_ok` sitting out if their number is odd.

    A greedy pass settles the usual dense case; only when it fails is an exact matching computed.
    """
    odd = len(vertices) % 2 == 1
    if odd and not bye_ok:
        return False
    if _greedy(vertices, can_pair, bye_ok if odd else None):
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


def _greedy(vertices: Sequence[int], can_pair: dict[int, set[int]], bye_ok: set[int] | None) -> bool:
    free = set(vertices)
    order = sorted(vertices, key=lambda v: len(can_pair.get(v, ())))
    if bye_ok is not None:
        pick = next((v for v in reversed(order) if v in bye_ok), None)
        if pick is None:
            return False
        free.discard(pick)
    for v in order:
        if v not in free:
            continue
        free.discard(v)
        mate = next((w for w in can_pair.get(v, ()) if w in free), None)
        if mate is None:
            return False
        free.discard(mate)
    return True
