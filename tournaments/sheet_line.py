"""The replayed line of a stored sheet, kept with the sheet so that the public game page never replays it.

Replaying a whole sheet on a page view would cost 0.8 s for a 0.9 MB sheet: the line is made
when the sheet is stored or replayed and kept in `GameSheet.line` as plain JSON; it is rebuilt (and kept)
when it is missing or was made by an older version of this format or of the engine's reading.
"""

from __future__ import annotations

from typing import Any

from tournaments.diagram import GameLine, Ply, line_from_pdn

# Raise when the reader or the replay changes what a line holds: stored lines are then rebuilt on view.
LINE_FORMAT = 2


def line_to_json(line: GameLine) -> dict[str, Any]:
    return {"format": LINE_FORMAT, "start": line.start, "problem": line.problem, "unplayable": line.unplayable,
            "headers": line.headers,
            "plies": [[p.number, p.white, p.text, p.code, list(p.squares), p.note] for p in line.plies]}


def line_from_json(data: Any) -> GameLine | None:
    """The stored line, or None when there is none or it is of another format."""
    if not isinstance(data, dict) or data.get("format") != LINE_FORMAT:
        return None
    plies = [Ply(int(n), bool(w), str(t), str(c), tuple(int(s) for s in sq), str(note))
             for n, w, t, c, sq, note in data.get("plies", [])]
    return GameLine(start=str(data["start"]), plies=plies, unplayable=list(data.get("unplayable") or []),
                    problem=data.get("problem"), headers=dict(data.get("headers") or {}))


def build_line(text: str) -> dict[str, Any] | None:
    try:
        return line_to_json(line_from_pdn(text))
    except Exception:  # noqa: BLE001 - a sheet the diagram cannot draw still gets its verdict; the page rebuilds
        return None


def sheet_line(sheet: Any) -> GameLine:
    """The line of a stored sheet: kept, or built once and kept."""
    line = line_from_json(sheet.line)
    if line is not None:
        return line
    data = build_line(sheet.text)
    if data is None:
        return line_from_pdn(sheet.text)
    type(sheet).objects.filter(pk=sheet.pk).update(line=data)
    sheet.line = data
    result = line_from_json(data)
    assert result is not None
    return result
