"""The one lock order of every writer: the tournament's row first, then what it changes.

The pairing holds its tournament's row while it pairs, and every write a public page shows moves the
tournament's cache version (a trigger updates its row), so every transaction ends up holding that row.
A writer that locked a round, a game or an entry first and the tournament last could wait on a writer
that did the opposite: PostgreSQL then kills one of them (a deadlock). Taking the tournament first,
always, makes them wait their turn instead.
"""

from __future__ import annotations

from tournaments.models import Game, Round, Tournament


def lock_tournament(tournament_id: int | None) -> None:
    """The tournament's row, locked until the transaction ends (nothing when it is gone)."""
    if tournament_id is not None:
        list(Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk", flat=True))


def lock_tournament_of_game(game_id: int | None) -> None:
    lock_tournament(Game.objects.filter(pk=game_id).values_list("round__tournament_id", flat=True).first())


def lock_tournament_of_round(round_id: int | None) -> None:
    lock_tournament(Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first())
