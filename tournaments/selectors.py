"""Reads: every query the pages and the admin need, shaped for them (HackSoft styleguide).

Each selector costs a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from tournaments.models import Entry, Game, Round, RoundStatus, Tournament
from tournaments.results import Result
from tournaments.services import rounds_total
from tournaments.standings import StandingGame, StandingPlayer, StandingRow, compute_standings


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True).order_by("-start_date", "name")


def tournaments_for_arbiter(user: object) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if getattr(user, "is_superuser", False):
        return qs
    uid = getattr(user, "pk", None)
    return qs.filter(Q(chief_arbiter_id=uid) | Q(deputy_arbiters__id=uid)).distinct()


def round_games(rnd: Round) -> QuerySet[Game]:
    return rnd.games.select_related("white__player", "black__player").order_by("board")


def tournament_rounds(tournament: Tournament, *, public_only: bool = False) -> QuerySet[Round]:
    qs = tournament.rounds.order_by("number")
    return qs.exclude(status=RoundStatus.DRAFT) if public_only else qs


@dataclass(frozen=True)
class TournamentData:
    """Everything the standings and crosstable need, loaded in two queries."""

    tournament: Tournament
    entries: list[Entry]
    games: list[Game]
    rounds_total: int

    def standing_players(self) -> list[StandingPlayer]:
        return [
            StandingPlayer(
                id=e.pk,
                pairing_number=e.pairing_number,
                name=e.player.full_name,
                rating=e.player.rating,
                withdrawn_after_round=e.withdrawn_after_round if e.is_withdrawn else None,
            )
            for e in self.entries
        ]

    def standing_games(self, *, up_to_round: int | None = None) -> list[StandingGame]:
        out = []
        for g in self.games:
            if not g.result or (up_to_round is not None and g.round.number > up_to_round):
                continue
            out.append(StandingGame(round=g.round.number, white=g.white_id, black=g.black_id,
                                    result=Result(g.result)))
        return out


def tournament_data(tournament: Tournament, *, public_only: bool = False) -> TournamentData:
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    games = Game.objects.filter(round__tournament=tournament).select_related("round").order_by(
        "round__number", "board"
    )
    if public_only:
        games = games.exclude(round__status=RoundStatus.DRAFT)
    return TournamentData(tournament, entries, list(games), rounds_total(tournament, len(entries)))


def bye_points_for(tournament: Tournament) -> int:
    # A round robin's free round scores nothing: every player has one, so totals stay comparable.
    return 0 if tournament.is_round_robin else tournament.bye_points


def standings(
    tournament: Tournament, *, after_round: int | None = None, public_only: bool = False,
    data: TournamentData | None = None,
) -> list[StandingRow]:
    data = data or tournament_data(tournament, public_only=public_only)
    return compute_standings(
        data.standing_players(),
        data.standing_games(up_to_round=after_round),
        system=tournament.system,
        rounds_total=data.rounds_total,
        tiebreaks=list(tournament.tiebreaks),
        bye_points=bye_points_for(tournament),
        after_round=after_round,
    )


def entries_with_games(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player").prefetch_related(
        Prefetch("games_as_white", queryset=Game.objects.select_related("round", "black__player")),
        Prefetch("games_as_black", queryset=Game.objects.select_related("round", "white__player")),
    )
