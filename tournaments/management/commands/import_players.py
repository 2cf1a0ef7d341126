from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import DomainError
from tournaments.exchange.player_import import players_import_csv
from tournaments.management.files import read_input
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Import players from a CSV file (report per line; nothing is imported when any line is bad)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--tournament", metavar="SLUG", help="also enter the players in this tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        tournament = None
        if options["tournament"]:
            tournament = Tournament.objects.filter(slug=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"No tournament with slug {options['tournament']!r}.")
        data = read_input(path)
        try:
            report = players_import_csv(data=data, source=str(path), tournament=tournament)
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(report.as_text())
        if not report.ok:
            raise CommandError(f"{path}: nothing imported ({len(report.errors)} bad line(s)).")
