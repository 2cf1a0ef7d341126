from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import pairing_bridge
from tournaments.errors import DomainError
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
        try:
            text = pairing_bridge.export_trf(tournament, next_round=options["next_round"])
        except DomainError as exc:
            raise CommandError(f"{tournament}: {exc}") from None
        self.stdout.write(text, ending="")
