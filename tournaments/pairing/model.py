"""Plain frozen dataclasses in and out of the Swiss engine (no ORM, no Django).

Points are integers in the tournament's own scale (2/1/0 for draughts by default). The engine only
compares scores and score differences, so chess 1/0.5/0 data can be fed as 2/1/0 without loss.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from tournaments.results import Result

Colour = Literal["w", "b"]
Order = Literal["rating", "standing"]


@dataclass(frozen=True)
class PointSystem:
    """Points per outcome; FMJD 5.6/5.7 and the FFJD bye by default."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2  # pairing-allocated bye
    forfeit_win: int = 2
    excused: int = 0  # zero-point bye asked for in advance


@dataclass(frozen=True)
class PlayedRound:
    """One round of one player's history, seen from that player.

    `played` is False for forfeits and every kind of bye: such rounds count for no colour (the colour of
    a forfeit is kept for the record only) and, for the rematch rule, no meeting (bbpPairings and
    JaVaFo let forfeit opponents meet again).
    """

    opponent: int | None = None
    colour: Colour | None = None
    points: int = 0
    played: bool = True
    pab: bool = False  # pairing-allocated bye
    requested: bool = False  # a bye asked for in advance: Z (0 points), H (a draw's), F (a win's)
    # What the engine does not need but a TRF must say: a game not rated (W D L) and a postponed game
    # counted as a draw for now (TRF "?").
    rated: bool = True
    postponed: bool = False

    @classmethod
    def from_result(
        cls, result: Result, *, as_white: bool, opponent: int | None, points: PointSystem | None = None
    ) -> PlayedRound:
        """Build the entry from the shared result codes (tournaments.results)."""
        ps = points or PointSystem()
        if result is Result.BYE:
            return cls(None, None, ps.bye, played=False, pab=True)
        if result is Result.EXCUSED:
            return cls(None, None, ps.excused, played=False, requested=True)
        if result is Result.EXCUSED_DRAW:
            return cls(None, None, ps.draw, played=False, requested=True)
        if result is Result.EXCUSED_WIN:
            # TRF "F": a win without playing, so no pairing-allocated bye afterwards (C2), as bbpPairings reads it
            return cls(None, None, ps.win, played=False, requested=True)
        if result is Result.NOT_PLAYED:
            return cls(None, None, 0, played=False)
        mine, theirs = result.points(ps.bye) if as_white else result.points(ps.bye)[::-1]
        if result.is_forfeit:
            won = mine > theirs
            return cls(opponent, "w" if as_white else "b", ps.forfeit_win if won else ps.loss, played=False)
        colour: Colour = "w" if as_white else "b"
        if result.is_ruling:
            # 1-0, 0-1, 0-0: a draw's points or a loss's for each side, whatever the other got
            return cls(opponent, colour, ps.draw if mine == 1 else ps.loss, played=True)
        scaled = ps.win if mine > theirs else ps.draw if mine == theirs else ps.loss
        return cls(opponent, colour, scaled, played=True, rated=not result.is_unrated, postponed=result.is_postponed)

    @classmethod
    def absent(cls, points: int = 0) -> PlayedRound:
        """A round the player was not paired in (late entry, excused, withdrawn for a while)."""
        return cls(None, None, points, played=False)


@dataclass(frozen=True)
class SwissPlayer:
    id: int
    pairing_number: int  # 1..n, the initial ranking (rating order)
    rating: int = 0
    name: str = ""
    history: tuple[PlayedRound, ...] = ()  # rounds 1..r-1; shorter for a late entry (padded as absent)
    withdrawn: bool = False  # not paired any more
    excused: bool = False  # zero-point bye for the round being paired
    standing_key: tuple[Any, ...] = ()  # smaller is better; used with order="standing"

    @property
    def score(self) -> int:
        return sum(r.points for r in self.history)


@dataclass(frozen=True)
class PairingRequest:
    players: tuple[SwissPlayer, ...]
    round: int  # the round to pair, 1-based
    total_rounds: int
    points: PointSystem = PointSystem()
    order: Order = "rating"
    # For order="standing": a key per player (smaller first) overriding SwissPlayer.standing_key.
    standing: Callable[[SwissPlayer], Hashable] | None = None
    forbidden_pairs: frozenset[frozenset[int]] = frozenset()
    initial_colour: Colour = "w"  # XXC white1 / black1

    @staticmethod
    def forbid(pairs: Iterable[tuple[int, int]]) -> frozenset[frozenset[int]]:
        return frozenset(frozenset(p) for p in pairs)


@dataclass(frozen=True)
class Board:
    white: int
    black: int


@dataclass(frozen=True)
class Pairing:
    """A proposed round: what the engine returns and what an arbiter may edit."""

    boards: tuple[Board, ...]
    bye: int | None = None


# Quality criteria by their number in the 2025 text of C.04.3 (the one bbpPairings v6 implements).
CRITERIA = {
    "C5": "score of the pairing-allocated bye's assignee",
    "C6": "players not paired in their bracket (downfloaters)",
    "C7": "scores of the downfloaters",
    "C8": "the next bracket",
    "C9": "unplayed games of the pairing-allocated bye's assignee",
    "C10": "topscorers' colour difference beyond 2",
    "C11": "topscorers' same colour three times",
    "C12": "colour preference",
    "C13": "strong colour preference",
    "C14": "same downfloat as last round",
    "C15": "same upfloat as last round",
    "C16": "same downfloat as two rounds before",
    "C17": "same upfloat as two rounds before",
    "C18": "score differences of C14 floaters",
    "C19": "score differences of C15 floaters",
    "C20": "score differences of C16 floaters",
    "C21": "score differences of C17 floaters",
}

# The colour rules (C.04.3 E, 2025 text 5.2) as codes; words for people are made at the edge.
COLOUR_RULES = {
    "E1": "both get the colour they prefer (or the only preference there is)",
    "E2": "the stronger preference wins",
    "E3": "alternate from the last round they had different colours",
    "E4": "the higher ranked player gets his preference",
    "E5": "no preference: by the higher ranked player's pairing number",
}


@dataclass(frozen=True)
class BracketReport:
    score: int
    residents: tuple[int, ...]
    moved_down: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]  # (higher ranked, lower ranked)
    downfloaters: tuple[int, ...]
    upfloaters: tuple[int, ...]
    unmet: tuple[tuple[str, int], ...]  # (criterion code as in CRITERIA, number of players concerned)
    completion_search: bool = False  # the bracket had to look at the whole rest of the round (C4)


@dataclass(frozen=True)
class ColourReport:
    white: int
    black: int
    rule: str  # "E1" to "E5"


@dataclass(frozen=True)
class ByeReport:
    """Why the pairing-allocated bye went where it went."""

    player: int
    score: int
    lowest_score: int  # the lowest score among the players paired this round
    passed_over: tuple[int, ...]  # lower (or equal) scored players who may not have it (C2: a bye already)
    c9: bool  # C9 decided among several players of his score: he has played the most games
    played: int  # games he has played over the board


@dataclass(frozen=True)
class Explanation:
    round: int
    brackets: tuple[BracketReport, ...] = ()
    bye: int | None = None
    notes: tuple[str, ...] = ()
    colours: tuple[ColourReport, ...] = ()  # in board order
    bye_report: ByeReport | None = None

    def as_text(self) -> str:
        """English, for the command line; the admin builds its own words (tournaments.rounds.pairing_bridge)."""
        lines = [f"Round {self.round}: Dutch system (C.04.3), {len(self.brackets)} bracket(s)"]
        for b in self.brackets:
            kind = "heterogeneous" if b.moved_down else "homogeneous"
            lines.append(f"- score group {b.score} ({kind}): residents {_ids(b.residents)}")
            if b.moved_down:
                lines.append(f"    moved down into it: {_ids(b.moved_down)}")
            lines.append("    pairs: " + (", ".join(f"{a}-{c}" for a, c in b.pairs) or "none"))
            if b.downfloaters:
                lines.append(f"    float down to the next bracket: {_ids(b.downfloaters)}")
            if b.upfloaters:
                lines.append(f"    float up (paired with a moved-down player): {_ids(b.upfloaters)}")
            for crit, n in b.unmet:
                lines.append(f"    not met: {crit} {CRITERIA.get(crit, '')} ({n})")
            if b.completion_search:
                lines.append("    the rest of the round could not be completed otherwise (C4)")
        if self.bye is not None:
            lines.append(f"Pairing-allocated bye: {self.bye}")
        for c in self.colours:
            lines.append(f"  {c.white}-{c.black}: {c.rule} {COLOUR_RULES[c.rule]}")
        lines.extend(self.notes)
        return "\n".join(lines)


def _ids(ids: tuple[int, ...]) -> str:
    return " ".join(str(i) for i in ids) or "none"


@dataclass(frozen=True)
class PairingResult:
    boards: tuple[Board, ...]  # ordered as C.04.2 orders boards
    bye: int | None
    excused: tuple[int, ...] = ()
    unpaired: tuple[int, ...] = ()  # could not be paired at all (absolute criteria); normally empty
    explanation: Explanation = field(default_factory=lambda: Explanation(0))

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.boards, self.bye)


@dataclass(frozen=True)
class Violation:
    criterion: str  # e.g. "C1 rematch", "C3 colour"
    players: tuple[int, ...]
    detail: str


@dataclass(frozen=True)
class CheckReport:
    violations: tuple[Violation, ...]
    differs: bool  # not what the engine would pair
    engine: Pairing
    only_proposed: tuple[tuple[int, int | None], ...] = ()
    only_engine: tuple[tuple[int, int | None], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations
