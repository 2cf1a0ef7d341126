"""The tournament's games as one canonical PDN (PDN 3.0 via rules.pdn.writer).

Tags: the seven-tag roster with the recorded result, GameType 20, then the players' FMJD ids
(WhiteFMJDId / BlackFMJDId, not standard PDN tags: the standard lets a file add its own), ratings
(WhiteRating / BlackRating), titles and the board. The moves come from the game's sheet when there is
one (its canonical movetext, made once per sheet version with the line kept with it); the result is always the
recorded one, since that is the tournament's. Forfeits, byes and games not played are left out: nothing
was played over the board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from django.db.models import F, QuerySet

from rules.pdn import ParsedGame
from rules.pdn.writer import write_game
from tournaments.models import Entry, Game, GameSheet, Round, RoundStatus, Tournament
from tournaments.ratings import tournament_rating
from tournaments.results import Result
from tournaments.sheets.line import LINE_FORMAT, kept_data

# PDN has no forfeit results; a game without a recorded result is written "*".
_PDN_RESULTS = {Result.WHITE_WINS.value: "2-0", Result.DRAW.value: "1-1", Result.BLACK_WINS.value: "0-2", "": "*"}


def exported_games(tournament: Tournament, round: Round | None = None,
                   public_only: bool = True) -> QuerySet[Game]:
    games = Game.objects.filter(round__tournament=tournament, black__isnull=False,
                                result__in=list(_PDN_RESULTS))
    if round is not None:
        games = games.filter(round=round)
    if public_only:
        games = games.exclude(round__status=RoundStatus.DRAFT)
    # Of a sheet only its kept line's export part is read (_sheet_moves): a text may be 2 MB, a line's
    # positions a hundred times its movetext.
    return games.select_related("round", "white__player", "black__player", "sheet").defer(
        "sheet__text", "sheet__report", "sheet__line").annotate(
        sheet_line_format=F("sheet__line__format"), sheet_pdn=F("sheet__line__pdn")).order_by(
        "round__number", "board")


def _date(game: Game, tournament: Tournament) -> str:
    day = game.round.date or tournament.start_date
    return day.strftime("%Y.%m.%d") if day else "????.??.??"


def _headers(game: Game, tournament: Tournament) -> dict[str, str]:
    headers = {"Event": tournament.name, "Site": tournament.venue or "?", "Date": _date(game, tournament),
               "Round": str(game.round.number)}
    sides: list[tuple[str, Entry]] = [("White", game.white), ("Black", game.black)]  # type: ignore[list-item]
    for side, entry in sides:
        headers[side] = entry.player.full_name
    headers["Result"] = _PDN_RESULTS[game.result]
    for side, entry in sides:
        player = entry.player
        if player.fmjd_id is not None:
            headers[f"{side}FMJDId"] = str(player.fmjd_id)
        rating = tournament_rating(entry, tournament.rating_method)  # the rating the entry holds
        if rating is not None:
            headers[f"{side}Rating"] = str(rating)
        if entry.title:  # the title the entry keeps from its list
            headers[f"{side}Title"] = entry.title
    headers["Board"] = str(game.board)
    return headers


def _sheet_moves(game: Game, sheet: GameSheet) -> tuple[str | None, list[str]] | None:
    """The sheet's starting position and canonical movetext, from the line kept with the sheet version
    (tournaments.sheets.line.export_moves): the export never reads nor replays a sheet, which held a core for
    seconds per export and per saved result. None when the sheet holds no game to write."""
    if getattr(game, "sheet_line_format", None) == LINE_FORMAT:
        moves = game.sheet_pdn
    else:
        data = kept_data(sheet)  # a line missing, or of an older format: built once and kept
        moves = data.get("pdn") if data is not None else None
    if not isinstance(moves, dict) or not isinstance(moves.get("tokens"), list):
        return None
    return moves.get("fen"), [str(token) for token in moves["tokens"]]


def _game(game: Game, tournament: Tournament, index: int) -> tuple[ParsedGame, list[str] | None]:
    parsed = ParsedGame(source="damier", index=index, line=1, encoding="str")
    sheet = getattr(game, "sheet", None) if game.has_sheet else None
    moves = _sheet_moves(game, sheet) if sheet is not None else None
    if moves is not None:
        parsed.initial_fen = moves[0]
    parsed.headers = _headers(game, tournament)
    parsed.result_token = parsed.headers["Result"]
    return parsed, moves[1] if moves is not None else None


def export_pdn(tournament: Tournament, round: Round | None = None, public_only: bool = True) -> str:
    """One PDN text with the tournament's games (or one round's), in round and board order; with
    public_only, draft rounds are left out. An empty string when there is no game to write."""
    return games_pdn(tournament, exported_games(tournament, round, public_only))


def games_pdn(tournament: Tournament, games: Iterable[Game],
              more: Callable[[Game], Mapping[str, str]] | None = None) -> str:
    """Some of `exported_games` as one PDN text; `more` gives tags of the caller's (a team match's teams
    and board) that replace or follow the standard ones. The writer escapes every value."""
    out = []
    for i, g in enumerate(games, 1):
        parsed, tokens = _game(g, tournament, i)
        if more is not None:
            parsed.headers.update(more(g))
        out.append(write_game(parsed, tokens))
    return "\n".join(out)
