"""Game sheets: upload, matching a round's file, the verdict, the kept line, the PDN export (README.md).

The writes are tournaments.sheets.services; the names the admin, the commands and the tests use are
re-exported here: `from tournaments import sheets; sheets.sheet_upload(...)`.
"""

from tournaments.sheets.export import export_pdn
from tournaments.sheets.services import (
    ImportItem,
    RoundImport,
    assign_unmatched,
    game_sheet_status,
    needs_look_q,
    round_import_confirm,
    round_import_preview,
    sheet_accept_result,
    sheet_accept_verdict,
    sheet_replay,
    sheet_upload,
    sheets_replay,
)
from tournaments.sheets.upload import SheetUploadError, Upload, decode_upload, max_bytes, parse_upload
from tournaments.sheets.verdict import MISSING, NEEDS_LOOK, NO_BOARD_RESULTS, Judgement, judge

__all__ = [
    "MISSING",
    "NEEDS_LOOK",
    "NO_BOARD_RESULTS",
    "ImportItem",
    "Judgement",
    "RoundImport",
    "SheetUploadError",
    "Upload",
    "assign_unmatched",
    "decode_upload",
    "export_pdn",
    "game_sheet_status",
    "judge",
    "max_bytes",
    "needs_look_q",
    "parse_upload",
    "round_import_confirm",
    "round_import_preview",
    "sheet_accept_result",
    "sheet_accept_verdict",
    "sheet_replay",
    "sheet_upload",
    "sheets_replay",
]
