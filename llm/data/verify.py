"""Re-checks a written record from its own text: what it claims still holds under the checkers.

- docs: the answer is what the catalog, the rule registry or the chip file says now;
- code: the answer the assistant gives is extracted and built by the harness, with no finding for any case;
- mutants: the buggy project (in the repair prompt or the rejected answer) is flagged by the tier the record
  names, and the fixed one (the correct solution) is clean;
- repairs: the fixed answer is clean; a failing answer of tier `static` is still flagged.
"""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from llm.data.records import Record


@cache
def _task(name: str) -> Any:
    from bench.suites import load_suite

    return next(t for t in load_suite("bundled") if t.name == name)


def as_record(row: dict[str, Any]) -> Record:
    kind = "sft" if "messages" in row else "pair"
    return Record(row["id"], row["source"], kind, row["group"], row.get("messages", []), row.get("prompt", []),
                  row.get("chosen", []), row.get("rejected", []), row["task"], row["suite"], row["category"],
                  row["level"], row["operator"], row["bug_kind"], list(row["codes"]), row["tier"])


def _answer_text(record: Record) -> str:
    return record.messages[-1]["content"] if record.kind == "sft" else record.chosen[0]["content"]


def check_code(record: Record, simulate: bool = True) -> str | None:
    from llm.data.code import answer_verdict

    task = _task(record.task)
    with tempfile.TemporaryDirectory(prefix="ascendir-verify-") as tmp:
        path = Path(tmp) / f"{task.name}.md"
        path.write_text(_answer_text(record), encoding="utf-8")
        ok, why = answer_verdict(task, str(path), simulate and record.tier == "simulator")
    return None if ok else f"{record.id}: {why}"


def _buggy_files(record: Record) -> dict[str, str]:
    from llm.prompts.answers import project_files, project_sections

    shown = record.messages[1]["content"] if record.kind == "sft" else record.rejected[0]["content"]
    files = project_sections(shown)
    task = _task(record.task)
    json_files = {rel: text for rel, text in project_files(task.solution).items() if rel.endswith(".json")}
    return {**json_files, **files}


def check_mutant(record: Record, simulate: bool = True) -> str | None:
    from llm.data.mutants import shapes_case, simulator_verdict, tiling_shapes
    from llm.prompts.answers import project_files
    from passes.mutate import operator
    from passes.mutate.judge import static

    task = _task(record.task)
    original = project_files(task.solution)
    buggy = _buggy_files(record)
    if set(buggy) != set(original):
        return f"{record.id}: the buggy project's files differ from the solution's ({sorted(set(buggy) ^ set(original))})"
    family = operator(record.operator).family
    if record.tier in ("static", "static-shapes"):
        shapes = tiling_shapes(task, shapes_case(task), original) if record.tier == "static-shapes" else None
        verdict = static(original, buggy, family, task.chip, shapes, task.kernel_name)
        if not verdict.flagged:
            return f"{record.id}: the buggy project is no longer flagged ({record.tier})"
    elif record.tier == "simulator" and simulate:
        wrong, _ = simulator_verdict(task, buggy)
        if not wrong:
            return f"{record.id}: the simulator no longer finds the buggy project wrong"
    if record.kind == "sft":
        from llm.prompts.answers import project_sections

        fixed = project_sections(record.messages[-1]["content"])
        if any(original.get(rel, "").rstrip("\n") != text.rstrip("\n") for rel, text in fixed.items()) or not fixed:
            return f"{record.id}: the fixed file is not the solution's"
    elif (why := check_code(record, simulate=False)) is not None:
        return f"{record.id}: the chosen answer does not pass: {why}"
    return None


def check(row: dict[str, Any], simulate: bool = True) -> str | None:
    """Why a written record does not hold, or None when it does. A record the simulator vouched for (tier
    `simulator`) is run again only with `simulate`."""
    from llm.data import docs, repairs

    record = as_record(row)
    if record.source == "docs":
        return docs.check(record)
    if record.source == "code":
        return check_code(record, simulate)
    if record.source == "mutants":
        return check_mutant(record, simulate)
    if record.source == "repairs":
        text = record.rejected[0]["content"] if record.kind == "pair" else record.messages[1]["content"]
        match = re.search(r"```python\n(.*?)^```", text, re.S | re.M)
        record.code = match.group(1) if match else ""
        return repairs.check(record)
    return f"{record.id}: unknown source"
