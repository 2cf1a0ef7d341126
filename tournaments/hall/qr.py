"""QR codes leading from paper and screens to the live pages: SVG for the pages, vectors for the PDFs.

One library, segno, makes the code for both (a pure-Python, maintained encoder, ISO/IEC 18004): the pages
get its SVG, the PDFs its module matrix drawn as reportlab rectangles, so a printed code is as sharp as the
printer and the screen and the paper carry the very same symbol. Error correction M (15 % of the symbol may
be lost: a fold, a pin, a smudge) and the standard quiet zone of four modules.

The address is absolute, since a phone reads it: DAMIER_SITE_URL when set ("https://damier.example.org";
the one choice for a site reached by several names, and for a PDF made without a request), otherwise the
scheme and host of the request that asked for the page (a host Django's ALLOWED_HOSTS accepted).
"""

from __future__ import annotations

from typing import Any

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

ERROR = "m"
QUIET = 4  # modules of white around the symbol (ISO/IEC 18004, 6.3.8)


def site_base(request: HttpRequest | None) -> str | None:
    """'https://host' with no slash at the end, or None when neither the setting nor a request says it."""
    base = str(getattr(settings, "DAMIER_SITE_URL", "") or "").strip().rstrip("/")
    if base:
        return base
    if request is None:
        return None
    return f"{request.scheme}://{request.get_host()}"


def absolute(path: str, request: HttpRequest | None) -> str | None:
    base = site_base(request)
    return f"{base}{path}" if base is not None else None


def _code(url: str) -> Any:
    return segno.make(url, error=ERROR, micro=False)


def svg(url: str, *, label: str, css_class: str = "qr") -> SafeString:
    """The code as inline SVG, scaled by its CSS box; the label is what a screen reader says of it."""
    inline = _code(url).svg_inline(scale=1, border=QUIET, omitsize=True, svgclass=css_class, lineclass=None,
                                   dark="#000", light="#fff")
    head = f'<svg role="img" aria-label="{escape(label)}" '
    return mark_safe(inline.replace("<svg ", head, 1))  # noqa: S308 - segno's own markup, the label escaped


def modules(url: str) -> list[tuple[int, int, int]]:
    """The dark modules as runs (row, first column, length), quiet zone included in the coordinates."""
    runs = []
    for y, row in enumerate(_code(url).matrix_iter(border=QUIET)):
        x = 0
        row = list(row)
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append((y, start, x - start))
            else:
                x += 1
    return runs


def side(url: str) -> int:
    """Modules across, quiet zone included."""
    return int(_code(url).symbol_size(border=QUIET)[0])


def draw(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The code as filled rectangles in the square of `size` points whose lower left corner is (x, y);
    the quiet zone painted white, so a grey table stripe under it cannot spoil it."""
    n = side(url)
    unit = size / n
    canvas.saveState()
    canvas.setFillColor(colors.white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(colors.black)
    for row, column, length in modules(url):
        canvas.rect(x + column * unit, y + size - (row + 1) * unit, length * unit, unit, stroke=0, fill=1)
    canvas.restoreState()


class QRFlowable(Flowable):
    """The code in a platypus story (the wall sheets), `size` points square, with an optional caption."""

    def __init__(self, url: str, size: float) -> None:
        super().__init__()
        self.url, self.size = url, size
        self.width = self.height = size

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        draw(self.canv, self.url, 0, 0, self.size)
