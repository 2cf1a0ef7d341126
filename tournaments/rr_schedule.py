"""A round-robin round made by hand (issue 19 item 7): the arbiter changes who plays whom in a draft round
of a round robin; the change is checked against the round robin's rules (tournaments.pairing.rr_check)
and asks a confirmation (3) for the round made by hand, for each pair meeting twice in a cycle and for
each player given the same colour three times in a row; once confirmed, the events are recorded with it.

The rounds of the Berger table still to come are checked too: a pair that meets in the hand-made round may
be due to meet again in a later round of the table, which the arbiter must then make by hand as well. Those
are said on the page (they are not breaches yet: nothing is paired).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.models import Entry, Round, RoundStatus, System, Tournament
from tournaments.pairing.roundrobin import Board, berger_schedule
from tournaments.pairing.rr_check import COLOUR_THREE, REPEAT, Finding, check_schedule

NumberBoards = dict[int, tuple[int, int | None]]  # board -> (white, black or None) by pairing number


@dataclass(frozen=True)
class HandCheck:
    warnings: list[Warning]  # the hand-made round's breaches, each to confirm
    later: list[Finding]  # what the Berger table's later rounds would then repeat (said, not asked)
    differs: bool  # the round is not the table's round


def _table(tournament: Tournament, n_players: int) -> list[list[Board]]:
    return berger_schedule(n_players, double=tournament.system == System.DOUBLE_ROUND_ROBIN,
                           reverse_last_two=tournament.rr_reverse_last_two)


def _played(tournament: Tournament, before: int) -> list[list[Board]]:
    rounds: dict[int, list[Board]] = {n: [] for n in range(1, before)}
    for number, white, black in (tournament.rounds.filter(number__lt=before).order_by("number")
                                 .values_list("number", "games__white__pairing_number",
                                              "games__black__pairing_number")):
        if white is not None:
            rounds[number].append((white, black))
    return [rounds[n] for n in range(1, before)]


def check_hand_round(tournament: Tournament, number: int, boards: NumberBoards,
                     names: dict[int, str]) -> HandCheck:
    """What making round `number` by hand as `boards` breaks, and what it leaves for the table's later rounds."""
    n_players = len(names)
    table = _table(tournament, n_players)
    hand = [boards[b] for b in sorted(boards)]
    schedule = [*_played(tournament, number), hand, *table[number:]]
    findings = check_schedule(schedule, n_players)
    warnings: list[Warning] = []
    differs = sorted(hand, key=str) != sorted(table[number - 1], key=str)
    if differs:
        warnings.append(Warning(Code.SCHEDULE_BY_HAND, {
            "round": number, "pairs": [f"{w}-{b}" if b is not None else f"{w}-bye" for w, b in hand]}))
    for f in findings:
        if f.round != number:
            continue
        who = " – ".join(names.get(p, str(p)) for p in f.players)
        if f.code == REPEAT:
            warnings.append(Warning(Code.REMATCH, {"pair": who, "round": number, "earlier": f.earlier}))
        elif f.code == COLOUR_THREE:
            warnings.append(Warning(Code.COLOUR_BREACH, {"player": who, "round": number}))
    later = [f for f in findings if f.round > number and (f.code != REPEAT or f.earlier >= number)]
    return HandCheck(warnings, later if differs else [], differs)


def round_boards(rnd: Round) -> NumberBoards:
    return {g.board: (g.white.pairing_number, g.black.pairing_number if g.black_id else None)
            for g in rnd.games.select_related("white", "black")}


@transaction.atomic
def rr_round_by_hand(*, round: Round, boards: NumberBoards, expected_version: int | None = None,
                     confirmed: Collection[str] = (), user: Any = None) -> HandCheck:
    """Put the players of `boards` (pairing numbers) on a draft round-robin round, once each breach is
    confirmed; the events are recorded in the same transaction."""
    rnd = services._lock_round(round, expected_version)
    tournament = Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
    if not tournament.is_round_robin:
        raise DomainError(_("%(tournament)s is a Swiss: its rounds are changed on the round page.")
                          % {"tournament": tournament})
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is published: only a draft round can be made by hand; take it back "
                            "to draft first.") % {"round": rnd.number})
    entries = {e.pairing_number: e for e in tournament.entries.select_related("player")}
    names = {n: e.player.full_name for n, e in entries.items()}
    current = round_boards(rnd)
    if set(boards) != set(current):
        raise DomainError(_("Round %(round)s has boards %(boards)s: give the players of each of them.")
                          % {"round": rnd.number, "boards": ", ".join(map(str, sorted(current)))})
    seen: dict[int, int] = {}
    for board, (white, black) in sorted(boards.items()):
        for number in (white, black):
            if number is None:
                continue
            if number not in entries:
                raise DomainError(_("Board %(board)s: there is no player with pairing number %(number)s.")
                                  % {"board": board, "number": number})
            if number in seen:
                raise DomainError(_("Round %(round)s: %(player)s would play on boards %(first)s and %(second)s.")
                                  % {"round": rnd.number, "player": names[number], "first": seen[number],
                                     "second": board})
            seen[number] = board
    if len(seen) != len(entries):
        missing = sorted(set(entries) - set(seen))
        raise DomainError(_("Round %(round)s: every player of a round robin plays or has the free round; "
                            "missing: %(players)s.") % {"round": rnd.number,
                                                         "players": ", ".join(names[n] for n in missing)})
    check = check_hand_round(tournament, rnd.number, boards, names)
    if not check.differs and boards == current:
        return check
    events.require(check.warnings, confirmed=confirmed)
    by_entry: dict[int, tuple[Entry, Entry | None]] = {
        b: (entries[w], entries[bl] if bl is not None else None) for b, (w, bl) in boards.items()}
    services.round_set_boards(round=rnd, boards=by_entry)
    events.record_all(tournament, check.warnings, user=user, round_number=rnd.number)
    return check
