"""A round robin's TRF, read back (VCL4THP Q217: the final file holds everything, round robins included).

The file says it is a round robin in record 192 (TRF-2026's Tournament-Type Code Table: BERGER_ROUNDROBIN,
FIDE_ROUNDROBIN, BERGER_DOUBLEROUNDROBIN, FIDE_DOUBLEROUNDROBIN, CUSTOM_ROUNDROBIN) or, in an older file,
in the free text of 092 ("Round robin", "Double round robin"). A round robin is not paired by the Dutch
rules, so its rounds are not replayed by the Swiss engine: each is checked against the round robin's own
rules instead (tournaments.pairing.rr_check: no pair twice in a cycle, no colour three times in a row)
and compared with the Berger table (FIDE C.05 Annex 1, the one Damier pairs the rounds still to play by).
A round that breaks a rule asks the arbiter's confirmation, as a Swiss round does; a round that is not the
table's is listed for information.

Damier writes the free round of an odd field as the pairing-allocated bye (`0000 - U`) worth 0 (162 P
0.0); the import reads it back as that free round.
"""

from __future__ import annotations

from tournaments.exchange.trf_review import Review, RoundCheck, system_of
from tournaments.pairing.model import Violation
from tournaments.pairing.roundrobin import Board, berger_rounds, berger_schedule
from tournaments.pairing.rr_check import REPEAT, check_schedule
from tournaments.pairing.trf import TrfError, TrfFile
from tournaments.results import Result
from tournaments.standings import meaningless_in_round_robin

RR_REPEAT, RR_COLOUR = "RR repeat", "RR colour"  # criteria, worded in trf_review_text
# The Berger table of 1,000 players (999 rounds, half a million boards) is made in well under a second;
# the table grows with the square of the field, and a file may claim up to 9,999 players.
MAX_PLAYERS = 1000


def review_round_robin(trf: TrfFile, review: Review, *, rounds_option: int | None) -> None:
    """The round robin's shape (numbers 1..n, the table's number of rounds) and every imported round against
    its rules and the Berger table; refuses what Damier could not carry on."""
    system, reverse = system_of(trf.system)
    n = len(trf.players)
    numbers = sorted(p.number for p in trf.players)
    if numbers != list(range(1, n + 1)):
        raise TrfError(f"a round robin needs the starting ranks 1 to {n} without gaps (the Berger table's numbers); "
                       f"the file has {_ranges(numbers)}")
    if n < 2:
        raise TrfError("a round robin needs at least two players")
    if n > MAX_PLAYERS:
        raise TrfError(f"a round robin of {n} players: Damier imports round robins of up to {MAX_PLAYERS:,} players "
                       "(the Berger table of a bigger field has millions of boards to check within one request)")
    if review.tiebreaks and (bad := meaningless_in_round_robin(review.tiebreaks)):
        raise TrfError(f"202: {', '.join(bad)} mean nothing in a round robin, where everyone meets the same field; "
                       "Damier refuses them there (choose the wins, the mutual result, the ranking order or "
                       "Sonneborn-Berger)")
    double = system == "double_round_robin"
    total = berger_rounds(n, double)
    if trf.total_rounds != total:
        where = "--rounds" if rounds_option else "142 / XXR"
        raise TrfError(f"a {'double ' if double else ''}round robin of {n} players has {total} rounds (the Berger "
                       f"table, FIDE C.05 Annex 1); the file ({where}) says {trf.total_rounds}")
    played = [_boards(trf, r) for r in range(1, trf.rounds_in_file + 1)]
    if double and not trf.system.upper().replace(" ", "").startswith(("FIDE", "BERGER")):
        # a free text (092) says neither table: the one the played rounds follow, else the recommended one
        plain, recommended = (berger_schedule(n, double=True, reverse_last_two=r) for r in (False, True))
        reverse = not (_follows(played, plain) and not _follows(played, recommended))
    review.system, review.rr_reverse_last_two = system, reverse
    table = berger_schedule(n, double=double, reverse_last_two=reverse)
    findings = check_schedule(played, n)
    review.rounds = []
    for number, boards in enumerate(played, start=1):
        violations = tuple(
            Violation(RR_REPEAT if f.code == REPEAT else RR_COLOUR, f.players,
                      f"met in round {f.earlier}" if f.code == REPEAT else "")
            for f in findings if f.round == number)
        games = tuple((w, b) for w, b in boards if b is not None)
        bye = next((w for w, b in boards if b is None), None)
        # A player without a game in the round (withdrawn, or not yet entered) is not in it, as a blank cell
        # reads: the table's boards he would have played are not missing from the file.
        absent = {p.number for p in trf.players
                  if (cell := p.cells.get(number)) is None or (cell[0] == 0 and cell[2] != "U")}
        expected = {b for b in table[number - 1] if not {b[0], b[1]} & absent}
        mine = {b for b in boards if not {b[0], b[1]} & absent}
        review.rounds.append(RoundCheck(number, games, bye, violations,
                                        tuple(sorted(mine - expected, key=str)),
                                        tuple(sorted(expected - mine, key=str))))


def _boards(trf: TrfFile, rnd: int) -> list[Board]:
    """The round's games, White first, and its free round (player, None): the `U` Damier writes, or in an
    odd field the one player without an opponent, whatever another program wrote in his cell."""
    boards: list[Board] = []
    alone = []
    for p in sorted(trf.players, key=lambda q: q.number):
        cell = p.cells.get(rnd)
        if cell is None or cell[0] == 0:
            alone.append(p.number)
            if cell is not None and cell[2] == "U":
                boards.append((p.number, None))
            continue
        opp, colour, _code = cell
        if colour == "w" or (colour not in ("w", "b") and p.number < opp):
            boards.append((p.number, opp))
    if len(trf.players) % 2 and len(alone) == 1 and (alone[0], None) not in boards:
        boards.append((alone[0], None))
    return boards


def _follows(played: list[list[Board]], table: list[list[Board]]) -> bool:
    return all(set(a) == set(b) for a, b in zip(played, table, strict=False))


def _ranges(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:10]))
    return shown + (", ..." if len(numbers) > 10 else "")


def withdrawn_after(cells: dict[int, tuple[int, str, str]], last: int) -> int:
    """A withdrawn player of a round robin left after the last round of the file in which he has a cell:
    the table's later boards are his games not played (as Damier enters them while the event runs)."""
    return max((r for r in cells if r <= last), default=0)


Game3 = tuple[int, int | None, Result]


def table_order(table_round: list[Board], pairs: list[tuple[int, int, Result]], singles: list[tuple[int, Result]],
                gone: set[int]) -> list[Game3]:
    """The round's games in the Berger table's board order, with the table's boards of a withdrawn player
    as games not played (Result.NOT_PLAYED, as services.round_pair makes them); games off the table last."""
    played = {frozenset((w, b)): (w, b, r) for w, b, r in pairs}
    alone = dict(singles)
    busy = {x for w, b, _r in pairs for x in (w, b)} | set(alone)
    out: list[Game3] = []
    for white, black in table_round:
        if black is None:
            if white in alone:
                out.append((white, None, alone.pop(white)))
            elif white in gone and white not in busy:
                out.append((white, None, Result.NOT_PLAYED))
        elif (game := played.pop(frozenset((white, black)), None)) is not None:
            out.append(game)
        elif white not in busy and black not in busy and (white in gone or black in gone):
            out.append((white, black, Result.NOT_PLAYED))
    out += list(played.values())
    out += [(w, None, r) for w, r in alone.items()]
    return out
