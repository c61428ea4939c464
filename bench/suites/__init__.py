"""Task suites: the bundled one (bench/tasks), NPUKernelBench and MultiKernelBench checkouts, one Task model.

    tasks = load_suite("bundled")                                   # bench/tasks
    tasks = load_suite("npukernelbench", "/work/ext/NPUKernelBench")
    task = find_task(tasks, "Sqrt")
"""

from __future__ import annotations

from pathlib import Path

from bench.suites.model import LEVEL_WEIGHTS, AttrDecl, Case, Comparison, Inputs, Task, TensorDecl, Tolerance

SUITES = ("bundled", "npukernelbench", "multikernelbench")

__all__ = ["LEVEL_WEIGHTS", "SUITES", "AttrDecl", "Case", "Comparison", "Inputs", "Task", "TensorDecl", "Tolerance",
           "find_task", "load_suite"]


def load_suite(name: str, root: str | Path | None = None, fit_elements: int | None = None) -> list[Task]:
    """The tasks of suite `name`; `root` is the benchmark checkout (required for the public suites), or another
    folder of bundled-format tasks. `fit_elements` (multikernelbench only: --fit-shapes) reduces the cases over
    that many input elements (bench/suites/fit_shapes.py)."""
    if fit_elements is not None and name != "multikernelbench":
        raise ValueError(f"--fit-shapes applies to the multikernelbench suite only (its shapes are size constants "
                         f"of each reference program); the {name} suite's cases are data")
    if name == "bundled":
        from bench.suites.bundled import load_tasks

        return load_tasks(root)
    if root is None:
        raise ValueError(f"the {name} suite needs --root: the path of a {name} checkout")
    if name == "npukernelbench":
        from bench.suites.npukernelbench import load_tasks as load_npu

        return load_npu(root)
    if name == "multikernelbench":
        from bench.suites.multikernelbench import load_tasks as load_multi

        return load_multi(root, fit_elements)
    raise ValueError(f"unknown suite '{name}' (suites: {', '.join(SUITES)})")


def find_task(tasks: list[Task], name: str) -> Task:
    """The task named `name` (exactly, else case-insensitively, else by its kernel name); KeyError naming the
    closest names otherwise."""
    for match in (lambda t: t.name == name, lambda t: t.name.lower() == name.lower(),
                  lambda t: t.kernel_name == name.lower()):
        found = [t for t in tasks if match(t)]
        if len(found) == 1:
            return found[0]
    import difflib

    close = difflib.get_close_matches(name, [t.name for t in tasks], n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise KeyError(f"no task '{name}'{hint}")
