"""The main line of a sheet as the game page steps through it (positions ply by ply, irregular moves
marked), made from the replay's one pass, and kept with the sheet so that the public page never replays it;
with it, what the tournament's PDN export writes of the sheet (`export_moves`), so no export reads it again.

Replaying a whole sheet on a page view would cost 0.8 s for a 0.9 MB sheet: the line is made
when the sheet is stored or replayed and kept in `GameSheet.line` as plain JSON; it is rebuilt (and kept)
when it is missing or was made by an older version of this format or of the engine's reading.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules import WHITE, Board, Move, PositionKey, RulesError
from rules.geometry import BIT_OF
from rules.pdn import ParsedGame, read_game
from rules.pdn.writer import movetext
from rules.replay import Report, Severity, replay_game

EMPTY = "e"  # an empty square in a position code


def position_code(board: Board) -> str:
    """50 characters, one per square 1-50: w/b men, W/B kings, 'e' empty."""
    out = []
    for sq in range(1, 51):
        piece = board.piece_at(sq)
        out.append(piece.symbol() if piece is not None else EMPTY)
    return "".join(out)


@dataclass(frozen=True)
class Ply:
    number: int  # move number as printed: 1, 1, 2, 2, ... (adjusted for a black first move)
    white: bool
    text: str  # as written on the sheet
    code: str  # the position after it
    squares: tuple[int, ...]  # from, (via...), to: highlighted on the diagram
    note: str = ""  # an irregular move that stands (art. 5.7): the article and what happened


@dataclass
class GameLine:
    """The main line of a sheet replayed on the board as far as the sheet fixes the positions."""

    start: str
    plies: list[Ply] = field(default_factory=list)
    unplayable: list[str] = field(default_factory=list)  # moves written after the last one we can place
    problem: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


def code_of(position: PositionKey) -> str:
    """The position code (see position_code) of a position key (Board.key()), without a board."""
    white, black, kings, _ = position
    out = []
    for sq in range(1, 51):
        bit = BIT_OF[sq]
        if white & bit:
            out.append("W" if kings & bit else "w")
        elif black & bit:
            out.append("B" if kings & bit else "b")
        else:
            out.append(EMPTY)
    return "".join(out)


def line_from_moves(moves: Iterable[str], start: Board | None = None) -> GameLine:
    """Step a list of moves in notation ("32-28", "19x28"...) from the start position (default initial).
    The first illegal move ends the line; line_from_pdn goes further on a sheet."""
    board = start or Board()
    line = GameLine(start=position_code(board))
    number = 1
    texts = list(moves)
    for index, text in enumerate(texts):
        white = board.turn is WHITE
        try:
            move: Move = board.push_notation(text)
        except RulesError as err:
            line.problem = f"{text}: {err}"
            line.unplayable = texts[index:]
            break
        line.plies.append(Ply(number, white, text, position_code(board), tuple(move.path)))
        if not white:
            number += 1
    return line


def line_from_report(report: Report, game: ParsedGame) -> GameLine:
    """The main line as the replay placed it: the same single pass (rules.replay) that gives the verdict
    and the irregularities. An art. 5.4 irregularity the opponent did not contest stands (art. 5.7): when
    the sheet fixes the position it leaves, the line goes on from there with the ply marked; otherwise the
    line ends at that move and the moves after it are listed as unplayable."""
    line = GameLine(start=position_code(Board()), headers=dict(game.headers))
    if report.start is None:
        why = next((issue.message for issue in report.issues if issue.ply is None and issue.article != "PDN"),
                   "the game is not replayed")
        line.problem = f"starting position: {why}"
        line.unplayable = [m.text for m in game.moves]
        return line
    line.start = code_of(report.start)
    number = game.moves[0].number if game.moves and game.moves[0].number else 1
    for step in report.steps:
        note = ((f"art. {step.article}: " if step.article else "") + step.message) if step.irregular else ""
        line.plies.append(Ply(number, step.white, step.text, code_of(step.position), step.squares, note))
        if not step.white:
            number += 1
    stopped = len(report.steps)
    if stopped < len(game.moves):
        token = game.moves[stopped]
        why = next((issue.message for issue in report.issues if issue.ply == stopped + 1), "")
        line.problem = f"{token.raw}: {why}"
        line.unplayable = [m.text for m in game.moves[stopped:]]
    if game.errors and line.problem is None:
        line.problem = "; ".join(str(e) for e in game.errors if e.severity is Severity.ERROR) or None
    return line


# The longest main line a sheet may hold, in plies (the moves of either side). The longest game of the
# PDN corpus has 138; FMJD's draw rules (art. 6.1-6.4) end any real game long before 1,000 moves each.
# Without a bound, a sheet of legal moves written on after the game ended (two kings shuffling: 230,000
# plies in 2 MB) made its game page 38 MB and each export of the tournament's games take seconds.
MAX_PLIES = 2000


def too_long(game: ParsedGame) -> bool:
    return len(game.moves) > MAX_PLIES


def line_from_pdn(text: str) -> GameLine:
    """Read a one-game PDN sheet and replay its main line once (see line_from_report). A sheet over
    MAX_PLIES (stored before the bound, or from a transfer file) is not replayed: its line says why."""
    return _line_of(read_game(text))


def _line_of(game: ParsedGame) -> GameLine:
    if too_long(game):
        return GameLine(start=position_code(Board()), headers=dict(game.headers),
                        problem=f"{len(game.moves)} plies written, more than the {MAX_PLIES} a sheet may hold")
    return line_from_report(replay_game(game), game)


# Raise when the reader, the replay or the writer changes what a line holds: stored lines are then rebuilt
# on view (and by the export).
LINE_FORMAT = 3


def export_moves(game: ParsedGame) -> dict[str, Any] | None:
    """What the tournament's PDN export writes of the sheet after its tags: the starting position and the
    canonical movetext (rules.pdn.writer), made with the line, once per sheet version, so that no export
    reads or replays a sheet again. None when the sheet holds no game to write (another GameType, or a
    sheet over MAX_PLIES)."""
    if game.refused is not None or too_long(game):
        return None
    return {"fen": game.initial_fen, "tokens": movetext(game)}


def line_to_json(line: GameLine, pdn: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"format": LINE_FORMAT, "start": line.start, "problem": line.problem, "unplayable": line.unplayable,
            "headers": line.headers, "pdn": pdn,
            "plies": [[p.number, p.white, p.text, p.code, list(p.squares), p.note] for p in line.plies]}


def line_from_json(data: Any) -> GameLine | None:
    """The stored line, or None when there is none or it is of another format."""
    if not isinstance(data, dict) or data.get("format") != LINE_FORMAT:
        return None
    plies = [Ply(int(n), bool(w), str(t), str(c), tuple(int(s) for s in sq), str(note))
             for n, w, t, c, sq, note in data.get("plies", [])]
    return GameLine(start=str(data["start"]), plies=plies, unplayable=list(data.get("unplayable") or []),
                    problem=data.get("problem"), headers=dict(data.get("headers") or {}))


def kept_line(report: Report, game: ParsedGame) -> dict[str, Any] | None:
    """The line to keep with a sheet, from the replay that judged it; None when it cannot be made (a sheet
    the diagram cannot draw still gets its verdict; the page rebuilds the line)."""
    try:
        if too_long(game):  # a sheet stored before the bound, judged again: its line says why it is empty
            return line_to_json(_line_of(game), None)
        return line_to_json(line_from_report(report, game), export_moves(game))
    except Exception:  # noqa: BLE001
        return None


def build_line(text: str) -> dict[str, Any] | None:
    """The line of a stored text read and replayed afresh (a sheet kept without a line, or by an older format)."""
    try:
        game = read_game(text)
        return line_to_json(_line_of(game), export_moves(game))
    except Exception:  # noqa: BLE001 - as kept_line
        return None


def kept_data(sheet: Any) -> dict[str, Any] | None:
    """The stored line's JSON of a sheet, built once and kept when it is missing or of an older format
    (None when it cannot be built)."""
    data = sheet.line
    if isinstance(data, dict) and data.get("format") == LINE_FORMAT:
        return data
    data = build_line(sheet.text)
    if data is not None:
        # Only the line: a sheet's version says what its text, verdict and ruling are, and this is derived.
        type(sheet).objects.filter(pk=sheet.pk).update(line=data)
        sheet.line = data
    return data


def sheet_line(sheet: Any) -> GameLine:
    """The line of a stored sheet: kept, or built once and kept."""
    line = line_from_json(kept_data(sheet))
    return line if line is not None else line_from_pdn(sheet.text)
