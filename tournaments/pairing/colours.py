"""Colour allocation (C.04.3 E / 2025 text 5) and the colour facts the criteria count."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.pairing.model import Colour
from tournaments.pairing.state import ABSOLUTE, STRONG, PState, opposite


def allocate(a: PState, b: PState, initial: Colour) -> tuple[PState, PState]:
    """(white, black) for a pair, by E.1 to E.5 (2025 text: 5.2.1 to 5.2.5)."""
    white, black, _ = allocation(a, b, initial)
    return white, black


def allocation(a: PState, b: PState, initial: Colour) -> tuple[PState, PState, str]:
    """(white, black, the rule that decided: "E1" to "E5").

    "Higher ranked" is A.2's ranking: the higher score first, then the pairing order (the lower
    pairing number, or the standing when the tournament pairs by standing). E.4 gives the colour
    preference to that player and E.5 looks at that player's pairing number. bbpPairings v6 does the
    same (choosePlayerColor compares score, then rank), and so do the reference rounds: taking the
    lower pairing number regardless of score gave other colours in 180 of their 1,098 rounds.
    """
    hi, lo = (a, b) if a.rank < b.rank else (b, a)
    hi_col, rule = _hi_colour(hi, lo, initial)
    return (hi, lo, rule) if hi_col == "w" else (lo, hi, rule)


def _hi_colour(hi: PState, lo: PState, initial: Colour) -> tuple[Colour, str]:
    if hi.pref is None and lo.pref is None:
        return (initial if hi.e5n % 2 == 1 else opposite(initial)), "E5"
    # E.1: grant both preferences (or the only one there is)
    if lo.pref is None:
        return hi.pref, "E1"  # type: ignore[return-value]
    if hi.pref is None:
        return opposite(lo.pref), "E1"
    if hi.pref != lo.pref:
        return hi.pref, "E1"
    # E.2: the stronger preference wins; between two absolute ones, the wider colour difference
    if hi.strength != lo.strength:
        return (hi.pref if hi.strength > lo.strength else opposite(lo.pref)), "E2"
    if hi.strength == ABSOLUTE and abs(hi.cd) != abs(lo.cd):
        return (hi.pref if abs(hi.cd) > abs(lo.cd) else opposite(lo.pref)), "E2"
    # E.3: alternate from the latest game where they had different colours (unplayed rounds ignored,
    # so the two played sequences are aligned on their ends)
    for x, y in zip(reversed(hi.colours), reversed(lo.colours), strict=False):
        if x != y:
            return opposite(x), "E3"
    return hi.pref, "E4"


@dataclass(frozen=True)
class ColourFacts:
    """What a given colour does to one player, for C10 to C13 and the absolute colour rule."""

    pref_unmet: bool
    strong_unmet: bool  # strong or absolute preference not granted
    cd_over_2: bool
    three_in_row: bool

    @property
    def breaks_absolute(self) -> bool:
        return self.cd_over_2 or self.three_in_row


def facts(p: PState, got: Colour) -> ColourFacts:
    cd = p.cd + (1 if got == "w" else -1)
    return ColourFacts(
        pref_unmet=p.pref is not None and got != p.pref,
        strong_unmet=p.strength >= STRONG and got != p.pref,
        cd_over_2=abs(cd) > 2,
        three_in_row=len(p.colours) >= 2 and p.colours[-1] == p.colours[-2] == got,
    )


def compatible_colours(a: PState, b: PState, initial: Colour = "w") -> bool:
    """C3: two non-topscorers with the same absolute preference cannot meet. A topscorer may meet
    anyone: C10 and C11 then count the colour excesses of topscorers *and their opponents*, so the
    opponent of a topscorer may end beyond the C.04.1 colour limits (bbpPairings reads it so too)."""
    del initial  # the allocation does not matter: only who is a topscorer does
    if a.topscorer or b.topscorer:
        return True
    return not (a.strength == ABSOLUTE and b.strength == ABSOLUTE and a.pref == b.pref)
