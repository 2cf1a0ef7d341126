"""The hall bench spreads the players' check-ins over the run, as it says (bench/load_hall.py)."""

from __future__ import annotations

import pytest

from bench import load, load_hall


def test_the_players_check_in_over_the_whole_run() -> None:
    moments = load_hall.check_in_moments(200, 120.0)
    assert len(moments) == 200 and moments == sorted(moments)
    assert len(set(moments)) == 200
    assert 0 <= moments[0] < 10 and 110 < moments[-1] <= 120
    # about as many in each half-minute
    assert all(30 <= sum(1 for m in moments if k * 30 <= m < (k + 1) * 30) <= 70 for k in range(4))


def test_a_burst_is_every_player_at_one_moment() -> None:
    assert load_hall.check_in_moments(5, 120.0, burst=True) == [30.0] * 5


def test_load_hands_its_hall_option_to_the_hall_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr(load_hall, "main", lambda argv=None: seen.append(argv) or 0)
    assert load.main(["--hall", "--players", "40", "--burst"]) == 0
    assert seen == [["--players", "40", "--burst"]]
