from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.exchange.trf_import import TrfImportError, import_trf
from tournaments.management.files import read_input

MAX_BYTES = 20 * 1024 * 1024  # a TRF of 9,999 players and 99 rounds is under 10 MB


class Command(BaseCommand):
    help = ("Create a Swiss tournament from a TRF-16 / TRF(x) file (players, ratings, rounds, results, forfeits, "
            "byes, byes asked for the next round), in one transaction: a bad file imports nothing and the "
            "error names the line and the field.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--slug", help="the new tournament's slug (default: from its name)")
        parser.add_argument("--name", help="the tournament's name (default: the file's 012 line)")
        parser.add_argument("--rounds", type=int, metavar="N", help="number of rounds, when the file has no XXR")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        raw = read_input(path, MAX_BYTES, "a TRF file")
        try:
            text = raw.decode("utf-8").lstrip("\ufeff")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # older TRF writers use Latin-1; every byte decodes
        try:
            result = import_trf(text, slug=options["slug"], name=options["name"], rounds=options["rounds"])
        except TrfImportError as exc:
            raise CommandError(f"{path}: nothing imported: {exc}") from None
        self.stdout.write(result.as_text(), ending="")
