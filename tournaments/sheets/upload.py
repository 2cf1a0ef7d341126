"""An uploaded game sheet before anything is stored: size, emptiness, encoding (the one policy of
rules.pdn.decode_pdn, strict), and whether the file holds PDN games at all; refusals in the reader's language."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.pdn import DecodeError, ParsedGame, decode_pdn, read_games
from tournaments.errors import DomainError
from tournaments.sheets.line import MAX_PLIES, too_long

DEFAULT_MAX_BYTES = 2 * 1024 * 1024


class SheetUploadError(DomainError):
    """An upload refused as a whole (size, encoding, not PDN): nothing from it is stored."""


def max_bytes() -> int:
    return int(getattr(settings, "DAMIER_PDN_MAX_BYTES", DEFAULT_MAX_BYTES))


@dataclass(frozen=True)
class Upload:
    text: str
    encoding: str
    source_name: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:16]


def decode_upload(data: bytes | str, source_name: str = "") -> Upload:
    """Check an upload before any parsing: size, emptiness, binary content, encoding.

    UTF-8 (with or without BOM) and UTF-16 with a BOM are read as such; other bytes as Windows-1252,
    the encoding of old draughts programs, unless they hold bytes that code page leaves undefined.
    """
    name = _safe_name(source_name)
    limit = max_bytes()
    if isinstance(data, str):
        size = len(data.encode("utf-8"))
        if size > limit:
            raise SheetUploadError(_("%(name)s: %(size)s bytes, over the limit of %(limit)s bytes.")
                                   % {"name": name, "size": size, "limit": limit})
        text, encoding = data.removeprefix("\ufeff"), "utf-8"
    else:
        if len(data) > limit:
            raise SheetUploadError(_("%(name)s: %(size)s bytes, over the limit of %(limit)s bytes.")
                                   % {"name": name, "size": len(data), "limit": limit})
        text, encoding = _decode_bytes(bytes(data), name)
    if not text.strip():
        raise SheetUploadError(_("%(name)s: the file is empty.") % {"name": name})
    nul = text.find("\x00")
    if nul >= 0:
        # PostgreSQL cannot store U+0000 in text, and no PDN text holds it: refused, never cleaned,
        # so that what is stored is what the arbiter sent.
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise SheetUploadError(_("%(name)s: the character U+0000 (NUL) at line %(line)s, column %(column)s "
                                 "(%(encoding)s): not a PDN text. Save the file as UTF-8 text and upload it again.")
                               % {"name": name, "line": line, "column": column, "encoding": encoding})
    return Upload(text.replace("\r\n", "\n").replace("\r", "\n"), encoding, name)


def _safe_name(source_name: str) -> str:
    # Only a label for the report: the last path component, never opened.
    base = source_name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return base[:200] or "upload"


def _decode_bytes(raw: bytes, name: str) -> tuple[str, str]:
    """The bytes by the one decoding policy of game sheets (rules.pdn.decode_pdn), strictly: what it refuses
    is named for the arbiter, nothing damaged is stored."""
    try:
        text, encoding = decode_pdn(raw, strict=True)
    except DecodeError as exc:
        words = {
            "bad_utf16": _("%(name)s: announces UTF-16 but is not valid UTF-16 (byte %(position)s)."),
            "binary": _("%(name)s: binary data (NUL bytes), not a PDN text file."),
            "unknown_encoding": _("%(name)s: unknown encoding: neither UTF-8 nor Windows-1252 (byte %(byte)s at "
                                  "offset %(offset)s). Save the file as UTF-8 and upload it again."),
        }
        raise SheetUploadError(words[exc.code] % {"name": name, **exc.values}) from exc
    # The stored label names the encoding of the text, a UTF-8 byte order mark aside.
    return text, "utf-8" if encoding == "utf-8-sig" else encoding


# The PDN game types (rules.pdn_gametype names them in English for the command line), for the arbiter.
_GAME_TYPES = {
    0: gettext_lazy("chess"), 21: gettext_lazy("English draughts (checkers)"), 22: gettext_lazy("Italian draughts"),
    23: gettext_lazy("American pool checkers"), 24: gettext_lazy("Spanish draughts"),
    25: gettext_lazy("Russian draughts"), 26: gettext_lazy("Brazilian draughts"),
    27: gettext_lazy("Canadian draughts"), 28: gettext_lazy("Portuguese draughts"),
    29: gettext_lazy("Czech draughts"), 30: gettext_lazy("Turkish draughts"), 31: gettext_lazy("Thai draughts"),
    40: gettext_lazy("Frisian draughts"),
}


def refusal_words(source_name: str, game_type: str) -> str:
    """Why a sheet whose GameType is not international draughts is refused, naming the game it holds."""
    head = re.match(r"\s*([0-9]{1,5})\s*(?:,|$)", game_type)
    known = _GAME_TYPES.get(int(head.group(1))) if head else None
    if known is not None:
        return _("%(name)s: GameType %(value)s is %(game)s, not international draughts (20); nothing stored.") \
            % {"name": source_name, "value": game_type, "game": known}
    return _("%(name)s: not international draughts (GameType %(value)s); nothing stored.") \
        % {"name": source_name, "value": game_type}


def parse_upload(upload: Upload) -> list[ParsedGame]:
    """The games of the file; SheetUploadError when nothing in it is PDN."""
    games = read_games(upload.text, upload.source_name)
    real = [g for g in games if g.headers or g.moves or g.result_token]
    if not real:
        # Where the reader first stumbled, by line and column: its own message is the command line's English.
        first = next((e for g in games for e in g.errors), None)
        if first is None:
            raise SheetUploadError(_("%(name)s: not a PDN file: no tag and no move found.")
                                   % {"name": upload.source_name})
        raise SheetUploadError(_("%(name)s: not a PDN file: no tag and no move found (the first thing that cannot "
                                 "be read is at line %(line)s, column %(column)s).")
                               % {"name": upload.source_name, "line": first.line, "column": first.column})
    for index, game in enumerate(real, 1):
        if too_long(game):
            raise SheetUploadError(_("%(name)s, game %(index)s (%(white)s - %(black)s): %(plies)s moves written "
                                     "(counting White's and Black's), more than the %(limit)s a game sheet may "
                                     "hold; nothing stored.")
                                   % {"name": upload.source_name, "index": index,
                                      "white": game.headers.get("White") or "?",
                                      "black": game.headers.get("Black") or "?",
                                      "plies": len(game.moves), "limit": MAX_PLIES})
    return real


def game_texts(text: str, games: list[ParsedGame]) -> list[str]:
    """Each game's own part of the file, unchanged, cut where the PDN reader says the game starts and ends
    (never by line: a game may start on the line where the previous one ends)."""
    return [text[g.start:g.end] + "\n" for g in games]
