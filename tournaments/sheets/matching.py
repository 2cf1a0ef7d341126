"""Matching the games of a PDN file to a round's pairings: pure Python on plain dataclasses, no ORM.

A game is matched by its players, FMJD id first (tags WhiteFMJDId / BlackFMJDId, read in any case):
an id that is a player of the round wins, with a note when the sheet spells the name otherwise. Else
by name, compared in Latin letters (anyascii transliterates Cyrillic, Greek and the rest), without
accents, case, punctuation and word order, so "Ющенко, Олена", "Yushchenko Olena" and "YUSHCHENKO
Olena" are one player; when no name is equal, a near spelling (rapidfuzz, "Iushchenko" for
"Yushchenko", "Alexei" for "Aleksey") is taken only when one player of the round is clearly nearest,
and the match carries a note saying so. The Round tag must agree with the round when it is given.
A game that fits no pairing, fits one with colours reversed, names a player twice over, or claims a
board another game of the same file already took is listed as unmatched with the reason, never
attached; the arbiter can then give it to a board by hand.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from anyascii import anyascii
from rapidfuzz import process
from rapidfuzz.distance import Indel

from rules.numbers import number_or_none

# Tag spellings accepted for a player's FMJD id; the exporter writes the first one.
FMJD_ID_TAGS = ("FMJDId", "FMJDID", "FmjdId", "FMJD", "Fmjd", "FMJD_ID", "FmjdID")

_NOT_WORD = re.compile(r"[^\w]+")
# Why a game is not matched, or a note on a match: a code and its values (words are made by the reader:
# `english` here for the command line, tournaments.sheets.words.match_words for the pages).
Why = tuple[str, dict[str, Any]]
_ENGLISH = {
    "bad_id": "FMJD id {fmjd!r} is not a number",
    "unknown_id": "no player with FMJD id {fmjd} plays in this round",
    "id_name_differs": "FMJD id {fmjd} is {player}; the sheet spells the name {name!r}",
    "no_name": "no name and no FMJD id",
    "name_ambiguous": "{name!r} fits {n} players of the round; add the FMJD id tag",
    "near": "{name!r} read as {player} (a near spelling)",
    "near_ambiguous": "{name!r} is near to more than one player of the round; add the FMJD id tag",
    "not_player": "{name!r} is not a player of this round",
    "bad_round_tag": "Round tag {value!r} is not a round number",
    "other_round": "the Round tag says round {tagged}, this is round {round}",
    "same_player": "White and Black are the same player ({player})",
    "colours_reversed": "board {board} pairs these players with colours reversed ({player} has White): check the sheet",
    "not_paired": "{white} and {black} do not play each other in round {round}",
    "board_taken": "board {board} was already matched by game {index} of this file: a game is never attached twice",
    "has_sheet": "board {board} already has a sheet; upload with 'replace' to change it",
    "no_round_tag": "no Round tag: matched on the players alone",
    "replaces": "replaces the sheet stored before",
    "refused": "refused: {why}",
    "assigned": "assigned to board {board} by the arbiter",
}


def english(why: Why) -> str:
    code, values = why
    return _ENGLISH[code].format(**values)
# A near spelling is taken when it is this similar (0-100, rapidfuzz Indel similarity of the best word
# order) and the next player of the round is at least MARGIN points further.
NEAR = 80.0
MARGIN = 8.0
_MAX_WORDS = 5  # word orders tried: at most 5! = 120


def fold(text: str) -> str:
    """Latin letters, lower case, no accents: 'Lefèvre' -> 'lefevre', 'Ющенко' -> 'yushchenko'."""
    decomposed = unicodedata.normalize("NFKC", text)
    return anyascii(decomposed).casefold()


def name_key(name: str) -> tuple[str, ...]:
    """A name as a sorted tuple of folded words: both "Surname, Given" and "Given Surname" give the same key."""
    return tuple(sorted(word for word in _NOT_WORD.split(fold(name)) if word))


def player_key(surname: str, given_name: str) -> tuple[str, ...]:
    return name_key(f"{given_name} {surname}")


def similarity(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """How alike two name keys are (0-100), whatever order the words are written in."""
    if not a or not b:
        return 0.0
    target = " ".join(b)
    words = a[:_MAX_WORDS]
    return max(Indel.normalized_similarity(" ".join(order), target) * 100
               for order in itertools.permutations(words))


@dataclass(frozen=True)
class PlayerRef:
    entry_id: int
    surname: str
    given_name: str
    fmjd_id: int | None = None

    @property
    def key(self) -> tuple[str, ...]:
        return player_key(self.surname, self.given_name)

    @property
    def display(self) -> str:
        return f"{self.surname}, {self.given_name}" if self.given_name else self.surname


@dataclass(frozen=True)
class PairingRef:
    game_id: int
    board: int
    white: PlayerRef
    black: PlayerRef | None  # None: a bye, which no sheet can be for
    has_sheet: bool = False


@dataclass(frozen=True)
class SheetHeaders:
    """What the matcher reads from one game of the file."""

    index: int  # 1-based position in the file
    white: str
    black: str
    round: str | None
    white_fmjd: str | None = None
    black_fmjd: str | None = None

    @classmethod
    def from_tags(cls, index: int, tags: Mapping[str, str]) -> SheetHeaders:
        return cls(index, tags.get("White", "").strip(), tags.get("Black", "").strip(),
                   (tags.get("Round") or "").strip() or None,
                   fmjd_tag(tags, "White"), fmjd_tag(tags, "Black"))


@dataclass
class Match:
    index: int
    white: str
    black: str
    game_id: int | None = None  # None: unmatched
    board: int | None = None
    reason: str = ""  # why unmatched, or how it was matched (English, for the command line)
    notes: list[str] = field(default_factory=list)  # English, for the command line
    # The same as codes and values, for the pages to put in the reader's language: why it is unmatched
    # (side "" / "white" / "black", code, values), and the notes on a match (code, values).
    whys: list[tuple[str, Why]] = field(default_factory=list)
    note_whys: list[Why] = field(default_factory=list)

    @property
    def matched(self) -> bool:
        return self.game_id is not None

    def refuse(self, *whys: tuple[str, Why]) -> None:
        """Unmatched, for these reasons: (side or "", why)."""
        self.game_id = self.board = None
        self.whys = list(whys)
        self.reason = "; ".join((f"{side.capitalize()}: " if side else "") + english(code)
                                for side, code in self.whys)

    def note(self, why: Why) -> None:
        self.note_whys.append(why)
        self.notes.append(english(why))

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "white": self.white, "black": self.black, "game_id": self.game_id,
                "board": self.board, "matched": self.matched, "reason": self.reason, "notes": list(self.notes)}


def fmjd_tag(tags: Mapping[str, str], side: str) -> str | None:
    lowered = {name.casefold(): value for name, value in tags.items()}
    for suffix in FMJD_ID_TAGS:
        value = lowered.get(f"{side}{suffix}".casefold())
        if value is not None and value.strip() not in ("", "?", "-"):
            return value.strip()
    return None


def _round_number(value: str | None) -> int | None:
    """'3' -> 3; '3.1' (round 3, board 1, as some files write it) -> 3; '?' and '' -> None."""
    if value is None:
        return None
    head = re.match(r"\s*([0-9]+)", value)
    return number_or_none(head.group(1)) if head else None


class _Index:
    """The round's players, found by FMJD id or by name key; a key two players share finds nobody."""

    def __init__(self, pairings: Sequence[PairingRef]) -> None:
        self.by_id: dict[int, PlayerRef] = {}
        self.by_key: dict[tuple[str, ...], list[PlayerRef]] = {}
        self.keys: list[tuple[str, ...]] = []
        self.letters: list[str] | None = None  # each key's letters, sorted (see `near`)
        for pairing in pairings:
            for player in (pairing.white, pairing.black):
                if player is None:
                    continue
                if player.fmjd_id is not None:
                    self.by_id[player.fmjd_id] = player
                self.by_key.setdefault(player.key, []).append(player)

    def find(self, name: str, fmjd: str | None) -> tuple[PlayerRef | None, Why | None, Why | None]:
        """(player, None, note or None) or (None, why not, None)."""
        named = bool(name) and name != "?" and bool(name_key(name))
        if fmjd is not None:
            fmjd_id = number_or_none(fmjd)
            if fmjd_id is None:
                return None, ("bad_id", {"fmjd": fmjd}), None
            player = self.by_id.get(fmjd_id)
            if player is None:
                return None, ("unknown_id", {"fmjd": fmjd}), None
            if named and name_key(name) != player.key:
                # The id is the federation's: it wins over a spelling (competition sheets are often
                # written in another alphabet or by another hand).
                return player, None, ("id_name_differs", {"fmjd": fmjd, "player": player.display, "name": name})
            return player, None, None
        if not named:
            return None, ("no_name", {}), None
        key = name_key(name)
        found = self.by_key.get(key, [])
        if len(found) == 1:
            return found[0], None, None
        if len(found) > 1:
            return None, ("name_ambiguous", {"name": name, "n": len(found)}), None
        return self.near(name, key)

    def near(self, name: str, key: tuple[str, ...]) -> tuple[PlayerRef | None, Why | None, Why | None]:
        # The similarity of the letters sorted is an upper bound of the similarity of any word order (the
        # longest common subsequence of two strings is at most their common letters): rapidfuzz ranks
        # every player by it at C speed, and only those that could come within MARGIN of NEAR get the
        # word-order search. A file of 80,000 unknown names stays fast.
        if self.letters is None:
            self.keys = list(self.by_key)
            self.letters = ["".join(sorted(" ".join(k))) for k in self.keys]
        found = process.extract("".join(sorted(" ".join(key))), self.letters, scorer=Indel.normalized_similarity,
                                score_cutoff=(NEAR - MARGIN) / 100, limit=None)
        scored = sorted(((similarity(key, self.keys[i]), self.by_key[self.keys[i]]) for _, _, i in found),
                        key=lambda pair: -pair[0])
        if scored and scored[0][0] >= NEAR and len(scored[0][1]) == 1:
            runner_up = scored[1][0] if len(scored) > 1 else 0.0
            player = scored[0][1][0]
            if scored[0][0] - runner_up >= MARGIN:
                return player, None, ("near", {"name": name, "player": player.display})
            return None, ("near_ambiguous", {"name": name}), None
        return None, ("not_player", {"name": name}), None


def match_games(round_number: int, pairings: Sequence[PairingRef], games: Sequence[SheetHeaders],
                replace: bool = False) -> list[Match]:
    """One Match per game of the file, in file order. A pairing is taken at most once; a game whose
    pairing already has a sheet stays unmatched unless `replace` is set."""
    index = _Index(pairings)
    by_players: dict[tuple[int, int], PairingRef] = {}
    for pairing in pairings:
        if pairing.black is not None:
            by_players[(pairing.white.entry_id, pairing.black.entry_id)] = pairing
    taken: dict[int, int] = {}  # game id -> index of the file's game that took it
    out: list[Match] = []
    for game in games:
        match = Match(game.index, game.white, game.black)
        out.append(match)
        tagged = _round_number(game.round)
        if game.round is not None and game.round != "?" and tagged is None:
            match.refuse(("", ("bad_round_tag", {"value": game.round})))
            continue
        if tagged is not None and tagged != round_number:
            match.refuse(("", ("other_round", {"tagged": tagged, "round": round_number})))
            continue
        white, why_white, note_white = index.find(game.white, game.white_fmjd)
        black, why_black, note_black = index.find(game.black, game.black_fmjd)
        if white is None or black is None:
            match.refuse(*([] if why_white is None else [("white", why_white)])
                         + ([] if why_black is None else [("black", why_black)]))
            continue
        if white.entry_id == black.entry_id:
            match.refuse(("", ("same_player", {"player": white.display})))
            continue
        pairing = by_players.get((white.entry_id, black.entry_id))
        if pairing is None:
            reversed_pairing = by_players.get((black.entry_id, white.entry_id))
            if reversed_pairing is not None:
                match.refuse(("", ("colours_reversed", {"board": reversed_pairing.board, "player": black.display})))
            else:
                match.refuse(("", ("not_paired", {"white": white.display, "black": black.display,
                                                  "round": round_number})))
            continue
        if pairing.game_id in taken:
            match.refuse(("", ("board_taken", {"board": pairing.board, "index": taken[pairing.game_id]})))
            continue
        if pairing.has_sheet and not replace:
            match.refuse(("", ("has_sheet", {"board": pairing.board})))
            continue
        taken[pairing.game_id] = game.index
        match.game_id, match.board = pairing.game_id, pairing.board
        match.reason = "by FMJD id" if game.white_fmjd and game.black_fmjd else "by name"
        for note in (note_white, note_black):
            if note is not None:
                match.note(note)
        if tagged is None:
            match.note(("no_round_tag", {}))
        if pairing.has_sheet:
            match.note(("replaces", {}))
    return out
