"""One task model for every suite: what a model is shown, the cases, the reference and the tolerances.

A `Task` is plain, picklable data (it travels to pool workers and Ray actors); the reference code it
names (a numpy `reference.py`, or a benchmark's torch `Model`) is loaded lazily in the process that
computes expected outputs, never inside the simulated program. Each suite reader (bench/suites/<suite>.py)
makes Tasks of its own subclass, which supplies `make_inputs` and `reference`.

Inputs travel as a dict by input name in the op's input order, each value a tensor (numpy array), a list of
tensors (a dynamic input of foreach ops) or a scalar; attributes apart, by name in the op's attribute order.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

# numpy-style dtype names the suites use; bfloat16 is carried in float32 arrays on the numpy side (numpy has no
# bfloat16): the value set is rounded to bfloat16 by `as_dtype`.
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
DTYPE_ALIASES = {"fp16": "float16", "half": "float16", "bf16": "bfloat16", "fp32": "float32", "float": "float32",
                 "double": "float64", "fp64": "float64", "int": "int32", "long": "int64", "bool_": "bool"}

LEVEL_WEIGHTS = {1: 0.2, 2: 0.3, 3: 0.5}  # NPUKernelBench's score weights


def canonical_dtype(name: str) -> str:
    """`fp16` -> `float16`, `torch.float32` -> `float32`; unknown names unchanged."""
    name = name.strip().removeprefix("torch.")
    return DTYPE_ALIASES.get(name, name)


def is_float(dtype: str) -> bool:
    return canonical_dtype(dtype) in FLOAT_DTYPES


def bfloat16_round(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even), still as float32; NaN stays NaN."""
    f32 = np.ascontiguousarray(values, dtype=np.float32)
    bits = f32.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32).copy()
    out[np.isnan(f32)] = np.nan
    return out


def numpy_dtype(dtype: str) -> np.dtype[Any]:
    """The numpy dtype that holds values of `dtype` (bfloat16 travels as float32)."""
    name = canonical_dtype(dtype)
    return np.dtype(np.float32 if name == "bfloat16" else name)


def as_dtype(values: Any, dtype: str) -> np.ndarray:
    """`values` converted to `dtype` (bfloat16: rounded, held in float32)."""
    name = canonical_dtype(dtype)
    if name == "bfloat16":
        return bfloat16_round(np.asarray(values, dtype=np.float32))
    return np.asarray(values).astype(numpy_dtype(name))


@dataclass
class Inputs:
    """One draw of a case's inputs: values by input name in the op's input order (arrays, lists of arrays for a
    list input, scalars) and each tensor input's dtype name (a bfloat16 input's values are float32 arrays)."""

    values: dict[str, Any]
    dtypes: dict[str, str]
    seed: int = 0
    # inputs a torch reference drew with requires_grad (its Model differentiates with respect to them)
    requires_grad: tuple[str, ...] = ()
    # attribute values the op takes after the scalar inputs, which the reference gets otherwise (NPUKernelBench's
    # get_init_inputs: its ModelNew hands them to the op after the forward arguments)
    attrs: tuple[Any, ...] = ()
    # the draw as the task's reference takes it, where the op takes other arguments (NPUKernelBench's ModelNew
    # computes the op's arguments from the drawn ones); None: `values` and `attrs` are the reference's too
    reference: Inputs | None = None
    # the values the reference's constructor took in this draw (NPUKernelBench's get_init_inputs, random weights
    # included), so that the reference is built with the very values the op got; None: not drawn
    init: tuple[Any, ...] | None = None

    def arrays(self) -> list[np.ndarray]:
        """Every array of the draw, list inputs flattened (to copy and compare after a run)."""
        out: list[np.ndarray] = []
        for v in self.values.values():
            if isinstance(v, np.ndarray):
                out.append(v)
            elif isinstance(v, list):
                out += [x for x in v if isinstance(x, np.ndarray)]
        return out


@dataclass(frozen=True)
class TensorDecl:
    """An input or output of the op: its name, the dtypes the task supports, and (outputs) the input it
    updates in place."""

    name: str
    dtypes: tuple[str, ...] = ()
    aliases: str | None = None
    is_list: bool = False  # a dynamic input or output: a list of tensors (foreach ops)
    # (outputs) the value the framework fills the output with before the kernel runs (NPUKernelBench's binding:
    # `result.fill_(0.0f)`, torch::zeros): elements no core writes keep it, as on the device. None: not filled
    initial: float | None = None


@dataclass(frozen=True)
class AttrDecl:
    name: str
    type: str = "float"  # float, int, bool, list_int, list_float, str
    default: Any = None


@dataclass(frozen=True)
class Case:
    """One test case: input dtypes and shapes by input name, attribute values, and the suite's raw
    parameters (an NPUKernelBench CSV row, as its prepare_inputs.py sees it)."""

    id: str
    dtypes: Mapping[str, str] = field(default_factory=dict)
    shapes: Mapping[str, Any] = field(default_factory=dict)  # tuple, or a list of tuples for a list input
    attrs: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    # how the case differs from the benchmark's own, said with every result of it ("" for none): a case whose
    # shapes a suite reduced to fit this machine (MultiKernelBench with --fit-shapes: bench/suites/fit_shapes.py)
    reduced: str = ""
    not_reduced: str = ""  # why such a reduction was asked for and not made (said where the case is not evaluated)

    @property
    def dtype(self) -> str:
        """The case's main dtype (its first float input's, else its first input's): it picks the tolerance."""
        floats = [d for d in self.dtypes.values() if is_float(d)]
        if floats:
            return canonical_dtype(floats[0])
        if self.dtypes:
            return canonical_dtype(next(iter(self.dtypes.values())))
        return canonical_dtype(str(self.params.get("dtype", "float32")))

    def describe(self) -> str:
        """`x=[7, 1000]:float16, alpha=0.2` (for tables and prompts)."""
        parts = [f"{n}={list(s) if isinstance(s, tuple) else s}:{self.dtypes.get(n, '?')}" for n, s in self.shapes.items()]
        parts += [f"{n}={v}" for n, v in self.attrs.items()]
        if not parts and self.params:
            parts = [f"{k}={v}" for k, v in self.params.items() if k != "case_id"]
        return ", ".join(parts)


@dataclass(frozen=True)
class Tolerance:
    """NPUKernelBench-style tolerances per dtype.

    `elementwise`: an element fails when |d| > atol AND |d|/(|ref|+1e-7) > rtol.
    `norm`: an element fails when |d| > rtol * max(1, |ref|).
    `allclose`: an element fails when |d| > atol + rtol * |ref| (MultiKernelBench, torch.allclose).
    In every mode a NaN or infinity where the reference is finite fails, and the reverse too; integer and bool
    outputs must match exactly.
    """

    per_dtype: Mapping[str, tuple[float, float]] = field(default_factory=dict)  # dtype -> (atol, rtol)
    mode: str = "elementwise"
    default: tuple[float, float] = (1e-3, 1e-3)

    def bounds(self, dtype: str) -> tuple[float, float]:
        return self.per_dtype.get(canonical_dtype(dtype), self.default)

    def compare(self, expected: np.ndarray, actual: np.ndarray, dtype: str) -> Comparison:
        """How `actual` differs from `expected` under this tolerance for `dtype`."""
        exp = np.atleast_1d(np.asarray(expected))  # a 0-d result (an index, a norm) compares as one element
        act = np.atleast_1d(np.asarray(actual))
        if exp.shape != act.shape:
            if exp.size != act.size:
                return Comparison(False, int(exp.size), int(exp.size), math.inf, math.inf,
                                  f"shape {list(act.shape)}, expected {list(exp.shape)}")
            act = act.reshape(exp.shape)
        if exp.size == 0:
            return Comparison(True, 0, 0, 0.0, 0.0)
        if exp.size > _CHUNK:
            # in pieces: the float64 copies and masks below take ~36 bytes an element (4.6 GB for 2^27)
            flat_e, flat_a = exp.reshape(-1), act.reshape(-1)
            parts = [(k, self.compare(flat_e[k:k + _CHUNK], flat_a[k:k + _CHUNK], dtype))
                     for k in range(0, exp.size, _CHUNK)]
            return _merged(parts, int(exp.size))
        if exp.dtype.kind in "biu":  # integer and bool outputs match exactly
            e64, a64 = exp.astype(np.float64), act.astype(np.float64)
            with np.errstate(invalid="ignore"):
                diff = np.abs(e64 - a64)
            diff[~np.isfinite(diff)] = math.inf
            return _comparison(diff != 0, diff, diff / (np.abs(e64) + 1e-7))
        # a complex output against a real reference (abs of a complex64 tensor into a complex64 buffer, as the
        # binding's empty_like(x) makes it) differs by the complex difference, as torch compares them
        wide = np.complex128 if exp.dtype.kind == "c" or act.dtype.kind == "c" else np.float64
        e = exp.astype(wide)
        a = act.astype(wide)
        atol, rtol = self.bounds(dtype)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(e - a)
            rel = diff / (np.abs(e) + 1e-7)
            if self.mode == "norm":
                bad = diff > rtol * np.maximum(1.0, np.abs(e))
            elif self.mode == "allclose":
                bad = diff > atol + rtol * np.abs(e)
            else:
                bad = (diff > atol) & (rel > rtol)
            finite_e, finite_a = np.isfinite(e), np.isfinite(a)
            # non-finite values match only the same non-finite value (inf == inf, NaN where NaN is expected)
            same_special = (~finite_e) & (~finite_a) & ((e == a) | (np.isnan(e) & np.isnan(a)))
            bad = (bad & finite_e & finite_a) | ((finite_e != finite_a) | ((~finite_e) & ~same_special))
        return _comparison(bad, diff, rel)


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing one output with its expected values."""

    ok: bool
    mismatched: int
    elements: int
    max_abs: float
    max_rel: float
    reason: str = ""
    first_bad: int | None = None  # flat index of the first mismatching element

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "mismatched": self.mismatched, "elements": self.elements,
                "max_abs": _finite_or_str(self.max_abs), "max_rel": _finite_or_str(self.max_rel),
                "reason": self.reason, "first_bad": self.first_bad}


def output_dtype(expected: Any, case: Case) -> str:
    """The dtype whose tolerance judges an output: its expected array's float type, else the case's dtype."""
    arr = np.asarray(expected)
    if arr.dtype in (np.float16, np.float64) or (arr.dtype == np.float32 and case.dtype != "bfloat16"):
        return str(arr.dtype)
    return case.dtype


def _finite_or_str(v: float) -> float | str:
    return v if math.isfinite(v) else str(v)


_CHUNK = 1 << 22  # elements compared at a time


def _merged(parts: list[tuple[int, Comparison]], size: int) -> Comparison:
    """One Comparison of pieces compared apart, `(offset, comparison)` in order."""
    count = sum(c.mismatched for _, c in parts)
    max_abs = max(c.max_abs for _, c in parts)
    max_rel = max(c.max_rel for _, c in parts)
    if count == 0:
        return Comparison(True, 0, size, max_abs, max_rel)
    first = next(k + c.first_bad for k, c in parts if c.first_bad is not None)
    return Comparison(False, count, size, max_abs, max_rel,
                      f"{count} of {size} elements differ (first at flat index {first})", first)


def _comparison(bad: np.ndarray, diff: np.ndarray, rel: np.ndarray) -> Comparison:
    count = int(np.count_nonzero(bad))
    finite = np.isfinite(diff)
    max_abs = float(diff[finite].max()) if finite.any() else (math.inf if diff.size else 0.0)
    if not finite.all():
        max_abs = math.inf
    rel_f = rel[np.isfinite(rel)]
    max_rel = float(rel_f.max()) if rel_f.size else 0.0
    if count == 0:
        return Comparison(True, 0, int(bad.size), max_abs, max_rel)
    first = int(np.flatnonzero(bad.reshape(-1))[0])
    return Comparison(False, count, int(bad.size), max_abs, max_rel,
                      f"{count} of {bad.size} elements differ (first at flat index {first})", first)


@dataclass
class Task:
    """A benchmark task. Subclasses (one per suite) compute inputs and expected outputs."""

    suite: str
    name: str
    level: int | None
    category: str
    description: str  # markdown shown to a model
    op_type: str  # the OpDef class name (SqrtCustom)
    kernel_name: str  # the kernel entry an answer defines (sqrt_custom)
    inputs: tuple[TensorDecl, ...] = ()
    outputs: tuple[TensorDecl, ...] = ()
    attrs: tuple[AttrDecl, ...] = ()
    cases: tuple[Case, ...] = ()
    tolerance: Tolerance = field(default_factory=Tolerance)
    inplace: tuple[str, ...] = ()
    path: str = ""  # the task's folder (or reference program)
    solution: str | None = None  # a reference AscendC solution (op project folder), when the suite has one
    chip: str = "910B2"
    # the fixed host side a kernel-only answer is built with (NPUKernelBench's question/op_host/<k>.cpp)
    kernel_only_host: str | None = None
    answer_forms: tuple[str, ...] = ("project", "npukernelbench", "multikernelbench")
    # what the harness assumed for this task that its benchmark does not say (a tolerance it could not read):
    # every verdict on the task carries these (Verdict.notes), and the report prints them
    notes: tuple[str, ...] = ()
    # the largest case (input elements) evaluated when --max-elements is not given: what this machine's memory
    # holds for the suite's draws and runs
    max_elements: ClassVar[int] = 1 << 25

    @property
    def key(self) -> str:
        return f"{self.suite}:{self.name}"

    @property
    def variant(self) -> str:
        """"" for the benchmark's cases; else a tag of the reduced ones (a results file keys verdicts with it)."""
        reduced = "|".join(c.reduced for c in self.cases if c.reduced)
        return f"fit{zlib.crc32(reduced.encode()):08x}" if reduced else ""

    def case(self, case_id: str) -> Case:
        for c in self.cases:
            if c.id == str(case_id):
                return c
        raise KeyError(f"task {self.name} has no case '{case_id}' (cases: {', '.join(c.id for c in self.cases)})")

    def attr_values(self, case: Case) -> dict[str, Any]:
        """The case's attribute values, declared defaults filling the gaps, in the op's attribute order."""
        values = {a.name: case.attrs.get(a.name, a.default) for a in self.attrs}
        values.update((k, v) for k, v in case.attrs.items() if k not in values)
        return values

    def input_elements(self, case: Case) -> int | None:
        """How many input elements the case draws, known before drawing them (None: not known). The harness
        leaves out cases too large to draw and simulate on this machine, instead of running out of memory."""
        total = 0
        for shape in case.shapes.values():
            shapes = shape if isinstance(shape, list) else [shape]
            for s in shapes:
                if not isinstance(s, tuple):
                    return None
                total += math.prod(s)
        return total if case.shapes else None

    # -- subclasses provide these ------------------------------------------------------------------------

    def make_inputs(self, case: Case, seed: int) -> Inputs:
        """The op's inputs for `case`, drawn with `seed` (the same seed gives the same values)."""
        raise NotImplementedError

    def answer_inputs(self, program: Any, inputs: Inputs) -> Inputs:
        """The draw as this answer's own layers between the binding and the kernel pass it on (default: as
        drawn; NPUKernelBench answers that ship an aclnn layer may reorder the op's inputs)."""
        return inputs

    def rules_not_applying(self, program: Any) -> tuple[str, ...]:
        """Checker rules that do not apply to this answer as the suite runs it (default: none; NPUKernelBench's
        binding allocates the outputs itself, so an answer's InferShape never runs there)."""
        return ()

    def uncompared(self, case: Case, inputs: Inputs) -> tuple[str, ...]:
        """Outputs the benchmark does not compare for this draw's arguments (default: none; NPUKernelBench
        compares only those its binding returns)."""
        return ()

    def settle_ties(self, case: Case, inputs: Inputs, expected: Mapping[str, Any], actual: Mapping[str, Any]
                    ) -> dict[str, Any]:
        """The expected outputs as compared with this answer's: a suite whose reference sorts on the CPU gives the
        answer's order of equal values (bench/suites/tie_order.py; NPUKernelBench). Default: as they are."""
        return dict(expected)

    def reference(self, case: Case, inputs: Inputs) -> dict[str, Any]:
        """The expected outputs by name, in the op's output order (computed apart from any simulated memory)."""
        raise NotImplementedError

    def compare(self, case: Case, expected: Mapping[str, np.ndarray], actual: Mapping[str, Any]
                ) -> dict[str, Comparison]:
        """Each expected output against the answer's (a suite may override this, as NPUKernelBench's
        custom_check_precision does)."""
        out: dict[str, Comparison] = {}
        for name, exp in expected.items():
            got = actual.get(name)
            if got is None:
                size = int(np.asarray(exp).size)
                out[name] = Comparison(False, size, size, math.inf, math.inf, "output missing")
                continue
            out[name] = self.tolerance.compare(exp, got, output_dtype(exp, case))
        return out

    def shown(self, case: Case | None = None) -> str:
        """What a model is shown for this task: the description, a test case, the hardware."""
        from bench.suites.prompt import task_prompt

        return task_prompt(self, case)
