"""The one guard on who plays whom in a round-robin round: every path that changes a round robin's pairing
(the hand-round page, the round page's boards, an import) asks it, and nothing else decides.

A round robin's rounds are the Berger table's. A round that is not the table's round asks a confirmation
(level 3, SCHEDULE_BY_HAND), and so does each pair meeting twice in a cycle (REMATCH) and each player given
the same colour three times in a row (COLOUR_BREACH): tournaments.pairing.rr_check finds them. A round
where a player is missing cannot be a round-robin round and is refused. `require` raises until the arbiter
confirms; the caller writes, then records the warnings it returned (events.record_all), in one transaction.

The rounds of the Berger table still to come are checked too: a pair that meets in the hand-made round may
be due to meet again in a later round of the table, which the arbiter must then make by hand as well. Those
are said on the page (they are not breaches yet: nothing is paired).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.models import Round, System, Tournament
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


def table_round(tournament: Tournament, number: int, n_players: int) -> list[Board]:
    """Round `number` of the tournament's Berger table (empty past its end)."""
    table = _table(tournament, n_players)
    return table[number - 1] if 0 < number <= len(table) else []


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
    """What making round `number` as `boards` breaks, and what it leaves for the table's later rounds."""
    n_players = len(names)
    table = _table(tournament, n_players)
    hand = [boards[b] for b in sorted(boards)]
    schedule = [*_played(tournament, number), hand, *table[number:]]
    findings = check_schedule(schedule, n_players)
    warnings: list[Warning] = []
    differs = number > len(table) or sorted(hand, key=str) != sorted(table[number - 1], key=str)
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


def names_of(tournament: Tournament) -> dict[int, str]:
    return {e.pairing_number: e.player.full_name for e in tournament.entries.select_related("player")}


def refuse_unplayable(number: int, boards: NumberBoards, names: dict[int, str]) -> None:
    """Every player of a round robin plays, or has the free round, exactly once in each round."""
    seen: dict[int, int] = {}
    for board, pair in sorted(boards.items()):
        for player in pair:
            if player is None:
                continue
            if player in seen:
                raise DomainError(_("Round %(round)s: %(player)s would play on boards %(first)s and %(second)s.")
                                  % {"round": number, "player": names.get(player, player), "first": seen[player],
                                     "second": board})
            seen[player] = board
    missing = sorted(set(names) - set(seen))
    if missing:
        raise DomainError(_("Round %(round)s: every player of a round robin plays or has the free round; "
                            "missing: %(players)s.") % {"round": number,
                                                         "players": ", ".join(names[n] for n in missing)})


def warnings_for(rnd: Round, boards: NumberBoards) -> HandCheck:
    """What seating round `rnd` as `boards` (every board of it) asks; refused when it cannot be played."""
    names = names_of(rnd.tournament)
    refuse_unplayable(rnd.number, boards, names)
    return check_hand_round(rnd.tournament, rnd.number, boards, names)


def require(rnd: Round, boards: NumberBoards, *, confirmed: Collection[str] = ()) -> list[Warning]:
    """The guard: the warnings of seating `rnd` as `boards`, raised (events.NeedsConfirmation) until each is
    confirmed; the caller records the returned warnings once it has written the boards."""
    check = warnings_for(rnd, boards)
    events.require(check.warnings, confirmed=confirmed)
    return check.warnings
