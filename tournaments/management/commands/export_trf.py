from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import DomainError
from tournaments.models import Tournament
from tournaments.rounds import pairing_bridge


class Command(BaseCommand):
    help = ("Write a tournament as TRF (TRF-16 records, TRF-2026's 162 and 192, the XX and BB lines): a Swiss to "
            "cross-check its pairings with bbpPairings or JaVaFo, a round robin as its report.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--next-round", type=int, metavar="N",
                            help="mark withdrawn and excused players for round N, as the pairing programs expect")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.")
        try:
            text = pairing_bridge.export_trf(tournament, next_round=options["next_round"])
        except DomainError as exc:
            raise CommandError(f"{tournament}: {exc}") from None
        self.stdout.write(text, ending="")
