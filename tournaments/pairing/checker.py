"""The absolute criteria checked on any proposed round, and the comparison with the engine.

Used on the engine's own output by the tests and on an arbiter's manual override: a pairing the
engine would not make is allowed, but it is flagged.
"""

from __future__ import annotations

from collections import Counter

from tournaments.pairing.colours import facts
from tournaments.pairing.engine import pair_dutch
from tournaments.pairing.model import CheckReport, Pairing, PairingRequest, Violation
from tournaments.pairing.state import build_states


def absolute_violations(req: PairingRequest, proposed: Pairing) -> list[Violation]:
    states = build_states(req)
    players = {p.id: p for p in req.players}
    active = {p.id for p in req.players if not p.withdrawn and not p.excused}
    out: list[Violation] = []
    seen = Counter(pid for b in proposed.boards for pid in (b.white, b.black))
    if proposed.bye is not None:
        seen[proposed.bye] += 1
    for pid, n in seen.items():
        if pid not in players:
            out.append(Violation("unknown player", (pid,), f"{pid} is not in the tournament"))
        elif pid not in active:
            why = "withdrawn" if players[pid].withdrawn else "excused this round"
            out.append(Violation("not to be paired", (pid,), f"{pid} is {why}"))
        if n > 1:
            out.append(Violation("paired twice", (pid,), f"{pid} appears {n} times"))
    missing = sorted(active - set(seen))
    if missing:
        out.append(Violation("not paired", tuple(missing), "active players left out of the round"))
    if proposed.bye is not None and proposed.bye in states:
        if len(active) % 2 == 0:
            out.append(Violation("C.04.1 bye", (proposed.bye,), "a bye with an even number of players"))
        if not states[proposed.bye].bye_ok:
            out.append(
                Violation(
                    "C2 second bye",
                    (proposed.bye,),
                    f"{proposed.bye} already had a pairing-allocated bye or a win without playing",
                )
            )
    for b in proposed.boards:
        if b.white not in states or b.black not in states:
            continue
        w, k = states[b.white], states[b.black]
        if b.white == b.black:
            out.append(Violation("paired with self", (b.white,), "a player cannot meet himself"))
            continue
        if k.id in w.opponents:
            out.append(Violation("C1 rematch", (w.id, k.id), f"{w.id} and {k.id} have already played"))
        if frozenset((w.id, k.id)) in req.forbidden_pairs:
            out.append(Violation("forbidden pair", (w.id, k.id), f"{w.id} and {k.id} may not meet"))
        exempt = w.topscorer or k.topscorer  # last round: topscorers and their opponents (C10, C11)
        for p, col in ((w, "w"), (k, "b")):
            f = facts(p, col)  # type: ignore[arg-type]
            if f.breaks_absolute and not exempt:
                what = "a colour difference beyond 2" if f.cd_over_2 else "the same colour three times running"
                out.append(Violation("C3 colour", (p.id,), f"{p.id} would get {what}"))
    return out


def _as_set(p: Pairing) -> set[tuple[int, int | None]]:
    s: set[tuple[int, int | None]] = {(b.white, b.black) for b in p.boards}
    if p.bye is not None:
        s.add((p.bye, None))
    return s


def check_pairing(req: PairingRequest, proposed: Pairing) -> CheckReport:
    """Absolute-criteria violations of `proposed`, and how it differs from the engine's pairing."""
    engine = pair_dutch(req).pairing
    mine, theirs = _as_set(proposed), _as_set(engine)
    return CheckReport(
        violations=tuple(absolute_violations(req, proposed)),
        differs=mine != theirs,
        engine=engine,
        only_proposed=tuple(sorted(mine - theirs, key=str)),
        only_engine=tuple(sorted(theirs - mine, key=str)),
    )
