"""FMJD competition rules 5.9, "Abandon en cours de compétition".

A. Round robin ("tournoi complet"):
  a. "s'il n'a pas joué plus de la moitié des parties prévues, les résultats [...] seront neutralisés
     et il ne sera pas classé": all his games are cancelled, for his opponents too, and he is not ranked;
  b. "s'il a joué plus de la moitié des parties prévues, les résultats [...] subsisteront, et il sera
     classé. Les parties non jouées sont considérées comme forfait et indiquées 0F et 2F".
B. Swiss: his results stand for him and his opponents; he is ranked on the games he played.

Readings where the text is silent, all deliberate:
- "joué" counts the games decided over the board (2-0, 1-1, 0-2) in the rounds up to his withdrawal.
  A forfeit, either way, is not counted: 5.9 A.b itself calls the forfeited games "parties non
  jouées". A bye is not a game.
- "parties prévues" is the whole schedule: n-1 games per cycle in a field of n (an odd field's free
  round is no game), whatever the round of withdrawal. Cancellation when 2 * played <= scheduled.
- A withdrawal is in effect for standings after round r when withdrawn_after_round <= r: the
  arbiter has recorded it, so the table shows it at once rather than one round later.
- 5.9 A.b forfeits: every game of his after his withdrawal (NOT_PLAYED, or not yet written down but
  due in a round up to the cut-off by the Berger table of pairing numbers) becomes 2F for the
  opponent, 0F for him, colours kept. Two withdrawn players due to meet: 0F-0F (5.8). His own free
  rounds after withdrawal stay NOT_PLAYED.
- Games involving a cancelled player are kept but flagged `cancelled`, so the final table can still
  print them ("à faire figurer au tableau final"); they score nothing for anyone.
- Several withdrawals are independent: each player's "played" count is taken from the games as
  played, before anybody's cancellation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tournaments.pairing.roundrobin import berger_schedule
from tournaments.results import Result
from tournaments.standings.records import DOUBLE_ROUND_ROBIN, SWISS, SYSTEMS, StandingGame, StandingPlayer, Withdrawal


@dataclass(frozen=True)
class WithdrawalRuling:
    player_id: int
    after_round: int
    played: int  # over the board, rounds 1..after_round
    scheduled: int
    cancelled: bool  # 5.9 A.a: results neutralised, not ranked

    @property
    def withdrawal(self) -> Withdrawal:
        rule = "5.9 A.a" if self.cancelled else "5.9 A.b"
        return Withdrawal(rule, self.after_round, self.played, self.scheduled)

    @property
    def reason(self) -> str:
        return self.withdrawal.english()


def cut_off(games: Sequence[StandingGame], after_round: int | None, rounds_total: int) -> int:
    """The last round the standings look at: the one asked for, else the last round with a game;
    never beyond rounds_total when that is known (> 0)."""
    last = after_round if after_round is not None else max((g.round for g in games), default=0)
    return min(last, rounds_total) if rounds_total > 0 else last


def withdrawals_in_effect(players: Sequence[StandingPlayer], last_round: int) -> dict[int, int]:
    return {p.id: p.withdrawn_after_round for p in players
            if p.withdrawn_after_round is not None and p.withdrawn_after_round <= last_round}


def rulings(
    players: Sequence[StandingPlayer], games: Sequence[StandingGame], system: str, last_round: int
) -> dict[int, WithdrawalRuling]:
    """The 5.9 A ruling for each round robin player whose withdrawal is in effect (none in a Swiss)."""
    _check_system(system)
    if system == SWISS:
        return {}
    cycles = 2 if system == DOUBLE_ROUND_ROBIN else 1
    scheduled = (len(players) - 1) * cycles
    out: dict[int, WithdrawalRuling] = {}
    for pid, after in withdrawals_in_effect(players, last_round).items():
        played = sum(1 for g in games if g.involves(pid) and g.round <= after and g.result.is_played)
        out[pid] = WithdrawalRuling(pid, after, played, scheduled, cancelled=2 * played <= scheduled)
    return out


def effective_games(
    players: Sequence[StandingPlayer],
    games: Sequence[StandingGame],
    system: str,
    rounds_total: int,
    *,
    after_round: int | None = None,
) -> list[StandingGame]:
    """The games as they count under 5.9, up to `after_round` (default: the last round present).

    Swiss: the games as they are. Round robin: cancelled games flagged, remaining games of a player
    who played more than half turned into forfeits (see the module docstring for every reading).
    """
    last = cut_off(games, after_round, rounds_total)
    kept = [g for g in games if g.round <= last]
    if system == SWISS:
        _check_system(system)
        return kept
    ruled = rulings(players, kept, system, last)
    if not ruled:
        return kept
    gone = {pid: r.after_round for pid, r in ruled.items()}
    cancelled = {pid for pid, r in ruled.items() if r.cancelled}
    out = [_rule_game(g, gone, cancelled) for g in kept]
    out.extend(_missing_forfeits(players, out, system, gone, cancelled, last))
    return sorted(out, key=lambda g: g.round)


def _absent(pid: int | None, rnd: int, gone: dict[int, int]) -> bool:
    return pid is not None and pid in gone and rnd > gone[pid]


def _rule_game(game: StandingGame, gone: dict[int, int], cancelled: set[int]) -> StandingGame:
    if game.white in cancelled or game.black in cancelled:
        return replace(game, cancelled=True)
    white_gone = _absent(game.white, game.round, gone)
    black_gone = _absent(game.black, game.round, gone)
    if not (white_gone or black_gone):
        return game
    if game.black is None:
        return replace(game, result=Result.NOT_PLAYED)  # his free round after withdrawal
    if white_gone and black_gone:
        result = Result.DOUBLE_FORFEIT
    else:
        result = Result.BLACK_FORFEIT_WIN if white_gone else Result.WHITE_FORFEIT_WIN
    return replace(game, result=result, forfeit_after_withdrawal=True)


def _missing_forfeits(
    players: Sequence[StandingPlayer],
    games: Sequence[StandingGame],
    system: str,
    gone: dict[int, int],
    cancelled: set[int],
    last: int,
) -> list[StandingGame]:
    """Forfeits for scheduled games of a withdrawn player that were never written down.

    Only when pairing numbers are exactly 1..n (the Berger table needs them) and neither player
    has any game in that round, so a hand-made pairing is never second-guessed.
    """
    by_number = {p.pairing_number: p.id for p in players}
    if sorted(by_number) != list(range(1, len(players) + 1)) or len(players) < 2:
        return []
    busy = {(pid, g.round) for g in games for pid in (g.white, g.black) if pid is not None}
    schedule = berger_schedule(len(players), double=system == DOUBLE_ROUND_ROBIN)
    out: list[StandingGame] = []
    for number, boards in enumerate(schedule[:last], start=1):
        for white_no, black_no in boards:
            if black_no is None:
                continue
            white, black = by_number[white_no], by_number[black_no]
            if (white, number) in busy or (black, number) in busy:
                continue
            white_gone, black_gone = _absent(white, number, gone), _absent(black, number, gone)
            if not (white_gone or black_gone) or white in cancelled or black in cancelled:
                continue
            if white_gone and black_gone:
                result = Result.DOUBLE_FORFEIT
            else:
                result = Result.BLACK_FORFEIT_WIN if white_gone else Result.WHITE_FORFEIT_WIN
            out.append(StandingGame(number, white, black, result, forfeit_after_withdrawal=True))
    return out


def _check_system(system: str) -> None:
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; expected one of {', '.join(SYSTEMS)}")

