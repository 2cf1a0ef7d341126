"""Writes: every change to a tournament goes through these functions (HackSoft styleguide).

Each service is one transaction and raises DomainError with a message the arbiter can act on;
nothing is ever half-written.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from simple_history.utils import bulk_create_with_history

from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, EntryStatus, Game, Player, Round, RoundStatus, System, Tournament
from tournaments.pairing.roundrobin import berger_schedule
from tournaments.results import SINGLE_PLAYER_RESULTS, TWO_PLAYER_RESULTS, Result


def _lock_tournament(tournament: Tournament) -> Tournament:
    """Serialise structural changes (pairing, entries) of one tournament across concurrent requests."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --- Entries ---------------------------------------------------------------------------------


@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, pairing_number: int | None = None) -> Entry:
    tournament = _lock_tournament(tournament)
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise DomainError(f"{player} is already entered in {tournament}.")
    if tournament.is_round_robin and tournament.rounds.exists():
        raise DomainError(f"{tournament}: a round robin cannot take a new player once round 1 is paired.")
    if pairing_number is None:
        last = tournament.entries.aggregate(m=Max("pairing_number"))["m"] or 0
        pairing_number = last + 1
    elif tournament.entries.filter(pairing_number=pairing_number).exists():
        raise DomainError(f"{tournament}: pairing number {pairing_number} is already taken.")
    try:
        with transaction.atomic():
            return Entry.objects.create(tournament=tournament, player=player, pairing_number=pairing_number)
    except IntegrityError as exc:  # a concurrent request won the race
        raise DomainError(f"{player} could not be entered in {tournament}: {exc}") from exc


@transaction.atomic
def entries_number_by_rating(*, tournament: Tournament) -> list[Entry]:
    """Pairing numbers 1..n by rating (highest first), then title, then name: before round 1 only."""
    tournament = _lock_tournament(tournament)
    if tournament.rounds.exists():
        raise DomainError(f"{tournament}: pairing numbers are fixed once round 1 is paired.")
    title_rank = {"GMI": 0, "GMIF": 1, "MI": 2, "MIF": 3, "MF": 4, "MFF": 5, "CMI": 6, "CMIF": 7}
    entries = list(tournament.entries.select_related("player"))
    entries.sort(
        key=lambda e: (-(e.player.rating or 0), title_rank.get(e.player.title, 99), e.player.surname.lower(),
                       e.player.given_name.lower())
    )
    # Two passes so the unique (tournament, pairing_number) constraint never sees a duplicate.
    offset = 10000
    for e in entries:
        e.pairing_number += offset
        e.save(update_fields=["pairing_number"])
    for number, e in enumerate(entries, start=1):
        e.pairing_number = number
        e.save(update_fields=["pairing_number"])
    return entries


@transaction.atomic
def entry_withdraw(*, entry: Entry, after_round: int | None = None) -> Entry:
    """Competition rules 5.9: the player takes no further part after `after_round`.

    Default: after the last round already paired (he leaves after the current round). Games of
    later rounds already paired become 'not played'; the standings apply 5.9 A (round robin:
    cancellation or forfeits) or B (Swiss: results stand) from there.
    """
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    tournament = entry.tournament
    if entry.is_withdrawn:
        raise DomainError(f"{entry.player} already withdrew after round {entry.withdrawn_after_round}.")
    last_paired = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    if after_round is None:
        after_round = last_paired
    if after_round < 0 or after_round > last_paired:
        raise DomainError(f"{entry.player}: 'withdrawn after round' must be between 0 and {last_paired}.")
    later = Game.objects.filter(Q(white=entry) | Q(black=entry), round__number__gt=after_round).select_related("round")
    for game in later:
        if game.result and game.result_enum is not None and game.result_enum.is_played:
            raise DomainError(
                f"{entry.player} has a result over the board in round {game.round.number} "
                f"({game.result}); he cannot have withdrawn after round {after_round}."
            )
        if game.round.status == RoundStatus.COMPLETED:
            raise DomainError(f"Round {game.round.number} is completed; reopen it before withdrawing after round "
                              f"{after_round}.")
    for game in later:
        game.result = Result.NOT_PLAYED.value
        game.version += 1
        game.save(update_fields=["result", "version"])
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_after_round = after_round
    entry.save(update_fields=["status", "withdrawn_after_round"])
    return entry


# --- Rounds ----------------------------------------------------------------------------------


def rounds_total(tournament: Tournament, n_entries: int | None = None) -> int:
    """Round robin: n-1 rounds for even n, n for odd n (a free round each), twice for a double one."""
    if not tournament.is_round_robin:
        return tournament.rounds_total or 0
    n = tournament.entries.count() if n_entries is None else n_entries
    single = n - 1 if n % 2 == 0 else n
    return single * 2 if tournament.system == System.DOUBLE_ROUND_ROBIN else single


@transaction.atomic
def round_pair(*, tournament: Tournament, date: datetime.date | None = None) -> Round:
    """Pair the next round as a draft: Berger tables for round robins, the Dutch system for Swiss."""
    tournament = _lock_tournament(tournament)
    previous = tournament.rounds.order_by("-number").first()
    if previous is not None and previous.status != RoundStatus.COMPLETED:
        missing = list(previous.games.filter(result="").values_list("board", flat=True))
        detail = f" (no result yet on board{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))})" \
            if missing else ""
        raise DomainError(
            f"Round {previous.number} is not completed{detail}: complete it before pairing round "
            f"{previous.number + 1}."
        )
    number = previous.number + 1 if previous else 1
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    if len(entries) < 2:
        raise DomainError(f"{tournament}: at least two players are needed to pair a round.")
    total = rounds_total(tournament, len(entries))
    if number > total:
        raise DomainError(f"{tournament}: all {total} rounds are paired.")
    if tournament.is_round_robin:
        boards, explanation = _round_robin_boards(tournament, entries, number), ""
    else:
        from tournaments import swiss  # the bridge to the pure Dutch engine

        boards, explanation = swiss.pair_next_round(tournament, entries, number)
    rnd = Round.objects.create(tournament=tournament, number=number, date=date, status=RoundStatus.DRAFT,
                               pairing_explanation=explanation)
    # With history, so the audit trail shows who paired the round and how it was paired at first.
    bulk_create_with_history(
        [Game(round=rnd, board=i, white=white, black=black, result=result.value if result else "")
         for i, (white, black, result) in enumerate(boards, start=1)],
        Game,
    )
    return rnd


Board = tuple[Entry, Entry | None, Result | None]


def _round_robin_boards(tournament: Tournament, entries: list[Entry], number: int) -> list[Board]:
    numbers = [e.pairing_number for e in entries]
    if numbers != list(range(1, len(entries) + 1)):
        raise DomainError(
            f"{tournament}: a round robin needs pairing numbers 1 to {len(entries)} without gaps "
            f"(found {', '.join(map(str, numbers))}); renumber the entries first."
        )
    schedule = berger_schedule(len(entries), double=tournament.system == System.DOUBLE_ROUND_ROBIN)
    by_number = {e.pairing_number: e for e in entries}
    boards: list[Board] = []
    for white_no, black_no in schedule[number - 1]:
        white = by_number[white_no]
        black = by_number[black_no] if black_no is not None else None
        gone = [e for e in (white, black) if e is not None and e.is_withdrawn
                and (e.withdrawn_after_round or 0) < number]
        if black is None:
            # The free round of an odd round robin: nobody to play, no points (every player has one).
            result: Result | None = Result.NOT_PLAYED if gone else Result.BYE
        else:
            result = Result.NOT_PLAYED if gone else None
        boards.append((white, black, result))
    return boards


@transaction.atomic
def round_set_boards(*, round: Round, boards: dict[int, tuple[Entry, Entry | None]]) -> Round:
    """The arbiter's manual override of a draft round: new players on some boards.

    Allowed even where the engine would pair otherwise (the admin then shows the checker's flags);
    refused only when the round could not be played: a player twice, or one from another tournament.
    """
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(f"Round {rnd.number} is published: only a draft round can be re-paired.")
    games = {g.board: g for g in rnd.games.select_related("white__player", "black__player")}
    for board, (white, black) in boards.items():
        if board not in games:
            raise DomainError(f"Round {rnd.number} has no board {board}.")
        for entry in (white, black):
            if entry is not None and entry.tournament_id != rnd.tournament_id:
                raise DomainError(f"Board {board}: {entry.player} is not entered in {rnd.tournament}.")
        game = games[board]
        game.white, game.black = white, black
        if black is None:
            game.result = game.result if game.result in (Result.BYE, Result.EXCUSED) else Result.BYE.value
        elif game.result in (Result.BYE, Result.EXCUSED):
            game.result = ""
    seen: dict[int, int] = {}
    for board, game in sorted(games.items()):
        for entry_id in (game.white_id, game.black_id):
            if entry_id is None:
                continue
            if entry_id in seen:
                name = game.white.player if game.white_id == entry_id else game.black.player
                raise DomainError(f"Round {rnd.number}: {name} would play on boards {seen[entry_id]} and {board}.")
            seen[entry_id] = board
        if game.white_id == game.black_id:
            raise DomainError(f"Board {board}: a player cannot play himself.")
    for board in boards:
        game = games[board]
        game.version += 1
        game.save(update_fields=["white", "black", "result", "version"])
    return rnd


@transaction.atomic
def round_publish(*, round: Round) -> Round:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(f"Round {rnd.number} is already {rnd.get_status_display().lower()}.")
    rnd.status = RoundStatus.PUBLISHED
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
def round_complete(*, round: Round) -> Round:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != RoundStatus.PUBLISHED:
        raise DomainError(f"Round {rnd.number} is {rnd.get_status_display().lower()}: only a published round "
                          f"can be completed.")
    missing = list(rnd.games.filter(result="").values_list("board", flat=True))
    if missing:
        raise DomainError(f"Round {rnd.number} cannot be completed: no result on board"
                          f"{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}.")
    rnd.status = RoundStatus.COMPLETED
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
def round_reopen(*, round: Round) -> Round:
    """Back to published so a result can be corrected; only while the next round is not paired."""
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != RoundStatus.COMPLETED:
        raise DomainError(f"Round {rnd.number} is not completed.")
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise DomainError(f"Round {rnd.number} cannot be reopened: round {rnd.number + 1} is already paired.")
    rnd.status = RoundStatus.PUBLISHED
    rnd.save(update_fields=["status"])
    return rnd


@transaction.atomic
def round_delete_draft(*, round: Round) -> None:
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(f"Round {rnd.number} is published: only a draft round can be deleted and re-paired.")
    if Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists():
        raise DomainError(f"Round {rnd.number} is not the last round.")
    rnd.delete()


# --- Results ---------------------------------------------------------------------------------


def parse_result(value: str | Result) -> Result:
    if isinstance(value, Result):
        return value
    text = value.strip()
    for r in Result:
        if text.lower() == r.value.lower():
            return r
    raise DomainError(f"Unknown result {value!r}: expected one of {', '.join(r.value for r in Result)}.")


@transaction.atomic
def game_record_result(
    *, game: Game, result: str | Result | None, expected_version: int | None = None, reason: str = "",
    user: object = None,
) -> Game:
    """Record (or clear, with None) a game's result in a published round, or correct it in a completed
    one: a correction needs its reason, which the history keeps with who made it.

    With expected_version (the version the arbiter's form was loaded with), a save made on stale
    data is refused rather than overwriting what another arbiter saved in between.
    """
    locked = Game.objects.select_for_update(of=("self",)).select_related("round", "white__player", "black__player").get(
        pk=game.pk
    )
    if expected_version is not None and locked.version != expected_version:
        raise StaleEditError(
            f"Board {locked.board} of round {locked.round.number} was changed by someone else since you opened "
            f"it (now {locked.result or 'no result'}); reload the page and enter the result again."
        )
    rnd = locked.round
    reason = reason.strip()
    if rnd.status == RoundStatus.COMPLETED and not reason:
        raise DomainError(f"Round {rnd.number} is completed: give the reason for correcting the result of board "
                          f"{locked.board}, or reopen it.")
    if rnd.status == RoundStatus.DRAFT:
        raise DomainError(f"Round {rnd.number} is a draft: publish it before entering results.")
    new = parse_result(result) if result not in (None, "") else None
    if new is not None:
        allowed = SINGLE_PLAYER_RESULTS + [Result.NOT_PLAYED] if locked.is_bye else TWO_PLAYER_RESULTS
        if new not in allowed:
            kind = "a bye" if locked.is_bye else "a game between two players"
            raise DomainError(f"Board {locked.board}: {new.value!r} is not a result for {kind}; expected one of "
                              f"{', '.join(r.value for r in allowed)}.")
    value = new.value if new else ""
    if value != locked.result:
        if rnd.status == RoundStatus.COMPLETED and value == "":
            raise DomainError(f"Round {rnd.number} is completed: board {locked.board} needs a result.")
        locked.result = value
        locked.version += 1
        if reason:
            locked._change_reason = reason  # type: ignore[attr-defined]  # simple_history keeps it
        if user is not None:
            locked._history_user = user  # type: ignore[attr-defined]
        locked.save(update_fields=["result", "version"])
    return locked


@transaction.atomic
def results_record(*, round: Round, results: Iterable[tuple[int, str | Result | None]]) -> list[Game]:
    """Several boards at once (board number, result): all are saved or none."""
    games = {g.board: g for g in round.games.all()}
    saved = []
    for board, result in results:
        if board not in games:
            raise DomainError(f"Round {round.number} has no board {board}.")
        saved.append(game_record_result(game=games[board], result=result))
    return saved
