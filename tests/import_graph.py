"""The project's import graph, read from the source text (nothing is imported or run).

    .venv/bin/python -m tests.import_graph            # arrows and circles of rules/ and tournaments/
    .venv/bin/python -m tests.import_graph --arrows   # and every arrow, one a line

An arrow is one module naming another of the project in an import statement, wherever the statement
stands (a function-local import or one under `if TYPE_CHECKING:` is still a dependency: hiding a circle
in a function does not break it). `from package import name` points at package.name when that is a
module, else at the package. A circle is a strongly connected group of two or more modules (or a module
importing itself); tests/test_boundaries.py fails on any.

Folded into packages (`package_arrows`), each module counts as the innermost package that holds it
(`tournaments.pairing.dutch` is `tournaments.pairing`), except the modules at the top of `rules/` and
`tournaments/`, which stay themselves: the top of a root is the kernel every package builds on, not
one capability, so folding it would make every package lean on every other. A circle of packages is
two capabilities that cannot be understood, tested or moved one without the other.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "tournaments")
SKIPPED = ("migrations",)


@dataclass(frozen=True)
class Arrow:
    source: str
    target: str
    line: int


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_files(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    files: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if not any(part in SKIPPED for part in path.relative_to(root).parts):
                files[module_name(path, root)] = path
    return files


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: Path, importer: str, modules: set[str]) -> list[Arrow]:
    """The arrows from one file to the project's modules (outside ones are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    arrows: list[Arrow] = []

    def project(name: str) -> str | None:
        # The longest prefix that is one of our modules: `import a.b.c` depends on a.b.c.
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in modules:
                return ".".join(parts[:end])
        return None

    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, importer, is_package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in modules else base)
        for target in targets:
            found = project(target)
            if found is not None and found != importer:
                arrows.append(Arrow(importer, found, node.lineno))
            elif found == importer:
                arrows.append(Arrow(importer, importer, node.lineno))
    return arrows


def arrows(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> list[Arrow]:
    """Every arrow once per (source, target) pair, at its first line."""
    files = module_files(root, packages)
    seen: dict[tuple[str, str], Arrow] = {}
    for name, path in files.items():
        for arrow in imports_of(path, name, set(files)):
            seen.setdefault((arrow.source, arrow.target), arrow)
    return sorted(seen.values(), key=lambda a: (a.source, a.target))


def package_of(name: str, files: dict[str, Path]) -> str:
    """The package a module counts as: its innermost package, or itself at the top of a root."""
    package = name if files[name].name == "__init__.py" else name.rpartition(".")[0]
    return name if package in PACKAGES or not package else package


def package_arrows(found: Iterable[Arrow], files: dict[str, Path] | None = None) -> list[Arrow]:
    """The arrows between packages, each at the first module arrow that makes it (within one package: none)."""
    files = module_files() if files is None else files
    seen: dict[tuple[str, str], Arrow] = {}
    for arrow in found:
        source, target = package_of(arrow.source, files), package_of(arrow.target, files)
        if source != target:
            seen.setdefault((source, target), Arrow(source, target, arrow.line))
    return sorted(seen.values(), key=lambda a: (a.source, a.target))


def circles(found: Iterable[Arrow]) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan), each sorted; a self-import is a group of one."""
    graph: dict[str, set[str]] = {}
    for arrow in found:
        graph.setdefault(arrow.source, set()).add(arrow.target)
        graph.setdefault(arrow.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arrows", action="store_true", help="print every arrow")
    parser.add_argument("packages", nargs="*", default=list(PACKAGES))
    args = parser.parse_args(argv)
    found = arrows(ROOT, args.packages)
    if args.arrows:
        for arrow in found:
            print(f"{arrow.source} -> {arrow.target}  (line {arrow.line})")
    files = module_files(ROOT, args.packages)
    groups = circles(found)
    print(f"{len(files)} modules, {len(found)} import arrows, {len(groups)} circles")
    for group in groups:
        print("circle: " + " <-> ".join(group))
    between = circles(package_arrows(found, files))
    print(f"{len(between)} circles between packages")
    for group in between:
        print("package circle: " + " <-> ".join(group))
    return 1 if groups or between else 0


if __name__ == "__main__":
    sys.exit(main())
