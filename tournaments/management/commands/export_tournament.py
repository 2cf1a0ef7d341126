from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.exchange.transfer import dumps, export_tournament
from tournaments.models import Tournament


class Command(BaseCommand):
    help = ("Write a tournament as JSON (players, entries, rounds, games, results, sheets, reports, history) "
            "to standard output or a file; import_tournament reads it back.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", type=Path, help="write to this file instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.")
        text = dumps(export_tournament(tournament))
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
            self.stderr.write(f"{tournament.slug}: written to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
