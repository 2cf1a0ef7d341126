"""`manage.py import_pdn SLUG ROUND FILE [--confirm] [--replace]`: a round's game sheets from one PDN file.

Without --confirm it only prints the report (matched and unmatched games, with reasons and the status
each sheet would get) and stores nothing, like the admin's preview; with --confirm it stores the matched
games and prints the same report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import DomainError
from tournaments.management.files import read_input
from tournaments.models import Round
from tournaments.sheets import max_bytes, round_import_confirm, round_import_preview


class Command(BaseCommand):
    help = "Match a round's PDN file to its pairings and print the report; --confirm stores the matched sheets."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("round", type=int)
        parser.add_argument("file", type=Path)
        parser.add_argument("--confirm", action="store_true", help="store the matched games' sheets")
        parser.add_argument("--replace", action="store_true", help="replace sheets already stored")

    def handle(self, *args: Any, **options: Any) -> None:
        rnd = Round.objects.select_related("tournament").filter(
            tournament__slug=options["slug"], number=options["round"]).first()
        if rnd is None:
            raise CommandError(f"No round {options['round']} in a tournament with slug {options['slug']!r}.")
        path: Path = options["file"]
        data = read_input(path, max_bytes())  # the upload's own check words a file over the limit
        try:
            preview = round_import_preview(round=rnd, data=data, source_name=path.name,
                                           replace=options["replace"])
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(preview.text())
        if not preview.matched:
            self.stdout.write("Nothing to store: no game of the file matched a pairing of the round.")
        elif options["confirm"]:
            stored = round_import_confirm(preview=preview)
            self.stdout.write(f"Stored {len(stored)} sheet(s).")
            if preview.skipped:
                self.stdout.write("Not stored, a sheet arrived meanwhile: board(s) "
                                  + ", ".join(map(str, preview.skipped)))
        else:
            self.stdout.write(f"Nothing stored: run again with --confirm to store the {len(preview.matched)} "
                              "matched sheet(s).")
