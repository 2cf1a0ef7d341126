"""The words of the readers' codes, in the reader's language (gettext)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments.ratinglists import readers, rows
from tournaments.ratinglists.rows import RowError

FIELD_LABELS = {
    "": pgettext_lazy("rating list column", "(do not read)"),
    "fmjd_id": gettext_lazy("FMJD id"),
    "national_id": gettext_lazy("national id"),
    "surname": gettext_lazy("surname"),
    "given_name": gettext_lazy("given name"),
    "native_name": gettext_lazy("name in its own script"),
    "federation": gettext_lazy("federation"),
    "title": gettext_lazy("title"),
    "women_title": gettext_lazy("women's title (used when the title is empty)"),
    "rating": gettext_lazy("rating"),
    "sex": gettext_lazy("sex"),
    "birth_year": gettext_lazy("birth year"),
    "club": gettext_lazy("club"),
}


def field_label(name: str) -> str:
    return str(FIELD_LABELS.get(name, name))


def _what(error: RowError) -> str:
    values = {"value": error.value, "other": error.other}
    code = error.code
    if code == rows.NOT_A_NUMBER:
        return _("“%(value)s” is not a number") % values
    if code == rows.OUT_OF_RANGE:
        low, high = rows.RANGES[error.field]
        return _("%(value)s is out of range (%(low)s–%(high)s)") % {**values, "low": low, "high": high}
    if code == rows.UNKNOWN_TITLE:
        return (_("“%(value)s” is not an FMJD title (expected one of %(titles)s)")
                % {**values, "titles": ", ".join(rows.Title.values)})
    if code == rows.EMPTY_SURNAME:
        return _("empty; every row needs a surname")
    if code in (rows.DUPLICATE_FMJD_ID, rows.DUPLICATE_NATIONAL_ID):
        return _("%(value)s is already on line %(other)s") % values
    if code == rows.NOT_A_FEDERATION:
        return _("“%(value)s” is not three letters") % values
    if code == rows.UNKNOWN_SEX:
        return _("“%(value)s” is not a sex (M or F)") % values
    if code == rows.TOO_LONG:
        return _("“%(value)s…” is longer than %(other)s characters") % values
    if code == rows.CONTROL_CHARACTER:
        return _("a control character (%(value)s) at position %(other)s") % values
    if code == rows.TOO_MANY_CELLS:
        return _("%(value)s cells, the header has %(other)s") % values
    return code


def row_error_text(error: RowError) -> str:
    """'line 17, rating: “2O55” is not a number'."""
    if not error.field:
        return _("line %(line)s: %(what)s") % {"line": error.line, "what": _what(error)}
    return (_("line %(line)s, %(column)s: %(what)s")
            % {"line": error.line, "column": field_label(error.field), "what": _what(error)})


def file_error_text(error: readers.ListFileError, file_name: str) -> str:
    values = {"file": file_name, **error.values}
    code = error.code
    if code == readers.TOO_LARGE:
        return _("%(file)s: %(size)s bytes is over the limit of %(limit)s bytes for a rating list.") % values
    if code == readers.NOT_TEXT:
        return _("%(file)s: not a text file in UTF-8 or Windows-1252 (byte %(position)s).") % values
    if code == readers.NUL_BYTES:
        return _("%(file)s: not a text file (it contains NUL bytes); an XLSX file must end in .xlsx.") % values
    if code == readers.EMPTY:
        return _("%(file)s: the file is empty; expected a header line naming the columns.") % values
    if code == readers.UNREADABLE_CSV:
        return _("%(file)s, line %(line)s: unreadable CSV (%(why)s).") % values
    if code == readers.NOT_XLSX:
        return _("%(file)s: not an XLSX workbook (%(why)s).") % values
    if code == readers.NO_SHEET:
        return _("%(file)s: no sheet named “%(sheet)s”; the sheets are %(sheets)s.") % values
    if code == readers.TOO_MANY_ROWS:
        return _("%(file)s: more than %(limit)s rows; a rating list is smaller.") % values
    if code == readers.NOT_DRA:
        return _("%(file)s: not an FMJD list: its header has no %(missing)s column.") % values
    return f"{file_name}: {code}"
