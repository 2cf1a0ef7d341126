"""A seeded random Swiss tournament: players, draws, forfeits, withdrawals, late entries, excused rounds,
byes asked for in advance worth 0, 1 or 2 points, the unusual results of an arbiter's ruling.

Every round is paired by a pairing function (the Dutch engine by default), so a generated
tournament is also a test of that function, round after round.

Results (results="table"): the expected score of White is the FIDE / FMJD rating table, the normal
distribution with a standard deviation of 2000/7 points (the table of FIDE B.02 8.1.2, which the FMJD
rating regulations use as well), the difference capped at 400 points as both rating rules cap it. A
game is drawn with probability min(draw_rate, 2 x the weaker side's expected score), and White wins
with the rest of his expected score, so every game's expected score is the table's exactly. An
unrated player plays at the middle of the field's ratings. results="elo" is the first generator's
model (a draw at draw_rate, else the logistic Elo curve), kept so its seeds give the same tournaments.
"""

from __future__ import annotations

import math
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
    half_bye_rate: float = 0.0  # per player per round (not the last): a bye asked for, worth a draw (H)
    full_bye_rate: float = 0.0  # the same, worth a win (F)
    double_forfeit_rate: float = 0.0  # per game: both absent, 0-0
    unusual_rate: float = 0.0  # per game: an arbiter's 1-0, 0-1 or 0-0 over the board
    ratings: tuple[int, ...] = ()  # given, best first (0 = unrated); the rest drawn from rating_range
    rating_range: tuple[int, int] = (1200, 2500)  # drawn uniformly, or stepped down with rating_step
    rating_step: int = 0  # >0: the top of rating_range, then one step lower for each next player
    unrated_rate: float = 0.0  # share of players without a rating
    results: str = "elo"  # "table": the FIDE/FMJD expected-score table (see the module's text)
    tiebreaks: tuple[str, ...] = ()  # Damier's names, written as record 202; the ranks follow them
    comments: tuple[str, ...] = ()  # ### lines (the seed and the settings drawn)


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
    """The mix the 1,000-tournament check (bench/pairing.py --absolute) draws from: every feature, at varied rates."""
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
    ratings = _ratings(settings, rng)
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
        requested = _requested_byes(settings, rng, rnd, [pid for pid in present if pid not in excused])
        req = t.request(rnd, excused | frozenset(requested))
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
            t.histories[pid].append(PlayedRound(None, None, ps.excused, played=False, requested=True))
        for pid, value in requested.items():
            t.histories[pid].append(PlayedRound(None, None, value, played=False, requested=True))
        for p in players:
            if len(t.histories[p.id]) < rnd and entry[p.id] <= rnd:
                t.histories[p.id].append(PlayedRound.absent())  # withdrawn, or left unpaired
        t.rounds.append(record)
    return t


def _ratings(s: GenSettings, rng: random.Random) -> list[int]:
    """Best first, as pairing numbers go; 0 for an unrated player (listed last, as C.04.2 puts them)."""
    low, high = s.rating_range
    if s.ratings:
        drawn = list(s.ratings[: s.players])
    elif s.rating_step:
        drawn = [max(high - i * s.rating_step, 0) for i in range(s.players)]
    else:
        drawn = [rng.randint(low, high) for _ in range(s.players)]
    while len(drawn) < s.players:
        drawn.append(rng.randint(low, high))
    if s.unrated_rate:
        drawn = [0 if rng.random() < s.unrated_rate else r for r in drawn]
    return sorted(drawn, reverse=True)


def _requested_byes(s: GenSettings, rng: random.Random, rnd: int, present: list[int]) -> dict[int, int]:
    """Byes asked for in advance worth a draw or a win; never in the last round (C.04.1 and most
    regulations refuse them there)."""
    if rnd >= s.rounds or not (s.half_bye_rate or s.full_bye_rate):
        return {}
    out = {}
    for pid in present:
        x = rng.random()
        if x < s.half_bye_rate:
            out[pid] = s.points.draw
        elif x < s.half_bye_rate + s.full_bye_rate:
            out[pid] = s.points.win
    return out


def expected_score(difference: float) -> float:
    """The FIDE / FMJD table: the stronger side's expected score for a rating difference, capped at 400."""
    d = max(-400.0, min(400.0, difference))
    return 0.5 * math.erfc(-d * 7 / (2000 * math.sqrt(2)))


def _play(b: Board, rng: random.Random, rating: dict[int, int], s: GenSettings) -> GameRecord:
    ps = s.points
    if s.double_forfeit_rate and rng.random() < s.double_forfeit_rate:
        return GameRecord(b.white, b.black, ps.loss, ps.loss, True)
    if s.unusual_rate and rng.random() < s.unusual_rate:
        white, black = rng.choice(((ps.draw, ps.loss), (ps.loss, ps.draw), (ps.loss, ps.loss)))
        return GameRecord(b.white, b.black, white, black, False)
    if s.results == "table":
        return _play_table(b, rng, rating, s)
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


def _play_table(b: Board, rng: random.Random, rating: dict[int, int], s: GenSettings) -> GameRecord:
    ps = s.points
    if rng.random() < s.forfeit_rate:
        white_absent = rng.random() < 0.5
        return GameRecord(b.white, b.black, ps.loss if white_absent else ps.forfeit_win,
                          ps.forfeit_win if white_absent else ps.loss, True)
    rated = [r for r in rating.values() if r] or [1500]
    middle = (min(rated) + max(rated)) / 2
    w, k = rating[b.white] or middle, rating[b.black] or middle
    p = expected_score(w - k)
    draw = min(s.draw_rate, 2 * min(p, 1 - p))
    x = rng.random()
    if x < p - draw / 2:
        return GameRecord(b.white, b.black, ps.win, ps.loss, False)
    if x < p + draw / 2:
        return GameRecord(b.white, b.black, ps.draw, ps.draw, False)
    return GameRecord(b.white, b.black, ps.loss, ps.win, False)


def _entry(g: GameRecord, white: bool, ps: PointSystem) -> PlayedRound:
    opp = g.black if white else g.white
    pts = g.white_points if white else g.black_points
    if g.forfeit:
        return PlayedRound(opp, "w" if white else "b", pts, played=False)
    return PlayedRound(opp, "w" if white else "b", pts, played=True)


def tournament_trf(t: Tournament) -> str:
    """The generated tournament as a TRF(x) file: what `python -m tournaments.verification -g` writes."""
    players = [SwissPlayer(p.id, p.pairing_number, p.rating, p.name, tuple(t.histories[p.id])) for p in t.players]
    s = t.settings
    comments = list(s.comments)
    ranks = None
    if s.tiebreaks:
        ranks, why = final_ranks(t)
        if why:
            comments.append(f"ranks by points and pairing number only: {why}")
    from tournaments.verification.file_check import tiebreak_codes

    return write_trf(
        players,
        total_rounds=s.rounds,
        points=s.points,
        name=f"generated seed {s.seed}",
        initial_colour=s.initial_colour,  # type: ignore[arg-type]
        tiebreaks=tiebreak_codes(s.tiebreaks),
        ranks=ranks,
        comments=comments,
    )


def final_ranks(t: Tournament) -> tuple[dict[int, int] | None, str]:
    """The final ranks by Damier's standings and the tournament's tie-break list (a tie they cannot
    separate goes by pairing number), or (None, why) when a result of the file has no standing (NotScored)."""
    from tournaments.pairing.trf import parse_trf
    from tournaments.verification.file_standings import NotScored, damier_ranks

    s = t.settings
    players = [SwissPlayer(p.id, p.pairing_number, p.rating, p.name, tuple(t.histories[p.id])) for p in t.players]
    trf = parse_trf(write_trf(players, total_rounds=s.rounds, points=s.points))
    try:
        places = damier_ranks(trf, list(s.tiebreaks))
    except NotScored as exc:
        return None, " ".join(str(a) for a in exc.args)
    order = sorted(places, key=lambda pid: (places[pid][0], pid))
    ranks = {pid: i + 1 for i, pid in enumerate(order)}
    for p in t.players:
        ranks.setdefault(p.id, len(ranks) + 1)
    return ranks, ""
