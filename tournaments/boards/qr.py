"""A code's address as a QR code: inline SVG for the arbiter's list, squares drawn with reportlab for the
score sheet. segno (pinned in requirements.txt) makes the matrix; error correction M survives a crease."""

from __future__ import annotations

import io
from typing import Any

import segno


def svg(url: str, scale: int = 3) -> str:
    """An <svg> element (no XML declaration), to be placed in a page as it is."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2, nl=False)
    return out.getvalue().decode("ascii")


def draw(canvas: Any, url: str, x: float, y: float, size: float) -> None:
    """Draw the code as filled squares with its lower left corner at (x, y), `size` points wide."""
    qr = segno.make(url, error="m")
    rows = [list(row) for row in qr.matrix]
    cell = size / len(rows)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                canvas.rect(x + c * cell, y + size - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    canvas.restoreState()
