"""manage.py import_rating_list FILE --source FMJD --date 2026-10-01 [--kind national] [--columns ...]"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import DomainError
from tournaments.management.files import read_input
from tournaments.models import RatingKind
from tournaments.ratinglists import columns, readers, rows, selectors, words
from tournaments.ratinglists.services import clean_source, import_rating_list


def _mapping(spec: str, headers: list[str]) -> list[str]:
    """--columns: the fields in column order ("surname,given_name,-,rating"; "-" or nothing skips a column),
    or changes to the guesses by header ("Punten=rating,Opmerking=-")."""
    guessed = columns.guess_all(headers)
    if not spec:
        return guessed
    items = [item.strip() for item in spec.split(",")]
    named = all("=" in item for item in items)
    chosen = list(guessed) if named else []
    for item in items:
        header, _, field = item.rpartition("=") if named else ("", "", item)
        field = "" if field in ("-", "") else field
        if field not in columns.FIELDS and field != "":
            raise CommandError(f"--columns: unknown field {field!r}; the fields are {', '.join(columns.FIELDS)} "
                               "(or - to skip a column).")
        if not named:
            chosen.append(field)
            continue
        matching = [i for i, h in enumerate(headers) if h.strip().lower() == header.strip().lower()]
        if not matching:
            raise CommandError(f"--columns: no column headed {header!r}; the headers are {', '.join(headers)}.")
        chosen[matching[0]] = field
    if len(chosen) > len(headers):
        raise CommandError(f"--columns names {len(chosen)} columns; the file has {len(headers)}.")
    return chosen + [""] * (len(headers) - len(chosen))


class Command(BaseCommand):
    help = ("Import a dated rating list (FMJD's V<yyMMdd>.DRA, or any CSV or XLSX through its columns): prints "
            "the counts and every row's errors; nothing is imported when a row is bad unless "
            "--leave-out-bad-rows.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--source", default="", help="FMJD, KNDB, FFJD, a club's short name (a .DRA: FMJD)")
        parser.add_argument("--date", default="", help="the list's date, YYYY-MM-DD (a V<yyMMdd>.DRA: its name's)")
        parser.add_argument("--kind", choices=RatingKind.values, default=RatingKind.FMJD)
        parser.add_argument("--name", default="")
        parser.add_argument("--sheet", default="", help="the XLSX sheet (default: the first)")
        parser.add_argument("--columns", default="",
                            help="the fields in column order (surname,given_name,-,rating) or Header=field "
                                 f"changes to the guesses; fields: {', '.join(columns.FIELDS)}")
        parser.add_argument("--leave-out-bad-rows", action="store_true",
                            help="import the rows without errors when some have errors")
        parser.add_argument("--dry-run", action="store_true", help="read and report, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = read_input(path, readers.MAX_BYTES)
        try:
            table = readers.read_file(path.name, data, options["sheet"])
        except readers.ListFileError as exc:
            raise CommandError(words.file_error_text(exc, str(path))) from None
        date = readers.dra_date(path.name)
        if options["date"]:
            try:
                date = datetime.date.fromisoformat(options["date"])
            except ValueError:
                raise CommandError(f"--date {options['date']!r}: not a date YYYY-MM-DD.") from None
        if date is None:
            raise CommandError("--date is needed: the file's name does not give it.")
        source = options["source"] or ("FMJD" if table.file_format == "dra" else "")
        if not source:
            raise CommandError("--source is needed (FMJD, KNDB, FFJD, a club's short name).")
        try:
            source = clean_source(source)
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        mapping = _mapping(options["columns"], table.headers)
        self.stdout.write(f"{path}: {table.file_format}{' ' + table.encoding if table.encoding else ''}; columns: "
                          + ", ".join(f"{h} -> {m or '-'}" for h, m in zip(table.headers, mapping, strict=True)))
        if "surname" not in mapping:
            raise CommandError("No column is read as the surname: name it with --columns.")
        read = rows.read_rows(table, mapping)
        preview = selectors.preview(read, source, options["kind"], date)
        self.stdout.write(f"{preview.total} rows: {preview.matched} matched to the register, {preview.new} not in "
                          f"it, {preview.bad} with errors.")
        for error in read.errors:
            self.stdout.write("  " + words.row_error_text(error))
        if preview.newer:
            self.stdout.write(f"A newer {source} list ({preview.newer.isoformat()}) is imported: the register "
                              "will not change.")
        if options["dry_run"]:
            self.stdout.write("Dry run: nothing written.")
            return
        try:
            done = import_rating_list(read=read, source=source, kind=options["kind"], published_on=date,
                                      name=options["name"], file_name=path.name, file_format=table.file_format,
                                      leave_out_errors=options["leave_out_bad_rows"])
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{done.rating_list} imported. Rows: {done.rows}; matched: {done.matched}; players updated: "
                          f"{done.updated}; rows left out: {done.left_out}.")
