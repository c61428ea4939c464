"""The GRPO reward: the benchmark's verdict on each completion, as a ladder.

    does not extract (0.0) < compile errors (0.25) < compiles but wrong (0.5) < correct (0.75)
                                                                             < correct and faster (1.0)

A completion is written as an answer file and evaluated by the benchmark harness (`bench.harness`): the answer
formats are extracted, the code is parsed, lowered and verified (compile), then run on the simulator against the
task's reference (correctness) and timed (performance). Until the simulator is available the harness cannot
judge correctness: a completion that compiles then earns the "compiles" rung (0.5) and no more, so that nothing
unproven is rewarded as correct. Every verdict goes to `rewards.jsonl` in the run's folder.
"""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.harness import Verdict
    from bench.suites import Task

LADDER = {"format": 0.0, "compile": 0.25, "compiles": 0.5, "correct": 0.75, "fast": 1.0}


def rung(verdict: Verdict) -> str:
    """Where a verdict stands on the ladder."""
    if not verdict.extracted:
        return "format"
    if not verdict.compiled:
        return "compile"
    if verdict.correct is True:
        return "fast" if verdict.fast else "correct"
    return "compiles"  # wrong, stopped at run time, or not judged


def completion_text(completion: Any) -> str:
    """The text of a trl completion: a string, or a conversation whose last message is the assistant's."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    return str(completion)


class VerdictReward:
    """A trl reward function: `reward(prompts, completions, task=[...], **columns) -> [float]`."""

    __name__ = "verdict"

    def __init__(self, tasks: Sequence[Task], log: str | Path | None = None, draws: int = 1,
                 time_budget_s: float = 120.0, workdir: str | Path | None = None) -> None:
        from bench.harness import EvalOptions

        self.tasks = {t.name: t for t in tasks}
        self.options = EvalOptions(draws=draws, time_budget_s=time_budget_s)
        self.log = Path(log) if log is not None else None
        self._tmp = tempfile.TemporaryDirectory(prefix="ascendir-reward-") if workdir is None else None
        self.workdir = Path(workdir) if workdir is not None else Path(self._tmp.name)  # type: ignore[union-attr]
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], task: Sequence[str], **columns: Any
                 ) -> list[float]:
        with self._lock:
            self.calls += 1
            call = self.calls
        cases = columns.get("case") or [None] * len(completions)
        rewards = []
        rows = []
        for k, (completion, name, case) in enumerate(zip(completions, task, cases)):
            verdict = self.judge(completion_text(completion), name, f"{call}-{k}", case or None)
            level = rung(verdict)
            rewards.append(LADDER[level])
            rows.append({"call": call, "task": name, "rung": level, "reward": LADDER[level],
                         "reason": verdict.reason, "codes": sorted({f.code for f in verdict.diagnostics})})
        if self.log is not None:
            self.log.parent.mkdir(parents=True, exist_ok=True)
            with self.log.open("a", encoding="utf-8") as fh:
                fh.writelines(json.dumps(r) + "\n" for r in rows)
        return rewards

    def judge(self, text: str, task_name: str, sample: str, case: str | None = None) -> Verdict:
        """The harness's verdict on one completion for one task."""
        from bench.harness import Answer, evaluate_answer

        task = self.tasks.get(task_name)
        if task is None:
            raise KeyError(f"the reward has no task '{task_name}' (is [reward] suite the dataset's?)")
        path = self.workdir / f"{task_name}__{sample}.md"
        path.write_text(text, encoding="utf-8")
        try:
            return evaluate_answer(task, Answer(task_name, sample, str(path), case), self.options)
        finally:
            path.unlink(missing_ok=True)
