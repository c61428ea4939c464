"""The bundled suite: the team's tasks under bench/tasks (schema: bench/tasks/README.md).

    bench/tasks/level<N>/<category>/<task>/task.toml, reference.py, solution/ (an op project)

`reference.py` is trusted team code (plain numpy) and is imported; answers never are.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from bench.suites.model import AttrDecl, Case, Inputs, Task, TensorDecl, Tolerance, as_dtype, canonical_dtype, numpy_dtype

DEFAULT_ROOT = Path(__file__).resolve().parents[1] / "tasks"
DEFAULT_CHIP = "910B2"


class TaskFormatError(ValueError):
    """A task folder that does not follow bench/tasks/README.md: the message names the file and the field."""


@dataclass
class BundledTask(Task):
    """A task of bench/tasks: inputs from reference.make_inputs (or uniform draws), outputs from
    reference.reference."""

    def _module(self) -> ModuleType:
        return _reference_module(str(Path(self.path) / "reference.py"))

    def make_inputs(self, case: Case, seed: int) -> Inputs:
        rng = np.random.default_rng(seed)
        module = self._module()
        maker = getattr(module, "make_inputs", None)
        dtypes = {d.name: case.dtypes.get(d.name, case.dtype) for d in self.inputs}
        if maker is not None:
            made = maker(_case_dict(case, self), rng)
            values = {d.name: _fit(made[d.name], dtypes[d.name]) for d in self.inputs if d.name in made}
        else:
            values = {d.name: default_draw(case.shapes[d.name], dtypes[d.name], rng)
                      for d in self.inputs if d.name in case.shapes}
        return Inputs(values, {k: v for k, v in dtypes.items() if k in values}, seed)

    def reference(self, case: Case, inputs: Inputs) -> dict[str, Any]:
        copies = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in inputs.values.items()}
        result = self._module().reference(copies, self.attr_values(case))
        missing = [o.name for o in self.outputs if o.name not in result]
        if missing:
            raise TaskFormatError(f"{self.path}/reference.py: reference() returned no {', '.join(missing)}")
        return {o.name: np.asarray(result[o.name]) for o in self.outputs}


def default_draw(shape: Any, dtype: str, rng: np.random.Generator) -> np.ndarray:
    """The default input (bench/tasks/README.md): floats uniform in [-1, 1) drawn in float64 then cast;
    int32/int64 in [-100, 100), int8 in [-10, 10), uint8 in [0, 10); bools with probability 1/2."""
    dtype = canonical_dtype(dtype)
    shape = tuple(int(d) for d in shape)
    if dtype == "bool":
        return rng.random(size=shape) < 0.5
    kind = numpy_dtype(dtype).kind
    if kind == "f":
        return as_dtype(rng.uniform(-1.0, 1.0, size=shape), dtype)
    low, high = {"int8": (-10, 10), "uint8": (0, 10), "int16": (-100, 100), "uint16": (0, 100)}.get(dtype, (-100, 100))
    return rng.integers(low, high, size=shape).astype(numpy_dtype(dtype))


def _fit(value: Any, dtype: str) -> Any:
    if isinstance(value, np.ndarray) and canonical_dtype(dtype) == "bfloat16":
        return as_dtype(value, "bfloat16")
    return value


def _case_dict(case: Case, task: Task) -> dict[str, Any]:
    return {"id": case.id, "shapes": dict(case.shapes), "dtypes": dict(case.dtypes), "attrs": task.attr_values(case)}


_MODULES: dict[str, ModuleType] = {}


def _reference_module(path: str) -> ModuleType:
    module = _MODULES.get(path)
    if module is None:
        name = "bench_task_ref_" + re.sub(r"\W", "_", path)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise TaskFormatError(f"{path}: cannot be loaded")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _MODULES[path] = module
    return module


# ------------------------------------------------------------------ reading task.toml


def load_tasks(root: str | Path | None = None) -> list[Task]:
    """Every task under `root` (default bench/tasks), sorted by level, category and name."""
    base = Path(root) if root is not None else DEFAULT_ROOT
    tasks = [read_task(toml.parent) for toml in sorted(base.glob("level*/*/*/task.toml"))
             if not toml.parent.name.startswith(("_", "."))]
    names: dict[str, str] = {}
    for t in tasks:
        if t.name in names:
            raise TaskFormatError(f"task name '{t.name}' is used twice: {names[t.name]} and {t.path}")
        names[t.name] = t.path
    return sorted(tasks, key=lambda t: (t.level or 0, t.category, t.name))


def read_task(folder: Path) -> BundledTask:
    path = folder / "task.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise TaskFormatError(f"{path}: {exc}") from None
    where = str(path)

    def need(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], ctx: str = "") -> Any:
        if key not in table:
            raise TaskFormatError(f"{where}: {ctx}'{key}' is missing")
        value = table[key]
        if not isinstance(value, kind):
            raise TaskFormatError(f"{where}: {ctx}'{key}' must be {getattr(kind, '__name__', kind)}")
        return value

    name = need(data, "name", str)
    if name != folder.name:
        raise TaskFormatError(f"{where}: name '{name}' differs from the folder name '{folder.name}'")
    level = need(data, "level", int)
    op_type = need(data, "op_type", str)
    inputs = tuple(_tensor(t, where, "inputs") for t in data.get("inputs", []))
    outputs = tuple(_tensor(t, where, "outputs") for t in need(data, "outputs", list))
    attrs = tuple(AttrDecl(need(a, "name", str, "attrs: "), str(a.get("type", "float")), a.get("default"))
                  for a in data.get("attrs", []))
    cases = tuple(_case(c, i, inputs, where) for i, c in enumerate(need(data, "cases", list)))
    solution = folder / "solution"
    return BundledTask(
        suite="bundled", name=name, level=level, category=str(data.get("category", folder.parent.name)),
        description=str(data.get("description", "")), op_type=op_type, kernel_name=snake_case(op_type),
        inputs=inputs, outputs=outputs, attrs=attrs, cases=cases, tolerance=_tolerance(data.get("tolerance", {}), where),
        inplace=tuple(data.get("inplace", [])), path=str(folder),
        solution=str(solution) if solution.is_dir() else None, chip=str(data.get("chip", DEFAULT_CHIP)),
        answer_forms=("project", "multikernelbench", "npukernelbench"))


def snake_case(name: str) -> str:
    """`SqrtCustom` -> `sqrt_custom` (msopgen's kernel name for an op type)."""
    s1 = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s1).lower()


def _tensor(table: Any, where: str, kind: str) -> TensorDecl:
    if not isinstance(table, dict) or not isinstance(table.get("name"), str):
        raise TaskFormatError(f"{where}: every [[{kind}]] needs a name")
    return TensorDecl(table["name"], tuple(canonical_dtype(d) for d in table.get("dtypes", [])),
                      table.get("aliases"), bool(table.get("list", False)))


def _case(table: Any, index: int, inputs: tuple[TensorDecl, ...], where: str) -> Case:
    if not isinstance(table, dict):
        raise TaskFormatError(f"{where}: cases[{index}] is not a table")
    case_id = str(table.get("id", index))
    shapes = table.get("shapes", {})
    if not isinstance(shapes, dict):
        raise TaskFormatError(f"{where}: case '{case_id}': shapes must be a table")
    if "dtype" not in table and "dtypes" not in table:
        raise TaskFormatError(f"{where}: case '{case_id}' gives neither dtype nor dtypes")
    named = {k: canonical_dtype(v) for k, v in table.get("dtypes", {}).items()}
    dtypes = {d.name: named.get(d.name, canonical_dtype(str(table.get("dtype", "")))) for d in inputs}
    if any(not v for v in dtypes.values()):
        raise TaskFormatError(f"{where}: case '{case_id}': no dtype for {', '.join(k for k, v in dtypes.items() if not v)}")
    fixed = {k: (tuple(v) if v and not isinstance(v[0], list) else [tuple(s) for s in v]) for k, v in shapes.items()}
    unknown = [k for k in fixed if k not in {d.name for d in inputs}]
    if unknown:
        raise TaskFormatError(f"{where}: case '{case_id}' shapes name no input: {', '.join(unknown)}")
    return Case(case_id, dtypes, fixed, dict(table.get("attrs", {})), {"dtype": table.get("dtype")})


def _tolerance(table: Any, where: str) -> Tolerance:
    if not isinstance(table, dict):
        raise TaskFormatError(f"{where}: [tolerance] must be a table")
    mode = str(table.get("mode", "elementwise"))
    if mode not in ("elementwise", "norm", "allclose"):
        raise TaskFormatError(f"{where}: tolerance mode '{mode}' is not elementwise, norm or allclose")
    per = {canonical_dtype(k): (float(v.get("atol", 1e-3)), float(v.get("rtol", 1e-3)))
           for k, v in table.items() if isinstance(v, dict)}
    return Tolerance(per, mode)
