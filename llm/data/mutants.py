"""Error-derived records: bugs of real kinds put into correct reference solutions, kept only when a checker
flags them, with the checker's diagnostics as the supervision.

For each operator of passes/mutate and each of its sites in a task's solution (kernel operators in op_kernel/,
host ones in op_host/, project operators across both), the mutant is judged in tiers, cheapest first:
  static         ascendc-check on the project, no shapes: the error is there for every input;
  static-shapes  the same with a test case's shapes (host tiling run, coverage and capacity with numbers);
  simulator      the benchmark harness runs it on the simulator (wrong outputs, a dynamic finding);
and dropped when none flags it (the edit may be harmless there, or beyond what the checkers see). A kept
mutant gives a repair example (buggy project + diagnostics -> the fixed file, with the fix explained) and a
preference pair (the task's prompt; chosen = the correct solution, rejected = the buggy one).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from llm.data.records import Record, message, task_key

if TYPE_CHECKING:
    from bench.suites import Case, Task
    from frontend.diagnostics import Diagnostic

TIERS = ("static", "static-shapes", "simulator")


@dataclass
class MutantStats:
    """Per operator: candidates tried, flagged per tier, not flagged."""

    tried: Counter[str] = field(default_factory=Counter)
    flagged: dict[str, Counter[str]] = field(default_factory=lambda: {t: Counter() for t in TIERS})
    unflagged: Counter[str] = field(default_factory=Counter)

    def merge(self, other: MutantStats) -> None:
        self.tried.update(other.tried)
        for tier in TIERS:
            self.flagged[tier].update(other.flagged[tier])
        self.unflagged.update(other.unflagged)

    def to_json(self) -> dict[str, Any]:
        return {"tried": dict(self.tried), "flagged": {t: dict(c) for t, c in self.flagged.items()},
                "unflagged": dict(self.unflagged)}


@dataclass
class Candidate:
    operator: str
    file: str  # the changed file, relative to the project
    line: int  # 1-based line of the edit in the original
    files: dict[str, str]  # the mutant project


def candidates(files: Mapping[str, str], per_operator: int, names: set[str] | None = None) -> list[Candidate]:
    """Every mutant of the project the operators make, at most `per_operator` per operator and file."""
    from passes.mutate import OPERATORS, PROJECT_OPERATORS, mutants_of, project_mutants_of

    out = []
    for rel, text in sorted(files.items()):
        side = "kernel" if rel.startswith("op_kernel/") else "host" if rel.startswith("op_host/") else None
        if side is None:
            continue
        ops = [op for op in OPERATORS if (names is None or op.name in names) and op.scope in (side, "any")]
        for m in mutants_of(text, ops, per_operator):
            out.append(Candidate(m.operator, rel, m.line, {**files, rel: m.text}))
    project_ops = [op for op in PROJECT_OPERATORS if names is None or op.name in names]
    for name, rel, line, text in project_mutants_of(dict(files), project_ops, per_operator):
        out.append(Candidate(name, rel, line, {**files, rel: text}))
    return out


def shapes_case(task: Task) -> Case | None:
    """The case whose shapes the static-shapes tier uses: the first that splits unevenly over the cores (the
    second case by the suite's convention), else the first."""
    if not task.cases:
        return None
    return task.cases[1] if len(task.cases) > 1 else task.cases[0]


def tiling_shapes(task: Task, case: Case, files: Mapping[str, str]) -> Any:
    """The TilingInputs of `case` for the project (as the harness builds them)."""
    from bench.harness.evaluate import draw
    from bench.harness.stages.compile import Compiled, tiling_inputs
    from passes.mutate.judge import sources_bundle
    from passes.verify import load_for_check

    inputs, expected = draw(task, case, 0)
    with sources_bundle(files, task.kernel_name) as (bundle, _):
        program, chip = load_for_check(bundle, task.chip)
        return tiling_inputs(task, case, inputs, expected, Compiled(program, chip))


def simulator_verdict(task: Task, files: Mapping[str, str]) -> tuple[bool, list[str]]:
    """Whether the harness finds the project wrong on the simulator, and the findings it reports."""
    from bench.harness import Answer, evaluate

    with tempfile.TemporaryDirectory(prefix="ascendir-mutant-") as tmp:
        root = Path(tmp) / task.kernel_name
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        (verdict,) = evaluate(task, [Answer(task.name, "mutant", str(root))])
    if verdict.correct is not False:
        return False, []
    found = [f.render().replace(str(root) + "/", "") for c in verdict.cases for f in c.sim_findings]
    return True, found or [verdict.reason]


def judge_candidate(task: Task, original: Mapping[str, str], candidate: Candidate, before: dict[str, Any],
                    shapes: Any, simulate: bool) -> tuple[str, list[Diagnostic], list[str]] | None:
    """(tier, static findings, simulator findings) of the first tier that flags the candidate, or None."""
    from passes.mutate import operator
    from passes.mutate.judge import static

    family = operator(candidate.operator).family
    verdict = static(original, candidate.files, family, task.chip, name=task.kernel_name, before=before["plain"])
    if verdict.flagged:
        return "static", list(verdict.findings), []
    if shapes is not None:
        verdict = static(original, candidate.files, family, task.chip, shapes, task.kernel_name, before["shapes"])
        if verdict.flagged:
            return "static-shapes", list(verdict.findings), []
    if simulate:
        wrong, found = simulator_verdict(task, candidate.files)
        if wrong:
            return "simulator", [], found
    return None


def repair_reasoning(findings: list[Diagnostic], sim: list[str], original: str, mutant: str, line: int,
                     fix: str) -> str:
    """Why the code is wrong and what the fix does, from the findings and the changed lines."""
    before = original.split("\n")
    after = mutant.split("\n")
    lines = []
    for d in findings[:3]:
        where = f"{d.span.file}:{d.span.line}: " if d.span is not None else ""
        lines.append(f"- {where}{d.message} [{d.code}]")
    for s in sim[:3]:
        lines.append(f"- {s}")
    changed_old = [x.strip() for x in before if x not in after]
    changed_new = [x.strip() for x in after if x not in before]
    text = "The checks report:\n" + "\n".join(lines) + "\n\n"
    if changed_new:
        text += f"The culprit is near line {line}: `{changed_new[0]}`. "
    else:
        text += f"Something is missing near line {line}. "
    text += fix[0].upper() + fix[1:] + "."
    if changed_old:
        text += f" The line should read `{changed_old[0]}`."
    return text


def task_records(task: Task, per_operator: int = 2, names: set[str] | None = None, simulate: bool = True
                 ) -> tuple[list[Record], MutantStats]:
    """The error-derived records of one task's solution, and the counts per operator."""
    from llm.data.reasoning import reasoning
    from llm.prompts import kernel_prompt, repair_prompt
    from llm.prompts.answers import project_files, render_project
    from passes.mutate import operator
    from passes.mutate.judge import check_sources

    stats = MutantStats()
    if task.solution is None:
        return [], stats
    original = project_files(task.solution)
    before = {"plain": check_sources(original, task.chip, name=task.kernel_name)}
    if any(d.is_error for d in before["plain"]):
        return [], stats
    case = shapes_case(task)
    shapes = tiling_shapes(task, case, original) if case is not None else None
    before["shapes"] = check_sources(original, task.chip, shapes, task.kernel_name) if shapes is not None else []
    if any(d.is_error for d in before["shapes"]):
        return [], stats
    if simulate:
        from llm.data.code import simulator_available, solution_verdict

        # a run can only convict a mutant of a solution the simulator finds correct
        simulate = simulator_available() and solution_verdict(task, True)[0]
    plan_text = reasoning(task, case)[0] if case is not None else ""
    prompt = kernel_prompt(task, "npukernelbench", case=case, shot=False)
    correct_answer = f"{plan_text}\n\n{render_project(original)}"
    out = []
    for cand in candidates(original, per_operator, names):
        stats.tried[cand.operator] += 1
        judged = judge_candidate(task, original, cand, before, shapes, simulate)
        if judged is None:
            stats.unflagged[cand.operator] += 1
            continue
        tier, findings, sim = judged
        stats.flagged[tier][cand.operator] += 1
        op = operator(cand.operator)
        codes = sorted({d.code for d in findings})
        rid = f"mutants/{task.name}/{cand.operator}/{cand.file}:{cand.line}"
        common = dict(task=task.name, suite=task.suite, category=task.category, level=task.level or 0,
                      operator=cand.operator, bug_kind=op.bug_kind, codes=codes, tier=tier,
                      code=cand.files[cand.file])
        repair = repair_prompt(cand.files, findings, task, sim)
        explain = repair_reasoning(findings, sim, original[cand.file], cand.files[cand.file], cand.line, op.fix)
        fixed = render_project({cand.file: original[cand.file]})
        out.append(Record(f"{rid}#repair", "mutants", "sft", task_key(task.name),
                          [*repair.messages, message("assistant", f"{explain}\n\n{fixed}")], **common))
        out.append(Record(f"{rid}#pair", "mutants", "pair", task_key(task.name), prompt=prompt.messages,
                          chosen=[message("assistant", correct_answer)],
                          rejected=[message("assistant", f"{plan_text}\n\n{render_project(cand.files)}")], **common))
    return out, stats
