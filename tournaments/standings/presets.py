"""Named tie-break presets: an ordered list of registry names that a federation's regulations
prescribe, and the preset each new tournament starts with. Pure data; the words are made at the edge
(tournaments/words.py).

Sources, as found (the regulations themselves were not at hand, so each list
follows what was found quoted and says where a reading was needed):
- FMJD round robin: FMJD competition rules 5.11.1.2.1 (quoted on the FFJD forum, 2018): when no
  play-off is held, "1. plus grand nombre de victoires; 2. résultat entre les joueurs classés ex
  aequo; 3. meilleur résultat obtenu dans l'ordre du classement".
- FMJD Swiss on rating: FMJD 5.11.1.2.2 (FFJD forum, 2010) for the Swiss on rating: "1. pour la
  première place : d'abord résultat entre les joueurs classés ex aequo; 2. capital points plus
  élevé des joueurs rencontrés"; FFJD forum, 2019: the Swiss on rating is decided on "la moyenne des
  CP des joueurs rencontrés". Damier applies the mutual result to every place, not only the first.
- FMJD Swiss on Solkoff: FMJD Annexes 2024, 4.2 (the Solkoff family, see tiebreaks.py) and events
  held under FMJD rules ("Swiss system on truncated Solkoff ... final classification according to
  truncated Solkoff", Rotterdam Open). Full truncated Solkoff first (its first step is the short
  truncated one), then Solkoff plus (4.2 e) for what is still tied.
- KNDB round robin: KNDB championship conditions under the KNDB Spel- en wedstrijdreglement (NK
  women 2010): points, then (after a play-off, which Damier does not run) "het onderlinge resultaat",
  then "de hoogste score in volgorde van de ranglijst". The plus/minus-draw balance of those
  conditions has no place in FMJD 2/1/0 scoring and is left out.
- KNDB Swiss: KNDB youth championship conditions (NK pupils 2010): "het hoogste aantal
  weerstandspunten (de som van de scores van de tegenstanders)", then "het hoogste aantal SB-punten".
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.standings.records import DOUBLE_ROUND_ROBIN, ROUND_ROBIN, SWISS


@dataclass(frozen=True)
class Preset:
    key: str
    tiebreaks: tuple[str, ...]
    systems: frozenset[str]  # the systems it is written for


_ROUND_ROBINS = frozenset({ROUND_ROBIN, DOUBLE_ROUND_ROBIN})

PRESETS: dict[str, Preset] = {p.key: p for p in (
    Preset("fmjd_swiss_solkoff", ("solkoff_full_truncated", "solkoff_plus"), frozenset({SWISS})),
    Preset("fmjd_swiss_rating", ("mutual_result", "average_rating"), frozenset({SWISS})),
    Preset("fmjd_round_robin", ("wins", "mutual_result", "ranking_order"), _ROUND_ROBINS),
    Preset("kndb_round_robin", ("mutual_result", "ranking_order"), _ROUND_ROBINS),
    Preset("kndb_swiss", ("solkoff", "sonneborn_berger"), frozenset({SWISS})),
)}

# swiss_order "rating" pairs by rating within a score group (the FMJD Swiss on rating), "standing"
# by the current standing (the FMJD Swiss on Solkoff): each starts with its own tie-breaks.
_DEFAULT_SWISS = {"rating": "fmjd_swiss_rating", "standing": "fmjd_swiss_solkoff"}


def default_preset(system: str, swiss_order: str = "rating") -> Preset:
    """The preset a new tournament of this system starts with."""
    if system == SWISS:
        return PRESETS[_DEFAULT_SWISS.get(swiss_order, "fmjd_swiss_rating")]
    return PRESETS["fmjd_round_robin"]


def preset_of(tiebreaks: list[str] | tuple[str, ...]) -> Preset | None:
    """The preset whose list this is exactly, if any."""
    return next((p for p in PRESETS.values() if list(p.tiebreaks) == list(tiebreaks)), None)


# In a round robin every player meets the same field, so a tie-break built on who one's
# opponents were (the Solkoff/Buchholz family, Solkoff plus, the opponents' average rating) compares each
# player with the field minus himself: it measures his own score or rating, not his opposition. FIDE C.07
# and the checklist (VCL4THP 104-105) leave them out of round robins; so does Damier.
ROUND_ROBIN_MEANINGLESS = frozenset({
    "solkoff", "solkoff_median", "solkoff_short_truncated", "solkoff_full_truncated", "solkoff_plus",
    "average_rating",
})


def meaningless_in_round_robin(tiebreaks: list[str] | tuple[str, ...]) -> list[str]:
    """The names of the list that a round robin may not use, in the list's order."""
    return [name for name in tiebreaks if name in ROUND_ROBIN_MEANINGLESS]
