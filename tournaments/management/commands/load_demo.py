"""A 10-player round robin with all rounds paired and most results in, plus an arbiter account.

Idempotent: a second run changes nothing and prints the same login.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import services
from tournaments.models import Player, RoundStatus, System, Title, Tournament
from tournaments.results import Result

ARBITER_USERNAME = "arbiter"
ARBITER_PASSWORD = "damier-demo"
SLUG = "damier-demo-2026"

# Fictional players; the accents and the Cyrillic name are there on purpose (pages and PDFs).
PLAYERS = [
    ("Groeneveld", "Joséphine", 101, "NED", Title.GMIF, 2318, "DC Rijnmond", 1994),
    ("N'Diaye", "Mamadou", 102, "SEN", Title.GMI, 2402, "Dakar Dames", 1988),
    ("Коваленко", "Андрій", 103, "UKR", Title.MI, 2341, "Kyiv DC", 1991),
    ("Lefèvre", "Amélie", 104, "FRA", Title.MF, 2205, "Damier Lyonnais", 1999),
    ("van der Berg", "Sjoerd", 105, "NED", Title.CMI, 2156, "Hoofddorp", 2002),
    ("Mbemba", "Noël", 106, "CMR", Title.MI, 2290, "Yaoundé", 1985),
    ("Øvergaard", "Søren", 107, "DEN", "", 2011, "København", 2005),
    ("Nowicki", "Łukasz", 108, "POL", Title.MF, 2232, "Warszawa", 1996),
    ("Bošković", "Ana", 109, "SRB", Title.MFF, 2064, "Beograd", 2001),
    ("Silva", "João", 110, "BRA", Title.CMI, 2120, "São Paulo", 1998),
]


class Command(BaseCommand):
    help = "Load the demo tournament and the arbiter account (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            user = self._arbiter()
            if Tournament.objects.filter(slug=SLUG).exists():
                self.stdout.write(f"Demo tournament {SLUG!r} already loaded.")
            else:
                self._tournament(user)
                self.stdout.write(f"Demo tournament {SLUG!r} loaded.")
        self.stdout.write(
            "\nArbiter login: http://127.0.0.1:8000/admin/\n"
            f"  username: {ARBITER_USERNAME}\n  password: {ARBITER_PASSWORD}\n"
        )

    def _arbiter(self) -> Any:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=ARBITER_USERNAME, defaults={"is_staff": True, "first_name": "Demo", "last_name": "Arbiter"}
        )
        if created or not user.check_password(ARBITER_PASSWORD):
            user.set_password(ARBITER_PASSWORD)
            user.is_staff = True
            user.save()
        return user

    def _tournament(self, user: Any) -> Tournament:
        tournament = Tournament.objects.create(
            name="Damier Demo Round Robin 2026",
            slug=SLUG,
            venue="Salle des fêtes, Montréal",
            start_date=datetime.date(2026, 11, 14),
            end_date=datetime.date(2026, 11, 22),
            system=System.ROUND_ROBIN,
            time_control="80 min + 1 min/move",
            chief_arbiter=user,
            public=True,
            tiebreaks=["sonneborn_berger", "wins", "mutual_result"],
        )
        for surname, given, fmjd_id, fed, title, rating, club, born in PLAYERS:
            player, _ = Player.objects.update_or_create(
                fmjd_id=fmjd_id,
                defaults={"surname": surname, "given_name": given, "federation": fed, "title": title,
                          "rating": rating, "club": club, "birth_year": born},
            )
            services.entry_add(tournament=tournament, player=player)
        services.entries_number_by_rating(tournament=tournament)
        rng = random.Random(2026)
        total = services.rounds_total(tournament)
        for number in range(1, total + 1):
            day = tournament.start_date + datetime.timedelta(number - 1)
            rnd = services.round_pair(tournament=tournament, date=day)
            services.round_publish(round=rnd)
            games = list(rnd.games.select_related("white__player", "black__player").order_by("board"))
            # The last round is in progress: two results in, the others for the new user to enter.
            to_enter = games if number < total else games[:2]
            for game in to_enter:
                services.game_record_result(game=game, result=self._result(rng, game))
            if number < total:
                services.round_complete(round=rnd)
        assert tournament.rounds.filter(status=RoundStatus.PUBLISHED).count() == 1
        return tournament

    @staticmethod
    def _result(rng: random.Random, game: Any) -> Result:
        if game.black is None:
            return Result.BYE
        diff = (game.white.player.rating or 0) - (game.black.player.rating or 0)
        roll = rng.random() + diff / 800
        if roll > 0.8:
            return Result.WHITE_WINS
        if roll < 0.2:
            return Result.BLACK_WINS
        if 0.49 < roll < 0.5:
            return Result.WHITE_FORFEIT_WIN
        return Result.DRAW
