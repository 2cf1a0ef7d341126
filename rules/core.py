"""Move generation on bitboards (Python ints in the ghost-square layout of `rules.geometry`).

Everything here works on plain ints so that perft stays fast; `rules.board` wraps it in the public API.
A side is described by `men`, `kings` (its own pieces), `opp` (all enemy pieces) and `empty`.

Captures (art. 4) are generated as complete sequences.  The capturing piece leaves its square, so
that square counts as empty; captured pieces stay on the board until the sequence is over (4.11, the
"Turkish strike"): they are no longer capturable and they block the way (4.8).  Sequences are keyed
by (start, end, captured set): two paths with the same key are one move (the Woldouby position).
"""

from __future__ import annotations

from typing import Final

from rules.geometry import BLACK_PROMOTION, JUMPS, RAYS, VALID, WHITE_PROMOTION

#: Complete captures: (start index, end index, mask of captured pieces) -> every route (landing indices).
Captures = dict[tuple[int, int, int], list[tuple[int, ...]]]
#: A move inside the engine: (from bit, to bit, captured mask).
RawMove = tuple[int, int, int]

_ALL_DIRECTIONS: Final = (0, 1, 2, 3)
#: The two directions at right angles to direction d (indices into geometry.DIRECTIONS).
_TURNS: Final = ((1, 2), (0, 3), (0, 3), (1, 2))


def _record(out: Captures, key: tuple[int, int, int], path: tuple[int, ...]) -> None:
    routes = out.get(key)
    if routes is None:
        out[key] = [path]
    else:
        routes.append(path)


def _man_captures(idx: int, opp: int, empty: int, cap: int, path: tuple[int, ...], out: Captures) -> None:
    more = False
    for jumped, landing, landing_idx in JUMPS[idx]:
        if opp & jumped and empty & landing:
            more = True
            _man_captures(landing_idx, opp ^ jumped, empty, cap | jumped, path + (landing_idx,), out)
    if not more and cap:
        _record(out, (path[0], idx, cap), path)


def _king_captures(idx: int, opp: int, empty: int, cap: int, path: tuple[int, ...], out: Captures,
                   directions: tuple[int, ...], may_stop: bool) -> bool:
    """Explore king captures from `idx` in `directions`; record the sequence if it may end here.

    A flying king lands on any empty square behind the captured piece (4.3, 4.6).  Turning is tried
    from every landing square; going straight on is tried once, from the square right behind the
    captured piece, which is also the intermediate square PDN writes for a straight continuation.
    """
    found = False
    rays = RAYS[idx]
    for d in directions:
        ray = rays[d]
        n = len(ray)
        i = 0
        while i < n and empty & ray[i][0]:
            i += 1
        if i + 1 >= n:
            continue
        jumped = ray[i][0]
        if not opp & jumped or not empty & ray[i + 1][0]:
            continue
        found = True
        opp2 = opp ^ jumped
        cap2 = cap | jumped
        i += 1
        first = i
        while i < n and empty & ray[i][0]:
            i += 1
        # Can the king go on along the same line and capture again?
        straight = i + 1 < n and opp2 & ray[i][0] and empty & ray[i + 1][0]
        if straight:
            first_idx = ray[first][1]
            _king_captures(first_idx, opp2, empty, cap2, path + (first_idx,), out, (d,), False)
        for j in range(first, i):
            landing_idx = ray[j][1]
            _king_captures(landing_idx, opp2, empty, cap2, path + (landing_idx,), out, _TURNS[d],
                           not straight)
    if not found and may_stop:
        _record(out, (path[0], idx, cap), path)
    return found


def capture_sequences(men: int, kings: int, opp: int, empty: int) -> Captures:
    """Every complete capture of the side owning `men` and `kings` (any number of pieces captured)."""
    return _captures(men_that_capture(men, opp, empty), kings, opp, empty)


def _captures(capturing_men: int, kings: int, opp: int, empty: int) -> Captures:
    out: Captures = {}
    pieces = capturing_men
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        idx = bit.bit_length() - 1
        _man_captures(idx, opp, empty | bit, 0, (idx,), out)
    pieces = kings
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        idx = bit.bit_length() - 1
        _king_captures(idx, opp, empty | bit, 0, (idx,), out, _ALL_DIRECTIONS, False)
    return out


def men_that_capture(men: int, opp: int, empty: int) -> int:
    """Mask of the men that can make a first jump, in any of the four directions (4.2)."""
    return men & ((((empty << 5) & opp) << 5) | (((empty << 6) & opp) << 6)
                  | (((empty >> 5) & opp) >> 5) | (((empty >> 6) & opp) >> 6))


def kings_can_capture(kings: int, opp: int, empty: int) -> bool:
    """Whether a king can capture, by sliding all kings at once along each direction."""
    for s in (5, 6):
        x = kings >> s
        while x:
            if ((x & opp) >> s) & empty:
                return True
            x = (x & empty) >> s
        x = kings << s
        while x:
            if ((x & opp) << s) & empty:
                return True
            x = (x & empty) << s
    return False


def maximal(captures: Captures) -> Captures:
    """Keep only the captures of the most pieces (4.13; a king counts as one piece)."""
    if len(captures) <= 1:
        return captures
    best = max(key[2].bit_count() for key in captures)
    return {key: path for key, path in captures.items() if key[2].bit_count() == best}


def _count_maximal(captures: Captures) -> int:
    if len(captures) == 1:
        return 1
    sizes = [key[2].bit_count() for key in captures]
    return sizes.count(max(sizes))


def has_capture(men: int, kings: int, opp: int, empty: int) -> bool:
    """Whether any capture exists, by whole-board shifts (no sequence is built)."""
    return bool(men_that_capture(men, opp, empty)) or bool(kings and kings_can_capture(kings, opp, empty))


def quiet_moves(white: bool, men: int, kings: int, empty: int) -> list[RawMove]:
    """Every non-capture move: men one step forward (3.4), kings any distance (3.9)."""
    moves: list[RawMove] = []
    for s in (6, 5):
        if white:
            targets = (men >> s) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                moves.append((to << s, to, 0))
        else:
            targets = (men << s) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                moves.append((to >> s, to, 0))
    pieces = kings
    while pieces:
        bit = pieces & -pieces
        pieces ^= bit
        for ray in RAYS[bit.bit_length() - 1]:
            for to, _ in ray:
                if not empty & to:
                    break
                moves.append((bit, to, 0))
    return moves


def count_quiet(white: bool, men: int, kings: int, empty: int) -> int:
    """Number of quiet moves, counted with population counts instead of listing them."""
    if white:
        n = ((men >> 5) & empty).bit_count() + ((men >> 6) & empty).bit_count()
    else:
        n = ((men << 5) & empty).bit_count() + ((men << 6) & empty).bit_count()
    if kings:
        for s in (5, 6):
            x = (kings >> s) & empty
            while x:
                n += x.bit_count()
                x = (x >> s) & empty
            x = (kings << s) & empty
            while x:
                n += x.bit_count()
                x = (x << s) & empty
    return n


def legal_raw(white: bool, own: int, opp: int, kings: int) -> list[RawMove]:
    """Legal moves of the side `own`: the maximal captures if any capture exists (4.1, 4.13)."""
    empty = VALID & ~(own | opp)
    men = own & ~kings
    own_kings = own & kings
    # Only men with an enemy piece next to them and an empty square behind it start a capture.
    capturing = men_that_capture(men, opp, empty)
    if capturing or (own_kings and kings_can_capture(own_kings, opp, empty)):
        return [(1 << start, 1 << end, cap)
                for start, end, cap in maximal(_captures(capturing, own_kings, opp, empty))]
    return quiet_moves(white, men, own_kings, empty)


def count_legal(white: bool, own: int, opp: int, kings: int) -> int:
    """len(legal_raw(...)), counting quiet moves by population counts instead of listing them."""
    empty = VALID ^ (own | opp)
    own_kings = own & kings
    men = own ^ own_kings
    capturing = men_that_capture(men, opp, empty)
    if capturing or (own_kings and kings_can_capture(own_kings, opp, empty)):
        return _count_maximal(_captures(capturing, own_kings, opp, empty))
    if own_kings:
        return count_quiet(white, men, own_kings, empty)
    if white:
        return ((men >> 5) & empty).bit_count() + ((men >> 6) & empty).bit_count()
    return ((men << 5) & empty).bit_count() + ((men << 6) & empty).bit_count()


def apply_raw(white: bool, own: int, opp: int, kings: int, move: RawMove) -> tuple[int, int, int]:
    """(own, opp, kings) after the move.  A man is promoted only where it stops (3.5, 4.15)."""
    frm, to, cap = move
    if cap:
        kings &= ~cap
        opp ^= cap
    if kings & frm:
        kings = (kings ^ frm) | to
    elif to & (WHITE_PROMOTION if white else BLACK_PROMOTION):
        kings |= to
    return own ^ frm ^ to, opp, kings


def perft(white: bool, own: int, opp: int, kings: int, depth: int) -> int:
    """Leaf count of the legal-move tree; the last ply is counted without making the moves."""
    if depth <= 1:
        return count_legal(white, own, opp, kings) if depth == 1 else 1
    total = 0
    promotion = WHITE_PROMOTION if white else BLACK_PROMOTION
    for frm, to, cap in legal_raw(white, own, opp, kings):
        k = kings & ~cap if cap else kings
        if k & frm:
            k = (k ^ frm) | to
        elif to & promotion:
            k |= to
        if depth == 2:
            total += count_legal(not white, opp ^ cap, own ^ frm ^ to, k)
        else:
            total += perft(not white, opp ^ cap, own ^ frm ^ to, k, depth - 1)
    return total
