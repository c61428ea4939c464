"""Checks of the bundled task suite: the task.toml schema (README.md in this folder), the references
(make_inputs / reference on every case: names, shapes, dtypes, finite values), `ascendc-check` over every
solution with every case's shapes (--static) and every solution run on the simulator against the reference
(--sim).

    python -m bench.tasks.validate [--static] [--sim] [--level N] [TASK ...]

prints one line per task and exits 1 when anything is wrong. The harness has its own loader
(bench/suites/bundled.py); this module is the suite's self-check and the tests' helper.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

TASKS_ROOT = Path(__file__).resolve().parent
DTYPES = ("float16", "float32", "int32", "int64", "int8", "uint8", "bool")
FLOAT_DTYPES = ("float16", "float32")
ATTR_TYPES = {"float": (int, float), "int": (int,), "bool": (bool,), "list_int": (list,), "list_float": (list,)}
CATEGORIES = {
    1: {"math", "activation", "comparison", "cast", "creation", "index"},
    2: {"norm", "softmax", "reduce", "loss", "fused", "foreach", "optim", "mask"},
    3: {"matmul", "attention"},
}
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
OP_TYPE = re.compile(r"^[A-Z][A-Za-z0-9]*Custom$")


@dataclass
class Task:
    path: Path
    spec: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.spec.get("name", self.path.name))

    @property
    def op_name(self) -> str:
        return snake_case(str(self.spec.get("op_type", "")))

    def input_names(self) -> list[str]:
        return [str(i["name"]) for i in self.spec.get("inputs", [])]

    def attr_defaults(self) -> dict[str, Any]:
        return {str(a["name"]): a.get("default") for a in self.spec.get("attrs", [])}


def snake_case(op_type: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op_type).lower()


def task_dirs(root: Path = TASKS_ROOT) -> Iterator[Path]:
    """Every folder holding a task.toml under level*/, in a stable order."""
    for toml in sorted(root.glob("level*/*/*/task.toml")):
        if not any(part.startswith(("_", ".")) for part in toml.relative_to(root).parts):
            yield toml.parent


def load_task(path: Path) -> Task:
    try:
        with open(path / "task.toml", "rb") as fh:
            spec = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return Task(path, {}, [f"task.toml: {exc}"])
    task = Task(path, spec)
    task.problems += schema_problems(task)
    return task


def schema_problems(task: Task) -> list[str]:
    """What the task.toml gets wrong against README.md's schema (empty when nothing)."""
    s, out = task.spec, []
    for key in ("name", "level", "category", "op_type", "description", "outputs", "cases", "tolerance"):
        if key not in s:
            out.append(f"missing key '{key}'")
    if out:
        return out
    level_dir, cat_dir = task.path.parent.parent.name, task.path.parent.name
    if s["name"] != task.path.name or not SNAKE.match(s["name"]):
        out.append(f"name '{s['name']}' must be snake_case and equal the folder name '{task.path.name}'")
    if s["level"] not in CATEGORIES or level_dir != f"level{s['level']}":
        out.append(f"level {s['level']} does not match folder '{level_dir}'")
    elif s["category"] != cat_dir or s["category"] not in CATEGORIES[s["level"]]:
        out.append(f"category '{s['category']}' must equal the folder '{cat_dir}' and be one of "
                   f"{sorted(CATEGORIES[s['level']])}")
    if not OP_TYPE.match(str(s["op_type"])):
        out.append(f"op_type '{s['op_type']}' must be PascalCase ending in Custom")
    if not str(s["description"]).strip():
        out.append("empty description")
    names: list[str] = []
    for kind in ("inputs", "outputs"):
        for t in s.get(kind, []):
            if not SNAKE.match(str(t.get("name", ""))):
                out.append(f"{kind}: bad name {t.get('name')!r}")
            names.append(str(t.get("name")))
            bad = [d for d in t.get("dtypes", []) if d not in DTYPES]
            if not t.get("dtypes") or bad:
                out.append(f"{kind} '{t.get('name')}': dtypes must be a non-empty list of {DTYPES}")
    if len(set(names)) != len(names):
        out.append("input and output names must be distinct")
    inputs = task.input_names()
    for o in s["outputs"]:
        if "aliases" in o and o["aliases"] not in s.get("inplace", []):
            out.append(f"output '{o['name']}' aliases '{o['aliases']}', which is not in inplace")
    for name in s.get("inplace", []):
        if name not in inputs:
            out.append(f"inplace names '{name}', which is not an input")
        elif not any(o.get("aliases") == name for o in s["outputs"]):
            out.append(f"inplace input '{name}' has no output with aliases = \"{name}\"")
    for a in s.get("attrs", []):
        typ = a.get("type")
        if typ not in ATTR_TYPES or not isinstance(a.get("default"), ATTR_TYPES[typ]) or (
                typ in ("float", "int") and isinstance(a.get("default"), bool)):
            out.append(f"attr {a.get('name')!r}: type must be one of {sorted(ATTR_TYPES)}, default of that type")
    attrs = task.attr_defaults()
    ids = [c.get("id") for c in s["cases"]]
    if len(ids) < 3:
        out.append(f"{len(ids)} cases; at least 3 needed")
    if len(set(ids)) != len(ids):
        out.append("case ids must be unique")
    for c in s["cases"]:
        cid = c.get("id")
        if not SNAKE.match(str(cid)):
            out.append(f"case {cid!r}: id must be snake_case")
        shapes = c.get("shapes", {})
        if set(shapes) != set(inputs):
            out.append(f"case '{cid}': shapes name {sorted(shapes)}, inputs are {sorted(inputs)}")
        if any(not isinstance(v, list) or not all(isinstance(d, int) and d >= 0 for d in v) for v in shapes.values()):
            out.append(f"case '{cid}': a shape must be a list of non-negative ints")
        unknown = set(c.get("attrs", {})) - set(attrs)
        if unknown:
            out.append(f"case '{cid}': unknown attrs {sorted(unknown)}")
        try:
            dtypes = case_dtypes(task, c)
        except ValueError as exc:
            out.append(f"case '{cid}': {exc}")
            continue
        for t in s.get("inputs", []):
            if dtypes[t["name"]] not in t["dtypes"]:
                out.append(f"case '{cid}': input '{t['name']}' is {dtypes[t['name']]}, the task lists {t['dtypes']}")
    tol = s["tolerance"]
    if tol.get("mode", "elementwise") not in ("elementwise", "norm"):
        out.append(f"tolerance mode '{tol.get('mode')}' must be elementwise or norm")
    for dt, entry in tol.items():
        if dt == "mode":
            continue
        well_formed = isinstance(entry, dict) and "rtol" in entry and not set(entry) - {"atol", "rtol"}
        if dt not in FLOAT_DTYPES or not well_formed:
            out.append(f"tolerance '{dt}': a floating dtype with {{ atol, rtol }}")
    return out


def case_dtypes(task: Task, case: Mapping[str, Any]) -> dict[str, str]:
    """Every input's dtype in a case: `dtypes` by name, else `dtype`."""
    per = dict(case.get("dtypes", {}))
    default = case.get("dtype")
    out = {}
    for name in task.input_names():
        dt = per.pop(name, default)
        if dt is None:
            raise ValueError(f"no dtype for input '{name}'")
        if dt not in DTYPES:
            raise ValueError(f"unknown dtype '{dt}' for input '{name}'")
        out[name] = dt
    if per:
        raise ValueError(f"dtypes names {sorted(per)}, which are not inputs")
    return out


def normalised_case(task: Task, case: Mapping[str, Any]) -> dict[str, Any]:
    """The case dict make_inputs receives (README.md, "Cases")."""
    attrs = task.attr_defaults()
    attrs.update(case.get("attrs", {}))
    return {"id": case["id"], "shapes": {k: tuple(v) for k, v in case["shapes"].items()},
            "dtypes": case_dtypes(task, case), "attrs": attrs}


def load_reference(task: Task) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_task_ref_{task.name}", task.path / "reference.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"{task.path / 'reference.py'} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def default_inputs(case: Mapping[str, Any], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """README.md's default draw for tasks without make_inputs."""
    out = {}
    for name, shape in case["shapes"].items():
        dt = case["dtypes"][name]
        if dt in FLOAT_DTYPES:
            out[name] = rng.uniform(-1.0, 1.0, size=shape).astype(dt)
        elif dt in ("int32", "int64"):
            out[name] = rng.integers(-100, 100, size=shape).astype(dt)
        elif dt == "int8":
            out[name] = rng.integers(-10, 10, size=shape).astype(dt)
        elif dt == "uint8":
            out[name] = rng.integers(0, 10, size=shape).astype(dt)
        else:
            out[name] = rng.random(size=shape) < 0.5
    return out


def case_seed(task: Task, case_id: str) -> int:
    """A seed fixed per task and case (stable across runs and Python versions)."""
    import zlib

    return zlib.crc32(f"{task.name}/{case_id}".encode())


def run_reference(task: Task, case: Mapping[str, Any], module: ModuleType | None = None
                  ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(inputs, expected outputs) of one case."""
    module = module or load_reference(task)
    norm = normalised_case(task, case)
    rng = np.random.default_rng(case_seed(task, norm["id"]))
    make = getattr(module, "make_inputs", None)
    inputs = make(norm, rng) if make is not None else default_inputs(norm, rng)
    copies = {k: v.copy() for k, v in inputs.items()}
    outputs = module.reference(inputs, norm["attrs"])
    for k, v in copies.items():
        if not np.array_equal(v, inputs[k], equal_nan=v.dtype.kind == "f"):
            raise AssertionError(f"reference modified its input '{k}'")
    return inputs, outputs


def reference_problems(task: Task) -> list[str]:
    """Run make_inputs / reference on every case and check names, shapes, dtypes and values."""
    out: list[str] = []
    try:
        module = load_reference(task)
    except Exception as exc:  # a broken reference is a finding, not a crash of the check
        return [f"reference.py: {type(exc).__name__}: {exc}"]
    s = task.spec
    out_specs = {str(o["name"]): o for o in s["outputs"]}
    for case in s["cases"]:
        cid = case["id"]
        try:
            inputs, outputs = run_reference(task, case, module)
        except Exception as exc:
            out.append(f"case '{cid}': {type(exc).__name__}: {exc}")
            continue
        norm = normalised_case(task, case)
        for name, arr in inputs.items():
            if name not in norm["shapes"]:
                out.append(f"case '{cid}': make_inputs returned '{name}', not an input")
                continue
            if tuple(arr.shape) != norm["shapes"][name] or arr.dtype != np.dtype(norm["dtypes"][name]):
                out.append(f"case '{cid}': input '{name}' is {arr.dtype}{list(arr.shape)}, "
                           f"wanted {norm['dtypes'][name]}{list(norm['shapes'][name])}")
        if set(inputs) != set(norm["shapes"]):
            out.append(f"case '{cid}': make_inputs returned {sorted(inputs)}, inputs are {sorted(norm['shapes'])}")
        if set(outputs) != set(out_specs):
            out.append(f"case '{cid}': reference returned {sorted(outputs)}, outputs are {sorted(out_specs)}")
            continue
        for name, arr in outputs.items():
            if not isinstance(arr, np.ndarray):
                out.append(f"case '{cid}': output '{name}' is a {type(arr).__name__}, not an ndarray")
                continue
            if str(arr.dtype) not in out_specs[name]["dtypes"]:
                out.append(f"case '{cid}': output '{name}' is {arr.dtype}, the task lists {out_specs[name]['dtypes']}")
            if arr.dtype.kind == "f":
                if str(arr.dtype) not in s["tolerance"]:
                    out.append(f"case '{cid}': output '{name}' is {arr.dtype}, which has no tolerance entry")
                if not np.all(np.isfinite(arr)):
                    out.append(f"case '{cid}': output '{name}' has non-finite values")
            if arr.size == 0:
                out.append(f"case '{cid}': output '{name}' is empty")
        for name, o in out_specs.items():
            alias = o.get("aliases")
            if alias and alias in inputs and (outputs[name].shape != inputs[alias].shape
                                              or outputs[name].dtype != inputs[alias].dtype):
                out.append(f"case '{cid}': in-place output '{name}' differs in shape or dtype from '{alias}'")
    return out


def solution_problems(task: Task, cases: list[Mapping[str, Any]] | None = None, chip: str = "910B2"
                      ) -> dict[str, list[str]]:
    """`ascendc-check` findings of the solution per case id (lowered once, checked once per case's shapes)."""
    from ascendir.host_eval import TensorSpec, TilingInputs
    from frontend.readers import collect_inputs
    from passes.verify import check_program, load_for_check

    sol = task.path / "solution"
    bundles = list(collect_inputs([str(sol)], "project"))
    if len(bundles) != 1:
        return {"*": [f"solution/ reads as {len(bundles)} inputs, not one op project"]}
    program, target = load_for_check(bundles[0], chip, {})
    attr_specs = task.spec.get("attrs", [])
    module = load_reference(task)
    found: dict[str, list[str]] = {}
    for case in cases if cases is not None else task.spec["cases"]:
        norm = normalised_case(task, case)
        tensors = [TensorSpec(norm["shapes"][n], norm["dtypes"][n]) for n in task.input_names()]
        attrs = [norm["attrs"][str(a["name"])] for a in attr_specs]
        # the outputs as the harness allocates them (from the reference), so every one is checked for coverage
        _, expected = run_reference(task, case, module)
        outputs = [TensorSpec(tuple(expected[str(o["name"])].shape), str(expected[str(o["name"])].dtype))
                   for o in task.spec["outputs"] if not o.get("aliases")]
        shapes = TilingInputs(tensors, outputs=outputs, attrs=attrs, chip=target)
        diags = check_program(program, target, shapes=shapes)
        found[str(case["id"])] = [f"{d.code} {d.span.file.split('/')[-1] if d.span else '?'}:"
                                  f"{d.span.line if d.span else 0}: {d.message}" for d in diags if d.is_error]
    return found


def mismatch(expected: np.ndarray, actual: np.ndarray, tolerance: Mapping[str, Any]) -> str | None:
    """Why `actual` fails README.md's correctness rule against `expected` (None when it passes)."""
    if actual.shape != expected.shape:
        if actual.size != expected.size:
            return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
        actual = actual.reshape(expected.shape)
    if expected.dtype.kind in "biu":
        bad = expected != actual
        if bad.any():
            i = int(np.flatnonzero(bad.reshape(-1))[0])
            return (f"{int(bad.sum())} of {bad.size} elements differ (first at {i}: "
                    f"{actual.reshape(-1)[i]} vs {expected.reshape(-1)[i]})")
        return None
    e, a = expected.astype(np.float64), actual.astype(np.float64)
    entry = tolerance.get(str(expected.dtype), {})
    atol, rtol = float(entry.get("atol", 0.0)), float(entry.get("rtol", 0.0))
    with np.errstate(invalid="ignore", over="ignore"):
        d = np.abs(e - a)
        if tolerance.get("mode", "elementwise") == "norm":
            bad = d > rtol * np.maximum(1.0, np.abs(e))
        else:
            bad = (d > atol) & (d / (np.abs(e) + 1e-7) > rtol)
        fe, fa = np.isfinite(e), np.isfinite(a)
        same = ~fe & ~fa & ((e == a) | (np.isnan(e) & np.isnan(a)))
        bad = (bad & fe & fa) | (fe != fa) | (~fe & ~same)
    if bad.any():
        i = int(np.flatnonzero(bad.reshape(-1))[0])
        return (f"{int(bad.sum())} of {bad.size} elements out of tolerance (first at {i}: "
                f"{a.reshape(-1)[i]!r} vs {e.reshape(-1)[i]!r}; max |d| {float(np.nanmax(np.where(fe, d, 0))):.3g})")
    return None


def simulation_problems(task: Task, cases: list[Mapping[str, Any]] | None = None, chip: str = "910B2"
                        ) -> dict[str, list[str]]:
    """Run the solution on the simulator for every case (or `cases`) and compare with the reference: per case
    id, the simulator's error findings and the outputs out of tolerance (empty lists when correct)."""
    from passes.sim.launch import load_source, run_loaded

    program, target = load_source(str(task.path / "solution"), "project", chip)
    module = load_reference(task)
    found: dict[str, list[str]] = {}
    for case in cases if cases is not None else task.spec["cases"]:
        cid = str(case["id"])
        inputs, expected = run_reference(task, case, module)
        given = {k: v.copy() for k, v in inputs.items()}
        attrs = [normalised_case(task, case)["attrs"][str(a["name"])] for a in task.spec.get("attrs", [])]
        result = run_loaded(program, target, given, attrs)
        problems = [f"{d.code} {d.span.file.split('/')[-1] if d.span else '?'}:{d.span.line if d.span else 0}: "
                    f"{d.message}" for d in result.findings if d.is_error]
        if not result.completed and not problems:
            problems.append("the run did not complete")
        for o in task.spec["outputs"]:
            name = str(o["name"])
            alias = o.get("aliases")
            actual = given[alias] if alias else result.outputs.get(name)
            if actual is None:
                problems.append(f"output '{name}' missing from the run")
                continue
            why = mismatch(expected[name], np.asarray(actual), task.spec["tolerance"])
            if why:
                problems.append(f"output '{name}': {why}")
        found[cid] = problems
    return found


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks", nargs="*", help="task names (default: all)")
    parser.add_argument("--static", action="store_true", help="also run ascendc-check on every case")
    parser.add_argument("--sim", action="store_true", help="also run the solution on the simulator, every case")
    parser.add_argument("--level", type=int, default=None)
    args = parser.parse_args(argv)
    bad = 0
    count = 0
    for path in task_dirs():
        task = load_task(path)
        if args.tasks and task.name not in args.tasks:
            continue
        if args.level is not None and task.spec.get("level") != args.level:
            continue
        count += 1
        problems = list(task.problems)
        if not problems:
            problems += reference_problems(task)
        if not problems and args.static:
            for cid, diags in solution_problems(task).items():
                problems += [f"case '{cid}': {d}" for d in diags]
        if not problems and args.sim:
            for cid, diags in simulation_problems(task).items():
                problems += [f"sim case '{cid}': {d}" for d in diags]
        status = "ok" if not problems else f"{len(problems)} problem(s)"
        print(f"{task.spec.get('level', '?')} {task.spec.get('category', '?'):<11} {task.name:<28} {status}")
        for p in problems:
            print(f"    {p}")
        bad += bool(problems)
    print(f"{count - bad} of {count} tasks clean")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
