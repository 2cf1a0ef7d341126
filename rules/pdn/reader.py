"""PDN reader for international draughts game sheets (PDN 3.0, read leniently as real files demand).

The reader never needs the rules engine: it turns text into `ParsedGame` objects whose moves are still
text. Like a forgiving PGN reader it collects problems as `ReadError`s (with file line and column) and
carries on; one broken game never costs the others. The only exception it raises is `PdnError`, and
only for input it cannot treat as text at all.

Decoding policy, the one for every game sheet (PDN 3.0 requires UTF-8; old files are often Windows-1252):
a UTF-16 byte order mark means UTF-16; a UTF-8 one is dropped; then strict UTF-8 is tried, and on failure
the bytes are read as Windows-1252. The encoding used is recorded on every game (`ParsedGame.encoding`).
`decode_pdn(data, strict=True)` is the same policy for an upload that is stored: it refuses (DecodeError)
what the lenient reading would replace.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from rules.pdn.game import (
    RESULTS,
    SEVEN_TAG_ROSTER,
    DecodeError,
    MoveToken,
    ParsedGame,
    PdnError,
    Setup,
    normalize_result,
)
from rules.pdn.gametype import beyond_8x8, read_game_type, to_numeric
from rules.pdn.problems import Problem, ReadError
from rules.types import Severity

__all__ = [
    "PdnError",
    "DecodeError",
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

# Windows-1252 leaves these five bytes undefined.
_CP1252_HOLES = frozenset(b"\x81\x8d\x8f\x90\x9d")


def decode_pdn(data: bytes | str, strict: bool = False) -> tuple[str, str]:
    """Return (text, encoding used): the one decoding policy of game sheets (see the module docstring).

    Lenient (the reader, the command line): what cannot be decoded becomes U+FFFD and reading goes on.
    Strict (an upload that will be stored): NUL bytes, a broken UTF-16 text and bytes that neither UTF-8
    nor Windows-1252 reads raise DecodeError, with a code and where, rather than store a damaged text.
    """
    if isinstance(data, str):
        return (data[1:], "utf-8-sig") if data.startswith("\ufeff") else (data, "str")
    if not isinstance(data, bytes | bytearray | memoryview):
        raise PdnError(f"PDN input must be str or bytes, not {type(data).__name__}")
    raw = bytes(data)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            if strict:
                raise DecodeError("bad_utf16", {"position": exc.start}) from exc
            return raw.decode("utf-16", errors="replace"), "utf-16"
    if strict and b"\x00" in raw:
        raise DecodeError("binary", {})
    label = "utf-8"
    if raw.startswith(b"\xef\xbb\xbf"):
        raw, label = raw[3:], "utf-8-sig"
    try:
        return raw.decode("utf-8"), label
    except UnicodeDecodeError:
        pass
    hole = next((i for i, byte in enumerate(raw) if byte in _CP1252_HOLES), None) if strict else None
    if hole is not None:
        raise DecodeError("unknown_encoding", {"byte": f"0x{raw[hole]:02x}", "offset": hole})
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
  | (?P<move>[0-9]{1,2}(?:[-x:]\ ?[0-9]{1,2})+)(?![\d\w])(?P<strength>[!?]+|\([!?]+\)|\*(?!\S))?
  | (?P<amove>[a-jA-J](?:10|[1-9])(?:[-x:][a-jA-J](?:10|[1-9]))+)(?![\d\w])(?P<astrength>[!?]+|\([!?]+\))?
  | (?P<number>[0-9]+)(?P<dots>\.(?:\.\.)?)
  | (?P<ellipsis>\.\.\.|\u2026)
  | (?P<comment>\{[^{}]*\})
  | (?P<open>\{)
  | (?P<tag>\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]*"(?P<value>(?:[^"\\\r\n]|\\.)*)"[ \t]*\])
  | (?P<badtag>\[)
  | (?P<linecomment>%[^\n]*)
  | (?P<setup>/[^/\n]*/)
  | (?P<nag>\$[0-9]+)
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
        handlers: dict[str, Callable[[re.Match[str], int], int | None]] = {
            "move": self.on_move, "strength": self.on_move, "amove": self.on_alpha_move,
            "astrength": self.on_alpha_move, "dots": self.on_number, "ellipsis": self.on_ellipsis,
            "comment": self.on_comment, "open": self.on_open_brace, "tag": self.on_tag, "badtag": self.on_bad_tag,
            "setup": self.on_setup, "nag": self.on_nag, "lstrength": self.on_strength,
            "lparen": self.on_open_variation, "rparen": self.on_close_variation, "result": self.on_result,
            "junk": self.on_junk,
        }
        self.handlers = handlers

    def where(self, pos: int) -> tuple[int, int]:
        row = bisect.bisect_right(self.line_starts, pos)
        return row, pos - self.line_starts[row - 1] + 1

    def error(self, game: ParsedGame, pos: int, code: str, values: dict[str, object] | None = None,
              severity: Severity = Severity.ERROR) -> None:
        line, column = self.where(pos)
        game.errors.append(ReadError(line, column, code, values or {}, severity))

    def begin(self, pos: int) -> None:
        """Start the next game at `pos`: a fresh game, its main line the only open line."""
        # end = -1 until the game's first token sets its start.
        self.game = ParsedGame(self.source, self.count + 1, self.where(pos)[0], self.encoding, end=-1)
        # Stack of open lines: the main line first, then one entry per open variation; `early_variations`
        # says where a variation opened before any move of its line goes.
        self.open_lines: list[list[MoveToken]] = [self.game.moves]
        self.early_variations: list[list[list[MoveToken]]] = [self.game.leading_variations]
        self.move_number: int | None = None  # the move number just read, for the next move
        self.black_number = False  # that number was written "n..." (a black move)
        self.has_content = False  # the game has content worth reporting (tags, moves, result, setups)
        self.in_movetext = False  # movetext has begun: a tag from now on starts the next game

    def games(self) -> Iterator[ParsedGame]:
        """Each game of the text, yielded when its result (or the next game's first tag) ends it."""
        text = self.text
        end = len(text)
        handlers = self.handlers
        match = _TOKEN.match
        pos = 0
        self.begin(0)
        while pos < end:
            m = match(text, pos)
            if m is None:  # unreachable: junk takes any other character, ws the whitespace at the end
                raise PdnError(f"tokenizer stuck at offset {pos}")
            kind = m.lastgroup
            start = m.end(1)  # after the whitespace in front of the token
            pos = m.end()
            if kind == "ws" or kind == "linecomment":
                continue
            game = self.game
            if not self.has_content and kind != "comment":
                game.line = self.where(start)[0]
            if game.end < 0:
                game.start, game.end = start, 0  # the game's first token, comments included
            resume = handlers[kind or "junk"](m, start)
            if resume is not None:
                pos = resume
            if game is not self.game:  # the token ended that game
                yield self.finish(game, start if kind == "tag" else pos)
        if len(self.open_lines) > 1:
            self.error(self.game, end, "variation_open_at_end")
        if self.has_content:
            yield self.finish(self.game, end)

    # -- one handler a kind of token: each returns where reading resumes when not after the token --------

    def moved(self, token: MoveToken) -> None:
        self.open_lines[-1].append(token)
        self.move_number, self.black_number = None, False
        self.has_content = self.in_movetext = True

    def on_move(self, m: re.Match[str], start: int) -> None:
        raw = m.group("move")
        plain = _SPACES.sub("", raw).replace(":", "x") if " " in raw or ":" in raw else raw
        self.moved(MoveToken(plain, raw, *self.where(start), number=self.move_number, black_number=self.black_number,
                             strength=m.group("strength") or ""))

    def on_alpha_move(self, m: re.Match[str], start: int) -> None:
        raw = m.group("amove")
        self.moved(MoveToken(raw.lower(), raw, *self.where(start), number=self.move_number,
                             black_number=self.black_number, strength=m.group("astrength") or "", alpha=True))

    def on_number(self, m: re.Match[str], start: int) -> None:
        self.move_number = int(m.group("number")) if len(m.group("number")) < 6 else None
        self.black_number = len(m.group("dots")) == 3

    def on_ellipsis(self, m: re.Match[str], start: int) -> None:
        self.black_number = True

    def on_comment(self, m: re.Match[str], start: int) -> None:
        self.add_comment(self.game, self.open_lines, m["comment"][1:-1])

    def on_open_brace(self, m: re.Match[str], start: int) -> int:
        return self.bad_comment(self.game, self.open_lines, start)

    def on_tag(self, m: re.Match[str], start: int) -> None:
        if self.in_movetext:
            if len(self.open_lines) > 1:
                self.error(self.game, start, "variation_open_at_tag")
            self.begin(start)  # games() finishes the game this tag ended
        self.add_tag(self.game, start, m.group("name"), m.group("value"))
        self.has_content = True

    def on_bad_tag(self, m: re.Match[str], start: int) -> int:
        stop = self.text.find("\n", start)
        stop = len(self.text) if stop < 0 else stop
        self.error(self.game, start, "malformed_tag", {"text": self.text[start:stop].strip()[:60]})
        return stop

    def on_setup(self, m: re.Match[str], start: int) -> None:
        self.add_setup(self.game, self.open_lines, start, m["setup"])
        self.has_content = self.in_movetext = True

    def on_nag(self, m: re.Match[str], start: int) -> None:
        text = m["nag"]
        value = int(text[1:]) if len(text) < 6 else _MAX_NAG + 1
        if value > _MAX_NAG:
            self.error(self.game, start, "nag_out_of_range", {"text": text[:8]}, Severity.WARNING)
        elif self.open_lines[-1]:
            self.open_lines[-1][-1].nags.append(value)
        else:
            self.error(self.game, start, "nag_before_move", {"text": text}, Severity.WARNING)

    def on_strength(self, m: re.Match[str], start: int) -> None:
        line = self.open_lines[-1]
        if line and not line[-1].strength:
            line[-1].strength = m["lstrength"]
        else:
            self.error(self.game, start, "strength_without_move", {"text": m["lstrength"]}, Severity.WARNING)

    def on_open_variation(self, m: re.Match[str], start: int) -> int | None:
        lines = self.open_lines
        if len(lines) > _MAX_DEPTH:
            self.error(self.game, start, "nested_too_deep")
            return self.skip_to_game_end(start)
        variation: list[MoveToken] = []
        (lines[-1][-1].variations if lines[-1] else self.early_variations[-1]).append(variation)
        self.early_variations.append(self.early_variations[-1])
        lines.append(variation)
        self.move_number, self.black_number = None, False
        self.has_content = self.in_movetext = True
        return None

    def on_close_variation(self, m: re.Match[str], start: int) -> None:
        if len(self.open_lines) > 1:
            self.open_lines.pop()
            self.early_variations.pop()
            self.move_number, self.black_number = None, False
        else:
            self.error(self.game, start, "unmatched_paren")

    def on_result(self, m: re.Match[str], start: int) -> None:
        if len(self.open_lines) > 1:
            return  # a variation may end with the result its line leads to
        game = self.game
        game.result_raw = m["result"]
        game.result_token = normalize_result(m["result"])
        game.result_line, game.result_column = self.where(start)
        self.begin(m.end())  # games() finishes the game this result ended

    def on_junk(self, m: re.Match[str], start: int) -> None:
        self.error(self.game, start, "unreadable_text", {"text": m["junk"][:40]})
        if len(self.open_lines) == 1:
            self.unreadable(self.game, start, m["junk"])
        self.has_content = self.in_movetext = True

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
        if tag is not None and tag not in RESULTS.values():
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
