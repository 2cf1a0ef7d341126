"""The command line: `python -m rules perft|moves` (users script it, so the output format is fixed)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
PDN_EXAMPLE = "W:WK47:B42,29,19,14,27"


def test_perft_prints_the_node_count_on_its_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "W:W31-50:B1-20", "4"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "4265"


def test_perft_divide_lists_each_move_then_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--divide", "W:W31-50:B1-20", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "31-26 9" and lines[-1] == "81"


def test_moves_plain_one_line_per_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "W:W31-50:B1-20", PDN_EXAMPLE]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"
    assert sorted(lines[1].split()) == ["47x38x20x9x31", "47x38x20x9x36", "47x38x24x13x31", "47x38x24x13x36"]


def test_moves_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--json", "W:W32:B27"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"notation": "32x21", "path": [32, 21], "captured": [27]}]


def test_moves_reads_standard_input_when_no_fen_is_given(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("W:W32:B27\n\nB:W32:B27\n"))
    assert main(["moves"]) == 0
    assert capsys.readouterr().out.splitlines() == ["32x21", "27x38"]


def test_moves_bad_fen_keeps_one_line_per_input_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "W:W51:B1", "W:W32:B27"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["", "32x21"]
    assert "51" in captured.err


def test_bad_fen_for_perft_exits_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "W:W31-50:B1-55", "1"]) == 2
    assert "55" in capsys.readouterr().err


def test_python_dash_m_rules_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "rules", "perft", "W:W31-50:B1-20", "3"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "658"
