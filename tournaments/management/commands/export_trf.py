from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import pairing_bridge
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a Swiss tournament as TRF(x), to cross-check its pairings with bbpPairings or JaVaFo."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--next-round", type=int, metavar="N",
                            help="mark withdrawn and excused players for round N, as the pairing programs expect")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.")
        if tournament.is_round_robin:
            raise CommandError(f"{tournament} is a round robin: TRF(x) export is for Swiss tournaments.")
        self.stdout.write(pairing_bridge.export_trf(tournament, next_round=options["next_round"]), ending="")
