"""Canonical PDN output: the seven-tag roster, GameType "20", FEN only when the game does not start from
the initial position, short notation with the full path only when ambiguous (PDN 3.0), FMJD results
(2-0, 1-1, 0-2). Reading what was written gives the same game back (tests/rules/test_pdn_writer.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.board import INITIAL_FEN, Board
from rules.pdn.reader import SEVEN_TAG_ROSTER, MoveToken, ParsedGame, PdnError, normalize_result
from rules.types import WHITE, RulesError

__all__ = ["write_game", "write_games", "game_from_board", "canonical_date", "movetext"]

_UNKNOWN = {"Date": "????.??.??", "Result": "*"}
_LINE_WIDTH = 80
_RESULTS = {"2-0", "1-1", "0-2", "0-0", "*"}


def canonical_date(value: str) -> str:
    """YYYY.MM.DD as PDN wants it, from the forms real files use (13-01-1996, 1970.4.2, 2003.03.??)."""
    text = value.strip()
    day_first = re.fullmatch(r"([0-9]{1,2})[-./]([0-9]{1,2})[-./]([0-9]{4})", text)
    if day_first:
        day, month, year = day_first.groups()
        return f"{year}.{int(month):02d}.{int(day):02d}"
    year_first = re.fullmatch(r"([0-9]{4}|\?{4})[-./]([0-9]{1,2}|\?\?)[-./]([0-9]{1,2}|\?\?)", text)
    if year_first:
        year, month, day = year_first.groups()
        return ".".join([year] + [part if "?" in part else f"{int(part):02d}" for part in (month, day)])
    if re.fullmatch(r"[0-9]{4}", text):
        return f"{text}.??.??"
    return text


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def _headers(game: ParsedGame, result: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name in SEVEN_TAG_ROSTER:
        value = game.headers.get(name, "").strip() or _UNKNOWN.get(name, "?")
        if name == "Date":
            value = canonical_date(value)
        elif name == "Result":
            value = result
        out.append((name, value))
    out.append(("GameType", "20"))
    fen = _canonical_fen(game.initial_fen)
    if fen is not None:
        out.append(("FEN", fen))
    skip = {*SEVEN_TAG_ROSTER, "GameType", "FEN"}
    out.extend((name, value) for name, value in game.headers.items() if name not in skip)
    return out


def _canonical_fen(fen: str | None) -> str | None:
    if fen is None:
        return None
    try:
        canonical = Board(fen).fen()
    except RulesError:
        return fen
    return None if canonical == Board(INITIAL_FEN).fen() else canonical


class _Movetext:
    """Collects movetext tokens and numbers them: 'n.' before White, 'n...' before Black after a break."""

    def __init__(self) -> None:
        self.tokens: list[str] = []

    def add(self, text: str) -> None:
        self.tokens.append(text)

    def wrapped(self) -> str:
        lines: list[str] = []
        current = ""
        glue = False  # no space after "(" nor before ")"
        for token in self.tokens:
            if token == ")" or glue:
                current += token
            elif current and len(current) + 1 + len(token) > _LINE_WIDTH:
                lines.append(current)
                current = token
            else:
                current = f"{current} {token}" if current else token
            glue = token == "("
        if current:
            lines.append(current)
        return "\n".join(lines)


def _comment(text: str) -> str:
    # A brace inside a comment would open a nested comment, which PDN forbids.
    return "{" + text.replace("{", "(").replace("}", ")") + "}"


def _annotations(out: _Movetext, token: MoveToken) -> bool:
    """Write NAGs and comments; True when something was written (Black's number must then be repeated)."""
    for nag in token.nags:
        out.add(f"${nag}")
    for comment in token.comments:
        out.add(_comment(comment))
    return bool(token.nags or token.comments)


def _line(out: _Movetext, moves: list[MoveToken], number: int, white: bool, board: Board | None,
          setups: Mapping[int, str] | None = None) -> None:
    """Write one line of play. With a board the moves are rewritten canonically while they are legal;
    from the first move the board does not accept, and in variations, they are written as read."""
    needs_number = True
    for index, token in enumerate(moves):
        if setups and index in setups:
            out.add(f'/FEN "{setups[index]}"/')
            board = _board_or_none(setups[index])
            if board is not None:
                white = board.turn is WHITE
            needs_number = True
        text = token.text
        if board is not None:
            try:
                move = board.parse_move(token.text)
                text = board.notation(move)
                board.push(move)
            except RulesError:
                board = None
        # The number travels with its move so that wrapping never leaves "6." at the end of a line.
        if white:
            out.add(f"{number}. {text}{token.strength}")
        elif needs_number:
            out.add(f"{number}... {text}{token.strength}")
        else:
            out.add(text + token.strength)
        needs_number = _annotations(out, token)
        for variation in token.variations:
            out.add("(")
            _line(out, variation, number, white, None)
            out.add(")")
            needs_number = True
        if not white:
            number += 1
        white = not white


def _board_or_none(fen: str | None) -> Board | None:
    try:
        return Board(fen)
    except RulesError:
        return None


def movetext(game: ParsedGame) -> list[str]:
    """The game's moves, comments, variations and setups as canonical tokens, without the result: what
    write_game writes after the tags. The costly part (every move is played on a board), so a caller that
    writes one game many times with other tags (a tournament's export) may keep it and give it back."""
    if game.refused is not None:
        raise PdnError(f"{game.source} game {game.index} is not written: {game.refused}")
    out = _Movetext()
    for comment in game.comments:
        out.add(_comment(comment))
    for variation in game.leading_variations:
        out.add("(")
        _line(out, variation, 1, True, None)
        out.add(")")
    board = _board_or_none(game.initial_fen)
    white = board.turn is WHITE if board is not None else not (game.initial_fen or "W").startswith("B")
    number = game.moves[0].number if game.moves and game.moves[0].number else 1
    setups = {setup.before_ply: setup.fen for setup in game.setups}
    _line(out, game.moves, number, white, board, setups)
    trailing = [f'/FEN "{s.fen}"/' for s in game.setups if s.before_ply >= len(game.moves)]
    for setup in trailing:
        out.add(setup)
    return out.tokens


def write_game(game: ParsedGame, tokens: list[str] | None = None) -> str:
    """The game as canonical PDN text, ending with a newline; `tokens`: its movetext(), when kept.

    A game the reader refused (another GameType) raises PdnError: writing it with GameType "20" would
    turn it into an international draughts game it never was.
    """
    if game.refused is not None:
        raise PdnError(f"{game.source} game {game.index} is not written: {game.refused}")
    result = game.declared_result or "*"
    result = result if result in _RESULTS else "*"
    headers = _headers(game, result)
    out = _Movetext()
    out.tokens = [*(movetext(game) if tokens is None else tokens), result]
    tags = "\n".join(f'[{name} "{_escape(value)}"]' for name, value in headers)
    return f"{tags}\n\n{out.wrapped()}\n"


def write_games(games: list[ParsedGame]) -> str:
    """Several games, one blank line between them."""
    return "\n".join(write_game(game) for game in games)


def game_from_board(board: Board, headers: Mapping[str, str] | None = None,
                    result: str | None = None) -> ParsedGame:
    """A ParsedGame holding the moves played on `board` (from its starting position), ready to write."""
    start = board.copy()
    moves = []
    while start.move_stack:
        moves.append(start.pop())
    moves.reverse()
    initial = start.fen()
    game = ParsedGame(source="<board>", index=1, line=1, encoding="str", headers=dict(headers or {}))
    if initial != Board().fen():
        game.initial_fen, game.fen_origin = initial, "tag"
    for move in moves:
        game.moves.append(MoveToken(start.notation(move), start.notation(move), 0, 0))
        start.push(move)
    if result is not None:
        game.result_token = normalize_result(result)
    return game
