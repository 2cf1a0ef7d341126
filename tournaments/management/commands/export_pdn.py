"""`manage.py export_pdn SLUG [--round N] [--public]`: the tournament's games as one canonical PDN."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.sheets.export import export_pdn


class Command(BaseCommand):
    help = "Write the tournament's games (or one round's) as canonical PDN on standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--round", type=int, help="only this round")
        parser.add_argument("--public", action="store_true",
                            help="only what the public sees: published and completed rounds")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.")
        rnd = None
        if options["round"] is not None:
            rnd = tournament.rounds.filter(number=options["round"]).first()
            if rnd is None:
                raise CommandError(f"{tournament} has no round {options['round']}.")
        self.stdout.write(export_pdn(tournament, round=rnd, public_only=options["public"]), ending="")
