"""The rounds of a tournament just imported from a JSON transfer, checked as they stand, in the import's
transaction: the same question the TRF import asks of a file's rounds (checklist Q54-Q55).

A Swiss round is paired again by the engine from the state before it (as pairing_bridge.check_round); a
round-robin round goes through the round robin's guard (rr_guard.check_hand_round) against the Berger
table. A round that breaks the rules is IMPORT_BROKE_RULES, one that keeps them but is not the engine's
(the table's) pairing, or that the engine could not pair to compare, is IMPORT_NOT_ENGINE_PAIRING: both
level 3, so the import writes nothing until the arbiter confirms, then records them. A round the
document's own events already account for (a confirmed breach at that round, or a later change whose
check listed it as differing) asks nothing again: its record came with it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tournaments.conformance.policy import Code, Level, Warning
from tournaments.exchange.trf_review import criterion_code
from tournaments.models import Game, Round, Tournament
from tournaments.pairing.checker import check_pairing
from tournaments.pairing.model import Board, CheckReport, Pairing
from tournaments.results import Result
from tournaments.rounds import rr_guard


def on_record(tournament: Tournament) -> set[int]:
    """The rounds the tournament's events already account for."""
    out: set[int] = set()
    for event in tournament.conformance_events.all():
        if event.level >= Level.CONFIRM:
            out.add(event.round_number)
        differs = (event.values or {}).get("differs")
        if isinstance(differs, list):
            out.update(n for n in differs if isinstance(n, int) and not isinstance(n, bool))
    return out


def warnings(tournament: Tournament) -> list[Warning]:
    """One level-3 warning per round that breaks the rules or is not the engine's pairing, unless on record."""
    known = on_record(tournament)
    out = []
    for rnd in tournament.rounds.order_by("number"):
        if rnd.number in known:
            continue
        found = _round_robin(tournament, rnd) if tournament.is_round_robin else _swiss(tournament, rnd)
        if found is not None:
            out.append(found)
    return out


def _pairs(pairs: Any) -> list[str]:
    return [f"{w}-{b}" if b is not None else f"bye:{w}" for w, b in pairs] or ["-"]


def _check(tournament: Tournament, number: int) -> CheckReport:
    """pairing_bridge.check_round, except that a player without a game in the round (not even a bye or an
    absence) was not in it: a late entrant's earlier rounds, as a TRF's blank cell (trf_review)."""
    from tournaments.rounds.pairing_bridge import pairing_request

    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    games = list(Game.objects.filter(round__tournament=tournament, round__number=number).select_related(
        "white", "black"))
    present = {g.white.pairing_number for g in games} | {g.black.pairing_number for g in games if g.black_id}
    request = pairing_request(tournament, entries, number)
    request = replace(request, players=tuple(p if p.id in present or p.withdrawn else replace(p, excused=True)
                                             for p in request.players))
    boards = tuple(Board(g.white.pairing_number, g.black.pairing_number) for g in games if g.black_id)
    bye = next((g.white.pairing_number for g in games if g.black_id is None and g.result == Result.BYE), None)
    return check_pairing(request, Pairing(boards, bye))


def _swiss(tournament: Tournament, rnd: Round) -> Warning | None:
    try:
        report = _check(tournament, rnd.number)
    except Exception:  # the engine's failure is reported, never taken for a pass
        return Warning(Code.IMPORT_NOT_ENGINE_PAIRING, {"round": rnd.number, "file": _pairs(
            sorted(rr_guard.round_boards(rnd).values(), key=str)), "engine": "not-possible"})
    if report.violations:
        named = {p for v in report.violations for p in v.players}
        return Warning(Code.IMPORT_BROKE_RULES, {
            "round": rnd.number,
            "pairs": _pairs(p for p in sorted(rr_guard.round_boards(rnd).values(), key=str) if set(p) & named),
            "criteria": sorted({criterion_code(v.criterion) for v in report.violations})})
    if report.differs:
        return Warning(Code.IMPORT_NOT_ENGINE_PAIRING, {
            "round": rnd.number, "file": _pairs(report.only_proposed), "engine": _pairs(report.only_engine)})
    return None


def _round_robin(tournament: Tournament, rnd: Round) -> Warning | None:
    boards = rr_guard.round_boards(rnd)
    names = rr_guard.names_of(tournament)
    pairs = _pairs(boards[b] for b in sorted(boards))
    try:
        rr_guard.refuse_unplayable(rnd.number, boards, names)
    except Exception:
        return Warning(Code.IMPORT_BROKE_RULES, {"round": rnd.number, "pairs": pairs,
                                                  "criteria": ["not-every-player-once"]})
    check = rr_guard.check_hand_round(tournament, rnd.number, boards, names)
    broken = sorted({str(w.code) for w in check.warnings if w.code is not Code.SCHEDULE_BY_HAND})
    if broken:
        return Warning(Code.IMPORT_BROKE_RULES, {"round": rnd.number, "pairs": pairs, "criteria": broken})
    if check.differs:
        table = rr_guard.table_round(tournament, rnd.number, len(names))
        return Warning(Code.IMPORT_NOT_ENGINE_PAIRING, {"round": rnd.number, "file": pairs, "engine": _pairs(table)})
    return None
