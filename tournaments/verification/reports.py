"""What the checker finds, as data (codes and numbers): one round, one player's rank, a whole file."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.pairing.model import Violation


@dataclass(frozen=True)
class RoundCheck:
    round: int
    only_file: tuple[tuple[int, int | None], ...] = ()  # (white, black) / (bye, None) in the file only
    only_engine: tuple[tuple[int, int | None], ...] = ()
    colours: tuple[tuple[int, int], ...] = ()  # pairs the file and the engine colour the other way
    violations: tuple[Violation, ...] = ()
    unpaired: tuple[int, ...] = ()  # players the engine could not pair at all

    @property
    def pairs_differ(self) -> bool:
        return bool(self.only_file or self.only_engine)

    @property
    def ok(self) -> bool:
        return not (self.pairs_differ or self.colours or self.violations or self.unpaired)


@dataclass(frozen=True)
class RankCheck:
    player: int
    file_rank: int
    lowest: int  # the best rank Damier's standings allow him
    highest: int  # the worst (equal to lowest unless he shares his place)


@dataclass
class FileReport:
    rounds: list[RoundCheck] = field(default_factory=list)
    ranks: list[RankCheck] = field(default_factory=list)
    tiebreaks: list[str] = field(default_factory=list)  # Damier names the standings were checked with
    standings_skipped: str = ""  # code: why the standings were not checked ("" = they were)
    skipped_detail: tuple[int, ...] = ()  # numbers for that code (round, player)
    points: list[tuple[int, float, float]] = field(default_factory=list)  # (player, file, results) differing

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rounds) and not self.ranks and not self.points
