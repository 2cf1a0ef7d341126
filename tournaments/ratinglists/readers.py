"""A list file read into a table of text cells: FMJD's `.DRA`, any CSV, any XLSX.

Pure of the database. What is wrong with the whole file is a `ListFileError` holding a code and its
values; the words are made at the edge (`words.py`).

- `.DRA` (FMJD's list, `V<yyMMdd>.DRA`): comma separated, fields may be double-quoted, a header line
  naming the columns (`nr_ew`, `last_n`, `first_n`, `country`, `title`, `rating`, `wtitle`, `wrating`,
  perhaps `nick`). Its encoding is not documented: it is read as any CSV is (UTF-8, else Windows-1252).
- CSV: UTF-8 with or without BOM, else Windows-1252; the separator (`;`, `,` or tab) sniffed.
- XLSX: the first sheet or the one chosen, read with openpyxl in read-only mode; the first non-empty row
  is the header.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass, field

MAX_BYTES = 30 * 1024 * 1024
MAX_ROWS = 100_000  # FMJD's list holds some 30,000 players: three times that is a mistake
MAX_COLUMNS = 200  # a sheet's cells past it are not read (a styled sheet may claim 16,384 columns)

# ListFileError codes
TOO_LARGE = "too_large"
NOT_TEXT = "not_text"
NUL_BYTES = "nul_bytes"
EMPTY = "empty"
UNREADABLE_CSV = "unreadable_csv"
NOT_XLSX = "not_xlsx"
NO_SHEET = "no_sheet"
TOO_MANY_ROWS = "too_many_rows"
NOT_DRA = "not_dra"

DRA_NAME = re.compile(r"^V(\d{2})(\d{2})(\d{2})\.DRA$", re.IGNORECASE)
DRA_REQUIRED = ("nr_ew", "last_n")


class ListFileError(Exception):
    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code, values)
        self.code, self.values = code, values


@dataclass
class Table:
    """The header's cells and each row's, with the line (CSV) or row number (XLSX) it stood on."""

    headers: list[str]
    rows: list[tuple[int, list[str]]]
    file_format: str  # "dra", "csv", "xlsx"
    encoding: str = ""
    sheets: list[str] = field(default_factory=list)
    sheet: str = ""


def dra_date(file_name: str) -> datetime.date | None:
    """The date a `V<yyMMdd>.DRA` name gives (the 1st of the month in every list seen), else None."""
    found = DRA_NAME.match(file_name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    if not found:
        return None
    year, month, day = (int(x) for x in found.groups())
    try:
        return datetime.date(2000 + year, month, day)
    except ValueError:
        return None


def file_format(file_name: str) -> str:
    name = file_name.lower()
    if name.endswith(".dra"):
        return "dra"
    if name.endswith((".xlsx", ".xlsm")):
        return "xlsx"
    return "csv"


def decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "UTF-8 (BOM)"
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252"), "Windows-1252"
        except UnicodeDecodeError as exc:
            raise ListFileError(NOT_TEXT, position=exc.start) from None


def _check_size(data: bytes) -> None:
    if len(data) > MAX_BYTES:
        raise ListFileError(TOO_LARGE, size=len(data), limit=MAX_BYTES)


def _csv_table(text: str, delimiter: str | None, fmt: str, encoding: str) -> Table:
    if "\x00" in text:
        raise ListFileError(NUL_BYTES)
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:8192], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    # newline="": the csv module splits the records itself, at CR LF, LF or a lone CR.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quotechar='"', doublequote=True)
    headers: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    try:
        for raw in reader:
            if not any(cell.strip() for cell in raw):
                continue
            line = reader.line_num
            if headers is None:
                headers = [cell.strip() for cell in raw]
                continue
            if len(rows) >= MAX_ROWS:
                raise ListFileError(TOO_MANY_ROWS, limit=MAX_ROWS)
            rows.append((line, [cell.strip() for cell in raw]))
    except csv.Error as exc:
        raise ListFileError(UNREADABLE_CSV, line=reader.line_num, why=str(exc)) from None
    if headers is None:
        raise ListFileError(EMPTY)
    return Table(headers, rows, fmt, encoding)


def read_csv(data: bytes) -> Table:
    _check_size(data)
    text, encoding = decode(data)
    return _csv_table(text, None, "csv", encoding)


def read_dra(data: bytes) -> Table:
    """FMJD's list: a comma-separated file whose header names at least nr_ew and last_n."""
    _check_size(data)
    text, encoding = decode(data)
    table = _csv_table(text, ",", "dra", encoding)
    names = {h.lower() for h in table.headers}
    missing = [name for name in DRA_REQUIRED if name not in names]
    if missing:
        raise ListFileError(NOT_DRA, missing=", ".join(missing))
    return table


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat()
    return str(value).strip()


def xlsx_sheets(data: bytes) -> list[str]:
    return _workbook(data).sheetnames


def _workbook(data: bytes):  # type: ignore[no-untyped-def]
    from openpyxl import load_workbook

    _check_size(data)
    try:
        return load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise ListFileError(NOT_XLSX, why=str(exc)[:200]) from None


def read_xlsx(data: bytes, sheet: str = "") -> Table:
    book = _workbook(data)
    try:
        if sheet and sheet not in book.sheetnames:
            raise ListFileError(NO_SHEET, sheet=sheet, sheets=", ".join(book.sheetnames))
        ws = book[sheet] if sheet else book.worksheets[0]
        headers: list[str] | None = None
        rows: list[tuple[int, list[str]]] = []
        for number, values in enumerate(ws.iter_rows(max_col=MAX_COLUMNS, values_only=True), start=1):
            cells = [_cell(v) for v in values]
            if not any(cells):
                continue
            if headers is None:
                headers = cells
                continue
            if len(rows) >= MAX_ROWS:
                raise ListFileError(TOO_MANY_ROWS, limit=MAX_ROWS)
            rows.append((number, cells))
        if headers is None:
            raise ListFileError(EMPTY)
        while headers and not headers[-1]:  # a styled but empty column at the right
            headers.pop()
        return Table(headers, rows, "xlsx", "", list(book.sheetnames), ws.title)
    finally:
        book.close()


def read_file(file_name: str, data: bytes, sheet: str = "") -> Table:
    fmt = file_format(file_name)
    if fmt == "dra":
        return read_dra(data)
    if fmt == "xlsx":
        return read_xlsx(data, sheet)
    return read_csv(data)
