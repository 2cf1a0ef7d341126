from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.exchange.transfer import import_tournament, loads
from tournaments.management.files import read_input

MAX_BYTES = 200 * 1024 * 1024  # far above any real tournament; refuses a wrong file before reading it


class Command(BaseCommand):
    help = ("Import a tournament written by export_tournament, in one transaction: a bad file imports "
            "nothing. Players are matched by FMJD id; an existing tournament with the same slug is "
            "refused unless --replace. Every round is checked against the pairing rules: one that breaks them "
            "or is not the engine's pairing, and that the file's own conformance events do not record, is "
            "imported only with --confirm, and recorded as a conformance event (a ### line in the TRF).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--replace", action="store_true",
                            help="replace the tournament with the same slug (its data and history)")
        parser.add_argument("--confirm", action="store_true",
                            help="the arbiter accepts the rounds that break the pairing rules or are not the "
                                 "engine's pairing (listed by a first run): each is recorded as a conformance event")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        data = read_input(path, MAX_BYTES, "a tournament export")
        try:
            result = import_tournament(loads(data), replace=options["replace"], confirmed=[
                str(Code.IMPORT_BROKE_RULES), str(Code.IMPORT_NOT_ENGINE_PAIRING)] if options["confirm"] else [])
        except events.NeedsConfirmation as exc:
            raise CommandError(f"{path}: nothing imported: {exc} If the arbiter accepts these rounds, run again "
                               "with --confirm: each is then recorded as a conformance event and written as a ### "
                               "line in the TRF export.") from None
        except DomainError as exc:
            raise CommandError(f"{path}: nothing imported: {exc}") from None
        self.stdout.write(result.as_text())
