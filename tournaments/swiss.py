"""Bridge between a Swiss tournament in the database and the pure Dutch engine (tournaments.pairing).

The engine sees players by pairing number (so TRF exports and the engine's explanations use the
numbers the arbiter sees on the pairing sheets) and histories built from the recorded results.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from tournaments.errors import DomainError
from tournaments.models import Entry, ForbiddenPair, Game, Tournament
from tournaments.pairing import Pairing, PairingRequest, PlayedRound, PointSystem, SwissPlayer, pair_dutch
from tournaments.pairing.checker import check_pairing
from tournaments.pairing.model import Board as EngineBoard
from tournaments.pairing.model import CheckReport
from tournaments.pairing.trf import TrfDetails, write_trf
from tournaments.results import Result

if TYPE_CHECKING:
    from tournaments.services import Board


def point_system(tournament: Tournament) -> PointSystem:
    return PointSystem(bye=tournament.bye_points)


def pairing_request(tournament: Tournament, entries: list[Entry], number: int) -> PairingRequest:
    """The engine's view of the tournament before round `number` (rounds 1..number-1 count)."""
    points = point_system(tournament)
    games = (
        Game.objects.filter(round__tournament=tournament, round__number__lt=number)
        .select_related("round")
        .order_by("round__number", "board")
    )
    by_entry: dict[int, dict[int, PlayedRound]] = defaultdict(dict)
    number_of = {e.pk: e.pairing_number for e in entries}
    for g in games:
        if not g.result:
            raise DomainError(f"Round {g.round.number}, board {g.board} has no result: the engine cannot pair "
                              f"round {number} without it.")
        result = Result(g.result)
        white_opp = number_of.get(g.black_id) if g.black_id else None
        by_entry[g.white_id][g.round.number] = PlayedRound.from_result(
            result, as_white=True, opponent=white_opp, points=points)
        if g.black_id:
            by_entry[g.black_id][g.round.number] = PlayedRound.from_result(
                result, as_white=False, opponent=number_of[g.white_id], points=points)
    standing_key = _standing_keys(tournament, number) if tournament.swiss_order == "standing" else {}
    players = []
    for e in entries:
        history = tuple(by_entry[e.pk].get(r, PlayedRound.absent()) for r in range(1, number))
        gone = e.is_withdrawn and (e.withdrawn_after_round or 0) < number
        players.append(SwissPlayer(
            id=e.pairing_number, pairing_number=e.pairing_number, rating=e.player.rating or 0,
            name=e.player.full_name, history=history, withdrawn=gone,
            excused=number in (e.excused_rounds or []) and not gone,
            standing_key=standing_key.get(e.pk, ()),
        ))
    forbidden = PairingRequest.forbid(
        (f.first.pairing_number, f.second.pairing_number)
        for f in ForbiddenPair.objects.filter(tournament=tournament).select_related("first", "second")
    )
    return PairingRequest(
        players=tuple(players), round=number, total_rounds=tournament.rounds_total or number,
        points=points, order="standing" if tournament.swiss_order == "standing" else "rating",
        forbidden_pairs=forbidden, initial_colour="b" if tournament.first_colour == "b" else "w",
    )


def _standing_keys(tournament: Tournament, number: int) -> dict[int, tuple[int, ...]]:
    """FMJD "Swiss Solkoff": within a score group, the current standing with the tie-breaks decides."""
    from tournaments import selectors

    rows = selectors.standings(tournament, after_round=number - 1)
    return {row.player.id: (index,) for index, row in enumerate(rows)}


def pair_next_round(tournament: Tournament, entries: list[Entry], number: int) -> tuple[list[Board], str]:
    """The round's boards (bye and excused players last) and the engine's explanation for the arbiter."""
    request = pairing_request(tournament, entries, number)
    result = pair_dutch(request)
    if result.unpaired:
        raise DomainError(
            f"Round {number} cannot be paired without breaking an absolute criterion (no rematch, no second "
            f"bye, colours) for pairing number(s) {', '.join(map(str, result.unpaired))}; pair it by hand."
        )
    by_number = {e.pairing_number: e for e in entries}
    boards: list[Board] = [(by_number[b.white], by_number[b.black], None) for b in result.boards]
    if result.bye is not None:
        boards.append((by_number[result.bye], None, Result.BYE))
    boards += [(by_number[x], None, Result.EXCUSED) for x in result.excused]
    return boards, result.explanation.as_text()


def check_round(tournament: Tournament, number: int) -> CheckReport:
    """The absolute criteria on the round as it stands (after an arbiter's manual change)."""
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    request = pairing_request(tournament, entries, number)
    games = Game.objects.filter(round__tournament=tournament, round__number=number).select_related("white", "black")
    boards, bye = [], None
    for g in games:
        if g.black_id is None:
            if g.result == Result.BYE:
                bye = g.white.pairing_number
            continue
        boards.append(EngineBoard(g.white.pairing_number, g.black.pairing_number))
    return check_pairing(request, Pairing(tuple(boards), bye))


def export_trf(tournament: Tournament, *, next_round: int | None = None) -> str:
    """TRF(x) of the tournament before round `next_round` (default: the round after the last completed
    one), for bbpPairings or JaVaFo to pair that round: players withdrawn or excused for it are marked
    in its column, so they pair exactly the players Damier would."""
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    completed = tournament.rounds.filter(status="completed").count()
    number = next_round or completed + 1
    request = pairing_request(tournament, entries, number)
    details = {
        e.pairing_number: TrfDetails(title=e.player.title, federation=e.player.federation,
                                     player_id=e.player.fmjd_id, birth_year=e.player.birth_year)
        for e in entries
    }
    return write_trf(
        request.players, total_rounds=tournament.rounds_total or number, points=request.points,
        name=tournament.name, forbidden=request.forbidden_pairs, next_round=number, details=details,
        initial_colour=request.initial_colour,
    )
