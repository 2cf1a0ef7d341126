"""The engine's fast paths give the answers of the slow ones they stand in for.

- the D-order shortcut (shortcut.py, dutch.first_if_best) and the core-then-complete matching
  (dutch._core_then_complete) against the full matching of every bracket, on random tournaments;
- the exhaustive search for small graphs against networkx;
- who-can-meet-whom as sets (Compat.adjacency) against the pairwise test.

The bbpPairings reference rounds (test_swiss_reference.py) check the end result; these check that
each shortcut is the exact stand-in it claims to be, also on tournaments outside that set.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import networkx as nx
import pytest

from tournaments.pairing import dutch, matching, shortcut
from tournaments.pairing.engine import pair_dutch
from tournaments.pairing.model import PairingRequest
from tournaments.pairing.order import HomogeneousOrder
from tournaments.pairing.state import ABSOLUTE, build_states
from tournaments.verification.generator import GenSettings, generate


def _rounds(seed: int, players: int, rounds: int) -> list[PairingRequest]:
    settings = GenSettings(players=players, rounds=rounds, seed=seed, late_rate=0.1, excuse_rate=0.03)
    return [rec.request for rec in generate(settings).rounds]


@pytest.mark.parametrize(("seed", "players", "rounds"), [(1, 15, 7), (2, 24, 8), (3, 33, 9), (4, 41, 6)])
def test_shortcuts_pair_as_the_full_matching(seed: int, players: int, rounds: int, monkeypatch) -> None:
    requests = _rounds(seed, players, rounds)
    fast = [pair_dutch(r) for r in requests]
    monkeypatch.setattr(dutch, "first_if_best", lambda *args: None)
    monkeypatch.setattr(dutch, "_core_then_complete", lambda *args: None)
    monkeypatch.setattr(matching, "SMALL_GRAPH", 0)
    slow = [pair_dutch(r) for r in requests]
    for req, f, s in zip(requests, fast, slow, strict=True):
        assert (f.boards, f.bye, f.unpaired) == (s.boards, s.bye, s.unpaired), (seed, req.round)


def test_shortcut_is_taken_on_ordinary_rounds(monkeypatch) -> None:
    """The comparison above is only worth something if the fast paths run."""
    taken = []
    real = dutch.first_if_best

    def spy(*args):  # type: ignore[no-untyped-def]
        got = real(*args)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(dutch, "first_if_best", spy)
    for req in _rounds(5, 40, 7):
        pair_dutch(req)
    assert sum(taken) > len(taken) / 2


def _random_graph(rng: random.Random, n: int) -> list[tuple[int, int, int]]:
    return [
        (a, b, rng.choice([1, 2, 3, 2**70 + rng.randrange(5), -(2**65)]))
        for a in range(n)
        for b in range(a + 1, n)
        if rng.random() < 0.5
    ]


def _weight(edges: list[tuple[int, int, int]], mates: dict) -> int:  # type: ignore[type-arg]
    return sum(w for a, b, w in edges if mates.get(a) == b)


@pytest.mark.parametrize("seed", range(40))
def test_small_graphs_matched_exhaustively_as_networkx(seed: int) -> None:
    rng = random.Random(seed)
    edges = _random_graph(rng, rng.randint(1, matching.SMALL_GRAPH))
    mates = matching.max_weight_matching(edges)
    g = nx.Graph()
    g.add_weighted_edges_from(edges)
    theirs = {}
    for a, b in nx.max_weight_matching(g):
        theirs[a], theirs[b] = b, a
    assert all(mates[mates[v]] == v for v in mates)
    assert _weight(edges, mates) == _weight(edges, theirs)


def test_empty_graph_needs_no_matching() -> None:
    assert matching.max_weight_matching([]) == {}


@pytest.mark.parametrize("rnd", [5, 8])  # round 8 of 8: topscorers may meet beyond the colour limits
def test_adjacency_agrees_with_the_pairwise_test(rnd: int) -> None:
    req = _rounds(6, 30, 8)[rnd - 1]
    forbidden = PairingRequest.forbid([(req.players[0].id, req.players[1].id), (req.players[2].id, req.players[5].id)])
    states = build_states(req)
    compat = dutch.Compat(states, forbidden, req.initial_colour)
    ids = [p.id for p in req.players]
    can = compat.adjacency(ids)
    for a in ids:
        assert can[a] == {b for b in ids if b != a and compat(a, b)}
    assert req.players[1].id not in can[req.players[0].id]
    assert any(s.strength == ABSOLUTE for s in states.values())


@pytest.mark.parametrize(("n", "k"), [(6, 3), (7, 3), (9, 4), (12, 6)])
def test_exchanges_come_in_the_order_of_the_matchings_exchange_tiers(n: int, k: int) -> None:
    """shortcut.exchanges must list S1' as the matching's D-order tiers rank them (order.py)."""
    ids = list(range(100, 100 + n))
    states = [SimpleNamespace(id=i) for i in ids]
    order = HomogeneousOrder(ids, k)
    last = ids[-1]

    def rank(s1prime: list[SimpleNamespace]) -> list[int]:
        # the exchange tiers depend only on who is the higher player of each pair
        tiers = [order.tiers(p.id, last)[5:9] for p in s1prime]
        return [sum(col) for col in zip(*tiers, strict=True)]

    seen = [s1 for s1, rest in shortcut.exchanges(states, k) if last not in {p.id for p in s1}]  # type: ignore[arg-type]
    assert [p.id for p in seen[0]] == ids[:k]
    ranks = [rank(s1) for s1 in seen]
    assert all(a > b for a, b in zip(ranks, ranks[1:], strict=False)), ranks
    assert len({tuple(p.id for p in s1) for s1 in seen}) == len(seen)
