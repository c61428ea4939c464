"""MultiKernelBench (`--suite multikernelbench --root CHECKOUT`), read from a checkout kept outside the repository.

    reference/<category>/<task>.py   a torch `Model`, `get_inputs()` (or `get_input_groups()` over a JSON case
                                     list beside it, for the tasks ported from NPUKernelBench), get_init_inputs()

A task's answer is one fenced Python block assigning six strings (frontend/readers.py reads it with `ast`); the
op is `<Task>Custom`, its kernel `<task>_custom`. The reference program is benchmark code and runs on CPU torch
(bench/suites/torch_ref.py): weights are drawn after seeding with the benchmark's seed (1024), inputs per draw.
Outputs are judged as the benchmark's harness judges them: torch.allclose (bool outputs exactly), after an exact
shape check, with the atol and rtol the checkout's own utils/correctness.py passes it (`checkout_tolerance`: 1e-2
up to MultiKernelBench's 0555903 of 2026-01-22, 1e-4 since; 1e-4 where the file does not say, and every verdict's
notes say so). There is no
reference AscendC solution: the performance stage measures against a stated baseline (bench/harness/performance.py).
With --fit-shapes (`load_tasks(root, fit_elements)`), a program whose case is over the harness's element limit runs
with its size constants reduced (bench/suites/fit_shapes.py), and the case says so (`Case.reduced`).
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from bench.suites.fit_shapes import NoFit, fit_constants
from bench.suites.model import Case, Comparison, Inputs, Task, TensorDecl, Tolerance
from bench.suites.torch_ref import (
    inputs_as_tensors,
    load_reference_program,
    seed_all,
    tensors_as_inputs,
    to_numpy,
    torch_module,
)

CHIP = "910B2"
SEED = 1024  # the benchmark's seed_num, set before the models are built
TOLERANCE = Tolerance({}, "allclose", (1e-4, 1e-4))


@dataclass
class MultiKernelBenchTask(Task):
    """A reference program of a MultiKernelBench checkout."""

    def _module(self, case: Case | None = None) -> Any:
        return load_reference_program(self.path, constants=case.params.get("constants") if case else None)

    def make_inputs(self, case: Case, seed: int) -> Inputs:
        module = self._module(case)
        seed_all(seed)
        if hasattr(module, "get_input_groups"):
            drawn = module.get_input_groups()[int(case.id)]
        else:
            drawn = module.get_inputs()
        return tensors_as_inputs(drawn, [d.name for d in self.inputs], seed)

    def reference(self, case: Case, inputs: Inputs) -> dict[str, Any]:
        torch = torch_module()
        module = self._module(case)
        seed_all(SEED)
        with torch.no_grad():
            model = module.Model(*module.get_init_inputs())
            result = model(*inputs_as_tensors(inputs))
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        names = [d.name for d in self.outputs] or ["y"]
        while len(names) < len(outs):
            names.append(f"y{len(names)}")
        return {name: to_numpy(v) for name, v in zip(names, outs)}

    def input_elements(self, case: Case) -> int | None:
        """The case's input elements from the program read with `ast` (ascendir.testcase), or from its JSON case
        line, without running anything."""
        text = Path(self.path).read_text(encoding="utf-8", errors="replace")
        if "def get_input_groups" in text:
            found = re.search(r"[\"']([\w.-]+\.json)[\"']", text)
            case_file = Path(self.path).with_name(found.group(1)) if found else Path(self.path).with_suffix(".json")
            try:
                lines = [ln for ln in case_file.read_text(encoding="utf-8").splitlines() if ln.strip()]
                entry = json.loads(lines[int(case.id)])
            except (OSError, ValueError, IndexError):
                return None
            return sum(math.prod(i["shape"]) for i in entry.get("inputs", []) if isinstance(i, dict)
                       and isinstance(i.get("shape"), list))
        if "elements" in case.params:  # a reduced case: counted when its constants were chosen
            return int(case.params["elements"])
        from ascendir.testcase import read_test_case

        read = read_test_case(self.path)
        if not read.inputs or read.errors:
            return None
        return sum(math.prod(t.shape) for t in read.inputs)

    def compare(self, case: Case, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> dict[str, Comparison]:
        out: dict[str, Comparison] = {}
        for name, exp in expected.items():
            got = actual.get(name)
            arr = np.asarray(exp)
            if got is None:
                out[name] = Comparison(False, int(arr.size), int(arr.size), float("inf"), float("inf"), "output missing")
            elif np.asarray(got).shape != arr.shape:
                out[name] = Comparison(False, int(arr.size), int(arr.size), float("inf"), float("inf"),
                                       f"output shape mismatch: expected {list(arr.shape)}, got "
                                       f"{list(np.asarray(got).shape)}")
            else:
                out[name] = self.tolerance.compare(arr, np.asarray(got), case.dtype)
        return out


def load_tasks(root: str | Path, fit_elements: int | None = None) -> list[Task]:
    """Every reference program of the checkout at `root`, by category and name. With `fit_elements`, a program
    whose case draws more input elements than that gets a reduced case instead (`fitted`)."""
    base = Path(root) / "reference"
    if not base.is_dir():
        raise FileNotFoundError(f"{root}: not a MultiKernelBench checkout (no reference/ folder)")
    tolerance, note = checkout_tolerance(Path(root))
    tasks = [read_task(p, tolerance, (note,) if note else ()) for p in sorted(base.glob("*/*.py"))
             if not p.name.startswith("_")]
    return tasks if fit_elements is None else [fitted(t, fit_elements) for t in tasks]


def fitted(task: MultiKernelBenchTask, limit: int) -> MultiKernelBenchTask:
    """`task` with its case reduced under `limit` input elements where it is over (bench/suites/fit_shapes.py:
    the program's size constants halved, the reference run with them); unchanged where it is under, where its
    cases come from a JSON list (their shapes are data, paired with attributes the program does not derive) or
    where no reduction fits: those say why when they are not evaluated."""
    if len(task.cases) != 1 or task.cases[0].params or "def get_input_groups" in task.description:
        return task
    fit = fit_constants(Path(task.path).read_text(encoding="utf-8", errors="replace"), task.path, limit)
    if fit is None:
        return task
    if isinstance(fit, NoFit):
        return replace(task, cases=(replace(task.cases[0], not_reduced=f"--fit-shapes: {fit.reason}"),))
    case = replace(task.cases[0], params={"constants": dict(fit.constants), "elements": fit.elements},
                   reduced=fit.describe())
    return replace(task, cases=(case,))


def checkout_tolerance(root: Path) -> tuple[Tolerance, str]:
    """The allclose tolerance the checkout's harness judges outputs with (its utils/correctness.py,
    `harness_tolerance`), and "" or the note that says it could not be read and TOLERANCE is assumed. The benchmark
    changed it (1e-2 -> 1e-4) with its task shapes; a checkout of the earlier shapes judges with the earlier
    tolerance."""
    path = root / "utils" / "correctness.py"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return harness_tolerance(None, f"{path} cannot be read ({exc.strerror or exc})")
    return harness_tolerance(text, str(path))


def harness_tolerance(text: str | None, where: str) -> tuple[Tolerance, str]:
    """The atol and rtol of the `torch.allclose(...)` calls in `text`, MultiKernelBench's utils/correctness.py (read
    with `ast`, never run), as a Tolerance and "". Where they cannot be read (`text` None: `where` says why; a
    syntax error; no call giving both as numbers; calls that disagree), TOLERANCE and a note saying so: a verdict
    judged at an assumed tolerance must not pass for the benchmark's (1e-2 before its 0555903, 1e-4 since)."""
    assumed = (f"tolerance assumed: atol {TOLERANCE.default[0]:g}, rtol {TOLERANCE.default[1]:g} (MultiKernelBench's "
               "since its 0555903), the benchmark's own could not be read: ")
    if text is None:
        return TOLERANCE, assumed + where
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError) as exc:
        return TOLERANCE, assumed + f"{where} does not parse ({exc})"
    found: set[tuple[float, float]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "allclose":
            given = {k.arg: k.value.value for k in node.keywords
                     if isinstance(k.value, ast.Constant) and isinstance(k.value.value, int | float)}
            if "atol" in given and "rtol" in given:
                found.add((float(given["atol"]), float(given["rtol"])))
    if len(found) == 1:
        return Tolerance({}, "allclose", found.pop()), ""
    if not found:
        return TOLERANCE, assumed + f"{where} has no torch.allclose call with a number for both atol and rtol"
    pairs = ", ".join(f"{a:g}/{r:g}" for a, r in sorted(found))
    return TOLERANCE, assumed + f"{where}'s torch.allclose calls disagree (atol/rtol {pairs})"


def read_task(path: Path, tolerance: Tolerance = TOLERANCE, notes: tuple[str, ...] = ()) -> MultiKernelBenchTask:
    text = path.read_text(encoding="utf-8", errors="replace")
    category = path.parent.name
    name = path.stem
    level_match = re.fullmatch(r"npukernelbench_level(\d+)", category)
    params, groups = _forward_params(text), _group_count(path, text)
    cases = tuple(Case(str(i), {}, {}, {}, {}) for i in range(groups)) if groups else (Case("0"),)
    op_type = "".join(part.capitalize() for part in name.split("_")) + "Custom"
    return MultiKernelBenchTask(
        suite="multikernelbench", name=name, level=int(level_match.group(1)) if level_match else None,
        category=category, description=f"```python\n{text.rstrip()}\n```", op_type=op_type,
        kernel_name=f"{name}_custom", inputs=tuple(TensorDecl(p) for p in params), outputs=(TensorDecl("y"),),
        cases=cases, tolerance=tolerance, path=str(path), chip=CHIP, answer_forms=("multikernelbench",), notes=notes)


def _forward_params(text: str) -> list[str]:
    """Model.forward's parameter names (without self), read with `ast`."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"):
            return [a.arg for a in fn.args.args[1:]]
    return []


def _group_count(path: Path, text: str) -> int:
    """How many input groups get_input_groups() yields: the lines of the JSON case list it reads."""
    if "def get_input_groups" not in text:
        return 0
    found = re.search(r"[\"']([\w.-]+\.json)[\"']", text)
    case_file = path.with_name(found.group(1)) if found else path.with_suffix(".json")
    try:
        lines = [ln for ln in case_file.read_text(encoding="utf-8").splitlines() if ln.strip()]
    except OSError:
        return 0
    valid = 0
    for ln in lines:
        try:
            json.loads(ln)
            valid += 1
        except ValueError:
            continue
    return valid
