"""The KernelHive records' answers as the benchmark harness reads them (bench_kernelhive.py, sim_realworld.py and
realworld_sim.py share this, so that the confusion table and issue 28's tables judge an answer the same way).

`write_answer` writes a record's files as an answer `ascendir bench --answers` reads: the six-string file, or the
op project folder with the record's model_src.py beside op_host/ and op_kernel/. Where ModelNew hands the op its
module's weights and settings (op(x, self.conv.weight, self.eps)), the harness itself gives the op what the forward
hands it (bench/harness/model_task.py), as it does for any MultiKernelBench answer.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench.harness.stages.extract import MODEL_SRC


def write_answer(files: dict[str, str], op: str, folder: Path) -> Path | None:
    """The record's answer as a file the harness reads: `<op>.py` when its six fields are string literals,
    else its split files as an op project folder (model_src.py kept beside op_host/ and op_kernel/)."""
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
        if rel.startswith(("op_host/", "op_kernel/")) or (rel.endswith(".json") and "/" not in rel) \
                or rel == MODEL_SRC:  # ModelNew: what its forward hands the op (bench/harness/model_task.py)
            target = project / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    return project
