"""Named tie-break presets and the 'results in ranking order' tie-break they need."""

from __future__ import annotations

import pytest

from tournaments.results import Result
from tournaments.standings import (
    PRESETS,
    TIEBREAKS,
    StandingGame,
    StandingPlayer,
    compute_standings,
    default_preset,
    preset_of,
)

G = StandingGame
A, B, C, D = 1, 2, 3, 4
PLAYERS = [StandingPlayer(i, i, n, 2000) for i, n in ((A, "A"), (B, "B"), (C, "C"), (D, "D"))]
# A 1-1 B, A 2-0 C, D 2-0 A; C 2-0 B, B 2-0 D; C 2-0 D.  Points: A 3, B 3, C 4, D 2.
# A and B: one win each, a draw between them; against C (placed first of the others) A won, B lost.
GAMES = [G(1, A, B, Result.DRAW), G(1, C, D, Result.WHITE_WINS), G(2, A, C, Result.WHITE_WINS),
         G(2, B, D, Result.WHITE_WINS), G(3, D, A, Result.WHITE_WINS), G(3, C, B, Result.WHITE_WINS)]


def ranks(tiebreaks: list[str]) -> list[tuple[str, int | None]]:
    rows = compute_standings(PLAYERS, GAMES, system="round_robin", rounds_total=3, tiebreaks=tiebreaks)
    return [(r.player.name, r.rank) for r in rows]


def test_ranking_order_separates_what_wins_and_mutual_result_leave_tied() -> None:
    assert ranks(["wins", "mutual_result"]) == [("C", 1), ("A", 2), ("B", 2), ("D", 4)]
    assert ranks(list(PRESETS["fmjd_round_robin"].tiebreaks)) == [("C", 1), ("A", 2), ("B", 3), ("D", 4)]
    rows = compute_standings(PLAYERS, GAMES, system="round_robin", rounds_total=3, tiebreaks=["ranking_order"])
    values = {r.player.name: r.tiebreaks["ranking_order"] for r in rows}
    # against C (4 points), then D (2): A won against C and lost to D, B the other way round
    assert values["A"] == (2, 0) and values["B"] == (0, 2)
    assert values["C"] is None and values["D"] is None  # alone on their points


def test_every_preset_names_registry_tie_breaks_once() -> None:
    assert {"fmjd_swiss_solkoff", "fmjd_swiss_rating", "fmjd_round_robin", "kndb_round_robin"} <= set(PRESETS)
    for preset in PRESETS.values():
        assert preset.tiebreaks and all(t in TIEBREAKS for t in preset.tiebreaks)
        assert len(set(preset.tiebreaks)) == len(preset.tiebreaks)


@pytest.mark.parametrize(("system", "order", "key"), [
    ("swiss", "rating", "fmjd_swiss_rating"), ("swiss", "standing", "fmjd_swiss_solkoff"),
    ("round_robin", "rating", "fmjd_round_robin"), ("double_round_robin", "rating", "fmjd_round_robin"),
])
def test_default_preset_follows_the_system(system: str, order: str, key: str) -> None:
    preset = default_preset(system, order)
    assert preset.key == key and system in preset.systems


def test_preset_of_recognises_an_exact_list_only() -> None:
    assert preset_of(["wins", "mutual_result", "ranking_order"]) is PRESETS["fmjd_round_robin"]
    assert preset_of(["mutual_result", "wins"]) is None
    assert preset_of([]) is None
