"""The verdict on a game sheet as one sentence for the arbiter, in the reader's language.

The replay (rules.replay) and the judgement (tournaments.sheets.judge) store codes and values in the
sheet's report; the words are made here, at the edge, with gettext: what the board shows, what the
sheet claims, what the recorded result is, and the article, counted in moves and sides ("move 7,
Black"), never in plies. The status itself (Verified, Result mismatch, ...) is shown beside the
sentence by its label, so the sentence never repeats it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import SheetStatus

MISSING = "missing"


def status_label(status: str) -> str:
    """The words for a sheet status code (never the code itself)."""
    if status == MISSING:
        return _("No sheet")
    try:
        return str(SheetStatus(status).label)
    except ValueError:
        return _("Unknown")


def side_name(side: str | None) -> str:
    return _("White") if side == "white" else _("Black")


def at_move(number: int | None, side: str | None) -> str:
    """'move 7, Black'."""
    if number is None:
        return ""
    return _("move %(number)s, %(side)s") % {"number": number, "side": side_name(side)}


def joined(first: str, second: str) -> str:
    """Two clauses of the sentence: '; ' in English, ' ; ' in French."""
    return _("%(first)s; %(second)s") % {"first": first, "second": second}


def article_words(article: str | None) -> str:
    return _article_words(article)


def _article_words(article: str | None) -> str:
    """What an article of Annexe I says happened, for an irregularity or a notation fault."""
    words = {
        "5.4.1": _("the same side moved twice in a row"),
        "5.4.2": _("an irregular move of a man or king"),
        "5.4.5": _("a piece of the opponent was moved"),
        "5.4.6": _("a move while a capture was compulsory"),
        "5.4.8": _("not the number of pieces that had to be captured"),
        "5.4.9": _("a capture stopped before its end"),
        "7.2.2": _("a move after the game was over (no legal move left)"),
        "7.2.3": _("a move after the game was over (no piece left)"),
        "8.1": _("a square that does not exist"),
        "8.2": _("a move that cannot be read or is ambiguous"),
    }
    return words.get(article or "", _("a move the board does not accept"))


def _end_words(article: str | None, result: str | None) -> str:
    """Why the board ends the game by art. 7.2.2, 7.2.3 or 6.1-6.4."""
    loser = _("Black") if result == "2-0" else _("White")
    words = {
        "7.2.3": _("%(side)s has no piece left") % {"side": loser},
        "7.2.2": _("%(side)s is to move and has no legal move") % {"side": loser},
        "6.1": _("the same position for the third time with the same side to move"),
        "6.2": _("25 moves each with kings only, without capture"),
        "6.3": _("16 moves each in an ending of art. 6.3"),
        "6.4": _("5 moves each in an ending of art. 6.4"),
    }
    return words.get(article or "", "")


def _material(material: Mapping[str, Mapping[str, int]]) -> str:
    parts = []
    for side, name in (("white", _("White")), ("black", _("Black"))):
        counts = material.get(side) or {}
        men, kings = counts.get("men", 0), counts.get("kings", 0)
        pieces = ngettext("%(n)s man", "%(n)s men", men) % {"n": men}
        if kings:
            pieces += " " + ngettext("and %(n)s king", "and %(n)s kings", kings) % {"n": kings}
        parts.append(f"{name} {pieces}")
    return ", ".join(parts)


def _result_words(result: str) -> str:
    return {"2-0": _("2-0 (White wins)"), "0-2": _("0-2 (Black wins)"), "1-1": _("1-1 (draw)"),
            "0-0": _("0-0 (both lose)")}.get(result, result)


def board_part(report: Mapping[str, Any]) -> str:
    """What the board shows, with the first irregularity and its article."""
    replay: Mapping[str, Any] = report.get("replay") or {}
    code = replay.get("status", "")
    if code == "refused" or report.get("refused"):
        game_type = (replay.get("headers") or {}).get("GameType", "?")
        return _("The sheet is not international draughts (GameType %(value)s), so its moves are not "
                 "replayed") % {"value": game_type}
    unreadable = replay.get("unreadable")
    if code == "unreadable" and unreadable:
        before = replay.get("plies", 0)
        text = _("The sheet cannot be read from line %(line)s: %(token)s is not a move of international "
                 "draughts") % {"line": unreadable.get("line"), "token": f"“{unreadable.get('text', '')}”"}
        if before:
            text += _(" (the %(n)s moves before it are legal)") % {"n": replay.get("last_move") or before}
        return text
    if code == "bad_start":
        return _("The starting position of the sheet cannot be read")
    parts = []
    irregular = report.get("irregular") or []
    if irregular:
        first = irregular[0]
        article = first.get("article")
        where = at_move(first.get("move_number"), first.get("side"))
        if article:
            # No "Irregular" here: the status beside the sentence says it already.
            parts.append(_("%(where)s: %(what)s (art. %(article)s)")
                         % {"where": where, "what": _article_words(article), "article": article})
        else:
            parts.append(_("The moves cannot be followed from %(where)s") % {"where": where})
    if code == "incomplete":
        if irregular and irregular[0].get("article"):
            parts.append(_("the moves cannot be followed after it"))
        if not parts:
            return _("The moves cannot be followed to the end")
        return parts[0] if len(parts) == 1 else joined(parts[0], parts[1])
    board = replay.get("board_result")
    if board:
        parts.append(_("the board shows %(result)s at %(where)s: %(why)s (art. %(article)s)") % {
            "result": _result_words(board), "where": at_move(replay.get("board_move"), replay.get("board_side")),
            "why": _end_words(replay.get("board_article"), board), "article": replay.get("board_article")})
        if code == "played_on" and (replay.get("board_ply") or 0) < (replay.get("plies") or 0):
            parts.append(_("yet the sheet goes on to %(where)s, after the end of the game (the arbiter should "
                           "have been called: competition rules 5.4)")
                         % {"where": at_move(replay.get("last_move"), replay.get("last_side"))})
    elif replay.get("plies"):
        parts.append(_("the game is not over on the board after %(where)s (%(material)s)") % {
            "where": at_move(replay.get("last_move"), replay.get("last_side")),
            "material": _material(replay.get("material") or {})})
    else:
        parts.append(_("the sheet has no moves"))
    text = parts[0]
    for part in parts[1:]:
        text = joined(text, part)
    return text[:1].upper() + text[1:]


def claim_part(report: Mapping[str, Any]) -> str:
    """What the sheet claims and what is recorded, and how a claim the board cannot show stands."""
    replay: Mapping[str, Any] = report.get("replay") or {}
    sheet = report.get("sheet_result") or ""
    recorded = report.get("recorded") or ""
    board = replay.get("board_result")
    if sheet:
        claim = _("the sheet declares %(result)s") % {"result": _result_words(sheet)}
        if not board and replay.get("status") == "not_verifiable" and sheet in ("2-0", "0-2"):
            claim += _(" by resignation or time (art. 7.2.1), which the moves cannot confirm")
        elif not board and replay.get("status") == "not_verifiable" and sheet == "1-1":
            claim += _(" by agreement (art. 7.3.1), which the moves cannot confirm")
    else:
        claim = _("the sheet declares no result")
    if not recorded:
        recorded_words = _("no result is recorded yet")
    elif recorded == sheet:
        recorded_words = _("the same result is recorded")
    else:
        recorded_words = _("%(result)s is recorded") % {"result": _result_words(recorded)}
    return joined(claim, recorded_words)


def sentence(report: Mapping[str, Any]) -> str:
    """The whole verdict: '<board>; <claim>.' plus the early-draw note (compet. 5.3) when there is one."""
    if not report:
        return ""
    text = _("%(board)s; %(claim)s.") % {"board": board_part(report), "claim": claim_part(report)}
    early = report.get("early_draw")
    if early:
        text += " " + _("The draw was agreed after %(moves)s moves; a draw may be proposed only after %(limit)s "
                        "(competition rules 5.3).") % {"moves": early.get("moves"), "limit": early.get("limit")}
    return text


def issue_where(issue: Mapping[str, Any]) -> str:
    """Where an issue of the replay is, for the list on the arbiter's sheet page."""
    if issue.get("move_number") is not None:
        return at_move(issue.get("move_number"), issue.get("side"))
    if issue.get("line") is not None:
        return _("line %(line)s") % {"line": issue.get("line")}
    return _("the whole sheet")


_NOTATION_WORDS = {
    "8.2.2": _("a quiet move written with “x” instead of “-”"),
    "8.2.3": _("a capture written with “-” instead of “x”"),
}


def read_problem_words(code: str, values: Mapping[str, Any]) -> str | None:
    """What the PDN reader found wrong (rules.pdn.problems: a code and its values), in the reader's language;
    None for a code this edge does not know (the replay's English is shown then)."""
    v = {k: (f"“{x}”" if k in ("text", "value") else x) for k, x in values.items()}
    words = {
        "variation_open_at_tag": _("a variation is not closed before the next game's tags"),
        "variation_open_at_end": _("a variation is not closed at the end of the file"),
        "malformed_tag": _("malformed tag pair %(text)s"),
        "duplicate_tag": _("tag %(name)s given twice; the later value %(value)s is kept"),
        "nag_out_of_range": _("annotation %(text)s out of range ($0 to $255)"),
        "nag_before_move": _("annotation %(text)s before any move"),
        "strength_without_move": _("move strength %(text)s without a move"),
        "nested_too_deep": _("variations nested too deep"),
        "unmatched_paren": _("“)” without a matching “(”"),
        "unreadable_text": _("unreadable text %(text)s"),
        "not_a_move": _("%(text)s is not a move"),
        "comment_not_closed": _("a comment opened with “{” is never closed"),
        "nested_comment": _("a comment inside the comment opened at line %(line)s, column %(column)s: PDN "
                            "forbids comments inside comments"),
        "bad_setup": _("setup %(text)s is not of the form /FEN \"...\"/"),
        "alpha_8x8": _("%(text)s is in the alphanumeric notation of an 8x8 board and no GameType says 10x10 (A0)"),
        "alpha_without_game_type": _("moves in alphanumeric notation (a1-j10) without a GameType saying so: read "
                                     "as the 10x10 board, since a square beyond h8 fits no smaller board"),
        "not_dark_square": _("%(text)s cannot be read: %(square)s is not a dark square of the 10x10 board"),
        "bad_result_tag": _("Result tag %(value)s is not a draughts result (2-0, 1-1, 0-2, 0-0, *)"),
        "game_type_unknown": _("GameType %(value)s is not a PDN game type; only international draughts (20) is "
                               "read"),
        "game_type_other": _("GameType %(value)s is another game (type %(type)s), not international draughts "
                             "(20): the game is refused"),
        "game_type_board": _("GameType %(value)s describes a %(width)sx%(height)s board, not the 10x10 board of "
                             "international draughts: the game is refused"),
        "game_type_form": _("GameType %(value)s is not of the form “20,W,10,10,N2,0”; read as international "
                            "draughts in FMJD numbers"),
        "game_type_declares": _("GameType %(value)s is not the standard “20,W,10,10,N2,0”; the moves are read as "
                                "international draughts"),
    }
    template = words.get(code)
    if template is None:
        return None
    try:
        return str(template) % v
    except (KeyError, TypeError, ValueError):  # values of another version of the reader
        return None


def issue_message(issue: Mapping[str, Any]) -> str:
    """What an issue of the replay says, in the reader's language: the known articles, and the PDN reader's
    problems by their code; the replay's English (also what `python -m rules replay` prints) for the rest
    (and for reports stored before reading problems had codes)."""
    article = issue.get("article") or ""
    if article == "PDN" and issue.get("code"):
        words = read_problem_words(str(issue["code"]), issue.get("values") or {})
        if words is not None:
            return words
    if article in _NOTATION_WORDS:
        return str(_NOTATION_WORDS[article])
    if not (article[:2] in ("5.", "7.") or article in ("8.1", "8.2")):
        return str(issue.get("message", ""))
    words = article_words(article)
    if issue.get("stands") == "played_on":
        words += str(_("; the opponent played on, so the irregularity stands (art. 5.7) and the replay "
                       "continues from the position it left"))
    elif issue.get("stands") == "last_move":
        words += str(_("; it is the last move on the sheet, so the opponent could still have contested it"))
    return words


def severity_label(severity: str) -> str:
    return {"error": _("Error"), "warning": _("Warning"), "info": _("Note")}.get(severity, severity)


def match_words(why: tuple[str, Mapping[str, Any]]) -> str:
    """Why a game of a file is not matched, or a note on a match, in the reader's language."""
    code, values = why
    v = {k: (f"“{x}”" if k in ("name", "value", "fmjd") and isinstance(x, str) else x) for k, x in values.items()}
    words = {
        "bad_id": _("FMJD id %(fmjd)s is not a number"),
        "unknown_id": _("no player with FMJD id %(fmjd)s plays in this round"),
        "id_name_differs": _("FMJD id %(fmjd)s is %(player)s; the sheet spells the name %(name)s"),
        "no_name": _("no name and no FMJD id"),
        "name_ambiguous": _("%(name)s fits %(n)s players of the round; add the FMJD id tag"),
        "near": _("%(name)s read as %(player)s (a near spelling)"),
        "near_ambiguous": _("%(name)s is near to more than one player of the round; add the FMJD id tag"),
        "not_player": _("%(name)s is not a player of this round"),
        "bad_round_tag": _("Round tag %(value)s is not a round number"),
        "other_round": _("the Round tag says round %(tagged)s, this is round %(round)s"),
        "same_player": _("White and Black are the same player (%(player)s)"),
        "colours_reversed": _("board %(board)s pairs these players with colours reversed (%(player)s has White): "
                              "check the sheet"),
        "not_paired": _("%(white)s and %(black)s do not play each other in round %(round)s"),
        "board_taken": _("board %(board)s was already matched by game %(index)s of this file: a game is never "
                         "attached twice"),
        "has_sheet": _("board %(board)s already has a sheet; tick “Replace” to change it"),
        "no_round_tag": _("no Round tag: matched on the players alone"),
        "replaces": _("replaces the sheet stored before"),
        "refused": _("not international draughts (see the GameType tag)"),
        "assigned": _("given to board %(board)s by the arbiter"),
    }
    template = words.get(code)
    return template % v if template is not None else code


def match_reason(whys: list[tuple[str, tuple[str, Mapping[str, Any]]]]) -> str:
    parts = []
    for side, why in whys:
        text = match_words(why)
        parts.append(_("%(side)s: %(why)s") % {"side": side_name(side), "why": text} if side else text)
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out = joined(out, part)
    return out
