"""`python -m rules replay FILE... [--json]`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_readable_report_and_clean_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.pdn", '[White "A"]\n[Black "B"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n')
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    assert "ok.pdn game 1: A - B, declared 2-0" in out and "replayed 4/4 plies, all legal" in out
    assert "not verifiable from the sheet" in out and "1 game(s): 1 clean" in out


def test_json_array_and_error_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = write(tmp_path, "a.pdn", "1. 32-28 19-23 2. 31-27 23x21 *\n\n[Event \"e\"]\n1. 33-29 *\n")
    second = write(tmp_path, "b.pdn", b'[White "G\xe9rard"]\n1. 32-28 1-1\n')
    assert main(["replay", "--json", first, second]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(Path(d["file"]).name, d["index"]) for d in data] == [("a.pdn", 1), ("a.pdn", 2), ("b.pdn", 1)]
    issue = data[0]["issues"][0]
    assert (issue["ply"], issue["move"], issue["article"], issue["severity"]) == (3, "31-27", "5.4.6", "error")
    assert data[0]["plies"] == 4 and data[0]["legal"] is False
    assert data[1]["headers"] == {"Event": "e"} and data[1]["legal"] is True
    assert data[2]["headers"]["White"] == "G\u00e9rard" and data[2]["declared_result"] == "1-1"
    assert (data[0]["encoding"], data[2]["encoding"]) == ("utf-8", "windows-1252")
    assert data[2]["board_result"] is None


def test_unreadable_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "missing.pdn")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_module_entry_point_on_the_shared_corpus(corpus_dir: Path) -> None:
    files = sorted(str(p) for p in corpus_dir.glob("*.pdn"))
    done = subprocess.run([sys.executable, "-m", "rules", "replay", "--json", *files], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    data = json.loads(done.stdout)
    assert len(data) == 70 and all(d["legal"] for d in data)
    # One sheet contradicts itself (Result tag 0-1, 1/2-1/2 after the moves): that is an error.
    assert done.returncode == 1
