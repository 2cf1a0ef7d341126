"""A seeded random Swiss tournament: players, draws, forfeits, withdrawals, late entries, excused rounds.

Every round is paired by a pairing function (the Dutch engine by default), so a generated
tournament is also a test of that function, round after round.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tournaments.pairing.model import (
    Board,
    PairingRequest,
    PairingResult,
    PlayedRound,
    PointSystem,
    SwissPlayer,
)
from tournaments.pairing.trf import write_trf


@dataclass(frozen=True)
class GenSettings:
    players: int = 20
    rounds: int = 7
    draw_rate: float = 0.3
    forfeit_rate: float = 0.02
    withdraw_rate: float = 0.01  # per player per round, from round 2
    late_rate: float = 0.05  # share of players entering in round 2 or 3
    excuse_rate: float = 0.01  # per player per round
    seed: int = 0
    points: PointSystem = PointSystem()
    order: str = "rating"
    initial_colour: str = "w"


@dataclass(frozen=True)
class GameRecord:
    white: int
    black: int
    white_points: int
    black_points: int
    forfeit: bool


@dataclass
class RoundRecord:
    request: PairingRequest
    result: PairingResult
    games: list[GameRecord] = field(default_factory=list)


@dataclass
class Tournament:
    settings: GenSettings
    players: list[SwissPlayer]  # base data: id, pairing number, rating, name
    entry_round: dict[int, int]
    withdrawn_after: dict[int, int]  # id -> last round the player was still in
    histories: dict[int, list[PlayedRound]]
    rounds: list[RoundRecord] = field(default_factory=list)

    def request(self, rnd: int, excused: frozenset[int] = frozenset()) -> PairingRequest:
        """The request for pairing round `rnd` given the histories so far."""
        s = self.settings
        out = []
        for p in self.players:
            if self.entry_round[p.id] > rnd:
                continue
            hist = tuple(self.histories[p.id][: rnd - 1])
            gone = p.id in self.withdrawn_after and self.withdrawn_after[p.id] < rnd
            out.append(
                SwissPlayer(
                    id=p.id,
                    pairing_number=p.pairing_number,
                    rating=p.rating,
                    name=p.name,
                    history=hist,
                    withdrawn=gone,
                    excused=p.id in excused,
                    standing_key=(-p.rating,),
                )
            )
        return PairingRequest(
            players=tuple(out),
            round=rnd,
            total_rounds=s.rounds,
            points=s.points,
            order=s.order,  # type: ignore[arg-type]
            initial_colour=s.initial_colour,  # type: ignore[arg-type]
        )


Pairer = Callable[[PairingRequest], PairingResult]


def random_settings(seed: int, rng: random.Random, max_players: int) -> GenSettings:
    """The mix the issue's 1,000-tournament check draws from: every feature, at varied rates."""
    return GenSettings(
        players=rng.randint(9, max_players),
        rounds=rng.randint(5, 11),
        draw_rate=rng.choice((0.1, 0.3, 0.5)),
        forfeit_rate=rng.choice((0.0, 0.02, 0.05)),
        withdraw_rate=rng.choice((0.0, 0.01, 0.03)),
        late_rate=rng.choice((0.0, 0.05)),
        excuse_rate=rng.choice((0.0, 0.02)),
        seed=seed,
    )


def generate(settings: GenSettings, pair: Pairer | None = None, rounds: int | None = None) -> Tournament:
    """Play `rounds` (default: all) rounds of a random tournament."""
    if pair is None:
        from tournaments.pairing.engine import pair_dutch

        pair = pair_dutch
    rng = random.Random(settings.seed)
    n = settings.players
    ratings = sorted((rng.randint(1200, 2500) for _ in range(n)), reverse=True)
    players = [
        SwissPlayer(id=i + 1, pairing_number=i + 1, rating=r, name=f"Player {i + 1}") for i, r in enumerate(ratings)
    ]
    entry = {p.id: 1 for p in players}
    for p in players:
        if settings.rounds >= 4 and rng.random() < settings.late_rate:
            entry[p.id] = rng.choice((2, 3))
    t = Tournament(settings, players, entry, {}, {p.id: [] for p in players})
    rating = {p.id: p.rating for p in players}
    ps = settings.points
    for rnd in range(1, (rounds or settings.rounds) + 1):
        for p in players:
            if rnd > 1 and entry[p.id] < rnd and p.id not in t.withdrawn_after:
                if rng.random() < settings.withdraw_rate:
                    t.withdrawn_after[p.id] = rnd - 1
        # players entering late missed the earlier rounds
        for p in players:
            while len(t.histories[p.id]) < rnd - 1:
                t.histories[p.id].insert(0, PlayedRound.absent())
        present = [
            p.id
            for p in players
            if entry[p.id] <= rnd and not (p.id in t.withdrawn_after and t.withdrawn_after[p.id] < rnd)
        ]
        excused = frozenset(pid for pid in present if rng.random() < settings.excuse_rate)
        req = t.request(rnd, excused)
        res = pair(req)
        record = RoundRecord(req, res)
        for b in res.boards:
            record.games.append(_play(b, rng, rating, settings))
        for g in record.games:
            t.histories[g.white].append(_entry(g, True, ps))
            t.histories[g.black].append(_entry(g, False, ps))
        if res.bye is not None:
            t.histories[res.bye].append(PlayedRound(None, None, ps.bye, played=False, pab=True))
        for pid in excused:
            t.histories[pid].append(PlayedRound.absent(ps.excused))
        for p in players:
            if len(t.histories[p.id]) < rnd and entry[p.id] <= rnd:
                t.histories[p.id].append(PlayedRound.absent())  # withdrawn, or left unpaired
        t.rounds.append(record)
    return t


def _play(b: Board, rng: random.Random, rating: dict[int, int], s: GenSettings) -> GameRecord:
    ps = s.points
    if rng.random() < s.forfeit_rate:
        white_absent = rng.random() < 0.5
        return GameRecord(
            b.white,
            b.black,
            ps.loss if white_absent else ps.forfeit_win,
            ps.forfeit_win if white_absent else ps.loss,
            True,
        )
    if rng.random() < s.draw_rate:
        return GameRecord(b.white, b.black, ps.draw, ps.draw, False)
    expected = 1 / (1 + 10 ** ((rating[b.black] - rating[b.white]) / 400))
    if rng.random() < expected:
        return GameRecord(b.white, b.black, ps.win, ps.loss, False)
    return GameRecord(b.white, b.black, ps.loss, ps.win, False)


def _entry(g: GameRecord, white: bool, ps: PointSystem) -> PlayedRound:
    opp = g.black if white else g.white
    pts = g.white_points if white else g.black_points
    if g.forfeit:
        return PlayedRound(opp, "w" if white else "b", pts, played=False)
    return PlayedRound(opp, "w" if white else "b", pts, played=True)


def tournament_trf(t: Tournament) -> str:
    """The generated tournament as a TRF(x) file: what `python -m tournaments.pairing -g` writes."""
    players = [SwissPlayer(p.id, p.pairing_number, p.rating, p.name, tuple(t.histories[p.id])) for p in t.players]
    s = t.settings
    return write_trf(
        players,
        total_rounds=s.rounds,
        points=s.points,
        name=f"generated seed {s.seed}",
        initial_colour=s.initial_colour,  # type: ignore[arg-type]
    )
