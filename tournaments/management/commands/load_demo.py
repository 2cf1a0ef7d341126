"""A 10-player round robin with all rounds paired and most results in, plus an arbiter account.

Idempotent: a second run changes nothing and prints the same login.
"""

from __future__ import annotations

import datetime
import random
import textwrap
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from rules import Board, Color
from tournaments import selectors
from tournaments.models import Game, GameSheet, Player, RoundStatus, System, Title, Tournament
from tournaments.players import roster
from tournaments.results import Result
from tournaments.rounds import services
from tournaments.sheets import sheet_accept_verdict, sheet_upload

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
            sheets = attach_demo_sheets(Tournament.objects.get(slug=SLUG), user)
            if sheets:
                self.stdout.write(f"Game sheets attached: {sheets}.")
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
            roster.entry_add(tournament=tournament, player=player)
        roster.entries_number_by_rating(tournament=tournament)
        rng = random.Random(2026)
        total = selectors.rounds_total(tournament)
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
        diff = (game.white.rating or 0) - (game.black.rating or 0)
        roll = rng.random() + diff / 800
        if roll > 0.8:
            return Result.WHITE_WINS
        if roll < 0.2:
            return Result.BLACK_WINS
        if 0.49 < roll < 0.5:
            return Result.WHITE_FORFEIT_WIN
        return Result.DRAW


# --- Game sheets ---------------------------------------------------------------------------------
# Games made up by random legal play (the demo's players are fictional too), so that a new user sees
# every status: verified wins, draws agreed after move 40 (not verifiable), one irregular sheet, one
# mismatch, one draw agreed too early (flagged), and the games of the round in progress still missing.

_MISSING_IN_COMPLETED = {(8, 5)}  # (round, board): one completed game left without a sheet


def _random_game(rng: random.Random, irregular_at: int | None = None) -> tuple[list[str], Board]:
    """Moves (as written) of a random game played to its end; with `irregular_at`, the first position
    from that ply on where a capture is compulsory gets a quiet move instead (art. 5.4.6), and the
    game goes on from there as if the opponent had not objected (art. 5.7)."""
    board, moves = Board(), []
    while board.outcome() is None and len(moves) < 300:
        legal = board.legal_moves()
        quiet = [m for m in board.quiet_moves() if not _promotes(board, m)]
        if irregular_at is not None and len(moves) >= irregular_at and legal[0].is_capture and quiet:
            move = rng.choice(quiet)
            piece = board.piece_at(move.start)
            moves.append(f"{move.start}-{move.end}")
            board.set_piece(move.start, None)
            board.set_piece(move.end, piece)
            board.set_turn(board.turn.opponent)
            irregular_at = None
            continue
        move = rng.choice(legal)
        moves.append(board.notation(move))
        board.push(move)
    return moves, board


def _promotes(board: Board, move: object) -> bool:
    end = getattr(move, "end", 0)
    return end <= 5 if board.turn is Color.WHITE else end >= 46


def _ending(rng: random.Random, result: str, irregular_at: int | None = None) -> list[str]:
    """A random game whose board result is `result` (2-0 / 0-2), or, for 1-1, 82+ plies then a draw."""
    for _ in range(2000):
        moves, board = _random_game(rng, irregular_at)
        outcome = board.outcome()
        if result == "1-1" and len(moves) > 84:
            return moves[:82]  # both sides played 41 moves; they agree a draw (compet. 5.3 allows it)
        if outcome is not None and outcome.result() == result and (irregular_at is None or len(moves) > 20):
            return moves
    raise RuntimeError(f"no random game ended {result}")


def _pdn(game: Game, moves: list[str], result: str) -> str:
    numbered = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    tags = {"Event": game.round.tournament.name, "Round": str(game.round.number),
            "White": game.white.player.full_name, "Black": game.black.player.full_name,  # type: ignore[union-attr]
            "WhiteFMJDId": str(game.white.player.fmjd_id), "BlackFMJDId": str(game.black.player.fmjd_id),  # type: ignore[union-attr]
            "Result": result, "GameType": "20"}
    head = "\n".join(f'[{k} "{v}"]' for k, v in tags.items())
    body = textwrap.fill(f"{numbered} {result}", width=80, break_long_words=False, break_on_hyphens=False)
    return f"{head}\n\n{body}\n"


def attach_demo_sheets(tournament: Tournament, user: Any) -> str:
    """Attach the demo's game sheets once (a tournament that has sheets is left alone); returns what
    was attached, '' when nothing was."""
    if GameSheet.objects.filter(game__round__tournament=tournament).exists():
        return ""
    rng = random.Random(20261122)
    games = list(Game.objects.filter(round__tournament=tournament, black__isnull=False,
                                     result__in=["2-0", "1-1", "0-2"]).select_related(
        "round__tournament", "white__player", "black__player").order_by("round__number", "board"))
    decisive = [g for g in games if g.result != "1-1"]
    draws = [g for g in games if g.result == "1-1"]
    irregular = decisive[1] if len(decisive) > 1 else None
    mismatch = decisive[2] if len(decisive) > 2 else None
    early = draws[0] if draws else None
    for game in games:
        if (game.round.number, game.board) in _MISSING_IN_COMPLETED:
            continue
        result = game.result
        if game == irregular:
            text = _pdn(game, _ending(rng, result, irregular_at=12), result)
        elif game == mismatch:
            # The sheet, and the board, say the opposite of what was recorded.
            other = "0-2" if result == "2-0" else "2-0"
            text = _pdn(game, _ending(rng, other), other)
        elif game == early:
            text = _pdn(game, _ending(rng, "1-1")[:30], "1-1")
        else:
            text = _pdn(game, _ending(rng, result), result)
        sheet_upload(game=game, data=text, source_name=f"round-{game.round.number}.pdn", user=user)
    # The arbiter has looked at the clean sheets and accepted their verdicts (so the public pages show
    # them); the irregular sheet, the mismatch and the early draw are left for him to rule on.
    for sheet in GameSheet.objects.filter(game__round__tournament=tournament, needs_look=False).select_related("game"):
        sheet_accept_verdict(game=sheet.game, expected_version=sheet.version, user=user)
    counts: dict[str, int] = {}
    for status in GameSheet.objects.filter(game__round__tournament=tournament).values_list("status", flat=True):
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in sorted(counts.items()))
