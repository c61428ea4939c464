"""The KernelHive records' answers as the benchmark harness reads them (bench_kernelhive.py, sim_realworld.py and
realworld_sim.py share these, so that the confusion table and issue 28's tables judge an answer the same way).

`write_answer` writes a record's files as an answer the harness reads. Where ModelNew hands the op its module's
weights and settings (op(x, self.conv.weight, self.eps)), `weighted_task` gives the op the inputs the seeded
reference Model computes: ModelNew's forward is read with `ast` (bench/harness/model_forward.py), never run.
`relax_input_rule` lets the harness's extract stage accept such an answer (it would stop at "ModelNew computes the
op's arguments") wherever forward_plan can read its forward.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from bench.harness.model_forward import forward_plan, is_passthrough, make_weighted_task, result_methods
from bench.harness.stages.extract import model_src_of


def write_answer(files: dict[str, str], op: str, folder: Path) -> Path | None:
    """The record's answer as a file the harness reads: `<op>.py` when its six fields are string literals,
    else its split files as an op project folder."""
    from frontend.readers import read_multikernelbench

    folder.mkdir(parents=True, exist_ok=True)
    name = f"{op}.py" if f"{op}.py" in files else next(
        (n for n, t in files.items()
         if n.endswith(".py") and n != "model_src.py" and re.search(r"\bkernel_src\s*=", t)), None)
    if name is not None:
        bundle = read_multikernelbench(name, files[name])
        if not any(d.code == "ASC012" for d in bundle.diagnostics):
            path = folder / f"{op}.py"
            path.write_text(files[name], encoding="utf-8")
            return path
    if not any(k.startswith("op_kernel/") for k in files):
        return None
    project = folder / "project"
    for rel, text in files.items():
        if rel.startswith(("op_host/", "op_kernel/")) or (rel.endswith(".json") and "/" not in rel):
            target = project / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    return project


def answer_model_src(path: Path | str, files: dict[str, str]) -> str | None:
    """ModelNew's source of the answer written at `path`: its `model_src` field, or, for an answer written as an op
    project folder, the record's model_src.py."""
    if Path(path).is_file():
        return model_src_of(Path(path).read_text(encoding="utf-8", errors="replace"))
    return files.get("model_src.py")


def weighted_task(task: Any, sample: str, model_src: str | None, replay_binding: bool = True) -> Any | None:
    """A task (named after `sample`) whose inputs are what ModelNew's forward hands the op, evaluated on the seeded
    reference Model; None where the task's own inputs are those already (forward passes its arguments through and
    applies nothing to the op's result) or the forward cannot be read.

    Forward's methods on the op's result (`.unsqueeze(1)`) apply only where the op binding is replayed
    (EvalOptions.replay_binding), which gives the op's outputs the shapes the binding makes; without it the harness
    makes them in the shapes of the reference's outputs, which are forward's results already, and applying the
    methods again would compare [16, 1, 1, 256] with [16, 1, 256]."""
    plan = forward_plan(model_src) if model_src else None
    post = result_methods(model_src or "") if replay_binding else []
    if plan is None or (is_passthrough(plan) and not post):
        return None
    weighted = make_weighted_task(task, sample, model_src or "", plan)
    return weighted if replay_binding else dataclasses.replace(weighted, post=())


def relax_input_rule() -> None:
    """Where the harness's reading of ModelNew says the op's inputs are unknown, take forward_plan's word
    (the harness forks its workers, so they see this; the weighted tasks give such an answer the op's inputs)."""
    import bench.harness.stages.extract as extract

    if getattr(extract.model_passes_inputs, "relaxed", False):
        return  # already relaxed: wrapping twice would only repeat the reading
    strict = extract.model_passes_inputs

    def relaxed(answer: str) -> bool | None:
        verdict = strict(answer)
        if verdict is not False:
            return verdict
        model_src = extract.model_src_of(answer)
        if model_src is None:
            return verdict
        return forward_plan(model_src) is not None or verdict

    relaxed.relaxed = True  # type: ignore[attr-defined]
    extract.model_passes_inputs = relaxed
