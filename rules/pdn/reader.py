"""PDN reader for international draughts game sheets (PDN 3.0, read leniently as real files demand).

The reader never needs the rules engine: it turns text into `ParsedGame` objects whose moves are still
text. Like a forgiving PGN reader it collects problems as `ReadError`s (with file line and column) and
carries on; one broken game never costs the others. The only exception it raises is `PdnError`, and
only for input it cannot treat as text at all.

Decoding policy (PDN 3.0 requires UTF-8; old files are often Windows-1252): a UTF-8 BOM means UTF-8;
otherwise strict UTF-8 is tried, and on failure the bytes are read as Windows-1252. The encoding used
is recorded on every game (`ParsedGame.encoding`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rules.pdn.gametype import beyond_8x8, read_game_type, to_numeric
from rules.pdn.problems import Problem, ReadError
from rules.types import Severity

__all__ = [
    "PdnError",
    "ReadError",
    "MoveToken",
    "Setup",
    "ParsedGame",
    "decode_pdn",
    "read_games",
    "iter_games",
    "read_game",
    "read_file",
    "normalize_result",
    "SEVEN_TAG_ROSTER",
]

SEVEN_TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


# Every result spelling seen in draughts files, mapped to the FMJD form (2 points a win).
_RESULTS: dict[str, str] = {
    "2-0": "2-0", "0-2": "0-2", "1-1": "1-1", "0-0": "0-0", "*": "*",
    "1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1", "\u00bd-\u00bd": "1-1",
}


class PdnError(Exception):
    """The reader's only exception: input that cannot be read as PDN text at all."""


@dataclass
class MoveToken:
    """One move as written on the sheet, with where it stands in the file and what annotates it."""

    text: str  # normalised: padding removed, ':' read as 'x' ("47x 9" -> "47x9")
    raw: str  # exactly as written
    line: int
    column: int
    number: int | None = None  # the move number written just before it, if any
    black_number: bool = False  # the number was written "n..." (a black move)
    strength: str = ""  # art. 9 signs: ! ? !! ?? !? ?! (or * for a forced move, art. 9.1.9)
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # comments after the move, text without braces
    clocks: list[str] = field(default_factory=list)  # "[%clock ...]" / "[%clk ...]" found in those comments
    variations: list[list[MoveToken]] = field(default_factory=list)  # alternatives to this move
    alpha: bool = False  # written in alphanumeric notation (d4-e5); `text` is numeric once it is read


@dataclass(frozen=True)
class Setup:
    """A `/FEN "..."/` setup met in the main line, before the move of index `before_ply`."""

    fen: str
    before_ply: int
    line: int
    column: int


@dataclass
class ParsedGame:
    source: str
    index: int  # 1-based position of the game in its file
    line: int  # where the game starts in the file
    encoding: str
    headers: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    setups: list[Setup] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # comments before the first move
    leading_variations: list[list[MoveToken]] = field(default_factory=list)  # "(...)" before any move
    result_token: str | None = None  # normalised result written after the moves
    result_raw: str | None = None
    result_line: int = 0
    result_column: int = 0
    errors: list[ReadError] = field(default_factory=list)
    initial_fen: str | None = None  # None: the standard initial position
    fen_origin: str | None = None  # "tag" or "setup"
    refusal: ReadError | None = None  # why the game is not international draughts, when it is not
    alphanumeric: bool = False  # the GameType tag says the moves are written a1-j10
    # The first text of the main line that is no move (e.g. 8x8 "c3-d4"): the sheet cannot be followed
    # from there. None when every token of the main line is read.
    unreadable: ReadError | None = None
    unreadable_text: str = ""  # that text as written
    # Where the game stands in the decoded text: text[start:end] is the game, from its first token to its
    # result (or to the next game's first tag): what a round upload stores on a board.
    start: int = 0
    end: int = 0

    @property
    def tag_result(self) -> str | None:
        value = self.headers.get("Result")
        return None if value is None else normalize_result(value)

    @property
    def declared_result(self) -> str | None:
        """The result the sheet claims: the token after the moves, else the Result tag ('*' = none)."""
        for value in (self.result_token, self.tag_result):
            if value is not None and value != "*":
                return value
        return self.result_token or self.tag_result

    def main_line(self) -> Iterator[MoveToken | Setup]:
        """The main line as typed events, in the order of the sheet: each move, and a setup just before the
        move it precedes (the last one when several stand there; one after the last move sets up nothing)."""
        setups = {setup.before_ply: setup for setup in self.setups}
        if not setups:
            yield from self.moves
            return
        for index, token in enumerate(self.moves):
            if index in setups:
                yield setups[index]
            yield token

    @property
    def refused(self) -> str | None:
        """The refusal in English words (the command line's), None when the game is read."""
        return None if self.refusal is None else self.refusal.message

    @property
    def ok(self) -> bool:
        return not any(e.severity is Severity.ERROR for e in self.errors)


def normalize_result(text: str) -> str:
    """'1-0' -> '2-0', '1/2-1/2' -> '1-1', ...; unknown spellings come back stripped but unchanged."""
    compact = text.replace(" ", "")
    return _RESULTS.get(compact, text.strip())


def decode_pdn(data: bytes | str) -> tuple[str, str]:
    """Return (text, encoding used). See the module docstring for the policy."""
    if isinstance(data, str):
        return (data[1:], "utf-8-sig") if data.startswith("\ufeff") else (data, "str")
    if not isinstance(data, bytes | bytearray | memoryview):
        raise PdnError(f"PDN input must be str or bytes, not {type(data).__name__}")
    raw = bytes(data)
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        # cp1252 leaves five bytes undefined; they become U+FFFD rather than stopping the read.
        return raw.decode("cp1252", errors="replace"), "windows-1252"


# One alternation, tried in order at each position. Results come before moves so that "1-1" is a
# result while "1-10" (no digit may follow a result) is a move; a single space after a separator
# is part of the move because real sheets pad squares ("1- 6", "47x 9").
#
# Whitespace before a token is taken with it (the `lead` group; the token starts where it ends), which
# halves the number of matches; `ws` is left only for whitespace at the end of the text.  No token
# starts with whitespace, so `lead` never takes part of one.
_TOKEN = re.compile(
    r"""
    (?P<lead>\s*)(?:
    (?P<result>(?:2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|\u00bd-\u00bd)(?![\d/-])|\*)
  | (?P<move>\d{1,2}(?:[-x:]\ ?\d{1,2})+)(?![\d\w])(?P<strength>[!?]+|\([!?]+\)|\*(?!\S))?
  | (?P<amove>[a-jA-J](?:10|[1-9])(?:[-x:][a-jA-J](?:10|[1-9]))+)(?![\d\w])(?P<astrength>[!?]+|\([!?]+\))?
  | (?P<number>\d+)(?P<dots>\.(?:\.\.)?)
  | (?P<ellipsis>\.\.\.|\u2026)
  | (?P<comment>\{[^{}]*\})
  | (?P<open>\{)
  | (?P<tag>\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*"(?P<value>(?:[^"\\\r\n]|\\.)*)"[ \t]*\])
  | (?P<badtag>\[)
  | (?P<linecomment>%[^\n]*)
  | (?P<setup>/[^/\n]*/)
  | (?P<nag>\$\d+)
  | (?P<lstrength>[!?]+|\([!?]+\))
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<junk>[^\s\[\]{}()%$]+|\S)
    )
  | (?P<ws>\s+)
    """,
    re.VERBOSE | re.DOTALL,
)
_SETUP_FEN = re.compile(r'/\s*FEN\s*"([^"]*)"\s*/\Z')
_CLOCK = re.compile(r"\[%(?:clock|clk)\b[^\]]*\]")
_SPACES = re.compile(r"\s+")
_NEXT_TAG_LINE = re.compile(r"\n[ \t]*\[[A-Za-z]")
_MAX_DEPTH = 64
_NESTED_SCAN = 1000
_MAX_NAG = 255


class _Reader:
    """One pass over one decoded text; the games are yielded as they complete."""

    def __init__(self, text: str, source: str, encoding: str) -> None:
        self.text = text
        self.source = source
        self.encoding = encoding
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.count = 0

    def where(self, pos: int) -> tuple[int, int]:
        row = bisect.bisect_right(self.line_starts, pos)
        return row, pos - self.line_starts[row - 1] + 1

    def error(self, game: ParsedGame, pos: int, code: str, values: dict[str, object] | None = None,
              severity: Severity = Severity.ERROR) -> None:
        line, column = self.where(pos)
        game.errors.append(ReadError(line, column, code, values or {}, severity))

    def new_game(self, pos: int) -> ParsedGame:
        # end = -1 until the game's first token sets its start.
        return ParsedGame(self.source, self.count + 1, self.where(pos)[0], self.encoding, end=-1)

    def games(self) -> Iterator[ParsedGame]:
        text = self.text
        pos = 0
        end = len(text)
        game = self.new_game(0)
        started = False  # the game has content worth reporting (tags, moves, result, setups)
        body = False  # movetext has begun: a tag from now on starts the next game
        # Stack of open lines: the main line first, then one entry per open variation.
        lines: list[list[MoveToken]] = [game.moves]
        sinks: list[list[list[MoveToken]]] = [game.leading_variations]
        number: int | None = None
        black = False
        match = _TOKEN.match
        while pos < end:
            m = match(text, pos)
            if m is None:  # unreachable: junk takes any other character, ws the whitespace at the end
                raise PdnError(f"tokenizer stuck at offset {pos}")
            kind = m.lastgroup
            start = m.end(1)  # after the whitespace in front of the token
            pos = m.end()
            if kind == "ws" or kind == "linecomment":
                continue
            if not started and kind != "comment":
                game.line = self.where(start)[0]
            if game.end < 0:
                game.start, game.end = start, 0  # the game's first token, comments included
            if kind == "strength":
                kind = "move"
            elif kind == "astrength":
                kind = "amove"
            if kind == "amove":
                raw = m.group("amove")
                token = MoveToken(raw.lower(), raw, *self.where(start), number=number, black_number=black,
                                  strength=m.group("astrength") or "", alpha=True)
                lines[-1].append(token)
                number, black = None, False
                started = body = True
            elif kind == "move":
                raw = m.group("move")
                plain = _SPACES.sub("", raw).replace(":", "x") if " " in raw or ":" in raw else raw
                token = MoveToken(plain, raw, *self.where(start),
                                  number=number, black_number=black, strength=m.group("strength") or "")
                lines[-1].append(token)
                number, black = None, False
                started = body = True
            elif kind == "dots":
                number = int(m.group("number")) if len(m.group("number")) < 6 else None
                black = len(m.group("dots")) == 3
            elif kind == "ellipsis":
                black = True
            elif kind == "comment":
                self.add_comment(game, lines, m[kind][1:-1])
            elif kind == "open":
                pos = self.bad_comment(game, lines, start)
            elif kind == "tag":
                if body:
                    if len(lines) > 1:
                        self.error(game, start, "variation_open_at_tag")
                    yield self.finish(game, start)
                    game = self.new_game(start)
                    lines, sinks = [game.moves], [game.leading_variations]
                    number, black, body = None, False, False
                self.add_tag(game, start, m.group("name"), m.group("value"))
                started = True
            elif kind == "badtag":
                stop = text.find("\n", start)
                stop = end if stop < 0 else stop
                self.error(game, start, "malformed_tag", {"text": text[start:stop].strip()[:60]})
                pos = stop
            elif kind == "setup":
                self.add_setup(game, lines, start, m[kind])
                started = body = True
            elif kind == "nag":
                value = int(m[kind][1:]) if len(m[kind]) < 6 else _MAX_NAG + 1
                if value > _MAX_NAG:
                    self.error(game, start, "nag_out_of_range", {"text": m[kind][:8]}, Severity.WARNING)
                elif lines[-1]:
                    lines[-1][-1].nags.append(value)
                else:
                    self.error(game, start, "nag_before_move", {"text": m[kind]}, Severity.WARNING)
            elif kind == "lstrength":
                if lines[-1] and not lines[-1][-1].strength:
                    lines[-1][-1].strength = m[kind]
                else:
                    self.error(game, start, "strength_without_move", {"text": m[kind]}, Severity.WARNING)
            elif kind == "lparen":
                if len(lines) > _MAX_DEPTH:
                    self.error(game, start, "nested_too_deep")
                    pos = self.skip_to_game_end(start)
                    continue
                variation: list[MoveToken] = []
                (lines[-1][-1].variations if lines[-1] else sinks[-1]).append(variation)
                sinks.append(sinks[-1])
                lines.append(variation)
                number, black = None, False
                started = body = True
            elif kind == "rparen":
                if len(lines) > 1:
                    lines.pop()
                    sinks.pop()
                    number, black = None, False
                else:
                    self.error(game, start, "unmatched_paren")
            elif kind == "result":
                if len(lines) > 1:
                    continue  # a variation may end with the result its line leads to
                game.result_raw = m[kind]
                game.result_token = normalize_result(m[kind])
                game.result_line, game.result_column = self.where(start)
                yield self.finish(game, pos)
                game = self.new_game(pos)
                lines, sinks = [game.moves], [game.leading_variations]
                number, black, started, body = None, False, False, False
            else:  # junk
                self.error(game, start, "unreadable_text", {"text": m["junk"][:40]})
                if len(lines) == 1:
                    self.unreadable(game, start, m["junk"])
                started = body = True
        if len(lines) > 1:
            self.error(game, end, "variation_open_at_end")
        if started:
            yield self.finish(game, end)

    def unreadable(self, game: ParsedGame, pos: int, text: str) -> None:
        line, column = self.where(pos)
        found = ReadError(line, column, "not_a_move", {"text": text[:40]})
        if game.unreadable is None or (line, column) < (game.unreadable.line, game.unreadable.column):
            game.unreadable, game.unreadable_text = found, text[:40]

    def add_comment(self, game: ParsedGame, lines: list[list[MoveToken]], comment: str) -> None:
        line = lines[-1]
        if line:
            line[-1].comments.append(comment)
            line[-1].clocks.extend(_CLOCK.findall(comment))
        elif len(lines) == 1:
            game.comments.append(comment)

    def bad_comment(self, game: ParsedGame, lines: list[list[MoveToken]], start: int) -> int:
        """A '{' whose comment is nested or never closed; returns where reading resumes."""
        text = self.text
        close = text.find("}", start + 1)
        inner = text.find("{", start + 1)
        if close < 0:
            self.error(game, start, "comment_not_closed")
            # Resume at the next line that starts a tag pair so that later games survive.
            nxt = _NEXT_TAG_LINE.search(text, start)
            return len(text) if nxt is None else nxt.start() + 1
        line, column = self.where(start)
        self.error(game, inner, "nested_comment", {"line": line, "column": column})
        # Skip the whole nested construct by counting braces; the scan is bounded so that text full
        # of braces cannot make reading quadratic.
        depth = 0
        pos = start
        limit = min(len(text), start + _NESTED_SCAN)
        while pos < limit:
            char = text[pos]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    self.add_comment(game, lines, text[start + 1:pos])
                    return pos + 1
            pos += 1
        return close + 1

    def skip_to_game_end(self, start: int) -> int:
        nxt = _NEXT_TAG_LINE.search(self.text, start)
        return len(self.text) if nxt is None else nxt.start() + 1

    def add_tag(self, game: ParsedGame, pos: int, name: str, value: str) -> None:
        value = value.replace('\\"', '"').replace("\\\\", "\\")
        if name in game.headers:
            self.error(game, pos, "duplicate_tag", {"name": name, "value": value}, Severity.WARNING)
        game.headers[name] = value
        if name == "FEN":
            game.initial_fen, game.fen_origin = value.strip(), "tag"
        elif name == "GameType":
            kind = read_game_type(value)
            game.alphanumeric = kind.alphanumeric
            if kind.refusal:
                game.refusal = ReadError(*self.where(pos), kind.refusal.code, kind.refusal.values)
                game.errors.append(game.refusal)
            for warning in kind.warnings:
                self.error(game, pos, warning.code, dict(warning.values), Severity.WARNING)

    def add_setup(self, game: ParsedGame, lines: list[list[MoveToken]], pos: int, text: str) -> None:
        found = _SETUP_FEN.match(text)
        if found is None:
            self.error(game, pos, "bad_setup", {"text": text[:60]})
            return
        if len(lines) > 1:
            return  # a setup inside a variation only concerns that variation, which is never replayed
        fen = found.group(1).strip()
        if not game.moves and not game.setups and game.initial_fen is None:
            game.initial_fen, game.fen_origin = fen, "setup"
            return
        line, column = self.where(pos)
        game.setups.append(Setup(fen, len(game.moves), line, column))

    def read_alphanumeric(self, game: ParsedGame) -> None:
        """Turn a1-j10 moves into FMJD numbers when the game is 10x10, else mark the first unreadable."""
        tokens = [t for t in _all_tokens(game.moves) if t.alpha]
        if not tokens:
            return
        main = [t for t in game.moves if t.alpha]
        if not game.alphanumeric and not any(beyond_8x8(t.text) for t in tokens):
            if main:
                first = main[0]
                _mark(game, first, Problem("alpha_8x8"))
            return
        if not game.alphanumeric:
            first = tokens[0]
            game.errors.append(ReadError(first.line, first.column, "alpha_without_game_type",
                                         severity=Severity.WARNING))
        for token in tokens:
            numeric, bad_square = to_numeric(token.text)
            if bad_square is None:
                token.text = numeric
                continue
            token.text = ""
            if any(token is t for t in main):
                _mark(game, token, Problem("not_dark_square", {"square": bad_square}))

    def finish(self, game: ParsedGame, stop: int) -> ParsedGame:
        game.end = max(game.start, len(self.text[game.start:stop].rstrip()) + game.start)
        self.read_alphanumeric(game)
        if game.unreadable is not None:
            # Only moves written before it are replayed: what follows cannot be placed on the board.
            cut = (game.unreadable.line, game.unreadable.column)
            game.moves[:] = [t for t in game.moves if (t.line, t.column) < cut]
        self.count += 1
        game.index = self.count
        tag = game.tag_result
        if tag is not None and tag not in _RESULTS.values():
            line = game.line
            game.errors.append(ReadError(line, 1, "bad_result_tag", {"value": game.headers["Result"]},
                                         Severity.WARNING))
        return game


def _mark(game: ParsedGame, token: MoveToken, problem: Problem) -> None:
    """Record an unreadable move as an error, and as the game's first unreadable one when it is."""
    found = ReadError(token.line, token.column, problem.code, {"text": token.raw, **problem.values})
    game.errors.append(found)
    if game.unreadable is None or (found.line, found.column) < (game.unreadable.line, game.unreadable.column):
        game.unreadable, game.unreadable_text = found, token.raw


def _all_tokens(line: list[MoveToken]) -> Iterator[MoveToken]:
    for token in line:
        yield token
        for variation in token.variations:
            yield from _all_tokens(variation)


def iter_games(data: bytes | str, source: str = "<pdn>") -> Iterator[ParsedGame]:
    """Yield the games of a PDN text one by one (see `read_games`)."""
    text, encoding = decode_pdn(data)
    yield from _Reader(text, source, encoding).games()


def read_games(data: bytes | str, source: str = "<pdn>") -> list[ParsedGame]:
    """Every game of a PDN text, in order; each carries its own `errors`."""
    return list(iter_games(data, source))


def read_game(data: bytes | str, source: str = "<pdn>") -> ParsedGame:
    """The first game of a PDN text; PdnError when there is none."""
    for game in iter_games(data, source):
        return game
    raise PdnError(f"{source}: no game found")


def read_file(path: str | Path) -> list[ParsedGame]:
    """Read a PDN file from disk; the source recorded on each game is the path as given."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PdnError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return read_games(data, str(path))
