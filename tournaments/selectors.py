"""Reads: every query the pages and the admin need, shaped for them (HackSoft styleguide).

Each selector costs a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from tournaments import ratings
from tournaments.models import (
    Entry,
    EntryRating,
    Game,
    GameSheet,
    Round,
    RoundStatus,
    System,
    Tournament,
    UnratedMethod,
)
from tournaments.results import Result
from tournaments.standings import (
    StandingGame,
    StandingPlayer,
    StandingRow,
    compute_standings,
    crosstable_cells,
)
from tournaments.standings.final import break_ties
from tournaments.standings.performance import performance_rating
from tournaments.standings.rating_rounds import LaterRating, TieBreakRatings
from tournaments.standings.unrated import UnratedRule


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True).order_by("-start_date", "name")


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
                rating=ratings.tournament_rating(e, self.tournament.rating_method),
                withdrawn_after_round=e.withdrawn_after_round if e.is_withdrawn else None,
                expelled=e.is_expelled,
                external=e.external_tiebreak,
            )
            for e in self.entries
        ]

    def standing_games(self, *, up_to_round: int | None = None) -> list[StandingGame]:
        out = []
        for g in self.games:
            result = g.parsed_result
            if result is None or (up_to_round is not None and g.round.number > up_to_round):
                continue
            out.append(StandingGame(round=g.round.number, white=g.white_id, black=g.black_id, result=result))
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


def standings_system(tournament: Tournament) -> str:
    """The system the individual standings are computed on. A team competition's players are scored on the
    games as played, board by board, like a Swiss: no round robin of players is behind them whose missed
    games would become forfeits."""
    return System.SWISS if tournament.is_team else tournament.system


def standings(
    tournament: Tournament, *, after_round: int | None = None, public_only: bool = False,
    data: TournamentData | None = None,
) -> list[StandingRow]:
    data = data or tournament_data(tournament, public_only=public_only)
    rows = compute_standings(
        data.standing_players(),
        data.standing_games(up_to_round=after_round),
        system=standings_system(tournament),
        rounds_total=data.rounds_total,
        tiebreaks=list(tournament.tiebreaks),
        bye_points=bye_points_for(tournament),
        after_round=after_round,
        ratings=tiebreak_ratings(tournament, data.entries),
        convention=tournament.tiebreak_convention,
    )
    if (tournament.lots_seed is not None or tournament.hand_order) and is_last_round(data, after_round):
        # the final standings' ties, as the arbiter resolved them (tournaments.ranking.final_standings)
        rows = break_ties(rows, seed=tournament.lots_seed, hand_order=list(tournament.hand_order))
    return rows


def is_last_round(data: TournamentData, after_round: int | None) -> bool:
    """Whether a table cut at `after_round` is the one after the tournament's last round."""
    last = max((g.round.number for g in data.games), default=0)
    shown = last if after_round is None else min(after_round, last)
    return data.rounds_total > 0 and shown >= data.rounds_total


# --- Public pages and printing ---------------------------------------------------------------
# Reads for the public site and the PDFs: each costs a fixed number of queries, and the
# shaping into rows is plain Python on what those queries returned, shared by HTML and PDF.


@dataclass(frozen=True)
class TournamentListing:
    tournament: Tournament
    state: str  # "current", "upcoming", "past" or "undated"
    players: int


def public_tournament_listing(today: datetime.date) -> list[TournamentListing]:
    """Public tournaments, current first, then upcoming (soonest first), then past (latest first)."""
    rows = []
    for t in public_tournaments().annotate(n_players=Count("entries")):
        start, end = t.start_date, t.end_date or t.start_date
        if start is None or end is None:
            state = "undated"
        elif start <= today <= end:
            state = "current"
        elif today < start:
            state = "upcoming"
        else:
            state = "past"
        rows.append(TournamentListing(t, state, t.n_players))
    rank = {"current": 0, "upcoming": 1, "past": 2, "undated": 3}

    def key(row: TournamentListing) -> tuple[int, int, str]:
        day = row.tournament.start_date.toordinal() if row.tournament.start_date else 0
        return (rank[row.state], day if row.state == "upcoming" else -day, row.tournament.name)

    return sorted(rows, key=key)


def public_tournament(slug: str) -> Tournament | None:
    return public_tournaments().select_related("chief_arbiter").filter(slug=slug).first()


def public_round(tournament: Tournament, number: int) -> Round | None:
    return tournament_rounds(tournament, public_only=True).filter(number=number).first()


def tournament_arbiters(tournament: Tournament) -> list[str]:
    """Full names, chief first; one query for the deputies. A login name is never shown to the public
    (it is half of what a password guess needs): an arbiter without a full name is left out."""
    users = [tournament.chief_arbiter] if tournament.chief_arbiter else []
    users += list(tournament.deputy_arbiters.order_by("last_name", "username"))
    return [name for name in (u.get_full_name().strip() for u in users) if name]


@dataclass(frozen=True)
class PlayerLine:
    """What a listing shows of a player: built from the entry, never from another query."""

    entry_id: int
    pairing_number: int
    name: str
    title: str
    federation: str
    rating: int | None
    withdrawn: bool


def player_line(entry: Entry, method: str | None = None) -> PlayerLine:
    """method: the tournament's RatingMethod (read from entry.tournament when not given)."""
    p = entry.player
    rating = ratings.tournament_rating(entry, method or entry.tournament.rating_method)
    return PlayerLine(entry.pk, entry.pairing_number, p.full_name, entry.title, p.federation, rating,
                      entry.is_withdrawn)


@dataclass(frozen=True)
class StandingLine:
    row: StandingRow
    player: PlayerLine


@dataclass(frozen=True)
class CrossCell:
    text: str  # "12w2", "7b0F", "bye", or for a round robin grid "2", "1 0", "X" on the diagonal
    title: str  # a longer reading for a tooltip: round, opponent, colour, result
    # The same cell as codes, for the pages and PDFs to write in the reader's language (tournaments.public.notation):
    # the opponent's line number, his colour, the result and his side of it ("2", "0F"), the points it adds.
    opponent: str = ""
    colour: str | None = None
    result: Result | None = None
    side: str = ""
    points: int = 0


@dataclass(frozen=True)
class CrossLine:
    standing: StandingLine
    cells: list[CrossCell]


@dataclass(frozen=True)
class Crosstable:
    round_robin: bool
    last_round: int
    headers: list[str]  # rank numbers (round robin) or round numbers (Swiss)
    lines: list[CrossLine]
    tiebreaks: list[str]


def standing_lines(tournament: Tournament, data: TournamentData, after_round: int | None, *,
                   with_expelled: bool = False) -> list[StandingLine]:
    """The standings' lines; an expelled player is left out (checklist 198) unless asked for (the
    crosstable lists him last, unranked, so his opponents' cells can name him)."""
    by_id = {e.pk: player_line(e, tournament.rating_method) for e in data.entries}
    rows = standings(tournament, after_round=after_round, data=data)
    return [StandingLine(r, by_id[r.player.id]) for r in rows if with_expelled or not r.expelled]


def last_round_with_results(data: TournamentData, after_round: int | None) -> int:
    played = [g.round.number for g in data.games if g.result]
    last = max(played, default=0)
    return min(last, after_round) if after_round is not None else last


def crosstable(tournament: Tournament, *, after_round: int | None = None, public_only: bool = True,
               data: TournamentData | None = None) -> Crosstable:
    """Round robin: a grid of players by rank against players by rank; Swiss: a column per round
    with the opponent's rank, colour and result ("12w2", "7b0F"). Three queries in all."""
    data = data or tournament_data(tournament, public_only=public_only)
    lines = standing_lines(tournament, data, after_round, with_expelled=True)
    last = last_round_with_results(data, after_round)
    cells = crosstable_cells(
        data.standing_players(), data.standing_games(up_to_round=after_round), system=standings_system(tournament),
        rounds_total=data.rounds_total, bye_points=bye_points_for(tournament), after_round=last or None,
    ) if last else {e.pk: [] for e in data.entries}
    # An unranked player (5.9 A.a) still needs a number to be named by in the others' cells.
    label = {line.player.entry_id: str(i + 1) for i, line in enumerate(lines)}
    tiebreaks = list(tournament.tiebreaks)
    if tournament.is_round_robin:
        order = [line.player.entry_id for line in lines]
        out = []
        for line in lines:
            pid = line.player.entry_id
            against: dict[int, list[str]] = {}
            for c in cells.get(pid, []):
                if c.opponent is not None and c.text:
                    against.setdefault(c.opponent, []).append(c.text)
                elif c.opponent is not None and c.result is Result.NOT_PLAYED:
                    against.setdefault(c.opponent, []).append("–")  # a game a withdrawal left unplayed
            row = [CrossCell("X", "") if other == pid else
                   CrossCell(" ".join(against.get(other, [])), "") for other in order]
            out.append(CrossLine(line, row))
        return Crosstable(True, last, [label[pid] for pid in order], out, tiebreaks)
    # A game still waiting for its result is in no standings cell: its opponent and colour are named from here,
    # so that it does not read as a round the player missed.
    pending: dict[tuple[int, int], tuple[int, str]] = {}
    for g in data.games:
        if not g.result and g.black_id is not None and g.round.number <= last:
            pending[(g.white_id, g.round.number)] = (g.black_id, "white")
            pending[(g.black_id, g.round.number)] = (g.white_id, "black")
    out = []
    for line in lines:
        row = []
        for c in cells.get(line.player.entry_id, []):
            waiting = pending.get((line.player.entry_id, c.round)) if c.result is None else None
            if waiting is not None and waiting[0] in label:
                other, side = waiting
                row.append(CrossCell(f"{label[other]}{side[0]}", f"R{c.round}", label[other], side))
                continue
            if c.opponent is None:
                text = c.text  # "bye", "excused" or "" (no game)
            else:
                colour = "w" if c.colour == "white" else "b"
                text = f"{label[c.opponent]}{colour}{c.text}" if c.text else f"{label[c.opponent]}{colour}"
            title = f"R{c.round}"
            if c.cancelled:
                title += " (5.9 A.a)"
            row.append(CrossCell(text, title, label[c.opponent] if c.opponent is not None else "", c.colour,
                                 c.result, c.text, c.points))
        out.append(CrossLine(line, row))
    return Crosstable(False, last, [str(n) for n in range(1, last + 1)], out, tiebreaks)


@dataclass(frozen=True)
class PlayerRound:
    round: int
    board: int | None
    game_id: int | None
    colour: str | None  # "white", "black", None for a bye or no game
    opponent: PlayerLine | None
    result: Result | None
    text: str  # his side of the result: "2", "1", "0", "2F", "0F", "bye", ...
    points: int  # as counted in the standings (5.9 applied)
    running: int  # his total after this round
    has_sheet: bool


@dataclass(frozen=True)
class PlayerCard:
    player: PlayerLine
    club: str
    standing: StandingLine | None
    rounds: list[PlayerRound]
    performance: int | None
    rated_games: int


def player_card(tournament: Tournament, pairing_number: int, *, public_only: bool = True) -> PlayerCard | None:
    """A player's page: his games round by round, running score and performance. Four queries.
    The arbiters' view (public_only=False) has the drafts' boards too."""
    return _cards(tournament, tournament_data(tournament, public_only=public_only), pairing_number).get(pairing_number)


def player_cards(tournament: Tournament, *, public_only: bool = True) -> dict[int, PlayerCard]:
    """Every player's card by pairing number, for the price of one: the standings and the crosstable's cells
    that each card reads are the same for all of them. Four queries."""
    return _cards(tournament, tournament_data(tournament, public_only=public_only), None)


def _cards(tournament: Tournament, data: TournamentData, only: int | None) -> dict[int, PlayerCard]:
    entries = [e for e in data.entries if only is None or e.pairing_number == only]
    if not entries:
        return {}
    lines = {e.pk: player_line(e, tournament.rating_method) for e in data.entries}
    standing = {s.player.entry_id: s for s in standing_lines(tournament, data, None)}
    last = last_round_with_results(data, None)
    cells = crosstable_cells(
        data.standing_players(), data.standing_games(), system=standings_system(tournament),
        rounds_total=data.rounds_total, bye_points=bye_points_for(tournament), after_round=last or None,
    ) if last else {}
    ids = {e.pk for e in entries}
    games_of: dict[int, list[Game]] = {}
    for g in data.games:
        for side in (g.white_id, g.black_id):
            if side in ids:
                games_of.setdefault(side, []).append(g)
    with_sheet = set(GameSheet.objects.filter(game__in=[g.pk for gs in games_of.values() for g in gs])
                     .values_list("game_id", flat=True))
    return {e.pairing_number: _card(e, lines, standing.get(e.pk), {c.round: c for c in cells.get(e.pk, [])},
                                    games_of.get(e.pk, []), with_sheet) for e in entries}


def _card(entry: Entry, lines: dict[int, PlayerLine], line: StandingLine | None, counted: dict[int, Any],
          games: list[Game], with_sheet: set[int]) -> PlayerCard:
    rounds: list[PlayerRound] = []
    running = 0
    rated: list[tuple[int, int]] = []
    for g in games:
        white = g.white_id == entry.pk
        opponent_id = g.black_id if white else g.white_id
        result = g.parsed_result
        cell = counted.get(g.round.number)
        points = cell.points if cell is not None else 0
        running += points
        text = cell.text if cell is not None and cell.result is not None else (
            result.value if result and result.is_single_player else
            result.cell(white) if result and result is not Result.NOT_PLAYED else "")
        opponent = lines.get(opponent_id) if opponent_id is not None else None
        if (result is not None and result.is_played and opponent is not None and opponent.rating is not None
                and (cell is None or cell.counts)):
            rated.append((opponent.rating, result.points()[0 if white else 1]))
        rounds.append(PlayerRound(
            round=g.round.number, board=g.board, game_id=g.pk,
            colour=None if g.black_id is None else ("white" if white else "black"),
            opponent=opponent, result=result, text=text, points=points, running=running,
            has_sheet=g.pk in with_sheet,
        ))
    return PlayerCard(lines[entry.pk], entry.player.club, line, rounds, performance_rating(rated), len(rated))


def public_game(tournament: Tournament, game_id: int) -> Game | None:
    """A game of a published round, with its players and its sheet (if any): one query."""
    return (Game.objects.select_related("round", "white__player", "black__player", "sheet")
            .filter(pk=game_id, round__tournament=tournament).exclude(round__status=RoundStatus.DRAFT).first())


def round_for_print(tournament: Tournament, number: int, *, public_only: bool) -> tuple[Round, list[Game]] | None:
    qs = tournament_rounds(tournament, public_only=public_only).filter(number=number)
    rnd = qs.first()
    if rnd is None:
        return None
    return rnd, list(round_games(rnd))


TITLE_RANK = ratings.TITLE_RANK


def rating_order_key(entry: Entry) -> tuple[Any, ...]:
    """Tournament rating (highest first), then title, then the tournament's announced criterion for equal
    ratings: the FMJD order of the initial ranking (tournaments/ratings.py)."""
    return ratings.entry_order_key(entry)


def rounds_total(tournament: Tournament, n_entries: int | None = None) -> int:
    """Round robin: n-1 rounds for even n, n for odd n (a free round each), twice for a double one."""
    if not tournament.is_round_robin:
        return tournament.rounds_total or 0
    n = tournament.entries.count() if n_entries is None else n_entries
    single = n - 1 if n % 2 == 0 else n
    return single * 2 if tournament.system == System.DOUBLE_ROUND_ROBIN else single


def uses_later_ratings(t: Tournament) -> bool:
    return t.long_event and (t.tiebreak_rating_round is not None or t.tiebreak_rating_per_round)


def tiebreak_ratings(t: Tournament, entries: Sequence[Entry]) -> TieBreakRatings | None:
    """What the standings pass to the rating-based tie-breaks; None for the default (each player's first
    rating, unrated left out), which costs no query."""
    later_used = uses_later_ratings(t)
    if t.unrated_method == UnratedMethod.DROP and not later_used:
        return None
    later: dict[int, list[LaterRating]] = {}
    if later_used:
        for r in EntryRating.objects.filter(entry__tournament=t).order_by("from_round"):
            later.setdefault(r.entry_id, []).append(LaterRating(r.from_round, r.rating))
    return TieBreakRatings(
        first={e.pk: ratings.tournament_rating(e, t.rating_method) for e in entries}, later=later,
        rule=UnratedRule(str(t.unrated_method), t.unrated_rating),
        round=t.tiebreak_rating_round if later_used else None,
        per_round=later_used and t.tiebreak_rating_per_round)


def folded(text: str) -> str:
    """A name as a list sorts it and a reader types it: accents and case left out ("Émile" beside "Emile")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


# The orders of a starting rank list (?order=), the first the default.
RANK_ORDERS = ("number", "name", "federation", "club")


def starting_order(entries: Sequence[Entry], order: str) -> list[Entry]:
    """The entries in a starting rank list's order: by pairing number, by name, or grouped by federation or
    club (alphabetically, those without one last), by pairing number inside a group."""
    by_number = sorted(entries, key=lambda e: e.pairing_number)
    if order == "name":
        return sorted(by_number, key=lambda e: (folded(e.player.surname), folded(e.player.given_name)))
    if order in ("federation", "club"):
        return sorted(by_number, key=lambda e: (not getattr(e.player, order), folded(getattr(e.player, order))))
    return by_number
