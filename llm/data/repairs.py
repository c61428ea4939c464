"""Real repairs: the failing and the final passing attempts of ../shared/data/kernelhive-failures.

Each record of that file is an operator an LLM agent wrote for a MultiKernelBench task, a real failure (a CANN
build error, a device exception, wrong numbers) and, for most, the project that finally passed on hardware. A
record becomes a repair example and a preference pair when the passing version is clean under our checks and
the failing one fails: our verifier flags it (tier `static`), or it failed for real and the failure is in the
code (tier `recorded`: the build's or the device's own error lines are the supervision). Failures of the
harness, the environment or of unknown cause are left out. The file is read at build time and never copied.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from llm.data.records import Record, message, task_key

DEFAULT_PATH = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
# verifier tiers whose failures are in the kernel project (the file's README): the others are the harness's,
# the environment's, or unknown
CODE_TIERS = ("static", "host_exec", "simulator")


def answer_of(files: dict[str, str], op: str) -> tuple[str, str] | None:
    """The MultiKernelBench answer among a record's files: `<op>.py`, else a .py assigning kernel_src."""
    if f"{op}.py" in files:
        return f"{op}.py", files[f"{op}.py"]
    for name, text in sorted(files.items()):
        if name.endswith(".py") and name != "model_src.py" and re.search(r"\bkernel_src\s*=", text):
            return name, text
    return None


def read_records(path: str | Path = DEFAULT_PATH) -> list[dict[str, Any]]:
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"{file}: no kernelhive-failures records (pass --repairs PATH)")
    with file.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _task_prompt(op: str, tasks: dict[str, Any]) -> list[dict[str, str]]:
    from llm.prompts import SYSTEM, kernel_prompt

    task = tasks.get(op)
    if task is not None:
        return kernel_prompt(task, "multikernelbench", shot=False).messages
    return [message("system", SYSTEM),
            message("user", f"Write the AscendC custom operator for the MultiKernelBench task `{op}` as a "
                            "MultiKernelBench answer: one ```python block assigning project_json_src, "
                            "host_tiling_src, host_operator_src, kernel_src, python_bind_src and model_src.")]


def records(path: str | Path = DEFAULT_PATH, multikernelbench: str | Path | None = None, chip: str = "910B2"
            ) -> tuple[list[Record], Counter[str]]:
    """The repair records, and why the others were left out (counts by reason)."""
    from llm.prompts import repair_prompt
    from passes.mutate.judge import check_sources

    tasks: dict[str, Any] = {}
    if multikernelbench is not None and Path(multikernelbench).is_dir():
        from bench.suites import load_suite

        tasks = {t.name: t for t in load_suite("multikernelbench", multikernelbench)}
    out: list[Record] = []
    skipped: Counter[str] = Counter()
    for rec in read_records(path):
        if not rec.get("reconstructed") or not rec.get("files_after"):
            skipped["no passing version"] += 1
            continue
        if rec.get("verifier_tier") not in CODE_TIERS:
            skipped[f"tier {rec.get('verifier_tier')}"] += 1
            continue
        before = answer_of(rec["files_before"], rec["op"])
        after = answer_of(rec["files_after"], rec["op"])
        if before is None or after is None:
            skipped["no answer file"] += 1
            continue
        name = before[0]
        after_diags = check_sources({name: after[1]}, chip)
        if any(d.is_error for d in after_diags):
            skipped["passing version not clean"] += 1
            continue
        found = [d for d in check_sources({name: before[1]}, chip) if d.is_error]
        tier = "static" if found else "recorded"
        real = [m for m in rec.get("normalized_messages") or [] if m.strip()][:6] or [rec.get("error", "")[:300]]
        what = {"compile": "The CANN build", "runtime_ub_oob": "The run on the device",
                "runtime_aicore_exception": "The run on the device", "hang": "The run on the device",
                "numeric_mismatch": "The comparison with the reference"}.get(rec.get("error_class", ""),
                                                                               "The real build or run")
        prompt = repair_prompt({name: before[1]}, found, findings=real, findings_from=what)
        lines = [f"- {d.span.file.split('/')[-1] if d.span else name}:{d.span.line if d.span else 0}: {d.message} "
                 f"[{d.code}]" for d in found[:3]]
        explain = ("Our checks report:\n" + "\n".join(lines) if lines else
                   "Our static checks see nothing; the failure shows only when the code runs:") + \
                  f"\n{what} reported: {real[0]}\nRoot cause ({rec.get('bug_kind', 'unknown').replace('_', ' ')}): " \
                  "fixed in the corrected answer below."
        fence = after[1] if after[1].lstrip().startswith("```") else f"```python\n{after[1].rstrip()}\n```"
        common = dict(task=rec["op"], suite="multikernelbench", category=getattr(tasks.get(rec["op"]), "category", ""),
                      bug_kind=rec.get("bug_kind", ""), codes=sorted({d.code for d in found}), tier=tier,
                      code=before[1])
        group = task_key(rec["op"])
        out.append(Record(f"repairs/{rec['id']}#repair", "repairs", "sft", group,
                          [*prompt.messages, message("assistant", f"{explain}\n\n{fence}")], **common))
        before_fence = before[1] if before[1].lstrip().startswith("```") else f"```python\n{before[1].rstrip()}\n```"
        out.append(Record(f"repairs/{rec['id']}#pair", "repairs", "pair", group,
                          prompt=_task_prompt(rec["op"], tasks), chosen=[message("assistant", fence)],
                          rejected=[message("assistant", before_fence)], **common))
    return out, skipped


def check(record: Record, chip: str = "910B2") -> str | None:
    """A repair record still holds: its fixed answer is clean; its failing one, if the tier is static, flagged."""
    from passes.mutate.judge import check_sources

    fixed = record.chosen[0]["content"] if record.kind == "pair" else record.messages[-1]["content"]
    code = _python_block(fixed)
    if code is None:
        return f"{record.id}: no python block in the fixed answer"
    if any(d.is_error for d in check_sources({f"{record.task}.py": code}, chip)):
        return f"{record.id}: the fixed answer has errors"
    if record.tier == "static" and not any(d.is_error for d in check_sources({f"{record.task}.py": record.code},
                                                                             chip)):
        return f"{record.id}: the failing answer is no longer flagged"
    return None


def _python_block(text: str) -> str | None:
    match = re.search(r"```python\n(.*?)^```", text, re.S | re.M)
    return match.group(1) if match else None

