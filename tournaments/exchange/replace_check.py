"""import_tournament --replace: the file must hold the record of the tournament it replaces.

The replacement deletes the stored tournament and creates the file's copy (transfer._delete lets it through
tournaments.rounds.deletion). That is a restore, or a tournament coming back from another server with its rounds
and corrections: either way the file is an export at least as new as what is stored here. A file written
before a change recorded here (a result corrected with its reason, a round completed, a confirmed breach)
would undo that change behind the record, with its reason and its event, and nothing on the tournament's
pages would say so. So once a round is published, every change in the stored history and every conformance
event must be in the file; a file without them is refused, and the change goes through the tournament's
own pages instead.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

from tournaments.models import RoundStatus, Tournament

# The parts whose history is the played record (the tournament's own row moves with its cache too).
RECORD_PARTS = ("entries", "rounds", "games", "sheets", "later_ratings")


def _when(value: Any) -> Any:
    try:
        return datetime.datetime.fromisoformat(str(value))
    except ValueError:
        return value


def _changes(doc: dict[str, Any]) -> dict[tuple[str, Any, str], dict[str, Any]]:
    history = doc.get("history", {})
    return {(part, _when(r.get("history_date")), str(r.get("history_type"))): r
            for part in RECORD_PARTS for r in history.get(part, [])}


def _events(doc: dict[str, Any]) -> set[tuple[Any, Any, str]]:
    # An event read again from the same file (an import's own confirmation) has a new date: its content counts.
    return {(e.get("code"), e.get("round_number"), json.dumps(e.get("values"), sort_keys=True))
            for e in doc.get("conformance_events", [])}


def missing_from(doc: dict[str, Any], stored: Tournament,
                 export: Callable[[Tournament], dict[str, Any]]) -> str | None:
    """Why `doc` may not replace `stored` (None when it may): what the stored record, as `export` writes it,
    has and the file lacks."""
    if not stored.rounds.exclude(status=RoundStatus.DRAFT).exists():
        return None  # nothing played: replacing it loses no record (a delete would be allowed too)
    here = export(stored)
    file_changes = _changes(doc)
    lost = sorted((key for key in _changes(here) if key not in file_changes), key=lambda k: str(k[1]))
    lost_events = _events(here) - _events(doc)
    if not lost and not lost_events:
        return None
    what = []
    if lost:
        part, when, _type = lost[-1]
        reason = _changes(here)[lost[-1]].get("history_change_reason")
        what.append(f"{len(lost)} change(s) recorded here are not in the file (the latest: {part}, {when}"
                    + (f", reason {reason!r}" if reason else "") + ")")
    if lost_events:
        what.append(f"{len(lost_events)} conformance event(s) recorded here are not in the file "
                    f"({', '.join(sorted(str(code) for code, _r, _v in lost_events))})")
    return (f"{stored.slug!r} was played on after this file was written: {'; '.join(what)}. Replacing it "
            "would undo them behind the record. Export the tournament again and import that file; a result to "
            "change is corrected on its round's page, with a reason.")
