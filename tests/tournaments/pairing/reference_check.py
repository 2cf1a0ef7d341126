"""Round-by-round check of the Dutch engine against the bbpPairings v6 reference tournaments.

The reference set (../shared/swiss-reference, see its README) holds finished TRF files in which every
round is bbpPairings' own pairing. Round r of a file is checked so:

- cut the file after round r-1: each player keeps his first r-1 round cells, the points column is
  recomputed from them (2/1/0: `1 + W F U` a win, `= D H` a draw, the rest nothing);
- of round r only the byes requested in advance are kept (`0000 - H`, `0000 - Z`, `0000 - F`);
- the cut text is paired exactly as the command line pairs a file (parse_trf, request_from_trf,
  pair_dutch) and compared with the file's round r: every pair, its colours and the bye.

`cut_text` is also what is fed to a bbpPairings binary when one is named (bench/pairing.py
--swiss-reference --reference BIN), which shows the cut reproduces bbpPairings' own pairings.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tournaments.pairing import pair_dutch
from tournaments.pairing.trf import parse_trf, request_from_trf

REFERENCE_DIR = Path(__file__).resolve().parents[3].parent / "shared" / "swiss-reference"
REQUESTED_BYES = ("0000 - H", "0000 - Z", "0000 - F")
_WIN, _DRAW = set("1+WFU"), set("=DH")

Pairs = frozenset[tuple[int, int | None]]  # (white, black) and (bye, None)


def reference_files(max_players: int | None = None, directory: Path = REFERENCE_DIR) -> list[Path]:
    """The reference TRF files, smallest field first; [] when the shared set is absent."""
    if not directory.is_dir():
        return []
    files = sorted(directory.glob("*.trf"), key=lambda p: (players_in(p), p.name))
    return [f for f in files if max_players is None or players_in(f) <= max_players]


def players_in(path: Path) -> int:
    """Players of a reference file, from its name (`ref069-75p9r.trf`)."""
    return int(path.stem.split("-")[1].split("p")[0])


def rounds_in(path: Path) -> int:
    return int(path.stem.split("p")[-1].rstrip("r"))


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _cells(line: str) -> list[str]:
    return [line[pos : pos + 8] for pos in range(91, len(line), 10)]


def cut_text(text: str, rnd: int) -> str:
    """The TRF to pair round `rnd` from: rounds 1..rnd-1, points recomputed, the requested byes of
    round `rnd` in the last column, and `XXR` with the tournament's number of rounds. The reference
    files carry no XXR; bbpPairings refuses to pair a file without it, and its generator paired every
    round knowing the total (which decides who is a topscorer in the last round)."""
    lines = _lines(text)
    total = max((len(_cells(x)) for x in lines if x.startswith("001")), default=0)
    out = [f"XXR {total}"]
    for line in lines:
        if line.startswith("XXR"):
            continue
        if not line.startswith("001"):
            out.append(line)
            continue
        cells = _cells(line)
        kept = cells[: rnd - 1]
        points = sum(2 if c[7:8].upper() in _WIN else 1 if c[7:8].upper() in _DRAW else 0 for c in kept if c.strip())
        if len(cells) >= rnd and cells[rnd - 1] in REQUESTED_BYES:
            kept.append(cells[rnd - 1])
        head = line[:80] + f"{points:4.1f}" + line[84:91]
        out.append((head + "  ".join(kept)).rstrip())
    return "\r".join(out)


def file_pairing(text: str, rnd: int) -> Pairs:
    """Round `rnd` of a finished file: (white, black) of every game and (bye, None)."""
    got: set[tuple[int, int | None]] = set()
    for line in _lines(text):
        if not line.startswith("001"):
            continue
        cells = _cells(line)
        if len(cells) < rnd:
            continue
        me, cell = int(line[4:8]), cells[rnd - 1]
        opp, colour, code = cell[0:4].strip(), cell[5], cell[7]
        if opp in ("", "0000"):
            if code == "U":
                got.add((me, None))
        elif colour == "w":
            got.add((me, int(opp)))
    return frozenset(got)


def engine_pairing(cut: str) -> Pairs:
    """What the engine pairs from a cut file, as the command line does."""
    res = pair_dutch(request_from_trf(parse_trf(cut)))
    got: set[tuple[int, int | None]] = {(b.white, b.black) for b in res.boards}
    if res.bye is not None:
        got.add((res.bye, None))
    return frozenset(got)


def unordered(pairs: Pairs) -> frozenset[frozenset[int | None]]:
    return frozenset(frozenset(p) for p in pairs)


@dataclass(frozen=True)
class RoundCheck:
    file: str
    round: int
    expected: Pairs
    got: Pairs

    @property
    def same_pairs(self) -> bool:
        return unordered(self.expected) == unordered(self.got)

    @property
    def identical(self) -> bool:
        """Same pairs, same colours, same bye."""
        return self.expected == self.got

    def describe(self) -> str:
        if self.identical:
            return f"{self.file} round {self.round}: identical"
        kind = "colours" if self.same_pairs else "pairs"
        only_file = sorted(self.expected - self.got, key=str)
        only_engine = sorted(self.got - self.expected, key=str)
        return f"{self.file} round {self.round}: {kind} differ; file only {only_file}, engine only {only_engine}"


def check_round(path: Path, rnd: int, text: str | None = None) -> RoundCheck:
    text = text if text is not None else path.read_bytes().decode("utf-8")
    return RoundCheck(path.name, rnd, file_pairing(text, rnd), engine_pairing(cut_text(text, rnd)))


def check_file(path: Path) -> list[RoundCheck]:
    text = path.read_bytes().decode("utf-8")
    return [check_round(path, r, text) for r in range(2, rounds_in(path) + 1)]


def all_rounds(files: list[Path]) -> Iterator[tuple[Path, int]]:
    """Every checked round: 2 to the last (round 1 has no history to cut; 1,098 rounds in the set)."""
    for f in files:
        for r in range(2, rounds_in(f) + 1):
            yield f, r


def available() -> bool:
    return REFERENCE_DIR.is_dir() and not os.environ.get("DAMIER_SKIP_SWISS_REFERENCE")
