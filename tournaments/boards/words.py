"""The words for reports, in the reader's language: a verdict's codes and a board's state as sentences."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from tournaments.boards.reports import AGREED, DISPUTED, SINGLE, BoardState
from tournaments.sheets.words import article_words, at_move


def result_words(result: str) -> str:
    return {"2-0": _("White wins (2-0)"), "1-1": _("Draw (1-1)"), "0-2": _("Black wins (0-2)")}.get(result, result)


def verdict_words(verdict: Mapping[str, Any], result: str) -> str:
    """'the moves confirm 2-0', 'the game ends in a drawn position', 'illegal move 23, White'."""
    code = verdict.get("code")
    board = verdict.get("board_result")
    if code == "confirms":
        if board == "1-1":
            return _("the game ends in a drawn position (art. %(article)s): the moves confirm 1-1") % {
                "article": verdict.get("article") or "6"}
        return _("the moves confirm %(result)s") % {"result": result}
    if code == "contradicts":
        if board == "1-1":
            return _("the game ends in a drawn position, not %(result)s") % {"result": result}
        return _("the moves end the game %(board)s, not %(result)s") % {"board": board, "result": result}
    if code == "illegal":
        return _("illegal move: %(where)s (%(what)s)") % {
            "where": at_move(verdict.get("move"), verdict.get("side")), "what": article_words(verdict.get("rule"))}
    if code == "unreadable":
        return _("“%(text)s” is not a move") % {"text": verdict.get("text", "")}
    if code == "played_on":
        return _("moves go on after the end of the game")
    if code == "refused":
        return _("the file is not international draughts")
    if code == "not_over":
        return _("the game is not over on the board after %(where)s: the moves cannot confirm %(result)s") % {
            "where": at_move(verdict.get("move"), verdict.get("side")), "result": result}
    return ""


def side_words(side: str) -> str:
    return _("White") if side == "w" else _("Black")


def state_words(state: BoardState) -> str:
    if state.state == AGREED:
        return _("agreed: %(result)s") % {"result": state.result}
    if state.state == DISPUTED:
        assert state.white is not None and state.black is not None
        return _("disputed: White says %(white)s, Black says %(black)s") % {
            "white": state.white.result, "black": state.black.result}
    if state.state == SINGLE:
        return (_("reported by White: %(result)s") if state.side == "w" else
                _("reported by Black: %(result)s")) % {"result": state.result}
    return ""
