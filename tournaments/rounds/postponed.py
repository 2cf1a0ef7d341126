"""Postponed games (checklist questions 157-169).

A game the arbiter postpones is recorded with the result "postponed": it counts as a draw for the pairing
and the standings until its result is in (the checklist's provisional score, never another one), with its
colours and its meeting. Its result can be entered at any time, in any round, with no reason asked (it is
no correction); a result other than a draw asks for a confirmation (level 3), since the rounds paired in
the meantime counted a draw. Pairing a round while one is open is a notice (level 2), recorded. No final
standings and no final TRF while one is open; the TRF writes it as '?'.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.conformance.policy import Code, Warning
from tournaments.errors import DomainError
from tournaments.models import Game, Tournament
from tournaments.results import Result


def open_games(tournament: Tournament, *, before_round: int | None = None) -> QuerySet[Game]:
    games = Game.objects.filter(round__tournament=tournament, result=Result.POSTPONED.value)
    if before_round is not None:
        games = games.filter(round__number__lt=before_round)
    return games.select_related("round", "white", "black").order_by("round__number", "board")


def game_value(game: Game) -> str:
    """How an event names a game: round, board and the players' pairing numbers (data, not words)."""
    black = game.black.pairing_number if game.black_id and game.black else 0
    return f"R{game.round.number} B{game.board} {game.white.pairing_number}-{black}"


def result_warnings(game: Game, new: Result | None) -> list[Warning]:
    """Level 3 when a postponed game's real result is not a draw."""
    if game.result != Result.POSTPONED.value or new is None or new.is_draw or new.is_postponed:
        return []
    return [Warning(Code.POSTPONED_NOT_DRAW, {"pair": game_value(game), "round": game.round.number,
                                              "result": new.value})]


def pairing_warnings(tournament: Tournament, number: int) -> list[Warning]:
    """The notice given when round `number` is paired while a postponed game has no result."""
    games = list(open_games(tournament, before_round=number))
    if not games:
        return []
    return [Warning(Code.PAIRED_WITH_POSTPONED, {"round": number, "games": [game_value(g) for g in games]})]


def refuse_final(tournament: Tournament, what: str) -> None:
    """No final standings and no final TRF while a postponed game is open: the refusal names each one."""
    games = list(open_games(tournament))
    if games:
        raise DomainError(ngettext(
            "No final %(what)s yet: the postponed game %(games)s has no result. Enter it on its round's page.",
            "No final %(what)s yet: the postponed games %(games)s have no result. Enter them on their rounds' pages.",
            len(games)) % {"what": what, "games": ", ".join(game_value(g) for g in games)})


def final_words() -> dict[str, str]:
    return {"standings": _("standings"), "trf": _("TRF file")}
