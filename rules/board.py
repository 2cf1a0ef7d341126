"""The game state: position, side to move, move stack, legal moves and the outcome (art. 6, 7)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from rules import core, draws, notation
from rules.fast_notation import read_plain
from rules.fen import format_fen, parse_fen
from rules.geometry import BIT_OF, SQUARE_OF, VALID, square_at, squares_of
from rules.types import BLACK, WHITE, AmbiguousMoveError, Color, IllegalMoveError, Move, Outcome, Piece, RulesError

INITIAL_FEN = "W:W31-50:B1-20"

#: An exact position: (white pieces, black pieces, kings, White to move).  Equality decides 6.1.
PositionKey = tuple[int, int, int, bool]


_Table = dict[Move, list[tuple[int, ...]]]

# A Piece is an immutable value: piece_at hands out these (man, king) instead of building one per call.
_WHITE_PIECES = (Piece(WHITE, False), Piece(WHITE, True))
_BLACK_PIECES = (Piece(BLACK, False), Piece(BLACK, True))


def _bitboards(fen: str) -> tuple[Color, int, int, int]:
    """(side to move, white, black, kings) of a FEN; InvalidFenError when it cannot be read."""
    turn, placement = parse_fen(fen)
    white = black = kings = 0
    for sq, piece in placement.items():
        bit = BIT_OF[sq]
        if piece.color is WHITE:
            white |= bit
        else:
            black |= bit
        if piece.king:
            kings |= bit
    return turn, white, black, kings


# Every game of a file starts from the same few positions (most from INITIAL_FEN): read each once.
_read_fen = functools.lru_cache(maxsize=256)(_bitboards)


class _Undo(NamedTuple):
    """The position before a move, and the draw-rule counts that include that position."""

    key: PositionKey
    turn: Color
    # The legal moves of that position, so that pop does not generate them again.
    legal: tuple[PositionKey, _Table] | None
    # Plies in a row, ending with this move, in which a king moved without capturing (6.2).
    kings_only: int
    # Where the 6.3 / 6.4 counts started, as indices into the history, once this position is counted.
    start16: int | None
    start5: int | None


# _Undo(...) goes through a generated Python __new__; push is hot enough for the direct tuple call.
_new_undo = tuple.__new__


def _check_square(square: int) -> int:
    if not isinstance(square, int) or not 1 <= square <= 50:
        raise RulesError(f"square {square!r} is outside 1-50")
    return BIT_OF[square]


def _raw(move: Move) -> core.RawMove:
    cap = 0
    for sq in move.captured:
        cap |= BIT_OF[sq]
    return BIT_OF[move.path[0]], BIT_OF[move.path[-1]], cap


def _capture_table(captures: core.Captures) -> _Table:
    """Moves (one per start, end and captured set) with every route that realises each."""
    table: _Table = {}
    for (_, _, cap), paths in captures.items():
        routes = [tuple(SQUARE_OF[i] for i in path) for path in paths]
        table[Move._trusted(routes[0], tuple(squares_of(cap)))] = routes
    return table


class Board:
    """A position with its history.  `Board()` is the initial position (art. 2.8, White to move)."""

    def __init__(self, fen: str | None = None) -> None:
        self._white = 0
        self._black = 0
        self._kings = 0
        self._turn = WHITE
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        self._legal_cache: tuple[PositionKey, _Table] | None = None
        # How often each earlier position of the game occurred (the current one is not counted).  Built
        # by the first outcome() and kept up to date from then on, so that a search that never asks
        # (perft, a walk of the move tree) does not pay for it.
        self._seen: dict[PositionKey, int] | None = None
        # The last move parse_move found legal, with the position it was found in and its raw form:
        # push need not look it up again.  A position decides which moves are legal, so the pair stays
        # true whatever happens to the board afterwards; push only compares the key.
        self._verified: tuple[PositionKey, Move, core.RawMove] | None = None
        self._set_fen(INITIAL_FEN if fen is None else fen)

    @classmethod
    def from_fen(cls, fen: str) -> Board:
        return cls(fen)

    def _set_fen(self, fen: str) -> None:
        position = _read_fen(fen) if type(fen) is str else _bitboards(fen)
        self._turn, self._white, self._black, self._kings = position

    # -- position ---------------------------------------------------------------------------------

    def fen(self) -> str:
        """Canonical FEN (`rules.fen`): `W:W31-50:B1-20` style, ranges for runs of three or more men."""
        return format_fen(self._turn, {**self.pieces(WHITE), **self.pieces(BLACK)})

    @property
    def turn(self) -> Color:
        return self._turn

    def set_turn(self, color: Color) -> None:
        """Give the move to `color`.  Changes nothing else: not the move stack, not the pieces.

        Meant for continuing after an irregular move (art. 5.4, e.g. a player moving twice).
        """
        if not isinstance(color, Color):
            raise RulesError(f"set_turn expects a Color, got {color!r}")
        self._turn = color

    def piece_at(self, square: int) -> Piece | None:
        bit = _check_square(square)
        if self._white & bit:
            return _WHITE_PIECES[bool(self._kings & bit)]
        if self._black & bit:
            return _BLACK_PIECES[bool(self._kings & bit)]
        return None

    def set_piece(self, square: int, piece: Piece | None) -> None:
        """Put a piece on a square (None empties it).  Changes nothing else, like set_turn."""
        bit = _check_square(square)
        self._white &= ~bit
        self._black &= ~bit
        self._kings &= ~bit
        if piece is None:
            return
        if piece.color is WHITE:
            self._white |= bit
        else:
            self._black |= bit
        if piece.king:
            self._kings |= bit

    def pieces(self, color: Color) -> dict[int, Piece]:
        """Square -> piece for one side."""
        own, kinds = (self._white, _WHITE_PIECES) if color is WHITE else (self._black, _BLACK_PIECES)
        kings = self._kings
        return {sq: kinds[bool(kings & BIT_OF[sq])] for sq in squares_of(own)}

    def copy(self) -> Board:
        """An independent board with the same position and history."""
        other = Board.__new__(Board)
        other._white, other._black, other._kings, other._turn = (
            self._white, self._black, self._kings, self._turn)
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._legal_cache = self._legal_cache
        other._seen = None if self._seen is None else dict(self._seen)
        other._verified = self._verified
        return other

    def key(self) -> PositionKey:
        """The exact position with the side to move, hashable; equal keys mean equal positions."""
        return (self._white, self._black, self._kings, self._turn is WHITE)

    def __eq__(self, other: object) -> bool:
        """Same position and side to move (the history is not compared)."""
        if not isinstance(other, Board):
            return NotImplemented
        return self.key() == other.key()

    # A board changes with every push: hash board.key() instead.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __str__(self) -> str:
        """A 10x10 diagram with Black at the top, '.' for the playable empty squares."""
        rows: list[str] = []
        for r in range(10):
            cells: list[str] = []
            for c in range(10):
                if (r + c) % 2 == 0:
                    cells.append(" ")
                    continue
                piece = self.piece_at(square_at(r, c))
                cells.append(piece.symbol() if piece else ".")
            rows.append(" ".join(cells))
        return "\n".join(rows)

    # -- moves ------------------------------------------------------------------------------------

    def _sides(self, color: Color) -> tuple[int, int]:
        return (self._white, self._black) if color is WHITE else (self._black, self._white)

    def _legal_table(self) -> _Table:
        key = self.key()
        if self._legal_cache is not None and self._legal_cache[0] == key:
            return self._legal_cache[1]
        own, opp = self._sides(self._turn)
        empty = VALID & ~(own | opp)
        men, kings = own & ~self._kings, own & self._kings
        table: _Table
        if core.has_capture(men, kings, opp, empty):
            table = _capture_table(core.maximal(core.capture_sequences(men, kings, opp, empty)))
            table = dict(sorted(table.items(), key=lambda item: (item[0].start, item[0].end, item[0].path)))
        else:
            table = {m: [m.path] for m in self._quiet(self._turn)}
        self._legal_cache = (key, table)
        return table

    def _quiet(self, color: Color) -> list[Move]:
        own, opp = self._sides(color)
        raw = core.quiet_moves(color is WHITE, own & ~self._kings, own & self._kings, VALID & ~(own | opp))
        # Square numbers grow with bit positions, so sorting the raw moves sorts by (start, end).
        raw.sort()
        return [Move._trusted((SQUARE_OF[f.bit_length() - 1], SQUARE_OF[t.bit_length() - 1]), ())
                for f, t, _ in raw]

    def legal_moves(self) -> list[Move]:
        """The maximal captures if any capture exists (4.1, 4.13), else every quiet move (3.4, 3.9)."""
        return list(self._legal_table())

    def legal_routes(self, move: Move) -> list[tuple[int, ...]]:
        """Every path realising a legal move (several for a Woldouby-like capture); [] if illegal."""
        return list(self._legal_table().get(move, []))

    def quiet_moves(self, color: Color | None = None) -> list[Move]:
        """Every non-capture move of `color` (default: the side to move), captures ignored."""
        return self._quiet(self._turn if color is None else color)

    def capture_moves(self, color: Color | None = None, maximal_only: bool = False) -> list[Move]:
        """Every complete capture sequence of `color`, one Move per start, end and captured set.

        A sequence is complete when the piece cannot capture again from where it stops; for a king
        this is judged per landing square.  `maximal_only` keeps those that take the most pieces.
        """
        own, opp = self._sides(self._turn if color is None else color)
        captures = core.capture_sequences(own & ~self._kings, own & self._kings, opp, VALID & ~(own | opp))
        if maximal_only:
            captures = core.maximal(captures)
        return sorted(_capture_table(captures), key=lambda m: (m.start, m.end, m.path))

    def is_legal(self, move: Move) -> bool:
        return move in self._legal_table()

    def push(self, move: Move) -> None:
        """Play a legal move; raises IllegalMoveError otherwise."""
        white, black, kings = self._white, self._black, self._kings
        key = (white, black, kings, self._turn is WHITE)
        verified = self._verified
        if verified is not None and verified[1] is move and verified[0] == key:
            raw = verified[2]
        else:
            table = self._legal_table()
            routes = table.get(move) if isinstance(move, Move) else None
            if routes is None:
                raise IllegalMoveError(f"{move} is not a legal move in {self.fen()}")
            if move.path not in routes:
                # Same move, but the caller gave a route we do not know (e.g. start and end only).
                move = next(m for m in table if m == move)
            raw = _raw(move)
        # The draw-rule counts (6.1-6.4) up to the position the move is played from.
        undo = self._undo
        if raw[2] or not kings & raw[0]:
            kings_only = 0
        else:
            kings_only = undo[-1].kings_only + 1 if undo else 1
        if white & (white - 1) and black & (black - 1):
            # Both sides have two pieces or more: no 6.3 / 6.4 ending, whatever came before.
            start16 = start5 = None
        else:
            start16, start5 = _ending_counts(undo[-1] if undo else None, len(undo), key)
        undo.append(_new_undo(_Undo, (key, self._turn, self._legal_cache, kings_only, start16, start5)))
        seen = self._seen
        if seen is not None:
            seen[key] = seen.get(key, 0) + 1
        if self._turn is WHITE:
            self._white, self._black, self._kings = core.apply_raw(True, white, black, kings, raw)
            self._turn = BLACK
        else:
            self._black, self._white, self._kings = core.apply_raw(False, black, white, kings, raw)
            self._turn = WHITE
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Take back the last move, restoring the exact position before it (set_piece included)."""
        if not self.move_stack:
            raise RulesError("pop from an empty move stack")
        key, self._turn, legal = self._undo.pop()[:3]
        self._white, self._black, self._kings = key[0], key[1], key[2]
        seen = self._seen
        if seen is not None:
            left = seen[key] - 1
            if left:
                seen[key] = left
            else:
                del seen[key]
        if legal is not None:
            self._legal_cache = legal
        return self.move_stack.pop()

    def peek(self) -> Move | None:
        return self.move_stack[-1] if self.move_stack else None

    # -- notation (rules.notation does the work) --------------------------------------------------

    def notation(self, move: Move) -> str:
        """Art. 8.2 with PDN 3.0: `32-28`, `28x19`, long form only when another legal capture shares
        start and end."""
        text = notation.move_notation(self._legal_table(), move)
        if text is None:
            raise IllegalMoveError(f"{move} is not a legal move in {self.fen()}")
        return text

    def parse_move(self, text: str) -> Move:
        """Read `32-28`, `28x19`, `47x38x24x13x36` (also ':' or '-' for captures) as a legal move.

        Plain text is read by rules.fast_notation without building the legal move table; any other
        text, and every error, by rules.notation.  Both give the same Move.
        """
        found = self._parse_fast(text) if type(text) is str else None
        if found is None:
            move = self._parse_by_table(text)
            found = move, _raw(move)
        self._verified = (self.key(), *found)
        return found[0]

    def push_notation(self, text: str) -> Move:
        move = self.parse_move(text)
        self.push(move)
        return move

    def _parse_by_table(self, text: str) -> Move:
        """Any move text, read against the whole legal move table; every error is raised here."""
        squares = notation.read_squares(text)
        candidates = notation.matching_moves(self._legal_table(), squares)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            forms = " or ".join(self.notation(m) for m in candidates)
            raise AmbiguousMoveError(f"move {text!r} is ambiguous in {self.fen()}: it can be {forms}")
        raise IllegalMoveError(f"move {text!r} is illegal in {self.fen()}: {self._why_illegal(squares)}")

    def _why_illegal(self, squares: list[int]) -> str:
        start, end = squares[0], squares[-1]
        legal = self.legal_moves()
        piece = self.piece_at(start)
        if piece is None:
            return f"square {start} is empty"
        if piece.color is not self.turn:
            return f"square {start} holds a {piece.color} piece but {self.turn} is to move"
        if not legal:
            return f"{self.turn} has no legal move"
        listing = " ".join(self.notation(m) for m in legal)
        if legal[0].captured:
            most = len(legal[0].captured)
            own = [m for m in self.capture_moves() if m.start == start and m.end == end]
            if own:
                return (f"the capture of the most pieces is compulsory (art. 4.13): {most} piece(s) "
                        f"must be taken; legal moves: {listing}")
            return f"a capture is compulsory (art. 4.1); legal moves: {listing}"
        return f"no {'king' if piece.king else 'man'} move from {start} to {end}; legal moves: {listing}"

    def _parse_fast(self, text: str) -> tuple[Move, core.RawMove] | None:
        own, opp = self._sides(self._turn)
        return read_plain(text, self._turn is WHITE, own, opp, self._kings)

    # -- end of game ------------------------------------------------------------------------------

    def _history(self) -> list[tuple[PositionKey, Move | None]]:
        """Each position of the game so far with the move played from it (None for the current one)."""
        out: list[tuple[PositionKey, Move | None]] = [
            (u.key, m)
            for u, m in zip(self._undo, self.move_stack, strict=True)]
        out.append((self.key(), None))
        return out

    def outcome(self) -> Outcome | None:
        """The result if the game is over by art. 7.2.2, 7.2.3 or 6.1-6.4, else None.

        Wins are checked before draws: a move that wins on the last move of a count still wins.
        The draw counts are kept up to date by push and pop, so this does not rescan the game.
        """
        ply = len(self.move_stack)
        own, opp = self._sides(self._turn)
        if not own:
            loser = self._turn.name.capitalize()
            return Outcome(self._turn.opponent, "7.2.3", f"{loser} has no pieces left.", ply)
        if not opp:
            winner = self._turn
            return Outcome(winner, "7.2.3", f"{winner.opponent.name.capitalize()} has no pieces left.", ply)
        if not core.count_legal(self._turn is WHITE, own, opp, self._kings):
            return Outcome(self._turn.opponent, "7.2.2",
                           f"{self._turn.name.capitalize()} is to move and has no legal move.", ply)
        current = self.key()
        seen = self._seen
        if seen is None:
            seen = self._seen = {}
            for undo in self._undo:
                seen[undo.key] = seen.get(undo.key, 0) + 1
        if seen.get(current, 0) + 1 >= 3:
            return Outcome(None, "6.1", "The same position occurred for the third time with the same side "
                           "to move.", ply)
        last = self._undo[-1] if self._undo else None
        if last is not None and last.kings_only >= draws.KINGS_ONLY_PLIES:
            return Outcome(None, "6.2", "Only kings moved, without capture, for 25 moves by each player.",
                           ply)
        start16, start5 = _ending_counts(last, ply, current)
        limits: list[tuple[int, str, str]] = []
        if start16 is not None:
            limits.append((start16 + draws.SIXTEEN_MOVE_PLIES, "6.3",
                           "Each player has played 16 moves in an ending of art. 6.3."))
        if start5 is not None:
            limits.append((start5 + draws.FIVE_MOVE_PLIES, "6.4",
                           "Each player has played 5 moves in an ending of art. 6.4."))
        if limits:
            limit, article, reason = min(limits)
            if ply >= limit:
                return Outcome(None, article, reason, ply)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None


def _ending_counts(previous: _Undo | None, index: int, key: PositionKey) -> tuple[int | None, int | None]:
    """Where the 6.3 and 6.4 counts started once the position `key`, at `index` in the history, is
    counted after the earlier ones (whose counts `previous` holds).  See rules.draws for the rules."""
    start16, start5 = (previous.start16, previous.start5) if previous is not None else (None, None)
    kind = draws.category(key[0], key[1], key[2])
    if kind == draws.SIXTEEN:
        return (index if start16 is None else start16), None
    if kind == draws.FIVE:
        # start16 is kept on purpose: the 16-move limit keeps running (see rules.draws).
        return start16, (index if start5 is None else start5)
    return None, None


def perft(board: Board, depth: int) -> int:
    """Number of leaf nodes of the legal-move tree of the given depth (1 for depth 0)."""
    own, opp = board._sides(board.turn)
    return core.perft(board.turn is WHITE, own, opp, board._kings, depth)


__all__ = ["Board", "INITIAL_FEN", "PositionKey", "perft"]
