"""Berger tables for round robins (FIDE Handbook C.05, Annex 1), single or double.

Pure Python. The published tables are generated, not stored: the highest number of an even field
(or the dummy n+1 of an odd one) is fixed, the others turn round a ring of n'-1 seats. In round r
(0-based) the fixed player meets the player `r * n'/2 mod (n'-1) + 1`, with Black in odd rounds
of the table and White in even ones; every other board pairs the players k seats either side of
that opponent, the one ahead on the ring with White. The tests compare the result with the
printed tables for 3 to 16 players, board for board.
"""

from __future__ import annotations

Board = tuple[int, int | None]
Schedule = list[list[Board]]


def berger_size(n_players: int) -> int:
    """The table used: n for an even field, n+1 for an odd one (the highest number is the bye)."""
    return n_players + n_players % 2


def berger_rounds(n_players: int, double: bool = False) -> int:
    """Rounds of the round robin: n'-1 per cycle, where n' is the table size."""
    _check(n_players)
    per_cycle = berger_size(n_players) - 1
    return per_cycle * 2 if double else per_cycle


def berger_schedule(n_players: int, double: bool = False, reverse_last_two: bool = False) -> Schedule:
    """rounds -> boards -> (white, black or None for the bye), pairing numbers 1..n_players.

    Boards are in the order the published tables print them, except that the game against the
    dummy of an odd field is listed last as (player, None). A double round robin repeats the first
    cycle with colours reversed and the same board order. With reverse_last_two (a double round robin
    only), the last two rounds of the first cycle are played in reverse order, as FIDE C.05 Annex 1
    recommends: the last round of the printed first cycle and the first round of the second give the
    same players the same colour, and the swap puts a round of the other colour between them.
    """
    _check(n_players)
    size = berger_size(n_players)
    ring = size - 1
    half = size // 2

    def seat(x: int) -> int:
        return (x - 1) % ring + 1

    first: Schedule = []
    for r in range(ring):
        base = (r * half) % ring + 1
        boards: list[tuple[int, int]] = [(base, size) if r % 2 == 0 else (size, base)]
        boards.extend((seat(base + k), seat(base - k)) for k in range(1, half))
        first.append(_with_bye(boards, n_players))
    if not double:
        return first
    second: Schedule = [[(b, w) if b is not None else (w, None) for w, b in rnd] for rnd in first]
    if reverse_last_two and len(first) >= 2:
        first = [*first[:-2], first[-1], first[-2]]
    return first + second


def _with_bye(boards: list[tuple[int, int]], n_players: int) -> list[Board]:
    """An odd field: the dummy's opponent has the bye, on a board listed last."""
    if n_players % 2 == 0:
        return list(boards)
    dummy = n_players + 1
    played: list[Board] = [(w, b) for w, b in boards if dummy not in (w, b)]
    free = next(w if b == dummy else b for w, b in boards if dummy in (w, b))
    played.append((free, None))
    return played


def _check(n_players: int) -> None:
    if n_players < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {n_players}")
