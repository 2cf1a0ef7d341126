"""axe-core in any Playwright page: `check(page, "what this page is")` runs it and returns what it found.

axe-core comes from npm, pinned in tests/browser/package.json (+ package-lock.json); `npm ci` in
tests/browser installs it (.ci/run does). Without node_modules the tests that need it skip, saying how
to install it. Any browser test can call `assert_accessible(page, name)` on a page it has open.

Every rule axe enables by default runs (WCAG 2.0-2.2 A/AA and best practices) plus `target-size`
(WCAG 2.2 2.5.8, 24x24 px), which axe leaves off by default. Critical and serious violations fail;
moderate and minor ones are counted and reported.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import run_script

AXE_JS = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
IMPACTS = ("critical", "serious", "moderate", "minor")
FAILING = frozenset({"critical", "serious"})
OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}

# Every check made in this process, in order; each test's own go into its report (conftest.py).
RESULTS: list[AxeResult] = []


def require_axe() -> None:
    if not AXE_JS.exists():
        message = f"axe-core is not installed ({AXE_JS} missing): run `npm ci` in tests/browser"
        if os.environ.get("CI"):
            pytest.fail(message)  # .ci/run installs it: a skip there would hide the whole run
        pytest.skip(message)


@dataclass
class AxeResult:
    name: str  # what was checked, e.g. "crosstable 390px fr dark"
    url: str
    violations: list[dict[str, Any]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Violated rules by impact (a rule counts once however many elements break it)."""
        out = dict.fromkeys(IMPACTS, 0)
        for v in self.violations:
            out[v.get("impact") or "minor"] += 1
        return out

    def nodes(self) -> int:
        return sum(len(v["nodes"]) for v in self.violations)

    def failing(self, allowed: Iterable[str] = ()) -> list[dict[str, Any]]:
        allow = set(allowed)
        return [v for v in self.violations if v.get("impact") in FAILING and v["id"] not in allow]

    def describe(self, violations: list[dict[str, Any]] | None = None, limit: int = 5) -> str:
        lines = [f"{self.name} ({self.url}):"]
        for v in self.violations if violations is None else violations:
            lines.append(f"  [{v.get('impact')}] {v['id']}: {v['help']} ({len(v['nodes'])} elements)")
            for node in v["nodes"][:limit]:
                target = " ".join(str(t) for t in node.get("target", []))
                summary = " ".join((node.get("failureSummary") or "").split())
                lines.append(f"      {target}: {summary[:300]}")
        return "\n".join(lines)

    def line(self) -> str:
        c = self.counts()
        rules = ",".join(v["id"] for v in self.violations)
        return (f"{self.name:<52} critical {c['critical']} serious {c['serious']} moderate {c['moderate']} "
                f"minor {c['minor']}" + (f"  [{rules}]" if rules else ""))


def check(page: Any, name: str) -> AxeResult:
    """Run axe on the page as it is now (inject it first if this document has not got it)."""
    require_axe()
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        run_script(page, AXE_JS)  # an inline script tag would be refused by the page's policy
    found = page.evaluate("async (options) => (await axe.run(document, options)).violations", OPTIONS)
    result = AxeResult(name=name, url=page.url, violations=found)
    RESULTS.append(result)
    return result


def assert_accessible(page: Any, name: str, *, allowed: Iterable[str] = ()) -> AxeResult:
    """No critical or serious violation on the open page, except rule ids in `allowed`."""
    result = check(page, name)
    bad = result.failing(allowed)
    assert not bad, result.describe(bad)
    return result


def summary(checks: list[tuple[str, dict[str, int]]]) -> list[str]:
    """One line per check (its line and its counts by impact, as the test reports carried them), then
    the totals."""
    if not checks:
        return []
    totals = dict.fromkeys(IMPACTS, 0)
    for _, counts in checks:
        for k, n in counts.items():
            totals[k] += n
    return [line for line, _ in checks] + [
        f"axe-core {len(checks)} checks: " + ", ".join(f"{totals[k]} {k}" for k in IMPACTS)
        + " (violated rules, summed over the checks)"]
