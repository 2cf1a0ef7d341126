"""A table's rows read through the arbiter's column mapping: the list's rows, and every row's errors.

Returns values and codes only (a `RowError` names the line, the field, what is wrong and the value);
`words.py` makes the sentences. A row with an error is left out of `ReadList.rows`; the arbiter chooses
to import the good rows or nothing (`services.import_rating_list(leave_out_errors=...)`).

Decisions where no federation text says:
- a rating may carry FMJD Arbiter Pro's class letter ("A 2339", docs/research/federation-texts.md 1b):
  the number is read, the letter is not kept (its meaning was found nowhere);
- titles are compared without case (Toernooibase writes "gmi"), against `Title`;
- the women's title column (`wtitle`) gives the row's title only when the title column is empty;
- a federation must be three letters: FMJD's file carries old or wrong codes ("1N", "CE"), which are
  row errors rather than guesses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tournaments.models import Title
from tournaments.ratinglists.columns import FIELDS, IGNORE
from tournaments.ratinglists.readers import Table
from tournaments.validators import first_control_character

# RowError codes
NOT_A_NUMBER = "not_a_number"
OUT_OF_RANGE = "out_of_range"
UNKNOWN_TITLE = "unknown_title"
EMPTY_SURNAME = "empty_surname"
DUPLICATE_FMJD_ID = "duplicate_fmjd_id"
DUPLICATE_NATIONAL_ID = "duplicate_national_id"
NOT_A_FEDERATION = "not_a_federation"
UNKNOWN_SEX = "unknown_sex"
TOO_LONG = "too_long"
CONTROL_CHARACTER = "control_character"
TOO_MANY_CELLS = "too_many_cells"

RANGES = {"fmjd_id": (1, 2**31 - 1), "rating": (0, 3000), "birth_year": (1880, 2100)}
LIMITS = {"surname": 100, "given_name": 100, "native_name": 200, "club": 120, "national_id": 30}
RATING = re.compile(r"^(?:[ABC]\s*)?(\d{1,9})$")
SEXES = {"m": "M", "male": "M", "man": "M", "h": "M", "homme": "M", "masculin": "M", "м": "M", "муж": "M",
         "мужской": "M", "f": "F", "female": "F", "woman": "F", "femme": "F", "feminin": "F", "féminin": "F",
         "v": "F", "vrouw": "F", "ж": "F", "жен": "F", "женский": "F"}


@dataclass(frozen=True)
class RowError:
    line: int
    field: str  # a FIELDS name, or "" for the row as a whole
    code: str
    value: str = ""
    other: int | None = None  # the line a duplicate id first stood on; the limit of a length


@dataclass
class ListRow:
    line: int
    fmjd_id: int | None = None
    national_id: str = ""
    surname: str = ""
    given_name: str = ""
    native_name: str = ""
    federation: str = ""
    title: str = ""
    rating: int | None = None
    sex: str = ""
    birth_year: int | None = None
    club: str = ""


@dataclass
class ReadList:
    rows: list[ListRow] = field(default_factory=list)  # the good rows only
    errors: list[RowError] = field(default_factory=list)
    total: int = 0  # every non-empty row of the file

    @property
    def bad_lines(self) -> list[int]:
        return sorted({e.line for e in self.errors})


def _number(name: str, text: str, line: int, errors: list[RowError]) -> int | None:
    if text == "":
        return None
    found = RATING.match(text) if name == "rating" else re.match(r"^(\d{1,12})$", text)
    if not found:
        errors.append(RowError(line, name, NOT_A_NUMBER, text[:40]))
        return None
    value = int(found.group(1))
    low, high = RANGES[name]
    if not low <= value <= high:
        errors.append(RowError(line, name, OUT_OF_RANGE, text[:40]))
        return None
    return value


def read_rows(table: Table, mapping: list[str]) -> ReadList:
    """Every row of `table` through `mapping` (a FIELDS name or IGNORE per column, in column order)."""
    used = [(i, name) for i, name in enumerate(mapping) if name != IGNORE and name in FIELDS]
    out = ReadList(total=len(table.rows))
    titles = {t.upper(): t for t in Title.values}
    seen_fmjd: dict[int, int] = {}
    seen_national: dict[str, int] = {}
    for line, cells in table.rows:
        errors: list[RowError] = []
        if len(cells) > len(table.headers) and any(cells[len(table.headers):]):
            errors.append(RowError(line, "", TOO_MANY_CELLS, str(len(cells)), len(table.headers)))
        text = {name: (cells[i] if i < len(cells) else "") for i, name in used}
        for name, value in text.items():
            if (found := first_control_character(value)) is not None:
                errors.append(RowError(line, name, CONTROL_CHARACTER, f"U+{ord(found[1]):04X}", found[0]))
            elif name in LIMITS and len(value) > LIMITS[name]:
                errors.append(RowError(line, name, TOO_LONG, value[:40], LIMITS[name]))
        row = ListRow(line, surname=text.get("surname", ""), given_name=text.get("given_name", ""),
                      native_name=text.get("native_name", ""), club=text.get("club", ""),
                      national_id=text.get("national_id", ""))
        if not row.surname:
            errors.append(RowError(line, "surname", EMPTY_SURNAME))
        row.fmjd_id = _number("fmjd_id", text.get("fmjd_id", ""), line, errors)
        row.rating = _number("rating", text.get("rating", ""), line, errors)
        row.birth_year = _number("birth_year", text.get("birth_year", ""), line, errors)
        federation = text.get("federation", "").upper()
        if federation and not (len(federation) == 3 and federation.isascii() and federation.isalpha()):
            errors.append(RowError(line, "federation", NOT_A_FEDERATION, federation[:40]))
        row.federation = federation if len(federation) == 3 else ""
        title_field = "title" if text.get("title") else "women_title"
        title = text.get(title_field, "")
        if title and title.upper() not in titles:
            errors.append(RowError(line, title_field, UNKNOWN_TITLE, title[:40]))
        row.title = titles.get(title.upper(), "")
        sex = text.get("sex", "")
        if sex and sex.casefold() not in SEXES:
            errors.append(RowError(line, "sex", UNKNOWN_SEX, sex[:40]))
        row.sex = SEXES.get(sex.casefold(), "")
        if row.fmjd_id is not None:
            if row.fmjd_id in seen_fmjd:
                errors.append(RowError(line, "fmjd_id", DUPLICATE_FMJD_ID, str(row.fmjd_id), seen_fmjd[row.fmjd_id]))
            else:
                seen_fmjd[row.fmjd_id] = line
        if row.national_id:
            if row.national_id in seen_national:
                errors.append(RowError(line, "national_id", DUPLICATE_NATIONAL_ID, row.national_id,
                                       seen_national[row.national_id]))
            else:
                seen_national[row.national_id] = line
        if errors:
            out.errors += errors
        else:
            out.rows.append(row)
    return out
