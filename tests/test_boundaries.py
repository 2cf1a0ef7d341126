"""The one boundary of the design: the pure packages never import Django or the ORM."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = [ROOT / "rules", ROOT / "tournaments" / "pairing", *sorted((ROOT / "tournaments").glob("standings*")),
        ROOT / "tournaments" / "results.py"]
FORBIDDEN = ("django", "tournaments.models", "tournaments.services", "tournaments.selectors",
             "tournaments.admin", "tournaments.views")


def python_files() -> list[Path]:
    files: list[Path] = []
    for place in PURE:
        if place.is_dir():
            files.extend(sorted(place.rglob("*.py")))
        elif place.exists():
            files.append(place)
    return files


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_module_never_imports_django(path: Path) -> None:
    bad = [m for m in imported_modules(path) if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_rules_never_imports_tournaments() -> None:
    for path in (ROOT / "rules").rglob("*.py"):
        assert not [m for m in imported_modules(path) if m.split(".")[0] == "tournaments"], path
