"""What players report: one report stored per submission, with its replay's verdict, and a board's state.

A report is stored whatever it says (nothing lost) and never touches Game.result: a report on a board
whose result is already recorded is stored as late. The board's state reads the latest report of each
side: one side ("reported by White"), the same result ("agreed") or different results ("disputed").
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.pdn import ParsedGame, read_games
from tournaments.boards.codes import address_hash
from tournaments.errors import DomainError
from tournaments.models import BoardCode, BoardReport, Game, ReportStatus, Round, RoundStatus
from tournaments.sheets.line import too_long
from tournaments.sheets.upload import decode_upload, parse_upload
from tournaments.sheets.verdict import judge

RESULTS = ("2-0", "1-1", "0-2")
MAX_MOVES_CHARS = 6000
MAX_REPORTS_PER_BOARD = 20  # per code and game: a phone that resends is kept, a flood is not

NONE, SINGLE, AGREED, DISPUTED = "none", "single", "agreed", "disputed"


def current_round(code: BoardCode) -> Round:
    """The round a code reports in: the tournament's published round; a clear refusal otherwise."""
    rounds = Round.objects.filter(tournament_id=code.entry.tournament_id)
    published = rounds.filter(status=RoundStatus.PUBLISHED).order_by("-number").first()
    if published is not None:
        return published
    latest = rounds.order_by("-number").first()
    if latest is None:
        raise DomainError(_("No round is paired yet: results are reported once the round is published."))
    if latest.status == RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is not published yet: its pairing may still change, so no result can "
                            "be reported.") % {"round": latest.number})
    raise DomainError(_("Round %(round)s is completed: results can no longer be reported here; see the arbiter.")
                      % {"round": latest.number})


def board_of(code: BoardCode) -> Game:
    """The code's owner's game in the current published round."""
    rnd = current_round(code)
    game = (Game.objects.select_related("round", "white__player", "black__player")
            .filter(round=rnd).filter(Q(white_id=code.entry_id) | Q(black_id=code.entry_id)).first())
    if game is None:
        raise DomainError(_("You have no board in round %(round)s.") % {"round": rnd.number})
    if game.black_id is None:
        raise DomainError(_("You have no opponent in round %(round)s (a bye): there is nothing to report.")
                          % {"round": rnd.number})
    return game


def _refuse_other_game(code: BoardCode, game_id: int, own: Game) -> None:
    other = Game.objects.select_related("round").filter(pk=game_id).first()
    if other is not None and other.round.tournament_id == code.entry.tournament_id:
        if other.round.status == RoundStatus.DRAFT:
            raise DomainError(_("Round %(round)s is not published yet: its pairing may still change, so no result "
                                "can be reported.") % {"round": other.round.number})
        if other.round.status == RoundStatus.COMPLETED:
            raise DomainError(_("Round %(round)s is completed: results can no longer be reported here; see the "
                                "arbiter.") % {"round": other.round.number})
    raise DomainError(_("This code reports only your own board: board %(board)s of round %(round)s.")
                      % {"board": own.board, "round": own.round.number})


# --- The replay ------------------------------------------------------------------------------------


def parsed_moves(moves: str = "", pdn: bytes | None = None, pdn_name: str = "") -> tuple[str, ParsedGame | None]:
    """The game sent (a PDN file or a typed list of moves) as text and as a parsed game; ('', None) for none.
    A PDN file goes through the game sheets' own upload checks (size, encoding, PDN at all)."""
    if pdn:
        upload = decode_upload(pdn, pdn_name or "game.pdn")
        return upload.text, parse_upload(upload)[0]
    text = (moves or "").strip()
    if not text:
        return "", None
    if len(text) > MAX_MOVES_CHARS:
        raise DomainError(_("The moves are %(n)s characters long, more than %(limit)s: send the game as a PDN file.")
                          % {"n": len(text), "limit": MAX_MOVES_CHARS})
    game = read_games(text, "typed")[0]
    if too_long(game):
        raise DomainError(_("Too many moves for one game: check the list."))
    return text, game


def verdict_of(parsed: ParsedGame | None, result: str) -> dict[str, Any]:
    """The replay's verdict on the game sent against the reported result, as codes and values
    (tournaments.boards.words makes the sentence): confirms, contradicts, illegal, unreadable, not_over,
    played_on, refused; {} when no game was sent."""
    if parsed is None:
        return {}
    judged = judge(parsed, result)
    replay = judged.report.get("replay") or {}
    out: dict[str, Any] = {"status": judged.status, "plies": replay.get("plies", 0),
                           "board_result": replay.get("board_result"), "article": replay.get("board_article")}
    irregular = judged.report.get("irregular") or []
    code = replay.get("status")
    if judged.report.get("refused"):
        out["code"] = "refused"
    elif code == "unreadable":
        out.update(code="unreadable", text=(replay.get("unreadable") or {}).get("text", ""))
    elif irregular:
        first = irregular[0]
        out.update(code="illegal", move=first.get("move_number"), side=first.get("side"),
                   rule=first.get("article"))
    elif replay.get("board_result") and replay.get("board_result") != result:
        out["code"] = "contradicts"
    elif judged.status == "verified":
        out["code"] = "confirms"
    elif code == "played_on":
        out["code"] = "played_on"
    else:
        out.update(code="not_over", move=replay.get("last_move"), side=replay.get("last_side"))
    return out


# --- The report ------------------------------------------------------------------------------------


@dataclass
class Sent:
    result: str
    moves: str = ""
    pdn: bytes | None = None
    pdn_name: str = ""
    game_id: int | None = None  # what the form carried: only the code's own board is accepted


def report_submit(*, code: BoardCode, sent: Sent, address: str = "", hashed: str = "",
                  now: datetime.datetime | None = None) -> BoardReport:
    """Store one player's report for his board; DomainError says why one is refused (nothing stored)."""
    if sent.result not in RESULTS:
        raise DomainError(_("Choose the result: White wins (2-0), draw (1-1) or Black wins (0-2)."))
    text, parsed = parsed_moves(sent.moves, sent.pdn, sent.pdn_name)
    verdict = verdict_of(parsed, sent.result)  # the replay runs before any lock is taken
    with transaction.atomic():
        own = board_of(code)
        if sent.game_id is not None and sent.game_id != own.pk:
            _refuse_other_game(code, sent.game_id, own)
        # The game's row is the lock: a report and the arbiter's confirmation of the same board take turns.
        game = Game.objects.select_for_update(of=("self",)).select_related("round").get(pk=own.pk)
        if game.round.status != RoundStatus.PUBLISHED:
            raise DomainError(_("Round %(round)s is not open for reports.") % {"round": game.round.number})
        if BoardReport.objects.filter(game=game, code=code).count() >= MAX_REPORTS_PER_BOARD:
            raise DomainError(_("This board already has %(n)s reports from you: tell the arbiter.")
                              % {"n": MAX_REPORTS_PER_BOARD})
        side = "w" if game.white_id == code.entry_id else "b"
        status = ReportStatus.LATE if game.result else ReportStatus.PENDING
        return BoardReport.objects.create(
            game=game, code=code, side=side, result=sent.result, moves=text, verdict=verdict,
            received_at=now or timezone.now(), address_hash=hashed or address_hash(address), status=status)


# --- A board's state ---------------------------------------------------------------------------------


@dataclass
class BoardState:
    game_id: int
    state: str = NONE
    result: str = ""  # the agreed result, or the one side's
    side: str = ""  # for SINGLE: who reported
    white: BoardReport | None = None
    black: BoardReport | None = None
    late: list[BoardReport] = field(default_factory=list)
    reports: list[BoardReport] = field(default_factory=list)

    @property
    def moves_confirm(self) -> bool:
        """At least one side sent a game and the replay confirms the reported result."""
        latest = [r for r in (self.white, self.black) if r is not None]
        return any((r.verdict or {}).get("code") == "confirms" for r in latest)

    @property
    def verdicts(self) -> list[BoardReport]:
        return [r for r in (self.white, self.black) if r is not None and r.verdict]


def states_of(games: list[Game] | Any) -> dict[int, BoardState]:
    """Each game's state from its reports (one query); late reports are listed apart and never count."""
    ids = [g.pk for g in games]
    states = {pk: BoardState(pk) for pk in ids}
    for report in BoardReport.objects.filter(game_id__in=ids).order_by("received_at", "pk"):
        state = states[report.game_id]
        state.reports.append(report)
        if report.status == ReportStatus.LATE:
            state.late.append(report)
            continue
        if report.side == "w":
            state.white = report
        else:
            state.black = report
    for state in states.values():
        w, b = state.white, state.black
        if w and b:
            state.state = AGREED if w.result == b.result else DISPUTED
            state.result = w.result if w.result == b.result else ""
        elif w or b:
            one = w or b
            assert one is not None
            state.state, state.result, state.side = SINGLE, one.result, one.side
    return states
