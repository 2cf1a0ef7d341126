"""Final standings: the players the tie-breaks cannot separate (checklist 203-206).

Pure Python. They share a place (1, 2, 2, 4) until the arbiter decides: by lot, from a seed drawn once and
kept, so that drawing again gives the same order (the order depends only on the seed and on who is tied,
never on when or how often it is drawn); or by hand (e.g. after a play-off), an order of the tied players.
An order by hand wins over the lots for the groups it names.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from tournaments.standings.records import StandingRow


def tie_groups(rows: Sequence[StandingRow]) -> list[list[StandingRow]]:
    """The groups of ranked rows sharing a place, in standings order; each has two rows or more."""
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        if row.rank is not None and row.shared_rank:
            groups.setdefault(row.rank, []).append(row)
    return [groups[rank] for rank in sorted(groups)]


def lots_order(group: Sequence[StandingRow], seed: int) -> list[StandingRow]:
    """The group in the order drawn: random.Random on the seed and the tied players' pairing numbers."""
    ordered = sorted(group, key=lambda r: r.player.pairing_number)
    key = f"{seed}:" + ",".join(str(r.player.pairing_number) for r in ordered)
    random.Random(key).shuffle(ordered)
    return ordered


def break_ties(rows: Sequence[StandingRow], *, seed: int | None = None,
               hand_order: Sequence[int] = ()) -> list[StandingRow]:
    """The rows with each tie resolved: by hand where `hand_order` (player ids, best first) names every
    player of the group, else by lot when a seed is given, else left shared."""
    position = {pid: i for i, pid in enumerate(hand_order)}
    decided: dict[int, list[StandingRow]] = {}
    for group in tie_groups(rows):
        ids = [r.player.id for r in group]
        if all(pid in position for pid in ids):
            order = sorted(group, key=lambda r: position[r.player.id])
        elif seed is not None:
            order = lots_order(group, seed)
        else:
            continue
        first = group[0].rank
        assert first is not None
        decided[first] = [replace(r, rank=first + i, shared_rank=False) for i, r in enumerate(order)]
    out: list[StandingRow] = []
    done: set[int] = set()
    for row in rows:
        if row.rank is not None and row.rank in decided and row.shared_rank:
            if row.rank not in done:
                out.extend(decided[row.rank])
                done.add(row.rank)
            continue
        out.append(row)
    return out


def hand_order_problems(rows: Sequence[StandingRow], order: Sequence[int]) -> list[str]:
    """Codes of what is wrong with an order by hand: 'twice', 'not-tied' (a player who shares no place),
    'incomplete' (a tied group named in part). Empty when it can be applied."""
    problems = []
    if len(set(order)) != len(order):
        problems.append("twice")
    groups = tie_groups(rows)
    tied = {r.player.id for g in groups for r in g}
    if any(pid not in tied for pid in order):
        problems.append("not-tied")
    for group in groups:
        named = [r.player.id in order for r in group]
        if any(named) and not all(named):
            problems.append("incomplete")
            break
    return problems
