"""Game sheets in the tournament, the writes: one game's upload, a round's file matched to its pairings
(preview, assignment, confirmation), replaying stored sheets again, the arbiter's acceptance.

A sheet is the PDN text of one game, kept exactly as it was in the uploaded file (its own slice of it,
decoded) so that `replay_sheets` can judge it again with a later engine. The recorded result is never
changed by an upload: the arbiter settles (competition rules 5.5) and may accept the sheet's result,
which goes through `services.game_record_result` like any other result.
The status and the report come from tournaments.sheets.verdict, the words from tournaments.sheets.words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.pdn import read_games
from tournaments.errors import DomainError
from tournaments.locks import lock_tournament_of_game, lock_tournament_of_round
from tournaments.models import Entry, Game, GameSheet, Round, RoundStatus, SheetStatus
from tournaments.rounds import services
from tournaments.sheets.line import line_from_json
from tournaments.sheets.matching import Match, PairingRef, PlayerRef, SheetHeaders, match_games
from tournaments.sheets.upload import (
    SheetUploadError,
    Upload,
    decode_upload,
    game_texts,
    parse_upload,
    refusal_words,
)
from tournaments.sheets.verdict import MISSING, NO_BOARD_RESULTS, SHEET_RESULTS, Judgement, judge
from tournaments.sheets.words import match_reason, match_words, sentence, status_label


def game_sheet_status(game: Game) -> str:
    """The sheet's status, or 'missing' for a game played over the board without one ('' otherwise)."""
    sheet = getattr(game, "sheet", None) if game.has_sheet else None
    if sheet is not None:
        return sheet.status
    if game.black_id is None or game.result in NO_BOARD_RESULTS:
        return ""
    return MISSING


def needs_look_q(prefix: str = "") -> Q:
    """Games (or, with prefix 'games__', rounds) needing a look: irregular, mismatch, flagged or missing."""
    missing = (Q(**{f"{prefix}sheet__isnull": True}) & Q(**{f"{prefix}black__isnull": False})
               & ~Q(**{f"{prefix}result__in": NO_BOARD_RESULTS}))
    return Q(**{f"{prefix}sheet__needs_look": True}) | missing


def _store(game: Game, upload: Upload, text: str, verdict: Judgement, user: Any) -> GameSheet:
    """Store (or replace) a game's sheet; a new sheet has no ruling yet, whatever the old one had."""
    values = {"text": text, "source_name": upload.source_name, "encoding": upload.encoding,
              "uploaded_by": user if getattr(user, "pk", None) else None, "report": verdict.report,
              "status": verdict.status, "sheet_result": verdict.sheet_result,
              "summary": verdict.summary[:300], "needs_look": verdict.needs_look,
              "ruling": "", "ruled_at": None, "ruled_by": None, "line": verdict.line}
    sheet = GameSheet.objects.select_for_update().filter(game=game).first() or GameSheet(game=game, version=0)
    for name, value in values.items():
        setattr(sheet, name, value)
    sheet.version += 1
    sheet.save()
    return sheet


def _refuse_draft(round_id: int, *, lock: bool) -> None:
    """A draft round may still be paired again, which deletes its games: no sheet is kept on one, as no
    result is entered in one (services.game_record_result). With `lock`, the round's row is locked first
    (the order every writer of a round takes), so it cannot be taken back to draft while a sheet is stored."""
    rounds = Round.objects.filter(pk=round_id)
    if lock:
        rounds = rounds.select_for_update()
    found = rounds.values_list("number", "status").first()
    if found is not None and found[1] == RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is a draft: publish it before uploading game sheets (a draft may "
                            "still be paired again, which would delete them).") % {"round": found[0]})


# --- One game ----------------------------------------------------------------------------------


@transaction.atomic
def sheet_upload(*, game: Game, data: bytes | str, source_name: str = "", user: Any = None,
                 replace: bool = False, assign: bool = False) -> GameSheet:
    """Attach one game's sheet. The file must hold exactly one game, for these two players, unless the
    arbiter assigns it to this board himself (`assign`: the names on the sheet are not checked)."""
    if game.black_id is None:
        raise DomainError(_("Board %(board)s is a bye: there is no game sheet for it.") % {"board": game.board})
    upload = decode_upload(data, source_name)
    games = parse_upload(upload)
    if len(games) != 1:
        raise SheetUploadError(_("%(name)s: %(n)s games in the file; a game's sheet holds one (upload several "
                                 "games on the round page).") % {"name": upload.source_name, "n": len(games)})
    if games[0].refused:
        raise SheetUploadError(refusal_words(upload.source_name, games[0].headers.get("GameType", "?")))
    lock_tournament_of_game(game.pk)  # the tournament first (tournaments/locks.py)
    _refuse_draft(game.round_id, lock=True)
    locked = Game.objects.select_for_update(of=("self",)).select_related(
        "round", "white__player", "black__player").get(pk=game.pk)
    pairing = _pairing(locked, has_sheet=locked.has_sheet)
    tags = dict(games[0].headers)
    # A sheet naming nobody is taken for the game the arbiter chose; one naming others is refused.
    for side, player in (("White", pairing.white), ("Black", pairing.black)):
        if tags.get(side, "").strip() in ("", "?") and player is not None:
            tags[side] = player.display
    # The whole round is searched so that a sheet for another board says which one it is for.
    others = locked.round.games.exclude(pk=locked.pk).select_related("white__player", "black__player")
    pairings = [pairing, *(_pairing(g, False) for g in others)]
    if assign:
        if pairing.has_sheet and not replace:
            raise SheetUploadError(_("%(name)s: not stored: board %(board)s already has a sheet; tick “Replace” "
                                     "to change it.") % {"name": upload.source_name, "board": locked.board})
        verdict = judge(games[0], locked.result)
        verdict.report["assigned"] = True
        return _store(locked, upload, game_texts(upload.text, games)[0], verdict, user)
    match = match_games(locked.round.number, pairings, [SheetHeaders.from_tags(1, tags)], replace=replace)[0]
    if not match.matched:
        raise SheetUploadError(_("%(name)s: not stored: %(why)s.")
                               % {"name": upload.source_name, "why": match_reason(match.whys)})
    if match.game_id != locked.pk:
        raise SheetUploadError(_("%(name)s: not stored: the sheet is for board %(other)s (%(white)s - %(black)s), "
                                 "not board %(board)s.")
                               % {"name": upload.source_name, "other": match.board, "white": match.white,
                                  "black": match.black, "board": locked.board})
    verdict = judge(games[0], locked.result)
    return _store(locked, upload, game_texts(upload.text, games)[0], verdict, user)


def _player(entry: Entry) -> PlayerRef:
    p = entry.player
    return PlayerRef(entry.pk, p.surname, p.given_name, p.fmjd_id)


def _pairing(game: Game, has_sheet: bool) -> PairingRef:
    return PairingRef(game.pk, game.board, _player(game.white), _player(game.black) if game.black else None,
                      has_sheet)


# --- A whole round -----------------------------------------------------------------------------


@dataclass
class ImportItem:
    match: Match
    text: str
    verdict: Judgement | None = None  # for matched games: the status the sheet will get

    def to_dict(self) -> dict[str, Any]:
        out = self.match.to_dict()
        if self.verdict is not None:
            out.update(status=self.verdict.status, summary=self.verdict.summary)
        return out

    @property
    def status_label(self) -> str:
        return status_label(self.verdict.status) if self.verdict is not None else ""

    @property
    def reason_text(self) -> str:
        """Why the game is not matched, in the active language."""
        return match_reason(self.match.whys)

    @property
    def notes_text(self) -> list[str]:
        return [match_words(why) for why in self.match.note_whys]

    @property
    def sentence(self) -> str:
        """The verdict in the active language."""
        return sentence(self.verdict.report) if self.verdict is not None else ""


@dataclass
class RoundImport:
    """The preview of a round's file: nothing is stored until `round_import_confirm`."""

    round: Round
    upload: Upload
    items: list[ImportItem]
    missing_boards: list[int]  # boards of the round (not byes) no game of the file matched
    replace: bool = False
    skipped: list[int] = field(default_factory=list)  # boards that got a sheet between preview and confirm

    @property
    def matched(self) -> list[ImportItem]:
        return [item for item in self.items if item.match.matched]

    @property
    def unmatched(self) -> list[ImportItem]:
        return [item for item in self.items if not item.match.matched]

    def lines(self) -> list[str]:
        """The report, the same for the command line and the admin."""
        rnd = self.round
        out = [f"{self.upload.source_name} ({self.upload.encoding}): {len(self.items)} game(s) for "
               f"{rnd.tournament} round {rnd.number}: {len(self.matched)} matched, {len(self.unmatched)} unmatched."]
        for item in self.items:
            m = item.match
            head = f"  game {m.index}: {m.white or '?'} - {m.black or '?'}"
            if m.matched and item.verdict is not None:
                extra = "".join(f"; {note}" for note in m.notes)
                out.append(f"{head} -> board {m.board} ({m.reason}{extra}): {item.status_label}: "
                           f"{item.verdict.summary}")
            else:
                out.append(f"{head} -> not matched: {m.reason}")
        if self.missing_boards:
            out.append("  boards without a sheet in this file: " + ", ".join(map(str, self.missing_boards)))
        return out

    def text(self) -> str:
        return "\n".join(self.lines())


def round_import_preview(*, round: Round, data: bytes | str, source_name: str = "",
                         replace: bool = False) -> RoundImport:
    """Match a round's PDN file to the round's pairings and judge the matched sheets; stores nothing."""
    _refuse_draft(round.pk, lock=False)
    upload = decode_upload(data, source_name)
    games = parse_upload(upload)
    texts = game_texts(upload.text, games)
    pairs = list(round.games.select_related("white__player", "black__player", "sheet").order_by("board"))
    refs = [_pairing(g, g.has_sheet) for g in pairs]
    headers = [SheetHeaders.from_tags(i + 1, g.headers) for i, g in enumerate(games)]
    matches = match_games(round.number, refs, headers, replace=replace)
    by_id = {g.pk: g for g in pairs}
    items = []
    for parsed, text, match in zip(games, texts, matches, strict=True):
        if match.matched and parsed.refused:
            match.refuse(("", ("refused", {"why": parsed.refused})))
        item = ImportItem(match, text)
        if match.matched:
            item.verdict = judge(parsed, by_id[match.game_id].result)  # type: ignore[index]
        items.append(item)
    taken = {item.match.game_id for item in items}
    missing = [g.board for g in pairs if g.black_id is not None and g.pk not in taken and not g.has_sheet]
    return RoundImport(round, upload, items, missing, replace)


@transaction.atomic
def assign_unmatched(preview: RoundImport, assignments: dict[int, int]) -> None:
    """Give unmatched games of the file to boards, as the arbiter chose ({game index in file: board}).

    DomainError (nothing stored) for a board that is not a game of the round, a bye, a board two games of
    the file would take, or a game the file does not hold unmatched; a refused game type stays refused."""
    boards = {g.board: g for g in preview.round.games.all()}
    by_index = {item.match.index: item for item in preview.items}
    taken = {item.match.board: item.match.index for item in preview.matched}
    for index, board in sorted(assignments.items()):
        item = by_index.get(index)
        if item is None or item.match.matched:
            raise DomainError(_("Game %(index)s of the file is not an unmatched game of this upload.")
                              % {"index": index})
        game = boards.get(board)
        if game is None or game.black_id is None:
            raise DomainError(_("Game %(index)s of the file: board %(board)s is not a game of round %(round)s.")
                              % {"index": index, "board": board, "round": preview.round.number})
        if board in taken:
            raise DomainError(_("Game %(index)s of the file: board %(board)s already takes game %(other)s of the "
                                "file; a board gets one sheet.")
                              % {"index": index, "board": board, "other": taken[board]})
        parsed = read_games(item.text, preview.upload.source_name)
        if not parsed or parsed[0].refused:
            raise DomainError(_("Game %(index)s of the file cannot be assigned: %(why)s.")
                              % {"index": index, "why": match_reason(item.match.whys)})
        taken[board] = index
        item.match.note(("assigned", {"board": board}))
        item.match.game_id, item.match.board, item.match.reason = game.pk, board, "assigned by the arbiter"
        item.verdict = judge(parsed[0], game.result)
        item.verdict.report["assigned"] = True


@transaction.atomic
def round_import_confirm(*, preview: RoundImport, user: Any = None,
                         assignments: dict[int, int] | None = None) -> list[GameSheet]:
    """Store the matched sheets of a preview (and the unmatched ones the arbiter assigned to a board), each
    replayed against the result recorded now."""
    lock_tournament_of_round(preview.round.pk)  # the tournament first, then the round (tournaments/locks.py)
    _refuse_draft(preview.round.pk, lock=True)
    if assignments:
        assign_unmatched(preview, assignments)
    stored = []
    for item in preview.matched:
        lock_tournament_of_game(item.match.game_id)  # the tournament first (tournaments/locks.py)
        game = Game.objects.select_for_update(of=("self",)).get(pk=item.match.game_id)
        if not preview.replace and GameSheet.objects.filter(game=game).exists():
            # Another upload stored a sheet for this board since the preview: it is kept, not overwritten.
            preview.skipped.append(game.board)
            continue
        parsed = read_games(item.text, preview.upload.source_name)[0]
        verdict = judge(parsed, game.result)
        verdict.report["assigned"] = bool(item.verdict and item.verdict.report.get("assigned"))
        stored.append(_store(game, preview.upload, item.text, verdict, user))
    return stored


@transaction.atomic
def round_import_store(*, round: Round, data: bytes | str, source_name: str = "", replace: bool = False,
                       user: Any = None, assignments: dict[int, int] | None = None
                       ) -> tuple[RoundImport, list[GameSheet]]:
    """A previewed file stored: matched again against the round as it is now, so that a sheet stored since the
    preview is not overwritten (the preview's `skipped` boards), then confirmed with the arbiter's assignments.
    One transaction: a refusal (DomainError) stores nothing."""
    preview = round_import_preview(round=round, data=data, source_name=source_name, replace=replace)
    stored = round_import_confirm(preview=preview, user=user, assignments=assignments)
    return preview, stored


# --- Replay and acceptance ---------------------------------------------------------------------


def sheet_replay(*, sheet: GameSheet) -> GameSheet:
    """Judge a stored sheet again from its unchanged text (a newer engine, or a changed recorded result)."""
    games = read_games(sheet.text, sheet.source_name or "sheet")
    if not games:
        verdict = Judgement(str(SheetStatus.IRREGULAR), "the stored text holds no game", "",
                          report={"status": str(SheetStatus.IRREGULAR), "summary": "no game in the text"})
    else:
        verdict = judge(games[0], sheet.game.result)
    sheet.report, sheet.status, sheet.sheet_result = verdict.report, verdict.status, verdict.sheet_result
    sheet.summary, sheet.needs_look = verdict.summary[:300], verdict.needs_look
    if verdict.line is not None or line_from_json(sheet.line) is None:
        sheet.line = verdict.line
    sheet.version += 1
    sheet.save(update_fields=["report", "status", "sheet_result", "summary", "needs_look", "line", "version"])
    return sheet


def sheets_replay(sheets: Iterable[GameSheet]) -> dict[str, int]:
    """Replay many sheets; returns how many ended in each status."""
    counts: dict[str, int] = {}
    for sheet in sheets:
        with transaction.atomic():
            status = sheet_replay(sheet=sheet).status
        counts[status] = counts.get(status, 0) + 1
    return counts


@transaction.atomic
def sheet_accept_result(*, game: Game, expected_version: int | None = None, user: Any = None) -> Game:
    """Record the sheet's result as the game's result (the round's status rules apply), then re-judge."""
    if not game.has_sheet:
        raise DomainError(_("Board %(board)s has no game sheet.") % {"board": game.board})
    sheet = game.sheet
    result = SHEET_RESULTS.get(sheet.sheet_result)
    if result is None:
        if not sheet.sheet_result:
            raise DomainError(_("Board %(board)s: the sheet declares no result; enter the result by hand.")
                              % {"board": game.board})
        raise DomainError(_("Board %(board)s: the sheet declares %(result)s, which is not a result to record "
                            "(2-0, 1-1 or 0-2); enter the result by hand.")
                          % {"board": game.board, "result": sheet.sheet_result})
    updated = services.game_record_result(game=game, result=result, expected_version=expected_version)
    sheet.game = updated
    sheet_replay(sheet=sheet)
    # Recording the sheet's result is the arbiter's ruling on the sheet: its verdict may now be public.
    _rule(sheet, user)
    return updated


def _rule(sheet: GameSheet, user: Any) -> None:
    sheet.ruling, sheet.ruled_at = sheet.status, timezone.now()
    sheet.ruled_by = user if getattr(user, "pk", None) else None
    sheet.version += 1
    sheet.save(update_fields=["ruling", "ruled_at", "ruled_by", "version"])


@transaction.atomic
def sheet_accept_verdict(*, game: Game, expected_version: int | None, user: Any = None) -> GameSheet:
    """The arbiter accepts the verdict on the sheet as it stands (he has looked at it): from now on the
    public game page shows it. Refused when the sheet changed since the page he acted on was shown."""
    sheet = GameSheet.objects.select_for_update().filter(game=game).first()
    if sheet is None:
        raise DomainError(_("Board %(board)s has no game sheet.") % {"board": game.board})
    if expected_version is None or sheet.version != expected_version:
        raise DomainError(_("Board %(board)s: the sheet was changed by someone else (uploaded again, replayed or "
                            "ruled on) since this page was shown; look at it again before ruling.")
                          % {"board": game.board})
    _rule(sheet, user)
    return sheet
