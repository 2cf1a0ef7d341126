"""Text that reaches exports and printouts line by line (TRF, CSV, PDN, PDF) must be one plain line.

A newline in a name writes forged records into a TRF file; a NUL cannot be stored by PostgreSQL; a
right-to-left override shows a name other than the one stored. These are refused where text comes in
(model fields, forms, the CSV and JSON imports), each refusal naming the character and where it is.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# Unicode bidirectional embeddings, overrides and isolates: invisible, and they reorder what follows.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def first_control_character(text: str) -> tuple[int, str] | None:
    """(1-based position, character) of the first control character, or None."""
    for i, c in enumerate(text, start=1):
        if c in BIDI_CONTROLS or unicodedata.category(c) in ("Cc", "Cs"):
            return i, c
    return None


def describe_control(text: str) -> str | None:
    """What is wrong with the text in words (for messages built outside a form), or None."""
    found = first_control_character(text)
    if found is None:
        return None
    position, char = found
    return gettext("a control character (U+%(code)04X) at position %(pos)s") % {"code": ord(char), "pos": position}


@deconstructible
class NoControlCharacters:
    """Model and form field validator: one line of printable text."""

    message = _("Control characters (line breaks, tabs, NUL, direction overrides) are not allowed: "
                "U+%(code)04X at position %(pos)s.")
    code = "control_character"

    def __call__(self, value: object) -> None:
        if not isinstance(value, str):
            return
        found = first_control_character(value)
        if found is not None:
            position, char = found
            raise ValidationError(self.message, code=self.code, params={"code": ord(char), "pos": position})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoControlCharacters)

    def __hash__(self) -> int:
        return hash(type(self))


no_control_characters = NoControlCharacters()

