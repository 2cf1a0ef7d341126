"""Game sheets: upload, matching a round's file, the verdict, the kept line, the PDN export (README.md).

The writes are tournaments.sheets.services; the names the admin, the commands and the tests use are
reachable here (`from tournaments import sheets; sheets.sheet_upload(...)`), loaded on first use, so that
the pure modules (`line`, `matching`) import without Django.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "export_pdn": "export",
    "SheetUploadError": "upload", "Upload": "upload", "decode_upload": "upload", "max_bytes": "upload",
    "parse_upload": "upload",
    "MISSING": "verdict", "NEEDS_LOOK": "verdict", "NO_BOARD_RESULTS": "verdict", "Judgement": "verdict",
    "judge": "verdict",
    **dict.fromkeys(("ImportItem", "RoundImport", "assign_unmatched", "game_sheet_status", "needs_look_q",
                     "round_import_confirm", "round_import_preview", "round_import_store", "sheet_accept_result",
                     "sheet_accept_verdict", "sheet_replay", "sheet_upload", "sheets_replay"), "services"),
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tournaments.sheets' has no attribute {name!r}")
    return getattr(importlib.import_module(f"tournaments.sheets.{home}"), name)
