"""The final standings of a TRF file by Damier's standings (tournaments.standings), and the check of
the file's ranks (columns 86-89) against them.

A file's cells become the standings' games: `1 = 0 W D L` over the board, `+ -` forfeits (both `-`:
the double forfeit 0-0), `U` the pairing-allocated bye, `Z` the zero-point bye asked for in advance.
A blank cell or an absence (`0000 - -`) is a round without a game. A bye asked for in advance worth
a draw (`H`) or a win (`F`) and an arbiter's ruling (1-0: `=` against `0`; 0-0: `0` against `0`)
are read as the results of those names (values "excused-1", "excused-2", "1-0", "0-1", "0-0"). A cell
no result stands for (another pair of codes over the board, `+` without an opponent) is named instead
of guessed, and the ranks are not checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tournaments.results import Result

if TYPE_CHECKING:
    from tournaments.pairing.trf import TrfFile
    from tournaments.verification.reports import FileReport

_WIN, _DRAW, _LOSS = "1W", "=D", "0L"


class NotScored(ValueError):
    """A cell no result of Damier's stands for; args: (code, round, player)."""


def _game_result(code: str, other: str, colour: str) -> Result:
    """The result of one game, from the side whose colour is `colour` (w: he is White)."""
    white, black = (code, other) if colour != "b" else (other, code)
    if white in _WIN and black in _LOSS:
        return Result.WHITE_WINS
    if white in _LOSS and black in _WIN:
        return Result.BLACK_WINS
    if white in _DRAW and black in _DRAW:
        return Result.DRAW
    if white == "+" and black == "-":
        return Result.WHITE_FORFEIT_WIN
    if white == "-" and black == "+":
        return Result.BLACK_FORFEIT_WIN
    if white == "-" and black == "-":
        return Result.DOUBLE_FORFEIT
    ruling = {("=", "0"): "1-0", ("0", "="): "0-1", ("0", "0"): "0-0"}.get((white, black))
    if ruling is None:
        raise NotScored("unusual_result")
    return Result(ruling)


def standings_input(trf: TrfFile):  # type: ignore[no-untyped-def]
    """(players, games) for compute_standings; raises NotScored for a cell no result stands for."""
    from tournaments.standings import StandingGame, StandingPlayer

    players = [
        StandingPlayer(id=p.number, pairing_number=p.number, name=p.name, rating=p.rating or None)
        for p in trf.players
    ]
    by_number = {p.number: p for p in trf.players}
    games: list[StandingGame] = []
    last = trf.rounds_in_file
    for p in sorted(trf.players, key=lambda q: q.number):
        for rnd, (opp, colour, code) in sorted(p.cells.items()):
            if rnd > last:
                continue
            if opp == 0:
                if code == "U":
                    games.append(StandingGame(rnd, p.number, None, Result.BYE))
                elif code == "Z":
                    games.append(StandingGame(rnd, p.number, None, Result.EXCUSED))
                elif code in ("H", "F"):
                    result = Result.EXCUSED_DRAW if code == "H" else Result.EXCUSED_WIN
                    games.append(StandingGame(rnd, p.number, None, result))
                elif code == "+":
                    raise NotScored("requested_bye_+", rnd, p.number)
                continue
            if opp < p.number and opp in by_number and by_number[opp].cells.get(rnd, (0,))[0] == p.number:
                continue  # written once, from the lower number's line
            other = by_number[opp].cells[rnd]
            try:
                result = _game_result(code, other[2], colour)
            except NotScored:
                raise NotScored("unusual_result", rnd, p.number) from None
            white, black = (opp, p.number) if colour == "b" else (p.number, opp)
            games.append(StandingGame(rnd, white, black, result))
    return players, games


def damier_ranks(trf: TrfFile, tiebreaks: list[str]) -> dict[int, tuple[int, int]]:
    """player -> (best, worst) place Damier's standings give him (equal when he is not tied)."""
    from tournaments.standings import SWISS, compute_standings

    players, games = standings_input(trf)
    rows = compute_standings(
        players, games, system=SWISS, rounds_total=max(trf.total_rounds, trf.rounds_in_file),
        tiebreaks=tiebreaks, bye_points=trf.points.bye,
    )
    size: dict[int, int] = {}
    for row in rows:
        if row.rank is not None:
            size[row.rank] = size.get(row.rank, 0) + 1
    return {r.player.id: (r.rank, r.rank + size[r.rank] - 1) for r in rows if r.rank is not None}


def check_ranks(trf: TrfFile, tiebreaks: list[str], report: FileReport, *, given: bool) -> None:
    from tournaments.verification.reports import RankCheck

    if not given:
        report.standings_skipped = "no_tiebreak_list"
        return
    if not any(p.rank_text for p in trf.players):
        report.standings_skipped = "no_ranks"
        return
    try:
        places = damier_ranks(trf, tiebreaks)
    except NotScored as exc:
        report.standings_skipped = exc.args[0]
        report.skipped_detail = tuple(exc.args[1:])
        return
    for p in sorted(trf.players, key=lambda q: q.number):
        if not p.rank_text or p.number not in places:
            continue
        best, worst = places[p.number]
        rank = int(p.rank_text)
        if not best <= rank <= worst:
            report.ranks.append(RankCheck(p.number, rank, best, worst))
