"""`manage.py replay_sheets [SLUG] [--round N]`: judge stored game sheets again from their unchanged text."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import GameSheet, Tournament
from tournaments.sheets import sheets_replay


class Command(BaseCommand):
    help = "Replay stored game sheets with the current rules engine and store their new reports."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="only this tournament (default: every sheet)")
        parser.add_argument("--round", type=int, help="only this round (needs SLUG)")

    def handle(self, *args: Any, **options: Any) -> None:
        sheets = GameSheet.objects.select_related("game__round").order_by("game__round__number", "game__board")
        if options["slug"]:
            if not Tournament.objects.filter(slug=options["slug"]).exists():
                raise CommandError(f"No tournament with slug {options['slug']!r}.")
            sheets = sheets.filter(game__round__tournament__slug=options["slug"])
        if options["round"] is not None:
            if not options["slug"]:
                raise CommandError("--round needs the tournament's slug.")
            sheets = sheets.filter(game__round__number=options["round"])
        before = dict(sheets.values_list("pk", "status"))
        counts = sheets_replay(sheets.iterator())
        after = dict(GameSheet.objects.filter(pk__in=before).values_list("pk", "status"))
        changed = sum(1 for pk, status in after.items() if before[pk] != status)
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no sheet"
        self.stdout.write(f"Replayed {len(before)} sheet(s): {summary}; {changed} changed status.")
