"""docs/conformance: the 225 questions of the checklist, the answers, and the walk of the path.

The branches are the checklist's facts (copied from a public tracker); what is checked here is that the
file stays whole while people edit it: every question once, every branch pointing at a question, every
answer consistent with its status, and every "pass" backed by a test that exists.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs" / "conformance"


def _load_module() -> Any:
    spec = importlib.util.spec_from_file_location("vcl", DOCS / "vcl.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["vcl"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


vcl = _load_module()
QUESTIONS: list[dict[str, Any]] = vcl.load()
# Branches whose next question the tracker's data leaves empty although they do not fail; the walk goes
# on at the next number (vcl.py says so under the table). A new empty one is a copying mistake.
TRACKER_GAPS = {(24, "no"), (72, "yes"), (86, "yes"), (104, "no"), (111, "yes"), (111, "no"), (169, "no"),
                (199, "no")}


def test_the_checklist_has_225_questions_in_order() -> None:
    assert [r["q"] for r in QUESTIONS] == list(range(1, 226))
    data = json.loads((DOCS / "vcl4thp.json").read_text(encoding="utf-8"))
    assert data["checklist"] == "VCL4THP" and data["version"].startswith("13")


def test_every_branch_is_well_formed_and_points_at_a_question() -> None:
    for r in QUESTIONS:
        assert r["section"] and r["asks"], r["q"]
        for side in ("yes", "no"):
            branch = r[side]
            assert branch["outcome"] in ("ok", "next", "penalty", "fail"), (r["q"], side)
            assert (branch["outcome"] == "penalty") == ("penalty" in branch), (r["q"], side)
            if "penalty" in branch:
                assert isinstance(branch["penalty"], int) and 0 < branch["penalty"] <= 200, (r["q"], side)
            following = branch["next"]
            if following is None:
                assert branch["outcome"] == "fail" or (r["q"], side) in TRACKER_GAPS, (r["q"], side)
            else:
                assert following == "end" or (isinstance(following, int) and 1 <= following <= 225), (r["q"], side)
                assert following != r["q"], r["q"]


def test_answers_and_statuses_agree() -> None:
    for r in QUESTIONS:
        q, status, answer = r["q"], r["status"], r["answer"]
        assert status in vcl.STATUSES, q
        if status == "pending":
            assert r.get("owner"), f"Q{q}: a pending question names who answers it"
            continue
        if answer is None:
            pytest.fail(f"Q{q}: status {status} needs an answer Y or N")
        assert answer in ("Y", "N"), q
        assert r["reading"].strip(), f"Q{q}: say what the question means for draughts"
        branch, other = vcl.taken(r)
        if status == "pass":
            # A pass is the best answer the checklist allows: the other one costs at least as much.
            assert vcl.branch_cost(branch) <= vcl.branch_cost(other), f"Q{q}: a cheaper answer exists"
        if status == "fail":
            assert vcl.branch_cost(branch) > vcl.branch_cost(other), f"Q{q}: 'fail' but no better answer exists"


@cache
def _functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        names |= {f"{cls.name}::{n.name}" for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    return names


@pytest.mark.parametrize("record", [r for r in QUESTIONS if r["status"] == "pass"], ids=lambda r: f"Q{r['q']}")
def test_every_pass_names_a_test_pytest_can_collect(record: dict[str, Any]) -> None:
    node = record["test"]
    assert node, f"Q{record['q']}: a pass names the test that shows it"
    path, _sep, name = node.partition("::")
    assert path.startswith("tests/") and path.endswith(".py") and name, node
    assert (ROOT / path).is_file(), f"{node}: no such file"
    function = name.split("[", 1)[0]  # a parametrised case: the function is what must exist
    assert function.startswith(("test_", "Test")) or "::test_" in function, node
    assert function in _functions(ROOT / path), f"{node}: no such test function"


def test_the_walk_is_deterministic_and_ends() -> None:
    first, second = vcl.walk(QUESTIONS), vcl.walk(json.loads(json.dumps(QUESTIONS)))
    assert [(s.q, s.outcome, s.penalty) for s in first.steps] == [(s.q, s.outcome, s.penalty) for s in second.steps]
    assert first.blocked_at == second.blocked_at
    assert first.steps[0].q == 1 and len({s.q for s in first.steps}) == len(first.steps)


def test_the_walk_follows_the_answers_and_counts_the_costs() -> None:
    """A hand-made answer set over the real branches: every question answered yes, then the totals by hand."""
    answered = [{**r, "answer": "Y", "status": "pass"} for r in QUESTIONS]
    result = vcl.walk(answered)
    path = [s.q for s in result.steps]
    assert path[:8] == [1, 7, 8, 10, 11, 12, 16, 19]  # Q1 yes -> 7, Q8 yes -> 10, Q12 yes -> 16, Q16 yes -> 19
    assert result.steps[3].outcome == "penalty" and result.steps[3].penalty == 10  # Q10 yes costs 10 %
    assert 30 in result.hard_fails  # Q30 yes ("same parameters, same file") is a hard fail
    assert path[-1] == 223 and result.blocked_at is None  # Q223 yes ends the verification
    assert result.penalty == sum(s.penalty for s in result.steps)
    # n/a: walked, not counted
    na = [{**r, "status": "n-a"} if r["q"] == 10 else r for r in answered]
    assert vcl.walk(na).penalty == result.penalty - 10


def test_a_pending_question_on_the_path_stops_the_walk_and_assume_best_previews() -> None:
    result = vcl.walk(QUESTIONS)
    pending = {r["q"] for r in QUESTIONS if r["status"] == "pending"}
    assert result.blocked_at is None or result.blocked_at in pending
    preview = vcl.walk(vcl.assume_best(QUESTIONS))
    assert preview.blocked_at is None and preview.steps[-1].q >= 217
    assert all(s.assumed == (s.q in pending) for s in preview.steps)


def test_the_script_prints_all_225_rows_and_the_totals() -> None:
    out = subprocess.run([sys.executable, str(DOCS / "vcl.py")], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [int(line.split("|")[1]) for line in rows] == list(range(1, 226))
    assert "Questions on the path:" in out and "Hard fails on the path:" in out and "Penalties on the path:" in out
    again = subprocess.run([sys.executable, str(DOCS / "vcl.py")], capture_output=True, text=True, check=True,
                           cwd=ROOT).stdout
    assert again == out


def test_report_lines_fill_the_answers(tmp_path: Path) -> None:
    """The lead pastes the branches' "VCL answers" lines; the answer is inferred only where one branch fits."""
    copy = tmp_path / "vcl.json"
    data = json.loads((DOCS / "vcl4thp.json").read_text(encoding="utf-8"))
    for record in (data["questions"] if isinstance(data, dict) else data):
        if record["q"] in (16, 19, 30, 57, 58):  # as they were before anyone answered them
            record.update(answer=None, status="pending", reading="", test="", owner="someone")
    copy.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    report = "\n".join([
        "## VCL answers",
        "Q16 | our own Dutch engine | pass | tests/a.py::test_a",  # both branches cost nothing: not inferred
        "- Q19 | the checker and the generator | pass | `tests/a.py::test_b`",  # yes: next, no: fail -> Y
        "Q30 | N | a fresh seed each run | pass | tests/a.py::test_c",  # the answer given outright
        "Q57-58 | fixed once paired | fail |",  # a range; Q57 both cost 0 -> left, Q58 fail -> N (the dearer)
        "Q222 | Chess960: no draughts meaning | n/a |",
        "some other line | pass |",
    ])
    said = vcl.apply_report(copy, report)
    records = {r["q"]: r for r in vcl.load(copy)}
    assert records[19]["answer"] == "Y" and records[19]["status"] == "pass" and "owner" not in records[19]
    assert records[19]["test"] == "tests/a.py::test_b"
    assert records[30]["answer"] == "N" and records[30]["reading"] == "a fresh seed each run"
    assert records[16]["answer"] is None and records[16]["status"] == "pending"
    assert records[16]["test"] == "tests/a.py::test_a"
    assert records[58]["answer"] == "N" and records[58]["status"] == "fail"
    assert records[57]["status"] == "pending"
    assert records[222]["status"] == "n-a" and records[222]["answer"] == "N"  # kept: both fit n/a
    assert any(line.startswith("Q16: both answers fit") for line in said)
    assert len(records) == 225


def test_pytest_collects_every_test_the_table_names() -> None:
    """Beyond the file and the function existing: pytest itself collects each node id a pass names."""
    nodes = sorted({r["test"] for r in QUESTIONS if r["status"] == "pass" and r["test"]})
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *nodes],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    collected = {line.split("[", 1)[0] for line in run.stdout.splitlines() if "::" in line}
    assert set(nodes) <= collected, set(nodes) - collected
