from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.conformance import events
from tournaments.conformance.policy import Code, Warning
from tournaments.exchange.trf_import import TrfImportError, decode_trf, import_reviewed, review_trf
from tournaments.exchange.trf_review_text import review_text
from tournaments.management.files import read_input

MAX_BYTES = 20 * 1024 * 1024  # a TRF of 9,999 players and 99 rounds is under 10 MB


class Command(BaseCommand):
    help = ("Create a Swiss tournament or a round robin from a TRF-16 / TRF(x) / TRF-2026 file (players, ratings, "
            "rounds, results, forfeits, byes, byes asked for the next round, the ### conformance events), in one "
            "transaction: a bad file imports nothing and the "
            "error names the line and the field. Before anything is written it names the file's TRF version, lists "
            "every adjustment and default, and replays every round against the pairing rules: rounds that break "
            "them are imported only with --confirm, each recorded as a conformance event (a ### line in the TRF).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--slug", help="the new tournament's slug (default: from its name)")
        parser.add_argument("--name", help="the tournament's name (default: the file's 012 line)")
        parser.add_argument("--rounds", type=int, metavar="N",
                            help="number of rounds, when the file has no 142 or XXR (it overrides them otherwise)")
        parser.add_argument("--dry-run", action="store_true",
                            help="print the review (version, adjustments, pairing rules) and write nothing")
        parser.add_argument("--confirm", action="store_true",
                            help="the arbiter accepts the imported rounds that break the pairing rules (listed by a "
                                 "first run): each is recorded as a conformance event")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        raw = read_input(path, MAX_BYTES, "a TRF file")
        try:
            reviewed = review_trf(decode_trf(raw), rounds=options["rounds"])
        except TrfImportError as exc:
            raise CommandError(f"{path}: nothing imported: {exc}") from None
        self.stdout.write(review_text(reviewed.review), ending="")
        if options["dry_run"]:
            self.stdout.write("Dry run: nothing written.\n")
            return
        confirmed = [str(w.code) for w in reviewed.review.warnings()] if options["confirm"] else []
        try:
            result = import_reviewed(reviewed, slug=options["slug"], name=options["name"], confirmed=confirmed)
        except events.NeedsConfirmation as exc:
            raise CommandError(
                f"{path}: nothing imported: {_rounds(exc.warnings)} (listed above). If the arbiter accepts "
                "them, run again with --confirm: each such round is then recorded as a conformance event and "
                "written as a ### line in the TRF export.") from None
        except TrfImportError as exc:
            raise CommandError(f"{path}: nothing imported: {exc}") from None
        self.stdout.write(result.as_text(), ending="")
        for w in reviewed.review.warnings():
            if w.code is Code.IMPORT_BROKE_RULES:
                self.stdout.write(f"Recorded: round {w.values['round']} imported although it breaks the pairing "
                                  f"rules ({', '.join(w.values['pairs'])}).\n")
            else:
                self.stdout.write(f"Recorded: round {w.values['round']} imported although it is not the engine's "
                                  f"pairing ({', '.join(w.values['file'])}).\n")


def _rounds(warnings: list[Warning]) -> str:
    """Which rounds wait for the confirmation, and why."""
    broken = [str(w.values["round"]) for w in warnings if w.code is Code.IMPORT_BROKE_RULES]
    other = [str(w.values["round"]) for w in warnings if w.code is not Code.IMPORT_BROKE_RULES]
    parts = [f"round(s) {', '.join(broken)} break the pairing rules"] if broken else []
    parts += [f"round(s) {', '.join(other)} are not the pairing Damier's engine makes"] if other else []
    return "; ".join(parts)
