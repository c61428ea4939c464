"""Running a public benchmark's Python reference on CPU torch.

The benchmarks' reference programs (NPUKernelBench's module.py and prepare_inputs.py, MultiKernelBench's
reference models) are benchmark code: they may run natively, on CPU torch. They import torch_npu and the
compiled op module, which do not exist here: the program is read with `ast`, those imports and the classes
that call the compiled op (`ModelNew`) are removed, NPUKernelBench's `framework.utils.check_precision` is
replaced by the same rule written here, and the rest is compiled and run. Model-written answers never come
through here; they run only on the simulator.
"""

from __future__ import annotations

import ast
import os
import random
import re
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from bench.suites.fit_shapes import with_constants
from bench.suites.sparse_coo import SparseCOO, is_sparse_coo, sparse_parts, sparse_tensor
from bench.suites.tensor_scan import all_finite

if TYPE_CHECKING:
    from bench.suites.model import Inputs

# Modules that exist only on an NPU host, or that are the compiled answer itself.
_NPU_ONLY = ("torch_npu", "kernel_gen_ops", "custom_ops_lib", "framework")
_ANSWER_CLASSES = ("ModelNew",)


class ReferenceProgramError(RuntimeError):
    """The benchmark's reference program could not be loaded or run (the message says where and why)."""


def torch_module() -> Any:
    """torch, imported with one intra-op thread (small ops on these 2-core machines run ~100x slower with 2)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - torch comes with the train extra
        raise ReferenceProgramError("the benchmark references run on CPU torch; install the train extra "
                              "(pip install -e '.[train]')") from exc
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)
    return torch


def _strip(tree: ast.Module, keep: tuple[str, ...] = ()) -> ast.Module:
    """The module without NPU-only imports and without the classes that call the compiled op (except those in
    `keep`)."""
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            kept = [a for a in node.names if a.name.split(".")[0] not in _NPU_ONLY]
            if kept:
                body.append(ast.Import(names=kept))
            continue
        if isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in _NPU_ONLY:
                continue
        if isinstance(node, ast.ClassDef) and node.name in _ANSWER_CLASSES and node.name not in keep:
            continue
        body.append(node)
    return ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))


_MODULES: dict[tuple[str, tuple[str, ...], tuple[tuple[str, int], ...]], ModuleType] = {}


def load_reference_program(path: str, extra: Mapping[str, Any] | None = None,
                           keep: tuple[str, ...] = (), constants: Mapping[str, int] | None = None) -> ModuleType:
    """`path` (a benchmark's reference program) loaded without its NPU-only parts; cached per path.
    `extra` binds names the removed imports provided (check_precision); `keep` names classes that call the
    compiled op to keep (NPUKernelBench's ModelNew, the benchmark's own code: see op_call); `constants` gives
    module-level size constants other values (a case reduced by --fit-shapes: bench/suites/fit_shapes.py)."""
    fixed = tuple(sorted((constants or {}).items()))
    module = _MODULES.get((path, keep, fixed))
    if module is not None:
        return module
    torch_module()
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        tree = _strip(ast.parse(text, filename=path), keep)
    except (OSError, SyntaxError, ValueError) as exc:
        raise ReferenceProgramError(f"{path}: cannot be read: {exc}") from None
    if fixed:
        tree = with_constants(tree, dict(fixed))
    name = ("bench_ref_" + re.sub(r"\W", "_", path) + "".join(f"_{k}" for k in keep)
            + "".join(f"_{k}_{v}" for k, v in fixed))
    module = ModuleType(name)
    module.__file__ = path
    module.__dict__.update(extra or {})
    sys.modules[name] = module
    try:
        exec(compile(tree, path, "exec"), module.__dict__)  # noqa: S102  (benchmark code, never an answer)
    except Exception as exc:
        del sys.modules[name]
        raise ReferenceProgramError(f"{path}: {type(exc).__name__}: {exc}") from None
    if module.__dict__.get("torch") is sys.modules.get("torch"):
        module.__dict__["torch"] = device_torch()
    _MODULES[(path, keep, fixed)] = module
    return module


class _DeviceTorch(ModuleType):
    """torch as a reference program sees it on the NPU: everything is torch's, except that the random draws
    (rand, randn and their _like forms) also make integer and bool tensors, as torch_npu's do; CPU torch
    raises NotImplementedError for them ("normal_kernel_cpu" not implemented for 'Char'). Such a draw is made
    in float32 and converted to the dtype (toward zero): randn gives small integers around 0, rand zeros."""

    def __init__(self, torch: Any) -> None:
        super().__init__("torch")
        self._torch = torch
        for name in ("rand", "randn"):
            setattr(self, name, self._draw(getattr(torch, name)))
            setattr(self, f"{name}_like", self._draw_like(getattr(torch, f"{name}_like")))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._torch, name)

    def _integral(self, dtype: Any) -> bool:
        return dtype is not None and not dtype.is_floating_point and not dtype.is_complex

    def _draw(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def draw(*size: Any, dtype: Any = None, **kw: Any) -> Any:
            if self._integral(dtype):
                return fn(*size, dtype=self._torch.float32, **kw).to(dtype)
            return fn(*size, dtype=dtype, **kw)

        return draw

    def _draw_like(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def draw(like: Any, *args: Any, dtype: Any = None, **kw: Any) -> Any:
            target = dtype if dtype is not None else getattr(like, "dtype", None)
            if self._integral(target):
                return fn(like, *args, dtype=self._torch.float32, **kw).to(target)
            return fn(like, *args, dtype=dtype, **kw)

        return draw


class _OpCalled(Exception):
    """Raised by the stand-in for the compiled op module at the op's call: its name and arguments."""

    def __init__(self, op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        super().__init__(op)
        self.op, self.args_, self.kwargs = op, args, kwargs


class _OpModule(ModuleType):
    """The compiled op module (kernel_gen_ops) as op_call sees it: any op, called, stops the caller there."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            raise _OpCalled(name, args, kwargs)

        return call


def op_call(path: str, init: Any, args: Any, module_name: str = "kernel_gen_ops"
            ) -> tuple[str, tuple[Any, ...], dict[str, Any]] | None:
    """The op NPUKernelBench's ModelNew (in its validation/module.py: benchmark code, written with the task)
    calls and the arguments it computes for it, from `ModelNew(*init)(*args)` run on CPU torch up to that
    call: the op's inputs and attributes as the benchmark's harness hands them to the answer (it reorders
    them, adds tensors it computes, converts values). None when the module has no ModelNew, or it fails before
    calling the op."""
    stand_in = _OpModule(module_name)
    module = load_reference_program(path, {module_name: stand_in}, keep=("ModelNew",))
    cls = getattr(module, "ModelNew", None)
    if cls is None:
        return None
    saved = sys.modules.get(module_name)
    sys.modules[module_name] = stand_in  # `import kernel_gen_ops` inside forward
    module.__dict__[module_name] = stand_in
    try:
        cls(*(init or []))(*args)
    except _OpCalled as called:
        return called.op, called.args_, called.kwargs
    except Exception:  # noqa: BLE001  (benchmark code that needs the NPU: the caller keeps its own plumbing)
        return None
    finally:
        if saved is None:
            sys.modules.pop(module_name, None)
        else:
            sys.modules[module_name] = saved
    return None


def device_torch() -> ModuleType:
    """The torch a reference program is given (see _DeviceTorch)."""
    return _DeviceTorch(torch_module())


def seed_all(seed: int) -> None:
    """Seed every generator a reference program may draw from (torch, numpy's global one, random)."""
    torch = torch_module()
    torch.manual_seed(seed)
    np.random.seed(seed % (2**32))
    random.seed(seed)


def to_numpy(value: Any) -> Any:
    """torch tensors (and lists of them) as numpy arrays; bfloat16 becomes float32 holding the same values; a
    sparse COO tensor becomes its parts (SparseCOO: it has no numpy form)."""
    torch = torch_module()
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu()
        if is_sparse_coo(t):
            return sparse_parts(t, to_numpy)
        if t.dtype == torch.bfloat16:
            t = t.to(torch.float32)
        if t.is_complex():
            return t.resolve_conj().numpy().copy()
        return t.contiguous().numpy().copy()
    if isinstance(value, (list, tuple)):
        return [to_numpy(v) for v in value]
    return value


def dtype_name(value: Any) -> str:
    """The numpy-style dtype name of a torch tensor (`float16`, `bfloat16`, `int64`, `bool`)."""
    return str(value.dtype).removeprefix("torch.")


def to_torch(value: Any, dtype: str | None = None) -> Any:
    """A numpy array as a torch tensor of `dtype` (bfloat16 from float32 values); lists element by element; a
    SparseCOO as the sparse tensor it was."""
    torch = torch_module()
    if isinstance(value, (list, tuple)):
        return [to_torch(v, dtype) for v in value]
    if isinstance(value, SparseCOO):
        return sparse_tensor(value, getattr(torch, dtype) if dtype is not None else None)
    if isinstance(value, np.ndarray):
        target = getattr(torch, dtype) if dtype is not None else None
        if target is not None and value.flags.writeable and value.dtype.kind in "biuf" and (
                torch.from_numpy(value.reshape(-1)[:0]).dtype != target):  # reshape: a 0-d array has no [:0]
            # the conversion makes the new tensor: read the array in place (a copy first was 2 GiB more for
            # a 2^29-element bfloat16 case, whose values travel as float32)
            return torch.from_numpy(np.asarray(value, order="C")).to(target)  # (ascontiguousarray makes 0-d 1-d)
        t = torch.from_numpy(np.array(value, copy=True))
        if target is not None:
            t = t.to(target)
        return t
    return value


def tensors_as_inputs(drawn: Any, names: list[str], seed: int) -> Inputs:
    """What a reference program's get_inputs returned (a tuple of tensors, lists of tensors, scalars) as
    Inputs, named after the op's inputs in order (extra ones `input<i>`)."""
    from bench.suites.model import Inputs

    torch = torch_module()
    values = list(drawn) if isinstance(drawn, (list, tuple)) else [drawn]
    names = list(names)
    while len(names) < len(values):
        names.append(f"input{len(names)}")
    out: dict[str, Any] = {}
    dtypes: dict[str, str] = {}
    grad: list[str] = []
    for name, v in zip(names, values):
        out[name] = to_numpy(v)
        first = v[0] if isinstance(v, (list, tuple)) and v else v
        if isinstance(first, torch.Tensor):
            dtypes[name] = dtype_name(first)
            if first.requires_grad:
                grad.append(name)
    return Inputs(out, dtypes, seed, tuple(grad))


def inputs_as_tensors(inputs: Inputs) -> list[Any]:
    """Inputs back as the positional arguments of a torch Model (copies: the reference may write into them)."""
    args = []
    for name, v in inputs.values.items():
        t = to_torch(v, inputs.dtypes.get(name))  # (to_torch copies arrays)
        if name in inputs.requires_grad:
            for item in t if isinstance(t, list) else [t]:
                item.requires_grad_(True)
        args.append(t)
    return args


class DrawnTensors:
    """The tensors handed to benchmark code (ModelNew) made from a draw, to read back what that code passes on
    to the op: an argument that is one of them, unchanged (torch's version counter counts in-place writes),
    is the drawn array itself, shared rather than copied; anything else (a view, a conversion, a tensor
    written in place) is converted anew. The arrays of a draw are never written (the kernel and the reference
    get copies), and a 2^29-element case's input is 1 to 2 GiB: a second copy per draw was one too many."""

    def __init__(self, drawn: Inputs, given: list[Any]) -> None:
        self._by_id: dict[int, tuple[Any, int, np.ndarray]] = {}
        for v, t in zip(drawn.values.values(), given):
            pairs = zip(v, t) if isinstance(v, list) and isinstance(t, list) and len(v) == len(t) else [(v, t)]
            for array, tensor in pairs:
                if isinstance(array, np.ndarray) and getattr(tensor, "_version", None) is not None:
                    self._by_id[id(tensor)] = (tensor, tensor._version, array)

    def array(self, value: Any) -> Any:
        """`value` (a tensor, a list of them, a scalar) as the draw holds it (see to_numpy)."""
        if isinstance(value, (list, tuple)):
            return [self.array(v) for v in value]
        same = self._by_id.get(id(value))
        if same is not None and same[0] is value and value._version == same[1]:
            return same[2]
        return to_numpy(value)


def precision_check(max_abs_error: float, max_rel_error: float) -> Callable[..., Any]:
    """NPUKernelBench's check_precision rule (framework/utils.py), for the prepare_inputs.py files that import
    it: an element fails when |d| > atol and |d|/(|ref|+1e-7) > rtol; any non-finite value fails. Returns
    (1 or 0, abs_diff, rel_diff) as that function does."""

    default_abs, default_rel = max_abs_error, max_rel_error

    # the parameters keep the benchmark's names: tasks pass them by keyword (max_abs_error=1e-5)
    def check_precision(outputs: Any, outputs_new: Any, max_abs_error: float = default_abs,
                        max_rel_error: float = default_rel) -> tuple[int, Any, Any]:
        torch = torch_module()
        outs = outputs if isinstance(outputs, list) else [outputs]
        news = outputs_new if isinstance(outputs_new, list) else [outputs_new]
        accurate = True
        abs_all, rel_all = [], []
        for out, new in zip(outs, news):
            if new.dtype == torch.bool:
                out, new = out.to(torch.int), new.to(torch.int)
            # |out - new| and |d| / (|out| + 1e-7), each computed into one tensor (the same values as the
            # benchmark's out-of-place expressions, without their temporaries: a 2^29-element output's are GiBs)
            if out.is_complex() or new.is_complex():  # (no in-place abs for complex tensors)
                abs_diff = torch.abs(out - new)
                rel_diff = abs_diff / (torch.abs(out) + 1e-7)
            else:
                abs_diff = (out - new).abs_()
                rel_diff = torch.abs(out).to(torch.result_type(out, 1e-7)).add_(1e-7)
                rel_diff = torch.div(abs_diff, rel_diff, out=rel_diff) if rel_diff.dtype == torch.result_type(
                    abs_diff, rel_diff) else abs_diff / rel_diff
            abs_all.append(abs_diff.reshape(-1))
            rel_all.append(rel_diff.reshape(-1))
            if not all(all_finite(t) for t in (out, new, abs_diff, rel_diff)):
                accurate = False
            bad = abs_diff > max_abs_error
            bad &= rel_diff > max_rel_error
            if bool(bad.any()):
                accurate = False
            del bad
        # one output: its differences as they are (torch.cat copies even one tensor)
        if len(abs_all) == 1:
            return (1 if accurate else 0), abs_all[0], rel_all[0]
        return (1 if accurate else 0), torch.cat(abs_all), torch.cat(rel_all)

    return check_precision
