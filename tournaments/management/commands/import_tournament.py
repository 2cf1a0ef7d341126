from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import DomainError
from tournaments.exchange.transfer import import_tournament, loads
from tournaments.management.files import read_input

MAX_BYTES = 200 * 1024 * 1024  # far above any real tournament; refuses a wrong file before reading it


class Command(BaseCommand):
    help = ("Import a tournament written by export_tournament, in one transaction: a bad file imports "
            "nothing. Players are matched by FMJD id; an existing tournament with the same slug is "
            "refused unless --replace.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--replace", action="store_true",
                            help="replace the tournament with the same slug (its data and history)")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = read_input(path, MAX_BYTES, "a tournament export")
        try:
            result = import_tournament(loads(data), replace=options["replace"])
        except DomainError as exc:
            raise CommandError(f"{path}: nothing imported: {exc}") from None
        self.stdout.write(result.as_text())
