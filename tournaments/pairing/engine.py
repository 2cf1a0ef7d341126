"""pair_dutch: the public entry point of the Swiss engine."""

from __future__ import annotations

from tournaments.pairing.colours import allocate, allocation, facts
from tournaments.pairing.dutch import Bracket, Compat, pair_brackets
from tournaments.pairing.model import (
    Board,
    BracketReport,
    ByeReport,
    ColourReport,
    Explanation,
    PairingRequest,
    PairingResult,
)
from tournaments.pairing.state import DOWN, UP, PState, build_states


def pair_dutch(req: PairingRequest) -> PairingResult:
    """Pair round `req.round` by the FIDE Dutch system with the tournament's points and order."""
    states = build_states(req)
    by_id = {p.id: p for p in req.players}
    excused = tuple(sorted((p.id for p in req.players if p.excused and not p.withdrawn), key=_rank(states)))
    active = [states[p.id] for p in req.players if not p.withdrawn and not p.excused]
    fast = _natural_first_round(req, active, states)
    if fast is not None:
        pairs, bye, left, reports = fast
    else:
        pairs, bye, left, reports = pair_brackets(req, states, active)
    boards = [allocation(a, b, req.initial_colour) for a, b in pairs]
    boards.sort(key=lambda wbr: _board_key(wbr[0], wbr[1]))
    notes = []
    if left:
        notes.append("could not be paired without breaking an absolute criterion: " + " ".join(str(p.id) for p in left))
    expl = Explanation(
        round=req.round,
        brackets=tuple(_report(r) for r in reports),
        bye=bye.id if bye else None,
        notes=tuple(notes),
        colours=tuple(ColourReport(w.id, k.id, rule) for w, k, rule in boards),
        bye_report=_bye_report(bye, active, reports) if bye else None,
    )
    assert all(p.id in by_id for p in active)
    return PairingResult(
        boards=tuple(Board(w.id, k.id) for w, k, _ in boards),
        bye=bye.id if bye else None,
        excused=excused,
        unpaired=tuple(p.id for p in left),
        explanation=expl,
    )


def explain(req: PairingRequest) -> str:
    """The pairing of the round told to the arbiter: brackets, floaters, criteria not met."""
    return pair_dutch(req).explanation.as_text()


def _rank(states: dict[int, PState]):  # type: ignore[no-untyped-def]
    return lambda pid: states[pid].rank


def _board_key(w: PState, b: PState) -> tuple[int, int, int]:
    # C.04.2: the higher score in the pair, then the sum of the scores, then the higher player's rank
    hi, lo = (w, b) if w.rank < b.rank else (b, w)
    return (-max(w.score, b.score), -(w.score + b.score), hi.rank)


def _natural_first_round(req: PairingRequest, active: list[PState], states: dict[int, PState]):  # type: ignore[no-untyped-def]
    """Top half against bottom half when nothing can tell pairings apart (a first round, or players
    without history and equal scores): the first pairing in D order is then the answer, provided the
    absolute criteria allow it. This saves a matching on a complete graph of the whole field."""
    if not active or len({p.score for p in active}) != 1:
        return None
    if any(p.colours or p.float1 or p.float2 or p.opponents for p in active):
        return None
    order = sorted(active, key=lambda p: p.rank)
    bye = None
    if len(order) % 2:
        if not order[-1].bye_ok:
            return None
        bye, order = order[-1], order[:-1]
    half = len(order) // 2
    pairs = list(zip(order[:half], order[half:], strict=True))
    compat = Compat(states, req.forbidden_pairs, req.initial_colour)
    if not all(compat(a.id, b.id) for a, b in pairs):
        return None
    br = Bracket(order + ([bye] if bye else []), order[0].score if order else 0, req.points.win, req.initial_colour)
    report = {"bracket": br, "pairs": pairs, "floaters": [bye] if bye else [], "completion": False}
    return pairs, bye, [], [report]


def _bye_report(bye: PState, active: list[PState], reports: list[dict[str, object]]) -> ByeReport:
    """The facts an arbiter needs to see why this player has the bye."""
    passed = tuple(p.id for p in sorted(active, key=lambda q: q.rank)
                   if p is not bye and p.score <= bye.score and not p.bye_ok)
    last = reports[-1]["bracket"] if reports else None
    rivals = [p for p in active if p is not bye and p.bye_ok and p.score == bye.score]
    c9 = bool(getattr(last, "c9", False)) and any(p.played < bye.played for p in rivals)
    return ByeReport(bye.id, bye.score, min(p.score for p in active), passed, c9, bye.played)


def _report(r: dict[str, object]) -> BracketReport:
    br: Bracket = r["bracket"]  # type: ignore[assignment]
    pairs: list[tuple[PState, PState]] = r["pairs"]  # type: ignore[assignment]
    floaters: list[PState] = r["floaters"]  # type: ignore[assignment]
    counts: dict[str, int] = {}

    def add(name: str, n: int) -> None:
        if n:
            counts[name] = counts.get(name, 0) + n

    up = []
    for a, b in pairs:
        w, k = allocate(a, b, br.initial)
        fw, fk = facts(w, "w"), facts(k, "b")
        if a.topscorer or b.topscorer:
            add("C10", fw.cd_over_2 + fk.cd_over_2)
            add("C11", fw.three_in_row + fk.three_in_row)
        add("C12", fw.pref_unmet + fk.pref_unmet)
        add("C13", fw.strong_unmet + fk.strong_unmet)
        if a.score != b.score:
            hi, lo = (a, b) if a.score > b.score else (b, a)
            up.append(lo.id)
            add("C14", int(hi.float1 == DOWN))
            add("C15", int(lo.float1 == UP))
            add("C16", int(hi.float2 == DOWN))
            add("C17", int(lo.float2 == UP))
    for f in floaters:
        add("C14", int(f.float1 == DOWN))
        add("C16", int(f.float2 == DOWN))
    add("C6", len(floaters))
    return BracketReport(
        score=br.resident_score,
        residents=tuple(p.id for p in br.players if p.id not in br.mdp),
        moved_down=tuple(p.id for p in br.players if p.id in br.mdp),
        pairs=tuple((a.id, b.id) for a, b in pairs),
        downfloaters=tuple(p.id for p in floaters),
        upfloaters=tuple(up),
        unmet=tuple(sorted(counts.items(), key=lambda kv: int(kv[0][1:]))),
        completion_search=bool(r["completion"]),
    )
