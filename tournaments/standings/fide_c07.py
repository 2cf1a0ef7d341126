"""Tie-breaks in FIDE's convention: the FIDE Tie-Break Regulations (Handbook C.07, the edition in force
from 2023 and amended in 2024), beside the FMJD reading of tiebreaks.py. Each tournament chooses one.

What changes is how a round without a game over the board counts, in the tie-breaks C.07 defines
and Damier has: Buchholz (Solkoff, Article 8.1), its Cut and Median modifiers (Article 14), Sonneborn-
Berger (Article 9.1) and the number of wins (Article 7.1). The other tie-breaks (mutual result, results
in ranking order, Solkoff plus, the average rating of the opponents, a value typed by the arbiter) keep
their FMJD reading in both conventions. The FIDE text is quoted where it was found: the public copy of
the regulation at hand gives only its opening (Articles 1 to 4), so the sentences
below come from public implementations that quote it (TieBreakServer, the FIDE TEC's own checker, among
them). Where no wording was found, the comment says so and the rule is the one TieBreakServer applies.

Article 16 opens with its scope: "the tie-breaks Buchholz (see Article 8.1), Sonneborn-Berger (see
Articles 9.1 and 13.2) and their variants (Fore Buchholz, see Article 8.3; and "Cut" Modifiers, see
Articles 14.1 to 14.4), which are directly or indirectly based on opponents' results, are affected by the
presence of unplayed rounds".

A round of a player, as C.07 sorts it (Article 16.2; its wording was not found, the categories are those
TieBreakServer and other implementations number; the 2026 text's 16.4.1 names "categories 16.2.2 and 16.2.4
(forfeits)" and its 16.4.2 "all other unplayed rounds (categories 16.2.1, 16.2.3 and 16.2.5)"):
- a game over the board (a ruling such as 1-0 or 0-0 included: the game was played);
- 16.2.1 the pairing-allocated bye, and a requested bye worth a win: not voluntary;
- 16.2.2 a forfeit win: not voluntary;
- 16.2.3 a requested bye worth a draw or nothing, and an absence: voluntary (a VUR);
- 16.2.4 a forfeit loss (a double forfeit is one for both): voluntary;
- 16.2.5 the voluntary rounds after the player's last round that is not voluntary (a withdrawal, the
  rounds missed at the end).

Scores are in the tournament's points (2, 1, 0): C.07 speaks of "the points awarded for a draw", and a
draw is worth 1 here, a win 2. Sonneborn-Berger is then the chess figure doubled, as in tiebreaks.py.

Round robins (pre-determined pairings, Article 15): "forfeit wins or losses (the only possible unplayed
rounds) are treated as regular games" (15.2, 2024 text as quoted): every game with an opponent counts
with his score, a round without an opponent (the free round of an odd field) counts for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.standings.records import SWISS
from tournaments.standings.tiebreaks import TIEBREAKS, TieBreak, TieBreakContext, TieBreakFunction

FMJD = "fmjd"
FIDE_C07 = "fide_c07"
CONVENTIONS = (FMJD, FIDE_C07)

WIN_POINTS = 2  # FMJD 5.6: a win scores 2, a draw 1
DRAW_POINTS = 1


@dataclass(frozen=True)
class PlayerRound:
    """One round of one player as C.07 sees it."""

    number: int
    opponent: int | None  # the scheduled opponent, forfeits included; None: a bye or no game
    points: int
    over_the_board: bool
    voluntary: bool  # a voluntary unplayed round (VUR): 16.2.3, 16.2.4, 16.2.5


@dataclass(frozen=True)
class Contribution:
    """What one round adds to a player's Buchholz: `score` is the opponent's (or the dummy's) score,
    `value` what the round adds (the score; for Sonneborn-Berger, times the points of the round)."""

    round: int
    score: int
    value: int
    voluntary: bool


def rounds_of(pid: int, ctx: TieBreakContext) -> list[PlayerRound]:
    """Rounds 1..ctx.rounds of the player; a round without a counting game is an absence (no opponent,
    0 points, voluntary)."""
    key = ("c07_rounds", pid)
    if key not in ctx.cache:
        by_round = {e.round: e for e in ctx.encounters[pid]}
        out = []
        for number in range(1, ctx.rounds + 1):
            e = by_round.get(number)
            if e is None:
                out.append(PlayerRound(number, None, 0, False, True))
                continue
            if e.over_the_board:
                voluntary = False
            elif e.opponent is not None:
                voluntary = e.points < WIN_POINTS  # 16.2.4 forfeit loss; 16.2.2 a forfeit win is not
            else:
                # 16.2.1 the pairing-allocated bye is not voluntary, whatever it is worth; a requested bye
                # is, unless it is worth a win (TieBreakServer counts the full-point bye with 16.2.1).
                voluntary = e.bye_requested and e.points < WIN_POINTS
            out.append(PlayerRound(number, e.opponent, e.points, e.over_the_board, voluntary))
        ctx.cache[key] = out
    return ctx.cache[key]  # type: ignore[return-value]


def adjusted_score(pid: int, ctx: TieBreakContext) -> int:
    """The score the player's opponents count him at (Article 16.3): "16.3.2 Unplayed rounds of category
    16.2.5 are evaluated as draws" (quoted in TieBreakServer); every other round counts at its points.
    Category 16.2.5: a voluntary round with no scheduled opponent after his last round that is not
    voluntary. In a round robin (Article 15) his score as it stands."""
    if ctx.system != SWISS:
        return ctx.points[pid]
    key = ("c07_adjusted", pid)
    if key not in ctx.cache:
        rounds = rounds_of(pid, ctx)
        last = max((r.number for r in rounds if not r.voluntary), default=0)
        ctx.cache[key] = sum(r.points if r.number <= last or r.opponent is not None else DRAW_POINTS
                             for r in rounds)
    return ctx.cache[key]  # type: ignore[return-value]


def contributions(pid: int, ctx: TieBreakContext, *, sonneborn: bool = False) -> list[Contribution]:
    """One contribution a round (Articles 8.1, 9.1 and 16.4). A game over the board counts the
    opponent's adjusted score; any other round a dummy opponent's: "a dummy that concluded the tournament
    with the same number of points as the participant themself" (16.4, 2024 text as quoted), his own
    score in these standings. The 2026 caps on the dummy (16.4.1, 16.4.2) are not part of this edition.
    Sonneborn-Berger multiplies each score by the points he made in the round."""
    if ctx.system != SWISS:
        # Article 15.2: forfeits are regular games; a free round has no opponent and counts for nothing.
        return [Contribution(e.round, s, s * e.points if sonneborn else s, False)
                for e in ctx.encounters[pid] if e.opponent is not None
                for s in (ctx.points[e.opponent],)]
    out = []
    own = ctx.points[pid]
    for r in rounds_of(pid, ctx):
        if r.over_the_board and r.opponent is not None:
            score, voluntary = adjusted_score(r.opponent, ctx), False
        else:
            score, voluntary = own, r.voluntary
        out.append(Contribution(r.number, score, score * r.points if sonneborn else score, voluntary))
    return out


def cut(values: list[Contribution], low: int, high: int) -> int:
    """The sum left once the `low` least and the `high` most significant values are cut (Article 14).

    The least significant value is the lowest score, the lower value first on equal scores (for
    Buchholz, score and value are one). The "Cut-1 Exception" (16.5.1): a voluntary unplayed round's
    contribution is cut first, "as long as such contribution is not lower than the least significant
    value" (quoted from an implementation; the full sentence was not found); with several, the lowest.
    Each further cut looks again at what is left. The most significant value has no such exception.
    """
    left = list(values)
    for _ in range(low):
        if not left:
            break
        least = min(left, key=lambda c: (c.score, c.value))
        vurs = [c for c in left if c.voluntary]
        first = min(vurs, key=lambda c: (c.value, c.score)) if vurs else None
        left.remove(first if first is not None and first.value >= least.value else least)
    for _ in range(high):
        if not left:
            break
        left.remove(max(left, key=lambda c: (c.score, c.value)))
    return sum(c.value for c in left)


def buchholz(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Article 8.1, the sum of the contributions."""
    return cut(contributions(pid, ctx), 0, 0)


def buchholz_cut1(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Buchholz Cut-1 (Article 14): the FMJD short truncated Solkoff's place in the list."""
    return cut(contributions(pid, ctx), 1, 0)


def buchholz_median1(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Buchholz Median-1 (Article 14): the least and the most significant value cut."""
    return cut(contributions(pid, ctx), 1, 1)


def buchholz_cuts(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> tuple[int, ...]:
    """The FMJD full truncated Solkoff's sequence with C.07's cuts: (Cut-1, Cut-2, ...), compared left
    to right. C.07 has no such list; each of its terms is the Cut-n of Article 14."""
    values = contributions(pid, ctx)
    return tuple(cut(values, n, 0) for n in range(1, len(values)))


def sonneborn_berger(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Article 9.1: each contribution's score times the points of the round (2, 1, 0)."""
    return cut(contributions(pid, ctx, sonneborn=True), 0, 0)


def wins(pid: int, ctx: TieBreakContext, group: frozenset[int]) -> int:
    """Article 7.1: "the number of rounds where a participant obtains, with or without playing, as many
    points as awarded for a win" (quoted in several implementations): wins over the board, forfeit wins,
    a bye worth a win (the pairing-allocated one when it scores 2, a requested one worth a win)."""
    return sum(1 for e in ctx.encounters[pid] if e.points == WIN_POINTS)


C07_TIEBREAKS: dict[str, TieBreak] = {
    "solkoff": TieBreak(buchholz),
    "solkoff_short_truncated": TieBreak(buchholz_cut1),
    "solkoff_median": TieBreak(buchholz_median1),
    "solkoff_full_truncated": TieBreak(buchholz_cuts),
    "sonneborn_berger": TieBreak(sonneborn_berger),
    "wins": TieBreak(wins),
}


def tiebreak_function(name: str, convention: str) -> TieBreakFunction:
    """The function computing tie-break `name` in `convention` (FMJD's where C.07 does not change it)."""
    if convention == FIDE_C07 and name in C07_TIEBREAKS:
        return C07_TIEBREAKS[name].function
    return TIEBREAKS[name].function


def check_convention(convention: str) -> None:
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown tie-break convention {convention!r}; known: {', '.join(CONVENTIONS)}")
