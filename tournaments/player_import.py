"""Importing players from CSV: a report line per CSV line, and nothing imported when any line is bad.

Columns (header row required, names case-insensitive, order free): surname (required), given_name,
fmjd_id, federation, title, rating, club, birth_year. A player whose FMJD id is already known is
updated (rating lists are re-imported every period); one without FMJD id is created. Decoding:
UTF-8 (with or without BOM), else Windows-1252, which is what spreadsheets on Windows export.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction

from tournaments.errors import DomainError
from tournaments.models import Entry, Player, Title, Tournament

COLUMNS = ("surname", "given_name", "fmjd_id", "federation", "title", "rating", "club", "birth_year")
ALIASES = {"given name": "given_name", "firstname": "given_name", "first_name": "given_name",
           "fmjd id": "fmjd_id", "fmjd": "fmjd_id", "birth year": "birth_year", "name": "surname",
           "last_name": "surname", "lastname": "surname", "fed": "federation"}
MAX_BYTES = 5 * 1024 * 1024


@dataclass
class ImportLine:
    line: int
    status: str  # "created", "updated", "valid" (not imported because of other lines), "error"
    message: str


@dataclass
class ImportReport:
    source: str
    encoding: str = ""
    lines: list[ImportLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.lines) and not any(line.status == "error" for line in self.lines)

    @property
    def errors(self) -> list[ImportLine]:
        return [line for line in self.lines if line.status == "error"]

    def as_text(self) -> str:
        out = [f"{self.source} ({self.encoding}):"]
        out += [f"  line {x.line}: {x.status}: {x.message}" for x in self.lines]
        if self.ok:
            out.append(f"{len(self.lines)} line(s) imported.")
        else:
            out.append(f"Nothing imported: {len(self.errors)} bad line(s).")
        return "\n".join(out)


def decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "UTF-8 with BOM"
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="strict"), "Windows-1252"


def _int(value: str, name: str, lo: int, hi: int) -> int | None:
    if value == "":
        return None
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} {value!r} is not a whole number") from None
    if not lo <= number <= hi:
        raise ValueError(f"{name} {number} is out of range ({lo}–{hi})")
    return number


def _player_fields(row: dict[str, str]) -> dict[str, object]:
    surname = row.get("surname", "")
    if not surname:
        raise ValueError("surname is empty")
    title = row.get("title", "").upper()
    if title and title not in Title.values:
        raise ValueError(f"title {title!r} is unknown (expected one of {', '.join(Title.values)})")
    federation = row.get("federation", "").upper()
    if federation and not (len(federation) == 3 and federation.isalpha() and federation.isascii()):
        raise ValueError(f"federation {federation!r} is not three letters")
    return {
        "surname": surname[:100],
        "given_name": row.get("given_name", "")[:100],
        "fmjd_id": _int(row.get("fmjd_id", ""), "fmjd_id", 1, 2**31 - 1),
        "federation": federation,
        "title": title,
        "rating": _int(row.get("rating", ""), "rating", 0, 3000),
        "club": row.get("club", "")[:120],
        "birth_year": _int(row.get("birth_year", ""), "birth_year", 1880, 2100),
    }


def players_import_csv(*, data: bytes, source: str = "CSV", tournament: Tournament | None = None) -> ImportReport:
    """Validate every line first; write only when all are good, in one transaction."""
    report = ImportReport(source=source)
    if len(data) > MAX_BYTES:
        raise DomainError(f"{source}: {len(data)} bytes is over the {MAX_BYTES}-byte limit for a player list.")
    try:
        text, report.encoding = decode(data)
    except UnicodeDecodeError as exc:
        raise DomainError(f"{source}: not a text file in UTF-8 or Windows-1252 ({exc}).") from None
    if "\x00" in text:
        raise DomainError(f"{source}: not a CSV text file (it contains NUL bytes).")
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # type: ignore[assignment]
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise DomainError(f"{source}: the file is empty; expected a header line naming the columns.") from None
    names = [ALIASES.get(h.strip().lower(), h.strip().lower()) for h in header]
    unknown = [h for h in names if h and h not in COLUMNS]
    if "surname" not in names or unknown:
        raise DomainError(
            f"{source}, line 1: the header must name the columns ({', '.join(COLUMNS)}; surname required)"
            + (f"; unknown column(s): {', '.join(unknown)}" if unknown else "") + "."
        )
    parsed: list[tuple[int, dict[str, object]]] = []
    seen_ids: dict[int, int] = {}
    try:
        rows = list(enumerate(reader, start=2))
    except csv.Error as exc:
        raise DomainError(f"{source}: unreadable CSV ({exc}).") from None
    for line_no, raw in rows:
        if not any(cell.strip() for cell in raw):
            continue
        if len(raw) > len(names):
            report.lines.append(ImportLine(line_no, "error", f"{len(raw)} fields, the header has {len(names)}"))
            continue
        row = {name: cell.strip() for name, cell in zip(names, raw, strict=False) if name}
        try:
            fields = _player_fields(row)
        except ValueError as exc:
            report.lines.append(ImportLine(line_no, "error", str(exc)))
            continue
        fmjd_id = fields["fmjd_id"]
        if isinstance(fmjd_id, int):
            if fmjd_id in seen_ids:
                report.lines.append(ImportLine(line_no, "error", f"FMJD id {fmjd_id} already on line "
                                                                 f"{seen_ids[fmjd_id]}"))
                continue
            seen_ids[fmjd_id] = line_no
        parsed.append((line_no, fields))
    if not parsed and not report.lines:
        raise DomainError(f"{source}: no player lines after the header.")
    if report.errors:
        report.lines += [ImportLine(n, "valid", f"{f['surname']}: valid, not imported") for n, f in parsed]
        report.lines.sort(key=lambda x: x.line)
        return report
    written = ImportReport(source=source, encoding=report.encoding)
    try:
        with transaction.atomic():
            _write(parsed, written, tournament)
    except _LineError as exc:
        report.lines.append(ImportLine(exc.line, "error", exc.message))
        return report
    return written


class _LineError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _write(parsed: list[tuple[int, dict[str, object]]], report: ImportReport, tournament: Tournament | None) -> None:
    from tournaments import services

    for line_no, fields in parsed:
        player = Player.objects.filter(fmjd_id=fields["fmjd_id"]).first() if fields["fmjd_id"] else None
        status = "updated" if player else "created"
        player = player or Player()
        for key, value in fields.items():
            setattr(player, key, value if value is not None else (None if key in {"fmjd_id", "rating",
                                                                                 "birth_year"} else ""))
        try:
            player.full_clean(validate_unique=False)
        except ValidationError as exc:
            raise _LineError(line_no, "; ".join(exc.messages)) from None
        player.save()
        message = str(player)
        if tournament is not None:
            if Entry.objects.filter(tournament=tournament, player=player).exists():
                message += f" (already entered in {tournament})"
            else:
                try:
                    entry = services.entry_add(tournament=tournament, player=player)
                except DomainError as exc:
                    raise _LineError(line_no, str(exc)) from None
                message += f", entered with pairing number {entry.pairing_number}"
        report.lines.append(ImportLine(line_no, status, message))
