"""Damier against FIDE's verification checklist (VCL4THP v13): walk the path and print the table.

    python docs/conformance/vcl.py                 # the Markdown table of all 225 and the path's totals
    python docs/conformance/vcl.py --path          # only the questions on the path, in walking order
    python docs/conformance/vcl.py --strict        # exit status 1 unless the path is complete and passes
    python docs/conformance/vcl.py --apply REPORT  # fill answers from report lines "Qn | reading | pass | test"
    python docs/conformance/vcl.py --assume-best   # a preview: each pending question takes the branch that makes
                                                   # the rest of the path cheapest (the best still reachable)

The data is vcl4thp.json beside this file (how to edit it: README.md). The walk starts at Q1 and follows
Damier's answer at each question: the branch it takes says ok, a penalty (per cent), a hard fail, or
simply the next question. Three readings where the checklist data is silent, each printed under the
table when it was used:
- a hard fail stops a real verification; to count every fail on the path the walk goes on where the
  other answer would have gone (the branch's own next first, when the checklist gives one);
- a branch with no next question (a gap in the tracker's data) goes on to the next number;
- a question whose status is n-a (no draughts meaning) is walked by its answer, but what its branch
  costs is listed apart, not counted.
A question on the path with no answer yet (status pending) stops the walk: the totals say so. With
--assume-best each pending question takes the branch that makes the rest of the path cheapest (marked
"assumed"): what the answers already given cost at best while other work is still under way.
Standard library only, so it runs without the project's environment.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "vcl4thp.json"
STATUSES = ("pass", "fail", "n-a", "pending")
FAIL_COST = 10**6  # a hard fail weighs more than any sum of penalties


@dataclass
class Step:
    q: int
    answer: str
    outcome: str  # ok, next, penalty, fail
    penalty: int = 0
    counted: bool = True
    assumed: bool = False


@dataclass
class Walk:
    steps: list[Step] = field(default_factory=list)
    blocked_at: int | None = None  # a pending question on the path
    notes: list[str] = field(default_factory=list)

    @property
    def hard_fails(self) -> list[int]:
        return [s.q for s in self.steps if s.counted and s.outcome == "fail"]

    @property
    def penalty(self) -> int:
        return sum(s.penalty for s in self.steps if s.counted)

    @property
    def uncounted(self) -> list[Step]:
        return [s for s in self.steps if not s.counted and s.outcome in ("fail", "penalty")]

    def on_path(self) -> dict[int, Step]:
        return {s.q: s for s in self.steps}


def load(path: Path = DATA) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["questions"])


def branch_cost(branch: dict[str, Any]) -> int:
    """What taking a branch costs: 0 for ok or next, its penalty, or a hard fail."""
    if branch["outcome"] == "fail":
        return FAIL_COST
    return int(branch.get("penalty") or 0) if branch["outcome"] == "penalty" else 0


def taken(record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The branch Damier's answer takes and the other one."""
    yes, no = record["yes"], record["no"]
    return (yes, no) if record["answer"] == "Y" else (no, yes)


def assume_best(questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy where each unanswered question takes the branch that makes the rest of the path cheapest,
    given the answers already there (a short search over the checklist's graph, each question once)."""
    by_q = {r["q"]: r for r in questions}
    best: dict[int, tuple[int, str]] = {}

    def solve(q: int | str, visiting: frozenset[int]) -> int:
        if not isinstance(q, int) or q not in by_q or q in visiting:
            return 0
        if q not in best:
            r = by_q[q]
            counted = r.get("status") != "n-a"
            options = [r["answer"]] if r.get("answer") in ("Y", "N") else ["Y", "N"]
            costs = {}
            for answer in options:
                branch, other = taken({**r, "answer": answer})
                costs[answer] = (branch_cost(branch) if counted else 0) + solve(
                    _following(q, branch, other), visiting | {q})
            choice = min(options, key=lambda a: costs[a])
            best[q] = (costs[choice], choice)
        return best[q][0]

    solve(1, frozenset())
    return [r if r.get("answer") in ("Y", "N") or r["q"] not in best
            else {**r, "answer": best[r["q"]][1], "assumed": True} for r in questions]


def _following(q: int, branch: dict[str, Any], other: dict[str, Any]) -> int | str:
    """Where the walk goes after taking `branch` at Q`q` (the readings of the module's docstring)."""
    following = branch.get("next")
    if branch["outcome"] == "fail" and following is None:
        following = other.get("next")
    return q + 1 if following is None else following


def walk(questions: list[dict[str, Any]]) -> Walk:
    by_q = {r["q"]: r for r in questions}
    result = Walk()
    q: int | str | None = 1
    seen: set[int] = set()
    while isinstance(q, int) and q in by_q:
        if q in seen:  # cannot happen with the checklist's data (every next points forward); never loop
            result.notes.append(f"Q{q} reached twice: the walk stops there.")
            break
        seen.add(q)
        record = by_q[q]
        if record.get("answer") not in ("Y", "N"):
            result.blocked_at = q
            break
        branch, other = taken(record)
        step = Step(q, record["answer"], branch["outcome"], int(branch.get("penalty") or 0),
                    counted=record.get("status") != "n-a", assumed=bool(record.get("assumed")))
        result.steps.append(step)
        following = _following(q, branch, other)
        if branch["outcome"] == "fail" and branch.get("next") is None:
            result.notes.append(f"Q{q} is a hard fail; the walk goes on at {_name(following)} to count what follows.")
        elif branch.get("next") is None:
            result.notes.append(f"Q{q}: the checklist data gives no next question; the walk goes on at Q{q + 1}.")
        if following == "end":
            break
        q = following
    return result


def _name(q: int | str) -> str:
    return "the end" if q == "end" else f"Q{q}"


def _cell(text: Any) -> str:
    return str(text or "").replace("|", "\\|").replace("\n", " ")


def _outcome(step: Step | None) -> str:
    if step is None:
        return "–"
    if step.assumed:
        return "assumed " + {"ok": "ok", "next": "ok", "fail": "**FAIL**", "penalty": f"{step.penalty} %"}[step.outcome]
    words = {"ok": "ok", "next": "ok", "fail": "**FAIL**", "penalty": f"{step.penalty} %"}[step.outcome]
    if not step.counted:
        return "n/a" if words == "ok" else f"n/a ({words} not counted)"
    return words


def _status(record: dict[str, Any]) -> str:
    if record.get("status") == "pending":
        return f"pending ({record.get('owner') or '?'})"
    return {"n-a": "n/a"}.get(record.get("status", ""), record.get("status", ""))


def table(questions: list[dict[str, Any]], result: Walk, *, path_only: bool = False) -> str:
    on_path = result.on_path()
    lines = ["| Q | asks | answer | draughts reading | status | on the path | test |",
             "|---|---|---|---|---|---|---|"]
    rows = [r for r in questions if r["q"] in on_path] if path_only else questions
    if path_only:
        rows = sorted(rows, key=lambda r: [s.q for s in result.steps].index(r["q"]))
    for r in rows:
        test = f"`{r['test']}`" if r.get("test") else ""
        answer = (r.get("answer") or "") if not r.get("assumed") else ""
        lines.append(f"| {r['q']} | {_cell(r['asks'])} | {answer} | {_cell(r.get('reading'))} | "
                     f"{_status(r)} | {_outcome(on_path.get(r['q']))} | {_cell(test)} |")
    return "\n".join(lines)


def totals(questions: list[dict[str, Any]], result: Walk) -> str:
    fails = result.hard_fails
    lines = [
        f"- Questions on the path: {len(result.steps)} of {len(questions)}",
        f"- Hard fails on the path: {len(fails)}" + (f" ({', '.join(f'Q{q}' for q in fails)})" if fails else ""),
        f"- Penalties on the path: {result.penalty} % (100 % or more fails the verification)",
    ]
    if result.uncounted:
        lines.append("- Not applicable to draughts, not counted: " + ", ".join(
            f"Q{s.q} ({'FAIL' if s.outcome == 'fail' else f'{s.penalty} %'})" for s in result.uncounted))
    pending = [r for r in questions if r.get("status") == "pending"]
    assumed = [s.q for s in result.steps if s.assumed]
    if assumed:
        lines.append(f"- Pending questions on the path, each assumed to take its cheapest branch: {len(assumed)}")
    if result.blocked_at is not None:
        owner = next(r.get("owner") for r in questions if r["q"] == result.blocked_at)
        lines.append(f"- **The path is incomplete**: Q{result.blocked_at} has no answer yet ({owner}); "
                     f"{len(pending)} question(s) are pending in all.")
    else:
        verdict = "passes" if not fails and result.penalty < 100 else "fails"
        lines.append(f"- The path is complete: the verification **{verdict}**.")
    lines += [f"- {note}" for note in result.notes]
    return "\n".join(lines)


def parse_report(text: str) -> dict[int, dict[str, str]]:
    """Answer lines as the conformance reports end: `Qn | draughts reading | pass / fail / n/a | test node id`,
    optionally with the answer as a field of its own (`Qn | Y | reading | pass | test`). Other lines are
    ignored; a range `Q40-46` gives the same answer to each."""
    found: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        head = cells[0].lstrip("-* ").upper() if cells else ""
        if len(cells) < 3 or not head.startswith("Q"):
            continue
        first, _sep, last = head[1:].partition("-")
        if not first.isdigit() or (last and not last.lstrip("Q").isdigit()):
            continue
        rest = cells[1:]
        answer = next((c.upper() for c in rest if c.upper() in ("Y", "N", "YES", "NO")), "")[:1]
        rest = [c for c in rest if c.upper() not in ("Y", "N", "YES", "NO")]
        status_at = next((i for i, c in enumerate(rest) if _status_word(c)), None)
        if status_at is None:
            continue
        status = _status_word(rest[status_at])
        reading = " ".join(rest[:status_at]).strip()
        test = next((c for c in rest[status_at + 1:] if "::" in c), "")
        for q in range(int(first), int(last.lstrip("Q") or first) + 1):
            found[q] = {"answer": answer, "status": status, "reading": reading, "test": test}
    return found


def _status_word(cell: str) -> str:
    word = cell.lower().replace("/", "-").replace(" ", "")
    return {"pass": "pass", "fail": "fail", "n-a": "n-a", "na": "n-a", "n-a.": "n-a"}.get(word, "")


def apply_report(path: Path, report: str) -> list[str]:
    """Write the report's answers into the JSON; the answer Y/N is inferred where only one branch fits
    the status (a pass takes the cheaper branch, a fail the dearer). What could not be filled is said."""
    data = json.loads(path.read_text(encoding="utf-8"))
    by_q = {r["q"]: r for r in data["questions"]}
    said = []
    for q, new in sorted(parse_report(report).items()):
        r = by_q.get(q)
        if r is None:
            said.append(f"Q{q}: no such question")
            continue
        answer = new["answer"]
        if not answer:
            yes, no = branch_cost(r["yes"]), branch_cost(r["no"])
            if new["status"] == "pass" and yes != no:
                answer = "Y" if yes < no else "N"
            elif new["status"] == "fail" and yes != no:
                answer = "Y" if yes > no else "N"
            elif r.get("answer") in ("Y", "N"):
                answer = r["answer"]
        if not answer:
            said.append(f"Q{q}: both answers fit '{new['status']}': set \"answer\" to Y or N by hand")
            r.update({"reading": new["reading"] or r.get("reading", ""), "test": new["test"] or r.get("test", "")})
            continue
        r.update({"answer": answer, "status": new["status"], "reading": new["reading"] or r.get("reading", ""),
                  "test": new["test"] or r.get("test", "")})
        r.pop("owner", None)
        said.append(f"Q{q}: {answer} {new['status']}")
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return said


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", type=Path, default=DATA, help="the answers (default: vcl4thp.json beside this file)")
    ap.add_argument("--path", action="store_true", help="only the questions on the path, in walking order")
    ap.add_argument("--strict", action="store_true", help="exit 1 unless the path is complete and passes")
    ap.add_argument("--apply", type=Path, metavar="REPORT",
                    help="fill answers from a report's lines 'Qn | reading | pass/fail/n/a | test', then print")
    ap.add_argument("--assume-best", action="store_true",
                    help="a preview: pending questions take the branches that make the path cheapest")
    args = ap.parse_args(argv)
    if args.apply:
        for line in apply_report(args.json, args.apply.read_text(encoding="utf-8")):
            print(line, file=sys.stderr)
    questions = load(args.json)
    if args.assume_best:
        questions = assume_best(questions)
    result = walk(questions)
    print(table(questions, result, path_only=args.path))
    print()
    print(totals(questions, result))
    incomplete = result.blocked_at is not None or any(s.assumed for s in result.steps)
    if args.strict and (incomplete or result.hard_fails or result.penalty >= 100):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
