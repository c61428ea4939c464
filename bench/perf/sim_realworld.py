"""The simulator on real kernels nobody here wrote: the KernelHive failure records (issue 28's two tables).

    .venv/bin/python bench/perf/sim_realworld.py --root /path/to/MultiKernelBench [RECORDS.jsonl]
        [--workers 2] [--results R.jsonl] [--json OUT] [--only after|before] [--ops a,b] [--max-elements N]
    .venv/bin/python bench/perf/sim_realworld.py --root X --merge A.json B.json [--json OUT]

1. Passing finals: every operator's final project (`files_after`, which passed on Ascend hardware) runs on the
   simulator with inputs from its MultiKernelBench reference program (`get_inputs`, executed: benchmark code),
   compared with the reference Model on CPU torch. The reference programs are those of the revision the records
   were made against (--revision, default 7134d16^: before the benchmark's 2026-01 "Update task shapes", whose
   inputs reach 2^31 elements and which kernels with the old sizes built in reject). Goal: >= 95% of the
   operators that do not use the cube unit correct; every miss listed with its cause.
2. Failing attempts whose verifier tier is `simulator` (their failure shows only when run): each `files_before`
   runs the same way; caught = wrong output or a dynamic finding (runtime). Goal: >= 75% of those that neither
   use the cube unit nor have an unknown root cause caught, each with the cause at its line.

Answers never run natively: only on the simulator, through the benchmark harness (bench/harness: extract,
compile, correctness; the static shape check and the performance stage are off, so that what is measured is the
simulator). Where ModelNew hands the op its module's weights and settings (op(x, self.conv.weight, self.eps)),
its forward is read with `ast` (never run) and those come from the reference Model built as the benchmark builds
both models (seeded), by the same attribute path (forward_plan, weighted_inputs). Ops whose files say Matmul or
Mmad count as cube, as the issue counts them.

Prints both tables and writes JSON (default bench/perf/results/sim_realworld.json); with --results a run resumes
where an earlier one stopped. Each miss is sorted into a kind (MISS_KINDS: inputs too large to run here, op
inputs not known, ..., a simulator finding, a wrong output); --merge combines runs made with other limits.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")

DEFAULT_RECORDS = ROOT.parent / "shared" / "data" / "kernelhive-failures" / "records.jsonl"
DEFAULT_ROOT = "/work/ext/MultiKernelBench"
DEFAULT_JSON = ROOT / "bench" / "perf" / "results" / "sim_realworld.json"
WORK = ROOT / "bench" / "perf" / "results" / "sim-realworld-answers"
# The records' answers were written against the reference programs before MultiKernelBench's "Update task shapes"
# (7134d16, 2026-01-22: inputs up to 2^31 elements; kernels with the old sizes built in reject or miss the new ones)
REVISION = "7134d16^"
CORRECT_GOAL = 0.95
CAUGHT_GOAL = 0.75
# what marks an answer as using the cube unit: the count (12 finals, 6 simulator-tier attempts) is "Matmul"
# or "Mmad" anywhere in the answer's files, which also takes in a few vector kernels with matmul in their op's name
CUBE_APIS = re.compile(r"Matmul|Mmad")


def uses_cube(files: dict[str, str]) -> bool:
    return any(CUBE_APIS.search(text) for text in files.values())


# ---------------------------------------------------------------------------------------------------------------
# ModelNew hands the op its module's weights and settings: op(x, self.conv.weight, self.conv.bias, self.eps).
# Those come from the reference Model built as the benchmark builds both (seeded with 1024, get_init_inputs), by
# the same attribute path, else from a plain `self.k = k` of ModelNew.__init__ bound to get_init_inputs. The
# forward is read with `ast` and never run; only attribute reads and a few tensor methods (reshape, view, ...)
# are applied, to the reference's tensors.

TENSOR_METHODS = {"reshape", "view", "flatten", "contiguous", "float", "squeeze", "unsqueeze", "t", "clone", "detach",
                  "transpose", "permute", "to", "item", "cpu", "npu", "cuda"}
DEVICE_MOVES = {"cpu", "npu", "cuda"}  # where the tensor lives: nothing the op sees
RAW_TENSOR_MAKERS = {"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty", "torch.randn_like"}
TORCH_DTYPES = {"float32", "float16", "bfloat16", "int32", "int64", "int8", "uint8", "bool", "float", "half", "long",
                "int"}


def forward_plan(model_src: str) -> list[tuple[Any, ...]] | None:
    """What ModelNew.forward passes the op, argument by argument, as expressions over its own arguments and its
    module: ("param", i), ("const", v), ("self", steps, init) with steps ("attr", name) / ("item", i) and init the
    ModelNew.__init__ source of a plain `self.name = name` / `= constant`, ("method", expr, name, args); locals
    assigned before the return are substituted. None when the forward does anything else (guards that only raise
    are allowed)."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return None
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    if cls is None:
        return None
    fn = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if fn is None:
        return None
    params = [a.arg for a in fn.args.args[1:]]
    init_of: dict[str, tuple[Any, ...]] = {}
    where: dict[str, tuple[int, int]] = {}
    if init is not None:
        names = [a.arg for a in init.args.args[1:]]

        def source(v: ast.expr) -> tuple[Any, ...] | None:
            """A plain init value: a parameter, a constant, a torch module's class, a 1-element tensor of one."""
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("int", "float") \
                    and len(v.args) == 1:
                v = v.args[0]
            if isinstance(v, ast.Name) and v.id in names:
                return ("param", v.id)
            if isinstance(v, ast.Constant):
                return ("const", v.value)
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute):
                dotted = ast.unparse(v.func)
                if dotted in ("torch.nn.Parameter", "nn.Parameter") and v.args:
                    return source(v.args[0])
                if dotted in RAW_TENSOR_MAKERS:
                    # a tensor ModelNew draws itself: matched to the reference's by shape (raw_tensors)
                    dtype = next((k.value.attr for k in v.keywords if k.arg == "dtype"
                                  and isinstance(k.value, ast.Attribute)), None)
                    return ("raw", tuple(ast.unparse(a) for a in v.args), dtype)
                if dotted == "torch.tensor" and v.args and isinstance(v.args[0], ast.List | ast.Tuple) \
                        and len(v.args[0].elts) == 1:
                    inner = source(v.args[0].elts[0])
                    dtype = next((k.value.attr for k in v.keywords if k.arg == "dtype"
                                  and isinstance(k.value, ast.Attribute)), "float32")
                    return ("tensor", inner, dtype) if inner and inner[0] in ("param", "const") else None
                if dotted.startswith(("torch.nn.", "nn.")) and dotted.count(".") == dotted.startswith("torch.") + 1:
                    return ("module", v.func.attr)
            return None

        for st in ast.walk(init):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) \
                    and isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == "self":
                found = source(st.value)
                if found is not None:
                    init_of[st.targets[0].attr] = found
                    where[st.targets[0].attr] = (st.lineno, st.col_offset)
            elif isinstance(st, ast.Call) and isinstance(st.func, ast.Attribute) \
                    and st.func.attr == "register_buffer" and len(st.args) >= 2 \
                    and isinstance(st.args[0], ast.Constant) and isinstance(st.args[0].value, str):
                found = source(st.args[1])
                if found is not None:
                    init_of[st.args[0].value] = found
                    where[st.args[0].value] = (st.lineno, st.col_offset)
    # the order ModelNew makes its modules and its own tensors in: the k-th Linear of ModelNew is the reference's
    # k-th, and its tensors are matched in order (raw_tensors)
    order = tuple((name, *init_of[name]) for name in sorted(init_of, key=lambda n: where.get(n, (0, 0)))
                  if init_of[name][0] in ("module", "raw"))
    for name, *_ in order:
        init_of[name] = (*init_of[name], order)
    local: dict[str, tuple[Any, ...]] = {}

    def arg_value(node: ast.expr) -> Any:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch" \
                and node.attr in TORCH_DTYPES:
            return ("dtype", node.attr)
        if isinstance(node, ast.Attribute) and node.attr == "device":
            return ("device",)
        return ast.literal_eval(node)

    def expr(node: ast.expr) -> tuple[Any, ...] | None:
        if isinstance(node, ast.Constant):
            return ("const", node.value)
        if isinstance(node, ast.Name):
            if node.id in local:
                return local[node.id]
            return ("param", params.index(node.id)) if node.id in params else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords \
                and node.func.attr in TENSOR_METHODS:
            inner = expr(node.func.value)
            try:
                args = tuple(arg_value(a) for a in node.args)
            except ValueError:
                return None
            return None if inner is None else ("method", inner, node.func.attr, args)
        steps: list[tuple[str, Any]] = []
        while isinstance(node, ast.Attribute | ast.Subscript):
            if isinstance(node, ast.Attribute):
                steps.insert(0, ("attr", node.attr))
            else:
                if not isinstance(node.slice, ast.Constant) or not isinstance(node.slice.value, int):
                    return None
                steps.insert(0, ("item", node.slice.value))
            node = node.value
        if isinstance(node, ast.Name) and node.id == "self" and steps and steps[0][0] == "attr":
            return ("self", tuple(steps), init_of.get(steps[0][1]))
        if isinstance(node, ast.Name) and node.id in local and steps and local[node.id][0] == "self":
            _, head, init = local[node.id]  # stride = self.conv.stride; ... stride[0]
            return ("self", head + tuple(steps), init)
        return None

    def is_self_to_device(st: ast.stmt) -> bool:
        """self.h = self.h.to(x.device): a move to the device, nothing the op sees."""
        return isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.value, ast.Call) \
            and isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "to" \
            and ast.unparse(st.value.func.value) == ast.unparse(st.targets[0])

    *before, last = fn.body or [ast.Pass()]
    call: ast.expr | None = last.value if isinstance(last, ast.Return) else None
    if isinstance(last, ast.Return) and last.value is not None and before and isinstance(before[-1], ast.Assign) \
            and len(before[-1].targets) == 1 and ast.unparse(before[-1].targets[0]) == ast.unparse(last.value) \
            and isinstance(before[-1].value, ast.Call) and isinstance(before[-1].value.func, ast.Attribute) \
            and isinstance(before[-1].value.func.value, ast.Name) \
            and before[-1].value.func.value.id not in ("self", "torch", "F", "nn"):
        *before, assigned = before  # y = op(...); return y   (or self.h = op(...); return self.h)
        call = assigned.value  # type: ignore[attr-defined]
    for st in before:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) or isinstance(st, ast.Assert | ast.Pass) \
                or isinstance(st, ast.If) and not st.orelse and all(isinstance(b, ast.Raise) for b in st.body) \
                or isinstance(st, ast.Delete) and all(isinstance(t, ast.Name) and t.id in params
                                                      for t in st.targets) \
                or is_self_to_device(st):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            value = expr(st.value)
            if value is None:
                return None
            local[st.targets[0].id] = value
            continue
        return None
    if not isinstance(call, ast.Call) or call.keywords:
        return None
    plan = [expr(a) for a in call.args]
    return None if any(p is None for p in plan) else plan  # type: ignore[return-value]


def bypasses_kernel(model_src: str) -> bool:
    """Whether ModelNew.forward never calls the op where it counts: no call of an extension module's function
    (custom_ops_lib.op(...)) outside `if False:` blocks. Such a final passed on hardware by computing its result
    with torch (a helper that touches the op on a probe tensor, a CPU fallback): its kernel's inputs are not the
    task's, and there is nothing of the answer's to judge on the simulator."""
    import ast

    try:
        tree = ast.parse(model_src)
    except (SyntaxError, ValueError, RecursionError):
        return False
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"), None)
    fn = cls and next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "forward"), None)
    if fn is None:
        return False
    torch_side = {"torch", "torch_npu", "F", "nn", "math", "np", "numpy"}
    extensions = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
                  for a in n.names}
    extensions |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                   and ast.unparse(n.value.func).endswith("import_module") for t in n.targets
                   if isinstance(t, ast.Name)}  # ops_lib = importlib.import_module("custom" + "_ops_lib")
    extensions -= torch_side

    def live(nodes: list[ast.stmt]) -> bool:
        for st in nodes:
            if isinstance(st, ast.If) and isinstance(st.test, ast.Constant) and not st.test.value:
                if live(st.orelse):
                    return True
                continue
            for n in ast.walk(st):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id in extensions:
                    return True
        return False

    return not live(fn.body)


def binding_finishes(files: dict[str, str]) -> str:
    """The expression the op's binding returns when it is not a tensor it handed the kernel: the binding (its
    `python_bind_src`, or CppExtension/csrc/op.cpp) finishes the result with ATen after the kernel (return
    at::matmul(probs, v); return probs * 2.0; a permute back to NCHW). Empty when it returns what the kernel wrote
    (or a tuple of those). The kernel's output is then not the task's, and replaying the binding would mean running
    answer code."""
    text = files.get("CppExtension/csrc/op.cpp", "")
    for body in files.values():
        text += "\n".join(re.findall(r'python_bind_src\s*=\s*"""(.*?)"""', body, re.S))
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)  # EXEC_NPU_CMD in a comment calls nothing
    if text.strip() and "EXEC_NPU_CMD" not in text and "aclnn" not in text:
        return "no call of the kernel (ATen only)"
    for m in re.finditer(r"EXEC_NPU_CMD\s*\(([^;]*)\);(.*?)\breturn\s+([^;]*);", text, re.S):
        handed = {a.strip() for a in m.group(1).split(",")[1:]}
        ret = " ".join(m.group(3).split())
        if ret in handed or re.fullmatch(r"(std::make_tuple|std::tuple<[^>]*>)?\s*[({]?[\w\s,]*[)}]?", ret):
            continue
        return ret
    return ""


def is_passthrough(plan: list[tuple[Any, ...]]) -> bool:
    """The op gets forward's own arguments, in order (contiguous() aside): the harness's own case."""
    def param(e: tuple[Any, ...]) -> int | None:
        while e[0] == "method" and e[2] == "contiguous":
            e = e[1]
        return e[1] if e[0] == "param" else None

    return [param(e) for e in plan] == list(range(len(plan)))


def model_src_of(answer: str) -> str | None:
    """The answer's `model_src` (the harness's reader: `ast`, never run)."""
    from bench.harness.stages.extract import model_src_of as read

    return read(answer)


def init_bindings(model_src: str, init_inputs: list[Any]) -> dict[str, Any]:
    """ModelNew.__init__'s parameters bound to get_init_inputs() (positional, then the defaults)."""
    import ast

    tree = ast.parse(model_src)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew")
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return {}
    args = init.args.args[1:]
    defaults = dict(zip([a.arg for a in args][len(args) - len(init.args.defaults):], init.args.defaults))
    bound: dict[str, Any] = {}
    for i, a in enumerate(args):
        if i < len(init_inputs):
            bound[a.arg] = init_inputs[i]
        elif a.arg in defaults:
            try:
                bound[a.arg] = ast.literal_eval(defaults[a.arg])
            except ValueError:
                pass
        else:
            return {}  # ModelNew(*get_init_inputs()) could not be built: its parameters are another task's
    return bound


def weighted_inputs(task: Any, drawn: Any) -> Any:
    """The op's inputs for one draw: forward_plan's expressions over get_inputs' tensors and the reference Model
    (built as the benchmark builds it: seeded, from get_init_inputs) standing in for ModelNew's module."""
    from bench.suites.model import Inputs
    from bench.suites.multikernelbench import SEED
    from bench.suites.torch_ref import dtype_name, seed_all, to_torch, torch_module

    torch = torch_module()
    module = task._module()
    seed_all(SEED)
    with torch.no_grad():
        init_inputs = list(module.get_init_inputs())
        model = module.Model(*init_inputs)
    bound = init_bindings(task.model_src, init_inputs)
    names = list(drawn.values)

    def value(e: tuple[Any, ...]) -> Any:
        if e[0] == "const":
            return e[1]
        if e[0] == "param":
            v = drawn.values[names[e[1]]]
            return to_torch(v, drawn.dtypes.get(names[e[1]])) if isinstance(v, np.ndarray) else v
        if e[0] == "method":
            inner = value(e[1])
            if any(a == ("device",) for a in e[3]) or e[2] in DEVICE_MOVES:
                return inner  # .to(x.device), .cpu(): the tensor where it is
            args = [getattr(torch, a[1]) if isinstance(a, tuple) and a[:1] == ("dtype",) else a for a in e[3]]
            return getattr(inner, e[2])(*args) if isinstance(inner, torch.Tensor) else inner
        _, steps, init = e
        return walk(first(steps[0][1], init, steps[1:]), steps[1:], steps)

    raw = raw_tensors(torch, model, task.plan, bound)

    def first(name: str, init: tuple[Any, ...] | None, rest: tuple[tuple[str, Any], ...]) -> Any:
        """self.<name> of ModelNew: the reference Model's attribute of that name; else, by what ModelNew.__init__
        makes of it: the reference's submodule of the same class in the same place among those of its class, the
        reference's tensor matched to one ModelNew draws itself (raw_tensors), the value of a plain parameter or
        constant (as a tensor where it wraps one in a tensor; indexed, a setting of one of the reference's
        submodules: stride[0] of a stride given as 2), for a module list indexed, the reference's leaf modules
        that have what is read next (self.layers[3].weight: the fourth with a weight); else a setting of that
        name on exactly one of the reference's submodules (self.groups -> conv_transpose.groups)."""
        if name in raw:
            return raw[name]
        if hasattr(model, name):
            v = getattr(model, name)
            if init is not None and init[0] == "tensor" and isinstance(v, int | float):
                return torch.tensor([v], dtype=getattr(torch, init[2]))  # ModelNew holds it as a tensor
            return v
        held = [getattr(m, name) for m in model.modules() if m is not model and hasattr(m, name)]
        if init is not None and init[0] == "module":
            same = [m for m in model.modules() if m is not model and type(m).__name__ == init[1]]
            mine = [k[0] for k in init[2] if k[1:3] == ("module", init[1])]
            if len(same) == 1:
                return same[0]
            if len(same) == len(mine) and name in mine:
                return same[mine.index(name)]
            if init[1] in ("ModuleList", "Sequential") and len(rest) >= 2 and rest[0][0] == "item" \
                    and rest[1][0] == "attr":
                return [m for m in model.modules() if m is not model and not list(m.children())
                        and hasattr(m, rest[1][1])]
        if init is not None and init[0] in ("param", "const", "tensor"):
            plain = init[1] if init[0] == "tensor" else init
            if plain is not None and (plain[0] == "const" or plain[1] in bound):
                v = plain[1] if plain[0] == "const" else bound[plain[1]]
                if isinstance(v, int | float) and rest[:1] and rest[0][0] == "item":
                    settings = [h for h in held if isinstance(h, tuple | list)]
                    if settings and all(h == settings[0] for h in settings):
                        return settings[0]  # ModelNew made a tuple of it as the module does
                    return (v,) * (rest[0][1] + 1)
                return torch.tensor([v], dtype=getattr(torch, init[2])) if init[0] == "tensor" else v
        if len(held) == 1:
            return held[0]
        if held and not any(isinstance(h, torch.Tensor) for h in held) and all(h == held[0] for h in held):
            return held[0]  # the same setting on every submodule that has one
        raise RuntimeError(f"ModelNew's self.{name} is not the reference Model's: neither an attribute of it, nor "
                           "a module, plain parameter or constant of ModelNew.__init__, nor a setting of one of its "
                           "submodules")

    def walk(v: Any, rest: tuple[tuple[str, Any], ...], steps: tuple[tuple[str, Any], ...]) -> Any:
        for kind, key in rest:
            try:
                v = getattr(v, key) if kind == "attr" else v[key]
            except (AttributeError, IndexError, KeyError, TypeError):
                path = "".join(f".{k}" if kd == "attr" else f"[{k}]" for kd, k in steps)
                raise RuntimeError(f"ModelNew's self{path} cannot be read from the reference Model") from None
        return v

    values: dict[str, Any] = {}
    dtypes: dict[str, str] = {}
    with torch.no_grad():
        for i, e in enumerate(task.plan):
            v = value(e)
            name = f"arg{i}"
            if isinstance(v, torch.Tensor):
                dtypes[name] = dtype_name(v)
                t = v.detach().cpu()
                values[name] = (t.to(torch.float32) if t.dtype == torch.bfloat16 else t).contiguous().numpy().copy()
            else:
                values[name] = v
    return Inputs(values, dtypes, drawn.seed)


def shape_of(args: tuple[str, ...], bound: dict[str, Any]) -> tuple[int, ...] | None:
    """The shape torch.randn(*args) makes, with ModelNew.__init__'s parameters bound: names, numbers, + - * //,
    an item of a bound list, a tuple of those, or one bound shape."""
    import ast

    def ev(n: ast.expr) -> Any:
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id in bound:
            return bound[n.id]
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub | ast.Mult | ast.FloorDiv):
            a, b = ev(n.left), ev(n.right)
            return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}.get(type(n.op)) if not isinstance(
                n.op, ast.FloorDiv) else a // b
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
            return ev(n.value)[n.slice.value]
        if isinstance(n, ast.Tuple | ast.List):
            return tuple(ev(e) for e in n.elts)
        raise ValueError(ast.unparse(n))

    try:
        dims = [ev(ast.parse(a, mode="eval").body) for a in args]
    except (ValueError, TypeError, IndexError, KeyError, SyntaxError, ZeroDivisionError):
        return None
    if len(dims) == 1 and isinstance(dims[0], tuple | list):
        dims = list(dims[0])
    return tuple(int(d) for d in dims) if all(isinstance(d, int) for d in dims) else None


def raw_tensors(torch: Any, model: Any, plan: Any, bound: dict[str, Any]) -> dict[str, Any]:
    """The reference's tensors standing in for those ModelNew draws itself (self.w = nn.Parameter(torch.randn(
    in_features, out_features))): in ModelNew's order, each takes the reference's tensor of its name, else the
    first one not taken of its shape, else of its shape transposed (a 2-D weight kept as in x out where the
    reference's Linear keeps out x in), cast to the dtype ModelNew asks for."""
    order = next((e[2][-1] for e in plan if e[0] == "self" and e[2] is not None and e[2][0] in ("module", "raw")),
                 ())
    mine = [(k[0], k[2], k[3]) for k in order if k[1] == "raw"]
    if not mine:
        return {}
    theirs: list[tuple[str, Any]] = list(model.named_parameters()) + list(model.named_buffers())
    theirs += [(n, v) for n, v in vars(model).items() if isinstance(v, torch.Tensor)
               and all(v is not t for _, t in theirs)]
    taken: set[int] = set()
    found: dict[str, Any] = {}
    picks: dict[str, int] = {}
    for name, args, _ in mine:  # names first, so that a name-sake is not taken by shape before its turn
        shape = shape_of(args, bound)
        pick = next((i for i, (n, t) in enumerate(theirs) if n == name
                     and (shape is None or tuple(t.shape) in (shape, shape[::-1] if len(shape) == 2 else shape))),
                    None)
        if pick is not None:
            picks[name] = pick
            taken.add(pick)
    for name, args, dtype in mine:
        shape = shape_of(args, bound)
        pick = picks.get(name)
        if pick is None and shape is not None:
            pick = next((i for i, (_, t) in enumerate(theirs) if i not in taken and tuple(t.shape) == shape), None)
            if pick is None and len(shape) == 2:
                pick = next((i for i, (_, t) in enumerate(theirs) if i not in taken
                             and tuple(t.shape) == shape[::-1]), None)
        if pick is None:
            continue
        taken.add(pick)
        t = theirs[pick][1].detach()
        if shape is not None and tuple(t.shape) != shape:
            t = t.t().contiguous()
        found[name] = t.to(getattr(torch, dtype)) if dtype else t
    return found


def make_weighted_task(base: Any, sample: str, model_src: str, plan: list[tuple[Any, ...]]) -> Any:
    import dataclasses

    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    fields["name"] = f"{base.name}~{sample}"
    return WeightedTask(**fields, model_src=model_src, plan=tuple(plan))


def _weighted_task_class() -> Any:
    import dataclasses

    from bench.suites.multikernelbench import MultiKernelBenchTask

    @dataclasses.dataclass
    class WeightedTask(MultiKernelBenchTask):
        """A MultiKernelBench task whose inputs are what ModelNew hands the op (weighted_inputs); its reference
        still runs the reference Model on get_inputs' tensors."""

        model_src: str = ""
        plan: tuple[tuple[Any, ...], ...] = ()

        def make_inputs(self, case: Any, seed: int) -> Any:
            drawn = super().make_inputs(case, seed)
            _DRAWN[(self.name, seed)] = drawn
            return weighted_inputs(self, drawn)

        def reference(self, case: Any, inputs: Any) -> dict[str, Any]:
            return super().reference(case, _DRAWN.get((self.name, inputs.seed), inputs))

    WeightedTask.__module__ = __name__
    WeightedTask.__qualname__ = "WeightedTask"
    return WeightedTask


_DRAWN: dict[tuple[str, int], Any] = {}


def relax_input_rule() -> None:
    """Where the harness's reading of ModelNew says the op's inputs are unknown, take forward_plan's word
    (the harness forks its workers, so they see this)."""
    import bench.harness.stages.extract as extract

    strict = extract.model_passes_inputs

    def relaxed(answer: str) -> bool | None:
        verdict = strict(answer)
        if verdict is not False:
            return verdict
        model_src = extract.model_src_of(answer)
        if model_src is None:
            return verdict
        # the weighted tasks below give such an answer the op's inputs
        return forward_plan(model_src) is not None or verdict

    extract.model_passes_inputs = relaxed


def reference_root(root: Path, revision: str) -> Path:
    """A folder holding `reference/` as it was at `revision` of the MultiKernelBench checkout `root` (exported once
    with git archive), or `root` itself for 'worktree'."""
    import subprocess
    import tarfile
    from io import BytesIO

    if revision == "worktree":
        return root
    sha = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", revision], check=True, capture_output=True,
                         text=True).stdout.strip()
    target = WORK.parent / f"multikernelbench-{sha}"
    if not (target / "reference").is_dir():
        data = subprocess.run(["git", "-C", str(root), "archive", sha, "reference"], check=True,
                              capture_output=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=BytesIO(data)) as tar:
            tar.extractall(target, filter="data")
    return target


def revision_tolerance(root: Path, revision: str) -> tuple[float, float] | None:
    """(atol, rtol) of torch.allclose in the benchmark's utils/correctness.py at `revision` (1e-2 before
    2026-01, 1e-4 after): the rule the records' answers passed."""
    import subprocess

    if revision == "worktree":
        return None
    done = subprocess.run(["git", "-C", str(root), "show", f"{revision}:utils/correctness.py"], capture_output=True,
                          text=True)
    found = re.search(r"allclose\([^)]*atol=([\d.eE+-]+),\s*rtol=([\d.eE+-]+)", done.stdout)
    return (float(found.group(1)), float(found.group(2))) if done.returncode == 0 and found else None


def load_records(path: Path) -> list[dict[str, Any]]:
    import ast

    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in records:
        for side in ("files_before", "files_after"):
            if isinstance(r.get(side), str):
                try:
                    r[side] = ast.literal_eval(r[side])
                except (ValueError, SyntaxError):
                    r[side] = None
    return records


def select(records: list[dict[str, Any]], only: str | None, ops: set[str] | None
           ) -> list[tuple[str, str, dict[str, str], dict[str, Any]]]:
    """(key, side, files, record): one final per operator (attempts share it), and the simulator-tier attempts."""
    chosen: list[tuple[str, str, dict[str, str], dict[str, Any]]] = []
    seen: set[str] = set()
    for r in records:
        if ops and r["op"] not in ops:
            continue
        after = r.get("files_after")
        if after and only != "before" and r["op"] not in seen:
            digest = hashlib.sha1(json.dumps(after, sort_keys=True).encode()).hexdigest()[:8]
            seen.add(r["op"])
            chosen.append((f"{r['op']}:after:{digest}", "after", after, r))
        if r.get("verifier_tier") == "simulator" and only != "after":
            # an attempt without its code (googlenet_inception_v1#2) still counts: a miss, not run
            chosen.append((f"{r['id']}:before", "before", r.get("files_before") or {}, r))
    return chosen


def cause(v: Any) -> str:
    """One line: what the simulator (or the harness) says went wrong."""
    if v.correct:
        return ""
    reason = v.reason or v.failure or "?"
    for c in v.cases:
        for f in c.sim_findings or []:
            if f.severity == "error":
                return f"{reason} | first finding: {f.code} {f.message[:160]}"
    return reason


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", type=Path, default=DEFAULT_RECORDS)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("MULTIKERNELBENCH", DEFAULT_ROOT)),
                        help=f"a MultiKernelBench checkout (default: $MULTIKERNELBENCH, else {DEFAULT_ROOT})")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--results", type=Path, default=None, help="JSONL of verdicts; a rerun resumes from it")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    parser.add_argument("--only", choices=("after", "before"), default=None)
    parser.add_argument("--ops", default=None, help="comma-separated operator names")
    parser.add_argument("--revision", default=REVISION,
                        help="the checkout's revision whose reference programs the records were made with (their "
                             "reference/ is exported under bench/perf/results; 'worktree': the checkout as it is)")
    parser.add_argument("--max-elements", type=int, default=1 << 25)
    parser.add_argument("--time-budget", type=float, default=900.0)
    parser.add_argument("--budget", type=int, default=None, help="simulated instructions per run (default: the "
                                                                   "simulator's, 4e9)")
    parser.add_argument("--merge", type=Path, nargs="+", default=None,
                        help="only combine earlier JSON reports (a later one's row for an answer replaces an "
                             "earlier one's: reruns with other limits) and print the tables")
    args = parser.parse_args()
    if args.merge:
        merged: dict[tuple[str, str, str], dict[str, Any]] = {}
        for path in args.merge:
            for row in json.loads(path.read_text(encoding="utf-8"))["rows"]:
                merged[(row["op"], row["side"], str(row["id"]) if row["side"] == "before" else "")] = row
        if args.records.exists():  # the cube marks as this version of the script makes them
            for r in load_records(args.records):
                for side in ("after", "before"):
                    files = r.get(f"files_{side}")
                    row = merged.get((r["op"], side, str(r["id"]) if side == "before" else ""))
                    if files and row is not None:
                        row["cube"] = uses_cube(files)
                        row["binding_finishes"] = binding_finishes(files) if side == "after" else ""
        report = summarise(list(merged.values()))
        report.update({"rows": list(merged.values()), "merged": [str(p) for p in args.merge], "elapsed_s": 0.0})
        print_report(report)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
        print(f"wrote {args.json}")
        return 0
    if not args.records.exists():
        print(f"no records at {args.records} (pass the path of kernelhive-failures/records.jsonl)", file=sys.stderr)
        return 2

    from bench.harness import Answer, EvalOptions
    from bench.harness.executors import make_executor
    from bench.harness.results import ResultStore
    from bench.harness.run import make_jobs, run_jobs
    from bench.perf.bench_kernelhive import write_answer
    from bench.suites import find_task, load_suite

    globals()["WeightedTask"] = _weighted_task_class()  # pickled by name into the harness's workers
    tasks = load_suite("multikernelbench", reference_root(args.root, args.revision))
    tolerance = revision_tolerance(args.root, args.revision)
    if tolerance is not None:
        from bench.suites.model import Tolerance

        for t in tasks:
            t.tolerance = Tolerance({}, "allclose", tolerance)
    by_squashed = {t.name.replace("_", ""): t for t in tasks}
    records = load_records(args.records)
    ops = set(args.ops.split(",")) if args.ops else None
    answers: list[Answer] = []
    meta: dict[str, dict[str, Any]] = {}
    skipped: Counter[str] = Counter()
    unrun: list[dict[str, Any]] = []  # selected but not runnable: they count, as misses
    for key, side, files, r in select(records, args.only, ops):
        try:
            task = find_task(tasks, r["op"])
        except KeyError:
            task = by_squashed.get(r["op"].replace("_", ""))
        info = {"op": r["op"], "id": r["id"], "side": side, "cube": uses_cube(files), "bug_kind": r.get("bug_kind"),
                "error_class": r.get("error_class")}
        if not files:
            skipped[f"{side}: the record has no code"] += 1
            unrun.append({**info, "reason": "the record holds no code for this side (files_before is empty)"})
            continue
        if task is None:
            skipped["no MultiKernelBench task of that name"] += 1
            unrun.append({**info, "reason": "no MultiKernelBench task of that name"})
            continue
        safe = re.sub(r"[^\w.-]", "_", key)
        path = write_answer(files, task.kernel_name.removesuffix("_custom"), WORK / safe)
        if path is None:
            skipped[f"{side}: no answer file and no kernel source"] += 1
            unrun.append({**info, "reason": "the record has no answer file with its sources as string literals "
                          "(kernel_src computed by answer code) and no op project files"})
            continue
        model_src = model_src_of(Path(path).read_text(encoding="utf-8", errors="replace"))
        info["bypass"] = bool(model_src) and bypasses_kernel(model_src)  # type: ignore[arg-type]
        info["binding_finishes"] = binding_finishes(files) if side == "after" else ""
        plan = forward_plan(model_src) if model_src else None
        if plan is not None and not is_passthrough(plan):
            task = make_weighted_task(task, safe, model_src or "", plan)
            tasks.append(task)
            info["weights"] = True
        answers.append(Answer(task.name, key, str(path)))
        meta[key] = {**info, "task": task.name}

    relax_input_rule()
    options = EvalOptions(draws=1, max_elements=args.max_elements, time_budget_s=args.time_budget,
                          instruction_budget=args.budget,
                          static_shapes=False, performance=False)
    jobs = make_jobs(tasks, answers, options)
    store = ResultStore(args.results) if args.results else None
    executor = make_executor("pool", args.workers)
    t0 = time.perf_counter()
    try:
        verdicts = run_jobs(jobs, store, executor, progress=sys.stdout.isatty(), description="kernelhive answers")
    finally:
        executor.close()
        if store is not None:
            store.close()
    elapsed = time.perf_counter() - t0

    rows = []
    for v in verdicts:
        m = meta[v.sample]
        judged = v.correct is not None
        rows.append({**m, "correct": v.correct, "judged": judged, "failure": v.failure, "stage": v.stage,
                     "cause": cause(v), "wall_s": round(v.wall_s, 1)})
    for u in unrun:
        rows.append({**{k: v for k, v in u.items() if k != "reason"}, "task": None, "correct": None, "judged": False,
                     "failure": "not-run", "stage": "select", "cause": u["reason"], "wall_s": 0.0})
    report = summarise(rows)
    report.update({"rows": rows, "skipped": dict(skipped), "elapsed_s": round(elapsed, 1)})
    print_report(report)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {args.json}")
    return 0


# why a final is not correct, from the harness's reason (first match wins); the simulator's own share is the last two
MISS_KINDS = (
    ("inputs too large to run here", r"over the harness's limit"),
    ("op inputs unknown: ModelNew computes them", r"ModelNew computes the op's arguments|reads input \d+ but only"
                                                  r"|ModelNew's self\S* (is not|cannot)"),
    ("inputs differ from the op's (dtype, count)", r"op json supports no inputs|attributes were given"
                                                    r"|reads attribute \d+ as"),
    ("host code the host interpreter does not model", r"the host tiling did not set|not modelled by the host"
                                                       r"|host tiling function fails for these inputs: .*is not "
                                                       r"modelled"),
    ("host tiling rejects the reference's shapes", r"TilingFunc returned"),
    ("harness worker died (memory)", r"worker .* died"),
    ("no runnable answer or no such task", r"no answer file|no MultiKernelBench task|holds no code"),
    ("compile", r"^compile"),
    ("instruction budget: too long to simulate here", r"\[ASC957\]"),
    ("simulator finding", r"\[ASC9\d\d\]|first finding: ASC9"),
    ("wrong output", r"."),
)


def miss_kind(row: dict[str, Any]) -> str:
    if row.get("bypass"):
        return "final bypasses its kernel (torch computes)"
    if row.get("binding_finishes"):
        return "binding finishes the result in ATen"
    text = row["cause"] if row["failure"] != "compile" else "compile " + row["cause"]
    return next(kind for kind, pattern in MISS_KINDS if re.search(pattern, text))


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    finals = [r for r in rows if r["side"] == "after"]
    plain = [r for r in finals if not r["cube"]]
    correct = [r for r in plain if r["correct"]]
    judged = [r for r in plain if r["judged"]]
    kinds = Counter(miss_kind(r) for r in plain if not r["correct"])
    attempts = [r for r in rows if r["side"] == "before"]
    counted = [r for r in attempts if not r["cube"] and r["bug_kind"] != "kernel_bypassed_root_cause_unknown"]
    # caught: the attempt's own failure shows when it runs (a wrong output, a simulator finding, the budget), and
    # the op's final runs correct here; where the final fails too, the setup (inputs, host tiling, budget) is what
    # fails, which says nothing about the attempt
    final_ok = {r["op"]: bool(r["correct"]) for r in finals}
    runtime_kinds = ("wrong output", "simulator finding", "instruction budget: too long to simulate here")
    caught = [r for r in counted if r["judged"] and not r["correct"] and r["stage"] != "compile"
              and miss_kind(r) in runtime_kinds and final_ok.get(r["op"], False)]
    # the static checks stop some before they run (ASC604 on cores sharing cache lines, ...): not the simulator's
    static = [r for r in counted if r["stage"] == "compile" and re.search(r"error: .*\[ASC[1-8]\d\d\]", r["cause"])]
    return {
        "finals": {"operators": len(finals), "cube": len(finals) - len(plain), "non_cube": len(plain),
                   "correct": len(correct), "rate": len(correct) / max(1, len(plain)), "goal": CORRECT_GOAL,
                   "judged": len(judged), "judged_rate": len(correct) / max(1, len(judged)),
                   "miss_kinds": dict(kinds.most_common()),
                   "misses": [{"op": r["op"], "failure": r["failure"], "kind": miss_kind(r), "cause": r["cause"]}
                              for r in plain if not r["correct"]]},
        "attempts": {"simulator_tier": len(attempts), "counted": len(counted), "caught": len(caught),
                     "rate": len(caught) / max(1, len(counted)), "goal": CAUGHT_GOAL,
                     "caught_statically": [{k: r[k] for k in ("id", "bug_kind", "cause")} for r in static],
                     "missed": [{**{k: r[k] for k in ("id", "bug_kind", "failure", "cause")},
                                 "final": "correct" if final_ok.get(r["op"]) else "not correct here"}
                                for r in counted if r not in caught],
                     "caught_list": [{k: r[k] for k in ("id", "bug_kind", "failure", "cause")} for r in caught]},
    }


def print_report(rep: dict[str, Any]) -> None:
    f, a = rep["finals"], rep["attempts"]
    print(f"Passing finals: {f['correct']} of {f['non_cube']} non-cube operators correct ({f['rate']:.1%}; goal "
          f"{f['goal']:.0%}); {f['cube']} cube operators left to the cube path")
    print(f"  judged (run and compared) {f['judged']}: {f['correct']} correct ({f['judged_rate']:.1%})")
    print("  misses by kind: " + ", ".join(f"{k} {n}" for k, n in f["miss_kinds"].items()))
    for m in sorted(f["misses"], key=lambda m: (m["kind"], m["op"])):
        print(f"  miss {m['op']:<48} {m['kind']:<44} {m['cause'][:150]}")
    print(f"Simulator-tier failing attempts: {a['caught']} of {a['counted']} caught ({a['rate']:.1%}; goal "
          f"{a['goal']:.0%}) of {a['simulator_tier']} (cube and unknown root cause left out)")
    for m in a["caught_list"]:
        print(f"  caught {m['id']:<44} {m['bug_kind'] or '-':<24} {m['cause'][:140]}")
    for m in a["missed"]:
        print(f"  missed {m['id']:<44} {m['bug_kind'] or '-':<24} final {m.get('final', '?'):<16} "
              f"{m['failure'] or 'passed'}: {m['cause'][:110]}")
    if a.get("caught_statically"):
        print(f"  of the missed, {len(a['caught_statically'])} stopped by a static check before running (not counted): "
              + ", ".join(m["id"] for m in a["caught_statically"]))
    if rep.get("skipped"):
        print("left out: " + ", ".join(f"{k} {n}" for k, n in rep["skipped"].items()))
    print(f"{rep['elapsed_s']:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
