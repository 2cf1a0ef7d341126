"""What the replay of a game sheet returns (rules.replay): the verdict as a code, the issues found, each
position of the one pass, and the report an arbiter signs, as data with English words for the command line.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rules.board import PositionKey
from rules.types import Severity

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


class Verdict(enum.StrEnum):
    """What the sheet shows about its declared result: a code, put in words at the edges."""

    CONFIRMED = "confirmed"  # the board ends the game with the declared result
    CONTRADICTED = "contradicted"  # the board (or the sheet itself) says otherwise
    CONTESTED = "contested"  # the declared result is on the board, but a draw was imposed before it
    PLAYED_ON = "played_on"  # the declared result is on the board, but the sheet goes on after the game ended
    NOT_VERIFIABLE = "not_verifiable"  # resignation, time, agreement: nothing on the board to check
    NO_RESULT = "no_result"  # the sheet declares none
    INCOMPLETE = "incomplete"  # the replay stopped before the end of the sheet
    UNREADABLE = "unreadable"  # text in the main line that is no move
    REFUSED = "refused"  # not international draughts (GameType)
    BAD_START = "bad_start"  # the starting position cannot be read


@dataclass(frozen=True)
class Issue:
    ply: int | None  # 1-based ply of the main line, None for the game as a whole
    move_number: int | None
    move: str | None  # the move as written on the sheet
    article: str | None  # "5.4.6", "8.2", "compet. 5.3", ...
    severity: Severity
    message: str  # English, for the command line; the pages word `article` or `code` themselves
    line: int | None = None
    column: int | None = None
    side: str | None = None  # "white" or "black": whose move it is, for "move 7, Black"
    # For an irregularity the game went on from: "played_on" (the opponent played on: it stands, art. 5.7)
    # or "last_move" (the last move on the sheet: it could still have been contested). Data for the pages.
    stands: str | None = None
    # A reading problem of the PDN reader (article "PDN"): its code and values (rules.pdn.problems).
    code: str | None = None
    values: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ply": self.ply, "move_number": self.move_number, "move": self.move, "article": self.article,
            "severity": str(self.severity), "message": self.message, "line": self.line, "column": self.column,
            "side": self.side, "stands": self.stands}
        if self.code is not None:
            out.update(code=self.code, values=dict(self.values or {}))
        return out

    def describe(self) -> str:
        where = []
        if self.move_number is not None:
            where.append(f"move {self.move_number}" + (f", {self.side.capitalize()}" if self.side else ""))
        if self.move:
            where.append(repr(self.move))
        if self.line is not None:
            where.append(f"line {self.line}:{self.column}")
        article = f"art. {self.article}" if self.article and self.article[0].isdigit() else self.article
        head = f"{self.severity.upper():7} " + (", ".join(where) + ": " if where else "")
        return head + (f"[{article}] " if article else "") + self.message


class Step(NamedTuple):
    """One ply of the main line as the replay placed it on the board: what a game viewer steps through.
    A NamedTuple: one is made every ply, and a frozen dataclass costs the replay a fifth of its time."""

    white: bool  # the side to move before it was White (an irregular move may repeat a side, art. 5.4.1)
    text: str  # the move as written (normalised by the reader)
    position: PositionKey  # the position after it (Board.key(): white, black, kings, White to move)
    squares: tuple[int, ...]  # start, landings, end; for an irregular move, the squares as written
    article: str | None = None  # an irregular move the game went on from: its article...
    message: str = ""  # ...and what happened, in English (the pages word the article)
    irregular: bool = False


@dataclass
class Report:
    file: str
    index: int
    headers: dict[str, str]
    plies: int  # plies replayed on the board
    sheet_plies: int  # plies written in the main line
    legal: bool  # every replayed move was legal and the whole main line was replayed
    issues: list[Issue] = field(default_factory=list)
    declared_result: str | None = None
    board_result: str | None = None
    board_article: str | None = None  # article behind board_result (7.2.2, 7.2.3, 6.1-6.4)
    board_ply: int | None = None  # ply at which the board result arose
    verdict: str = ""
    final_fen: str | None = None
    # Men and kings of each side in the final position: what an arbiter looks at when a resignation
    # cannot be verified from the sheet.
    material: dict[str, dict[str, int]] = field(default_factory=dict)
    # First ply of an irregularity that stands (art. 5.7): every later ply was replayed from the position
    # that irregularity left, not from a legal game.
    irregular_from: int | None = None
    encoding: str = ""  # how the file was decoded (rules.pdn.decode_pdn)
    # What the verdict is, as a code for the edges to put in words (`verdict` is the English sentence).
    status: Verdict | None = None
    # Move number and side ("white"/"black") of the ply where the board result arose and of the last
    # ply replayed: arbiters count moves, not plies.
    board_move: int | None = None
    board_side: str | None = None
    last_move: int | None = None
    last_side: str | None = None
    # The first text of the main line that is no move: {"text", "line", "column", "message"}.
    unreadable: dict[str, Any] | None = None
    # The same pass's positions, for the game viewer (not part of to_dict: pages keep their own line).
    start: PositionKey | None = None
    steps: list[Step] = field(default_factory=list)

    @property
    def has_error(self) -> bool:
        return any(issue.severity == ERROR for issue in self.issues)

    @property
    def clean(self) -> bool:
        return not any(issue.severity in (ERROR, WARNING) for issue in self.issues)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "index": self.index, "headers": dict(self.headers), "plies": self.plies,
                "sheet_plies": self.sheet_plies, "legal": self.legal,
                "issues": [issue.to_dict() for issue in self.issues],
                "declared_result": self.declared_result, "board_result": self.board_result,
                "board_article": self.board_article, "board_ply": self.board_ply, "verdict": self.verdict,
                "final_fen": self.final_fen, "material": self.material, "irregular_from": self.irregular_from,
                "encoding": self.encoding, "clean": self.clean, "status": self.status,
                "unreadable": self.unreadable, "board_move": self.board_move, "board_side": self.board_side,
                "last_move": self.last_move, "last_side": self.last_side}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def text(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        declared = self.declared_result or "none"
        lines = [f"{self.file} game {self.index}: {white} - {black}, declared {declared}"]
        board = self.board_result or "game not finished on the board"
        if self.material:
            board += f"; final position {self.final_fen} ({_describe_material(self.material)})"
        if self.board_article:
            board += f" (art. {self.board_article}, ply {self.board_ply})"
        if self.unreadable is not None:
            lines.append(f"  unreadable at line {self.unreadable['line']}, column {self.unreadable['column']}: "
                         f"{self.unreadable['message']}; {self.plies} ply(s) before it replayed")
        else:
            lines.append(f"  replayed {self.plies}/{self.sheet_plies} plies, "
                         f"{'all legal' if self.legal else 'NOT all legal'}; board: {board}")
        if self.irregular_from is not None:
            lines.append(f"  plies after {self.irregular_from} replayed from the irregular position (art. 5.7)")
        lines.append(f"  verdict: {self.verdict}")
        lines.extend("  " + issue.describe() for issue in self.issues)
        return "\n".join(lines)


def _describe_material(material: dict[str, dict[str, int]]) -> str:
    parts = []
    for side in ("white", "black"):
        counts = material[side]
        kings = f" and {counts['kings']} king(s)" if counts["kings"] else ""
        parts.append(f"{side.capitalize()} {counts['men']} men{kings}")
    return ", ".join(parts)
