"""The verdict on one game sheet in the tournament: the replay (rules.replay, one pass) against the recorded
result gives the status, the flags, the report the pages word, and the game page's line.

Statuses: verified (every move legal and the board confirms the recorded result), not verifiable
(legal, but the result rests on resignation, time or agreement), irregular (an art. 5.4 irregularity, a
sheet the replay could not follow, or moves written after the game ended), mismatch (the sheet's or the
board's result differs from the recorded one; it outranks irregular because it touches the standings), and
missing (a played game with no sheet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone, translation

from rules.pdn import ParsedGame
from rules.replay import DRAW_OFFER_MOVES, ERROR, replay_game
from rules.replay import Verdict as ReplayVerdict
from tournaments.models import SheetStatus
from tournaments.results import Result
from tournaments.sheets.line import kept_line
from tournaments.sheets.words import sentence

MISSING = "missing"  # a status computed for games without a sheet, never stored
NEEDS_LOOK = (SheetStatus.IRREGULAR, SheetStatus.MISMATCH)
# Results for which no game was played over the board, so no sheet is expected.
NO_BOARD_RESULTS = [r.value for r in Result if not r.is_played]
SHEET_RESULTS = {"2-0": Result.WHITE_WINS, "1-1": Result.DRAW, "0-2": Result.BLACK_WINS}


@dataclass
class Judgement:
    status: str
    summary: str
    sheet_result: str
    flags: list[str] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    # The game page's line (tournaments.sheets.line), from the same replay as the verdict; None when the
    # line could not be made (the page then rebuilds it).
    line: dict[str, Any] | None = None

    @property
    def needs_look(self) -> bool:
        return self.status in NEEDS_LOOK or bool(self.flags)


def judge(parsed: ParsedGame, recorded: str) -> Judgement:
    """Replay one sheet against the game's recorded result ('' when none is recorded yet).

    The report keeps codes and values (tournaments.sheets.words makes the sentence in the reader's
    language); `summary` is that sentence in English, for the admin's search and the command line."""
    played = recorded in SHEET_RESULTS
    replay = replay_game(parsed, recorded if played else None)
    declared = parsed.declared_result
    sheet_result = declared if declared not in (None, "*") else ""
    board = replay.board_result
    flags: list[str] = []
    early = [i for i in replay.issues if i.article == "compet. 5.3"]
    early_draw = None
    if early:
        flags.append("early_draw")
        early_draw = {"moves": (replay.plies + 1) // 2, "limit": DRAW_OFFER_MOVES}
    irregular = [i for i in replay.issues if i.severity == ERROR and (i.article or "").startswith("5.4")]
    if not irregular and not replay.legal:
        # The replay stopped or met a move it could not place: the first error at a ply says where.
        irregular = [i for i in replay.issues if i.severity == ERROR and i.ply is not None]
    if parsed.refused:
        irregular = []
        flags.append("refused")
    if recorded and not played:
        status = SheetStatus.MISMATCH
    elif played and ((sheet_result and sheet_result != recorded) or (board and board != recorded)):
        status = SheetStatus.MISMATCH
    elif irregular or not replay.legal or parsed.refused or replay.status is ReplayVerdict.PLAYED_ON:
        # Moves written after the end of the game (rules.replay): the arbiter looks, the sheet is not verified.
        status = SheetStatus.IRREGULAR
    elif replay.status is ReplayVerdict.CONFIRMED:
        status = SheetStatus.VERIFIED
    else:
        status = SheetStatus.NOT_VERIFIABLE
    report = {"replay": replay.to_dict(), "status": str(status), "flags": flags, "recorded": recorded,
              "sheet_result": sheet_result, "early_draw": early_draw, "refused": bool(parsed.refused),
              "replayed_at": timezone.now().isoformat(timespec="seconds"),
              "irregular": [i.to_dict() for i in irregular]}
    with translation.override("en"):
        summary = sentence(report)
    report["summary"] = summary
    return Judgement(str(status), summary, sheet_result, flags, report, line=kept_line(replay, parsed))
