"""Replay a game sheet and give a verdict an arbiter can sign (Annexe I art. 5.4, 5.7, 6, 7; compet. 5.3).

Every ply of the main line is checked on the board. An illegal move is named with the irregularity it
is in art. 5.4 (5.4.1 playing twice in a row, 5.4.2 irregular move of a man or king, 5.4.5 moving an
opponent's piece, 5.4.6 moving while a capture was possible, 5.4.8 capturing fewer or more pieces than
possible) or as a notation fault (art. 8). By art. 5.7 an irregularity the opponent did not contest by
playing on stands: where the sheet fixes the position it leaves, the replay continues from there and
marks the plies that follow; otherwise it stops and says so.

The verdict compares the declared result with the board: wins by 7.2.2 / 7.2.3, draws imposed by
6.1-6.4 with the ply at which they arose, and results the moves cannot confirm (resignation, time,
agreement) reported as "not verifiable from the sheet", which is not an error.
"""

from __future__ import annotations

import dataclasses
import re

from rules.board import Board, PositionKey
from rules.pdn.irregularities import classify_illegal, parse_token
from rules.pdn.reader import MoveToken, ParsedGame, Setup
from rules.report import ERROR, INFO, WARNING, Issue, Report, Step, Verdict
from rules.types import WHITE, Color, Move, Outcome, RulesError, Severity

__all__ = ["Issue", "Report", "Verdict", "Severity", "replay_game", "ERROR", "WARNING", "INFO"]

# A draw may be proposed only once the proposer has played 40 moves (competition rules 5.3).
DRAW_OFFER_MOVES = 40
# After this many irregularities the sheet is more likely miswritten than the game irregular.
MAX_CONTINUATIONS = 3
_WIN = {"2-0": WHITE, "0-2": Color.BLACK}
_SQUARES = re.compile(r"[0-9]+")


class _Replay:
    def __init__(self, game: ParsedGame, recorded_result: str | None) -> None:
        self.game = game
        self.recorded = recorded_result
        self.issues: list[Issue] = []
        self.legal = True
        self.plies = 0
        self.draw: Outcome | None = None
        self.end: Outcome | None = None
        self.first_number = 1
        self.black_first = False
        self.draw_ply = 0
        self.irregular_ply: int | None = None
        self.continuations = 0  # irregularities the replay went on from (art. 5.7)
        self.over_early = False

    def issue(self, ply: int | None, token: MoveToken | None, article: str | None, severity: Severity,
              message: str) -> None:
        number = self.move_number(ply) if ply is not None else None
        self.issues.append(Issue(ply, number, token.raw if token else None, article, severity, message,
                                 token.line if token else None, token.column if token else None,
                                 self.side(ply) if ply is not None else None))

    def side(self, ply: int) -> str:
        white_first = not self.black_first
        return "white" if (ply % 2 == 1) == white_first else "black"

    def move_number(self, ply: int) -> int:
        return self.first_number + (ply - 1 + (1 if self.black_first else 0)) // 2

    def start_board(self) -> Board | None:
        fen = self.game.initial_fen
        if fen is None:
            return Board()
        if fen.startswith("?"):
            # The standard lets the side to move be unknown; the first move tells which side it is.
            fen = self.guess_turn(fen[1:])
        try:
            return Board(fen)
        except RulesError as err:
            self.issue(None, None, "PDN FEN", ERROR, f"the starting position {fen!r} cannot be read: {err}")
            return None

    def guess_turn(self, rest: str) -> str:
        for turn in "WB":
            try:
                board = Board(turn + rest)
            except RulesError:
                break
            if not self.game.moves or parse_token(board, self.game.moves[0]) is not None:
                return turn + rest
        return "W" + rest

    def run(self) -> Report:
        game = self.game
        report = Report(game.source, game.index, game.headers, 0, len(game.moves), True,
                        declared_result=self.recorded or game.declared_result, encoding=game.encoding)
        for error in game.errors:
            self.issues.append(Issue(None, None, None, "PDN", error.severity, error.message, error.line,
                                     error.column, code=error.code, values=error.values))
        if game.refusal is not None:
            report.legal = False
            report.status = Verdict.REFUSED
            report.verdict = "refused: not an international draughts game"
            report.issues = self.issues
            return report
        board = self.start_board()
        if board is None:
            report.legal = False
            report.status = Verdict.BAD_START
            report.verdict = "not verifiable: the starting position cannot be read"
            report.issues = self.issues
            return report
        self.black_first = board.turn is not WHITE
        report.start = board.key()
        if game.moves and game.moves[0].number is not None:
            self.first_number = game.moves[0].number
        board = self.replay_moves(board, report.steps)
        report.plies = self.plies
        report.legal = self.legal and self.plies == len(game.moves)
        report.final_fen = board.fen()
        report.material = _material(board)
        report.irregular_from = self.irregular_ply
        if game.unreadable is not None:
            self.unreadable(report)
        else:
            self.judge(board, report)
        if self.plies:
            report.last_move, report.last_side = self.move_number(self.plies), self.side(self.plies)
        if report.board_ply:
            report.board_move, report.board_side = self.move_number(report.board_ply), self.side(report.board_ply)
        report.issues = self.issues
        return report

    def unreadable(self, report: Report) -> None:
        """The sheet holds text that is no move: nothing after it can be judged, whatever came before."""
        found = self.game.unreadable
        assert found is not None
        report.unreadable = {"text": self.game.unreadable_text, "line": found.line, "column": found.column,
                             "message": found.message}
        report.legal = False
        report.status = Verdict.UNREADABLE
        declared = report.declared_result or "no result"
        report.verdict = (f"unreadable: line {found.line}, column {found.column}: {found.message}; the moves "
                          f"cannot be followed from there, so {declared} cannot be checked")

    def replay_moves(self, board: Board, steps: list[Step]) -> Board:
        """The one walk over the main line: every move checked, the draw rules counted, each position kept."""
        seen: dict[PositionKey, int] = {board.key(): 1}
        kings_only = 0
        index = -1
        for event in self.game.main_line():
            if isinstance(event, Setup):
                board = self.apply_setup(board, index + 2, event)
                seen, kings_only = {board.key(): 1}, 0
                continue
            index += 1
            ply = index + 1
            if event.number is not None:
                self.check_number(ply, event)
            try:
                move: Move | None = board.parse_move(event.text)
            except RulesError:
                move = None
            if move is not None:
                step, moved_man, capture = self.play(board, ply, event, move)
            else:
                played = self.play_irregular(board, index, event)
                if played is None:
                    return board
                board, step, moved_man, capture = played
            self.plies = ply
            steps.append(step)
            kings_only = 0 if moved_man or capture else kings_only + 1
            seen[step.position] = seen.get(step.position, 0) + 1
            if self.draw is None and self.end is None:
                self.watch_draws(board, ply, step.position, seen[step.position], kings_only)
        outcome = board.outcome()
        if outcome is not None and not outcome.is_draw:
            self.end = outcome
        return board

    def play(self, board: Board, ply: int, token: MoveToken, move: Move) -> tuple[Step, bool, bool]:
        """A legal move, with the notation faults of how it is written (art. 8.2); (step, man moved, capture)."""
        white = board.turn is WHITE
        start_piece = board.piece_at(move.start)
        moved_man = start_piece is None or not start_piece.king
        capture = move.is_capture
        if capture and "x" not in token.text:
            self.issue(ply, token, "8.2.3", WARNING,
                       f"capture written with '-' instead of 'x'; read as {board.notation(move)}")
        elif not capture and "x" in token.text:
            self.issue(ply, token, "8.2.2", WARNING, "quiet move written with 'x' instead of '-'")
        board.push(move)
        return Step(white, token.text, board.key(), move.path), moved_man, capture

    def play_irregular(self, board: Board, index: int, token: MoveToken) -> tuple[Board, Step, bool, bool] | None:
        """A move the board refuses, named (art. 5.4, 8) and, when it stands and the sheet fixes where it
        leads (art. 5.7), played: (board after it, step, man moved, capture); None when the replay stops."""
        moves = self.game.moves
        ply = index + 1
        white = board.turn is WHITE
        judged = classify_illegal(board, token, moves[index + 1:])
        self.legal = self.legal and judged.legal
        stands = ""
        if judged.irregularity and judged.after is not None:
            self.continuations += 1
            stands = self.stands_note(index, len(moves))
        self.issue(ply, token, judged.article, judged.severity, judged.message + stands)
        if stands:
            self.issues[-1] = dataclasses.replace(
                self.issues[-1], stands="played_on" if index + 1 < len(moves) else "last_move")
        if judged.article in ("7.2.2", "7.2.3"):
            # The game was over on the board: the verdict is judged there, the rest is surplus.
            self.end = board.outcome()
            self.over_early = True
            return None
        if judged.after is None:
            self.stop(ply, token)
            return None
        if self.continuations > MAX_CONTINUATIONS:
            self.stop(ply + 1, token, "too many irregularities: the sheet is probably miswritten")
            return None
        if judged.irregularity and self.irregular_ply is None:
            self.irregular_ply = ply
        after = judged.after
        step = Step(white, token.text, after.key(), tuple(int(n) for n in _SQUARES.findall(token.text)),
                    judged.article, judged.message, True)
        return after, step, judged.moved_man, judged.capture

    def watch_draws(self, board: Board, ply: int, key: PositionKey, repeats: int, kings_only: int) -> None:
        """Art. 6.1-6.4: asked of the board only when a draw can have arisen (cheap tests first)."""
        small = (key[0] | key[1]).bit_count() <= 4 and key[2] != 0
        if repeats >= 3 or kings_only >= 50 or small:
            outcome = board.outcome()
            if outcome is not None and outcome.is_draw:
                self.draw = outcome
                self.draw_ply = ply

    def stands_note(self, index: int, total: int) -> str:
        if index + 1 < total:
            return ("; the opponent played on, so the irregularity stands (art. 5.7) and the replay "
                    "continues from the position it left")
        return "; it is the last move on the sheet, so the opponent could still have contested it"

    def stop(self, ply: int, token: MoveToken, why: str = "") -> None:
        left = len(self.game.moves) - ply + 1
        reason = why or "the sheet does not fix the position after this move"
        self.issue(ply, token, None, ERROR, f"replay stopped: {reason}; {left} ply(s) from here not checked")

    def apply_setup(self, board: Board, ply: int, setup: Setup) -> Board:
        try:
            new = Board(setup.fen)
        except RulesError as err:
            self.issues.append(Issue(ply, self.move_number(ply), None, "PDN setup", ERROR,
                                     f"setup {setup.fen!r} cannot be read: {err}", setup.line, setup.column))
            return board
        self.issues.append(Issue(ply, self.move_number(ply), None, "5.7", WARNING,
                                 f"the sheet sets up a new position before this ply ({setup.fen}); "
                                 "the replay continues from it", setup.line, setup.column))
        return new

    def check_number(self, ply: int, token: MoveToken) -> None:
        if token.number is None:
            return
        expected = self.move_number(ply)
        if token.number != expected:
            self.issue(ply, token, "8.1", WARNING,
                       f"move number written {token.number}, but this is move {expected}")

    def judge(self, board: Board, report: Report) -> None:
        game = self.game
        tag, token = game.tag_result, game.result_token
        conflict = tag not in (None, "*") and token not in (None, "*") and tag != token
        if conflict:
            self.issue(None, None, "PDN", ERROR,
                       f"the Result tag says {tag} but the sheet ends with {token}; {token} is judged")
        declared = report.declared_result
        if self.recorded and game.declared_result not in (None, "*", self.recorded):
            self.issue(None, None, None, ERROR, f"the tournament recorded {self.recorded} but the sheet "
                       f"declares {game.declared_result}")
        outcome = self.draw or self.end
        if self.draw is not None:
            report.board_result, report.board_article = "1-1", self.draw.article
            report.board_ply = self.draw_ply
        elif self.end is not None:
            report.board_result, report.board_article, report.board_ply = (
                self.end.result(), self.end.article, self.plies)
        complete = self.plies == len(game.moves) or self.over_early
        if not complete:
            report.status = Verdict.INCOMPLETE
            stop = self.plies + 1
            report.verdict = (f"not verifiable: the replay stopped at move {self.move_number(stop)}, "
                              f"{self.side(stop).capitalize()}; the declared {declared or 'result'} cannot be "
                              "checked")
            return
        if declared in (None, "*"):
            report.status = Verdict.NO_RESULT
            found = f"; the board shows {report.board_result}" if report.board_result else ""
            report.verdict = "no result declared" + found
            return
        if not game.moves and declared != "0-0":
            self.issue(None, None, None, WARNING, "the sheet has no moves: the result cannot be checked")
            report.status = Verdict.NOT_VERIFIABLE
            report.verdict = f"not verifiable from the sheet: {declared} declared without moves"
            return
        if outcome is None and conflict:
            report.status = Verdict.CONTRADICTED
            report.verdict = f"contradicted: the sheet declares {tag} in its tag and {token} after the moves"
            return
        if outcome is None:
            report.status = Verdict.NOT_VERIFIABLE
            report.verdict = self.unfinished(declared, board)
            return
        self.finished(declared, outcome, report)

    def finished(self, declared: str, outcome: Outcome, report: Report) -> None:
        board_result = outcome.result()
        if declared == board_result:
            # The game ends where the rules end it (art. 6 imposes the draw, 7.2.2 / 7.2.3 the win; compet.
            # 5.4: "Il doit être fait appel à l'arbitre pour lui faire constater la fin de partie égale
            # réglementaire"). Moves written after that end were no part of the game: the sheet is not the
            # record of the game the result was given for, so they never make the result confirmed.
            if self.draw is not None and self.draw_ply < self.plies:
                self.issue(self.draw_ply, self.game.moves[self.draw_ply - 1], outcome.article, WARNING,
                           f"the draw arose here ({outcome.reason}) but {self.plies - self.draw_ply} more "
                           "ply(s) were played; the arbiter should have been called (compet. 5.4)")
            if (self.draw is not None and self.draw_ply < self.plies) or self.over_early:
                report.status = Verdict.PLAYED_ON
                report.verdict = (f"played on: {declared} by art. {outcome.article} ({outcome.reason}), but the "
                                  "sheet goes on after the end of the game")
                return
            report.status = Verdict.CONFIRMED
            report.verdict = f"confirmed: {declared} by art. {outcome.article} ({outcome.reason})"
            return
        if self.draw is not None and self.end is not None and self.end.result() == declared:
            self.issue(self.draw_ply, self.game.moves[self.draw_ply - 1], self.draw.article, WARNING,
                       f"the rules imposed a draw at ply {self.draw_ply} ({self.draw.reason}); the game went "
                       f"on and ended {declared} by art. {self.end.article}")
            report.status = Verdict.CONTESTED
            report.verdict = (f"contested: declared {declared} is on the board (art. {self.end.article}) but "
                              f"art. {self.draw.article} had already imposed a draw at ply {self.draw_ply}")
            return
        ply = self.draw_ply if self.draw is not None else self.plies
        where = f"move {self.move_number(ply)}, {self.side(ply).capitalize()}" if ply else "the start"
        message = (f"the sheet declares {declared}, but the board shows {board_result} at {where} "
                   f"(art. {outcome.article}: {outcome.reason.rstrip('.')})")
        self.issue(None, None, outcome.article, ERROR, message)
        report.status = Verdict.CONTRADICTED
        report.verdict = f"contradicted: {message}"

    def unfinished(self, declared: str, board: Board) -> str:
        plies = self.plies
        if declared == "1-1":
            # The proposer plays his move, then offers (compet. 5.3): the last mover offered.
            last_mover_moves = (plies + 1) // 2
            if self.game.initial_fen is None and last_mover_moves < DRAW_OFFER_MOVES:
                self.issue(None, None, "compet. 5.3", WARNING,
                           f"draw agreed after {last_mover_moves} move(s) of the last mover; a draw may only "
                           f"be proposed after {DRAW_OFFER_MOVES} moves")
            return "not verifiable from the sheet: a draw by agreement (art. 7.3.1), not imposed on the board"
        if declared in _WIN:
            winner = _WIN[declared].name.capitalize()
            return (f"not verifiable from the sheet: {winner} wins {declared} by resignation or time "
                    "(art. 7.2.1); the position is not over on the board")
        if declared == "0-0":
            return "not verifiable from the sheet: 0-0 (both lose, forfeit) cannot be checked on the board"
        return f"not verifiable from the sheet: {declared!r} is not a draughts result"


def _material(board: Board) -> dict[str, dict[str, int]]:
    # The key's masks hold one bit per piece: counting bits counts pieces.
    white, black, kings, _ = board.key()
    return {"white": {"men": (white & ~kings).bit_count(), "kings": (white & kings).bit_count()},
            "black": {"men": (black & ~kings).bit_count(), "kings": (black & kings).bit_count()}}


def replay_game(game: ParsedGame, recorded_result: str | None = None) -> Report:
    """Replay the main line of a parsed game and judge its result; `recorded_result` is the tournament's
    (2-0 / 1-1 / 0-2) and, when given, is the result that is judged."""
    recorded = None if recorded_result is None else re.sub(r"\s+", "", recorded_result)
    return _Replay(game, recorded).run()

