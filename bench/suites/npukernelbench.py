"""NPUKernelBench (`--suite npukernelbench --root CHECKOUT`), read from a checkout kept outside the repository.

    tasks/level<N>/<Category>/<Op>/api_desc.md           what a model is shown
                                  question/op_host/<k>.cpp   the fixed host side of a kernel-only answer
                                  answer/0/                  the reference op project
                                  validation/test_cases.csv  cases, semicolon-separated, first row names columns
                                  validation/prepare_inputs.py  get_inputs(param, device), get_init_inputs(...)
                                  validation/module.py       Model, the torch reference (and ModelNew)
                                  validation/pybind.cpp      the binding: which inputs come back updated in place
    base_config.yaml             default tolerances (max_abs_error, max_rel_error)

Inputs and expected outputs come from prepare_inputs.py and module.py's Model on CPU torch (bench/suites/
torch_ref.py); a task's own `custom_check_precision` judges its outputs where it has one, as in the benchmark.
The kernel name is the op folder's name in snake case (`AddCustom` -> `add_custom`); answers come in the
kernel-only form by default (chip Ascend910_93: 48 vector cores), or in the three-file form.

A task's in-place inputs (`Task.inplace`: the kernel may write them) are those its op description also lists as
outputs and those its binding returns (bench/suites/binding.py); an op with no outputs of its own returns its
in-place inputs, so its outputs are read back from them (`aliases`).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from bench.suites.aclnn_arguments import as_op_inputs
from bench.suites.aclnn_chain import op_input_order
from bench.suites.binding import (
    argument_order,
    in_place,
    initial_fills,
    read_binding,
    returned_count,
    returned_outputs,
)
from bench.suites.binding_shapes import allocated_outputs
from bench.suites.bundled import snake_case
from bench.suites.csv_shapes import shape_elements
from bench.suites.model import Case, Comparison, Inputs, Task, TensorDecl, Tolerance, canonical_dtype
from bench.suites.tensor_scan import max_ignoring_nan
from bench.suites.tie_order import settle_ties
from bench.suites.torch_ref import (
    DrawnTensors,
    ReferenceProgramError,
    dtype_name,
    inputs_as_tensors,
    load_reference_program,
    op_call,
    precision_check,
    seed_all,
    tensors_as_inputs,
    to_numpy,
    to_torch,
    torch_module,
)
from frontend.opdef_inputs import scalar_inputs

CHIP = "910_93"
DEFAULT_TOLERANCE = (1e-3, 1e-3)


@dataclass
class NPUKernelBenchTask(Task):
    """A task of an NPUKernelBench checkout."""

    # its cases of up to 2^27 input elements ran here (ReverseSequence's [32, 512, 256, 32] float16, the Foreach
    # lists of 67M); a 2^29 one (StridesliceNegConcatV2 case 3) took a worker past 5.9 GB in its draws alone
    max_elements: ClassVar[int] = 1 << 27

    def input_elements(self, case: Case) -> int | None:
        """The elements of the shapes its test_cases.csv row names (bench/suites/csv_shapes.py)."""
        return shape_elements(case.params)

    def _validation(self, name: str) -> str:
        return str(Path(self.path) / "validation" / name)

    def rules_not_applying(self, program: Any) -> tuple[str, ...]:
        """ASC907 (InferShape leaves an output's shape unset): the task's binding allocates every output itself
        (`torch::empty*` handed to EXEC_NPU_CMD) and the generated aclnn API takes them as they are, so the
        answer's InferShape never runs; unless the answer ships its own l0op layer that infers a shape
        (`INFER_SHAPE(...)`), which does run it."""
        texts = getattr(getattr(program, "bundle", None), "texts", None) or {}
        if any("INFER_SHAPE(" in t for t in texts.values()):
            return ()
        return ("ASC907",)

    def _prepare(self) -> Any:
        atol, rtol = self.tolerance.default
        return load_reference_program(self._validation("prepare_inputs.py"),
                                      {"check_precision": precision_check(atol, rtol)})

    def _params(self, case: Case) -> dict[str, Any]:
        return dict(case.params)

    def make_inputs(self, case: Case, seed: int) -> Inputs:
        seed_all(seed)
        drawn = self._prepare().get_inputs(self._params(case), device=None)
        inputs = tensors_as_inputs(drawn, [d.name for d in self.inputs], seed)
        init = self._prepare().get_init_inputs(self._params(case), device=None) or []
        inputs.init = tuple(init)
        inputs.attrs = tuple(v.item() if hasattr(v, "item") and getattr(v, "ndim", 0) == 0 else v for v in init)
        return self._op_arguments(inputs, init) or inputs

    def _op_arguments(self, drawn: Inputs, init: Any) -> Inputs | None:
        """The op's arguments as the benchmark's ModelNew computes them from the draw (see op_call): its first
        arguments are the op's inputs in the op description's order (a tensor, a list of tensors, or None for
        an absent optional one), the rest its attributes in order, as the generated binding takes them. The
        drawn values stay the reference's. None where ModelNew cannot be run here."""
        if not self.inputs:
            return None
        given = inputs_as_tensors(drawn)
        passed_on = DrawnTensors(drawn, given)  # (before ModelNew runs: its in-place writes count)
        called = op_call(self._validation("module.py"), init, given)
        if called is None or called[2]:
            return None  # keyword arguments: the binding's parameter names are not known here
        _, args, _ = called
        torch = torch_module()
        names = [d.name for d in self.inputs]
        tensor_args = list(args[:len(names)])

        def is_tensors(v: Any, decl: TensorDecl) -> bool:
            return v is None or isinstance(v, torch.Tensor) or (
                isinstance(v, (list, tuple)) and bool(v) and all(isinstance(t, torch.Tensor) for t in v)) or (
                # an integer the binding passes as int64_t where the op declares an integer tensor input (TopKV3's
                # k: its aclnn layer converts the scalar to that tensor; as_op_inputs makes it one)
                isinstance(v, int) and not isinstance(v, bool) and not decl.is_list
                and any(t.startswith(("int", "uint")) for t in decl.dtypes)) or (
                # a list of integers where it declares one integer tensor input (LayerNormV4's normalized_shape:
                # an at::IntArrayRef the binding passes on as an aclIntArray, which the answer's l0op layer makes
                # a tensor with ConvertToTensor; as_op_inputs makes it one)
                isinstance(v, (list, tuple)) and bool(v) and not decl.is_list
                and all(isinstance(t, int) and not isinstance(t, bool) for t in v)
                and any(t.startswith(("int", "uint")) for t in decl.dtypes))

        binding_file = Path(self._validation("pybind.cpp"))
        binding = read_binding(binding_file.read_text(errors="replace")) if binding_file.is_file() else None
        order = argument_order(binding, len(names), names) if binding is not None else None
        if order is not None:  # the binding names its arguments: `(x, scalar)` carrying the op's (scalar, x)
            tensor_args = [tensor_args[k] for k in order]
        if len(tensor_args) < len(names) or not all(is_tensors(v, d) for v, d in zip(tensor_args, self.inputs)):
            return None
        values: dict[str, Any] = {}
        dtypes: dict[str, str] = {}
        for name, v in zip(names, tensor_args):
            values[name] = passed_on.array(v)
            first = v[0] if isinstance(v, (list, tuple)) else v
            if first is not None and not isinstance(first, int):
                dtypes[name] = dtype_name(first)
        attrs = tuple(_plain(v) for v in args[len(names):])
        return Inputs(values, dtypes, drawn.seed, (), attrs, reference=drawn)

    def reference(self, case: Case, inputs: Inputs) -> dict[str, Any]:
        module = load_reference_program(self._validation("module.py"))
        # the draw's own init values: drawing them again here would draw other random ones (CrossEntropyLoss's
        # weight is torch.rand), so that the reference weighed its loss with another weight than the op
        drawn = inputs.reference or inputs
        init = drawn.init if drawn.init is not None else self._prepare().get_init_inputs(self._params(case),
                                                                                        device=None)
        model = module.Model(*(init or []))
        # no torch.no_grad(): the benchmark runs its Models with autograd on, and the *Grad tasks use it
        result = model(*inputs_as_tensors(inputs.reference or inputs))
        # (whether the Model returns a list: its custom_check_precision then gets lists, see compare)
        self.__dict__.setdefault("_list_returns", {})[case.id] = isinstance(result, (tuple, list))
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        names = [d.name for d in self.outputs]
        if len(self.outputs) == 1 and (len(outs) > 1 or self.outputs[0].is_list):
            # a list output (foreach, a DYNAMIC output): one output holding the list, of one tensor or more
            return {names[0]: to_numpy(outs)}
        named = self._binding_outputs(inputs)
        if named is not None and len(named) == len(outs):
            # the benchmark zips the Model's outputs with what the binding returns: they are the op outputs the
            # binding returns, in the op's order here (the other outputs get the shapes InferShape gives them)
            given = dict(zip(named, outs))
            return {name: to_numpy(given[name]) for name in names if name in given}
        while len(names) < len(outs):
            names.append(f"output{len(names)}")
        return {name: to_numpy(v) for name, v in zip(names, outs)}

    def answer_inputs(self, program: Any, inputs: Inputs) -> Inputs:
        """The op's inputs as an answer's own aclnn and l0op layers hand the binding's arguments to the kernel
        (aclnn_chain.op_input_order: MseLossGradV2's aclnnMseLossBackward(gradOutput, self, target) launches the
        op with OP_INPUT(self, target, gradOutput)); as drawn for an answer without them."""
        path = Path(self._validation("pybind.cpp"))
        texts = getattr(getattr(program, "bundle", None), "texts", None) or {}
        host = [t for f, t in texts.items() if "op_host" in Path(f).parts]
        inputs = as_op_inputs(inputs, self.inputs, scalar_inputs(host))
        if not path.is_file() or not host:
            return inputs
        order = op_input_order(path.read_text(errors="replace"), host, len(self.inputs))
        names = [d.name for d in self.inputs]
        if order is None or list(inputs.values) != names:
            return inputs
        values = {names[j]: inputs.values[names[k]] for j, k in enumerate(order)}
        dtypes = {names[j]: inputs.dtypes[names[k]] for j, k in enumerate(order) if names[k] in inputs.dtypes}
        return replace(inputs, values=values, dtypes=dtypes, reference=inputs.reference or inputs)

    def settle_ties(self, case: Case, inputs: Inputs, expected: Mapping[str, Any], actual: Mapping[str, Any]
                    ) -> dict[str, Any]:
        """A reference that sorts (torch.topk in TopKV3's Model) leaves the order of equal values to torch's CPU
        code: the answer's indices stand where they select equal values (bench/suites/tie_order.py)."""
        path = Path(self._validation("module.py"))
        text = path.read_text(errors="replace") if path.is_file() else ""
        return settle_ties(text, (inputs.reference or inputs).values, expected, actual)

    def uncompared(self, case: Case, inputs: Inputs) -> tuple[str, ...]:
        """NPUKernelBench compares zip(Model's outputs, ModelNew's): the outputs past those the binding returns for
        these arguments are not compared (CrossEntropyLoss's zloss and lse_for_zloss when return_zloss is off;
        the kernel leaves them alone). They still get their buffers, from the Model's shapes."""
        names = [d.name for d in self.outputs]
        named = self._binding_outputs(inputs)
        if named is not None:
            return tuple(n for n in names if n not in named)
        returned = self._binding_returns(inputs)
        if returned is None or not 0 < returned < len(names) or len(names) < 2:
            return ()
        return tuple(names[returned:])

    def binding_buffers(self, case: Case, inputs: Inputs) -> dict[str, tuple[tuple[int, ...], str]]:
        """{output: (shape, dtype)} of the outputs not compared (see uncompared) as the binding allocates them for
        this draw (bench/suites/binding_shapes.py): the kernel writes those buffers, which may be larger than
        InferShape's (FlashAttentionScoreWithLargeHeadDim's softmax_max has head_num rows per batch there, one in
        its InferShape)."""
        skipped = self.uncompared(case, inputs)
        path = Path(self._validation("pybind.cpp"))
        binding = read_binding(path.read_text(errors="replace")) if skipped and path.is_file() else None
        if binding is None:
            return {}
        shapes: dict[str, tuple[int, ...]] = {}
        dtypes: dict[str, str] = {}
        scalars: dict[str, Any] = {}
        for param, decl in zip(binding.params, self.inputs):
            value = inputs.values.get(decl.name)
            if isinstance(value, np.ndarray):
                shapes[param] = tuple(int(d) for d in value.shape)
                dtypes[param] = canonical_dtype(inputs.dtypes.get(decl.name, str(value.dtype)))
            elif value is not None and not isinstance(value, list):
                scalars[param] = value
        scalars.update(zip(binding.params[len(self.inputs):], inputs.attrs))
        names = [d.name for d in self.outputs]
        made = allocated_outputs(path.read_text(errors="replace"), names, shapes, dtypes, scalars)
        return {n: made[n] for n in skipped if n in made}

    def _binding_returns(self, inputs: Inputs) -> int | None:
        """How many outputs the binding returns for the arguments ModelNew passed (see returned_count)."""
        path = Path(self._validation("pybind.cpp"))
        binding = read_binding(path.read_text(errors="replace")) if path.is_file() else None
        if binding is None or not inputs.attrs:
            return None
        values = dict(zip(binding.params[len(self.inputs):], inputs.attrs))
        return returned_count(path.read_text(errors="replace"), values)

    def _binding_outputs(self, inputs: Inputs) -> list[str] | None:
        """The op outputs the binding returns for the arguments ModelNew passed, in its order, where that is not
        the op's own order (AddLayerNorm returns {xOut, yOut}: its Model's [x, y] are the op's x and y); None
        where the op's order names them (see returned_outputs)."""
        path = Path(self._validation("pybind.cpp"))
        binding = read_binding(path.read_text(errors="replace")) if path.is_file() else None
        if binding is None or not inputs.attrs:
            return None
        values = dict(zip(binding.params[len(self.inputs):], inputs.attrs))
        names = [d.name for d in self.outputs]
        named = returned_outputs(path.read_text(errors="replace"), names, values)
        if named is None or len(set(named)) != len(named) or named == names[:len(named)]:
            return None
        return named

    def compare(self, case: Case, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> dict[str, Comparison]:
        custom = getattr(self._prepare(), "custom_check_precision", None)
        if custom is None:
            return _compare_lists(self, case, expected, actual)
        torch = torch_module()
        out: dict[str, Comparison] = {}
        for name, exp in expected.items():
            got = actual.get(name)
            if got is None:
                out[name] = Comparison(False, _size(exp), _size(exp), math.inf, math.inf, "output missing")
                continue
            dtype = compare_dtype(exp, case.dtypes.get(name) or case.dtype)
            ref_t, new_t = to_torch(exp, dtype), to_torch(_shaped(got, exp), dtype)
            if self.__dict__.get("_list_returns", {}).get(case.id) and not isinstance(ref_t, list):
                # the benchmark hands the check what Model and ModelNew return: a list of tensors, which its
                # `for out, out_new in zip(outputs, outputs_new)` walks tensor by tensor. Given the bare tensor, that
                # loop walked its rows, and AddRmsNormQuant's "at most 0.3% of the elements off" held per row
                # (2 int8 elements off by one in a row of 512 failed an output with 4 of 4096 off)
                ref_t, new_t = [ref_t], [new_t]
            ok, abs_diff, rel_diff = custom(self._params(case), ref_t, new_t)
            # the largest differences, read in the tensors' own dtype: a float64 copy of each was 2 GB of a
            # 2^27-element output's compare (StridesliceNegConcatV2 case 4); read in place (bench/suites/tensor_scan.py)
            max_abs = max_ignoring_nan(abs_diff) if isinstance(abs_diff, torch.Tensor) and abs_diff.numel() else 0.0
            max_rel = max_ignoring_nan(rel_diff) if isinstance(rel_diff, torch.Tensor) and rel_diff.numel() else 0.0
            out[name] = Comparison(bool(ok), 0 if ok else -1, _size(exp), max_abs, max_rel,
                                   "" if ok else "the task's custom_check_precision rejects the output")
        return out


def compare_dtype(expected: Any, dtype: str | None) -> str | None:
    """The dtype an output is compared in: the case's, except that a bfloat16 case's float32 output stays float32.
    Reference outputs reach here as numpy arrays, where bfloat16 is held as float32 (to_numpy); the values tell
    which it was: an output the reference computed in float32 (RmsNormGrad's dgamma, the sum of bf16 products
    times a float32 rstd) has values bfloat16 cannot hold, and rounding both sides to bfloat16 would turn a
    difference far inside the tolerance into one bfloat16 ulp of the result. A tensor-list output is read as
    all its tensors: ForeachAddcmulScalar's "bfloat16" rows draw float32 inputs, the op runs in float32, and
    the benchmark compares the float32 lists; rounded to bfloat16, a one-float32-ulp difference that crossed a
    rounding boundary became one bfloat16 ulp (0.0078 near 1), past its 1/256 tolerance."""
    arrays = expected if isinstance(expected, list) and expected else [expected]
    if dtype != "bfloat16" or not all(isinstance(a, np.ndarray) and a.dtype == np.float32 for a in arrays):
        return dtype
    held = all(not np.any(np.ascontiguousarray(a).view(np.uint32) & 0xFFFF) for a in arrays)
    return dtype if held else None


def _plain(value: Any) -> Any:
    """An attribute argument as the harness passes it: 0-d tensors and numpy scalars as Python numbers, tuples
    as lists. A one-element tensor in an attribute's place is a number too: the binding takes a scalar there
    (Gemm's ModelNew hands `torch.rand(1)` to `double alpha`, which torch converts as float(tensor) does)."""
    if hasattr(value, "item") and (getattr(value, "ndim", 0) == 0 or (
            getattr(value, "ndim", 0) == 1 and hasattr(value, "numel") and value.numel() == 1)):
        return value.item()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _size(value: Any) -> int:
    if isinstance(value, list):
        return sum(_size(v) for v in value)
    return int(np.asarray(value).size)


def _shaped(got: Any, exp: Any) -> Any:
    """The op's output as the Model's: reshaped where only the shape differs; a tensor list where the Model
    returns one tensor of the list's total size is the list flattened and concatenated, as the benchmark's
    ModelNew makes it (ForeachNonFiniteCheckAndUnscale: `torch.concat([x.flatten() for x in ret[:-1]])`)."""
    if isinstance(exp, list) and isinstance(got, list):
        return [_shaped(g, e) for g, e in zip(got, exp)]
    if isinstance(got, list) and not isinstance(exp, list):
        parts = [np.asarray(g).reshape(-1) for g in got]
        if parts and sum(p.size for p in parts) == np.asarray(exp).size:
            got = np.concatenate(parts)
    arr, ref = np.asarray(got), np.asarray(exp)
    return arr.reshape(ref.shape) if arr.size == ref.size and arr.shape != ref.shape else arr


def _compare_lists(task: Task, case: Case, expected: Mapping[str, Any], actual: Mapping[str, Any]
                   ) -> dict[str, Comparison]:
    """The default rule over outputs that may be lists of tensors (foreach ops): every tensor must pass."""
    flat_exp: dict[str, Any] = {}
    flat_act: dict[str, Any] = {}
    for name, exp in expected.items():
        got = actual.get(name)
        if isinstance(exp, list):
            for i, e in enumerate(exp):
                flat_exp[f"{name}[{i}]"] = e
                if isinstance(got, list) and i < len(got):
                    flat_act[f"{name}[{i}]"] = got[i]
        else:
            flat_exp[name] = exp
            if got is not None:
                flat_act[name] = got
    per = Task.compare(task, case, flat_exp, flat_act)
    out: dict[str, Comparison] = {}
    for name in expected:
        parts = [c for k, c in per.items() if k == name or k.startswith(name + "[")]
        if len(parts) == 1:
            out[name] = parts[0]
            continue
        bad = [c for c in parts if not c.ok]
        out[name] = Comparison(not bad, sum(c.mismatched for c in parts), sum(c.elements for c in parts),
                               max((c.max_abs for c in parts), default=0.0), max((c.max_rel for c in parts), default=0.0),
                               bad[0].reason if bad else "")
    return out




# ------------------------------------------------------------------ reading the checkout


def load_tasks(root: str | Path) -> list[Task]:
    """Every task of the checkout at `root`, by level, category and name."""
    base = Path(root)
    if not (base / "tasks").is_dir():
        raise FileNotFoundError(f"{root}: not an NPUKernelBench checkout (no tasks/ folder)")
    tolerance = _base_tolerance(base / "base_config.yaml")
    tasks = []
    for folder in sorted(base.glob("tasks/level*/*/*")):
        if folder.is_dir() and (folder / "validation" / "test_cases.csv").is_file():
            tasks.append(read_task(folder, tolerance))
    return tasks


def _base_tolerance(path: Path) -> tuple[float, float]:
    """max_abs_error and max_rel_error of base_config.yaml (its eval section), else 1e-3 each."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return DEFAULT_TOLERANCE

    def value(key: str, default: float) -> float:
        m = re.search(rf"^\s*{key}\s*:\s*([-+0-9.eE]+)\s*$", text, re.M)
        return float(m.group(1)) if m else default

    return value("max_abs_error", DEFAULT_TOLERANCE[0]), value("max_rel_error", DEFAULT_TOLERANCE[1])


def read_task(folder: Path, tolerance: tuple[float, float] = DEFAULT_TOLERANCE) -> NPUKernelBenchTask:
    from frontend.opdef import opdef_descriptions

    op_name = folder.name.split("_")[0]
    kernel = snake_case(op_name)
    level_match = re.search(r"level(\d+)", folder.parent.parent.name)
    desc_path = next((p for p in (folder / "api_desc.md", folder / "question" / "api_desc.md") if p.is_file()), None)
    description = desc_path.read_text(encoding="utf-8", errors="replace") if desc_path else ""
    host = folder / "question" / "op_host" / f"{kernel}.cpp"
    host_text = host.read_text(encoding="utf-8", errors="replace") if host.is_file() else ""
    descs = opdef_descriptions([host_text]) if host_text else []
    op = descs[0] if descs else {}
    dynamic = set(re.findall(r"Input\s*\(\s*\"(\w+)\"\s*\)\s*\.\s*ParamType\s*\(\s*DYNAMIC", host_text))
    dynamic_out = set(re.findall(r"Output\s*\(\s*\"(\w+)\"\s*\)\s*\.\s*ParamType\s*\(\s*DYNAMIC", host_text))
    inputs = tuple(TensorDecl(str(d["name"]), _ge_types(d), None, str(d["name"]) in dynamic)
                   for d in op.get("input_desc", []) or [])  # type: ignore[union-attr]
    outputs = tuple(TensorDecl(str(d["name"]), _ge_types(d), None, str(d["name"]) in dynamic_out)
                    for d in op.get("output_desc", []) or [])  # type: ignore[union-attr]
    cases = tuple(_case(row) for row in read_cases(folder / "validation" / "test_cases.csv"))
    binding = folder / "validation" / "pybind.cpp"
    binding_text = binding.read_text(encoding="utf-8", errors="replace") if binding.is_file() else ""
    inplace, returned = in_place(binding_text, [d.name for d in inputs], [d.name for d in outputs])
    fills = initial_fills(binding_text, [d.name for d in outputs])
    outputs = tuple(replace(d, initial=fills.get(d.name)) for d in outputs)
    if not outputs and returned and all(r is not None for r in returned):
        # no output of its own: what the op returns are its inputs, updated in place
        types = {d.name: d.dtypes for d in inputs}
        outputs = tuple(TensorDecl(str(r), types.get(str(r), ()), aliases=r) for r in returned)
    answer = folder / "answer" / "0"
    return NPUKernelBenchTask(
        suite="npukernelbench", name=folder.name, level=int(level_match.group(1)) if level_match else None,
        category=folder.parent.name, description=description, op_type=op_name, kernel_name=kernel,
        inputs=inputs, outputs=outputs, cases=cases, tolerance=Tolerance({}, "elementwise", tolerance),
        inplace=tuple(inplace),
        path=str(folder), solution=str(answer) if answer.is_dir() else None, chip=CHIP,
        kernel_only_host=str(host) if host.is_file() else None,
        answer_forms=("npukernelbench", "project"))


_GE_NAMES = {"FLOAT16": "float16", "FLOAT": "float32", "BF16": "bfloat16", "INT8": "int8", "INT16": "int16",
             "INT32": "int32", "INT64": "int64", "UINT8": "uint8", "BOOL": "bool", "DOUBLE": "float64",
             "UINT32": "uint32", "UINT64": "uint64", "UINT16": "uint16"}


def _ge_types(desc: Mapping[str, Any]) -> tuple[str, ...]:
    types = desc.get("type") or []
    return tuple(_GE_NAMES.get(str(t).removeprefix("DT_"), str(t).lower()) for t in types)


def _case(row: Mapping[str, Any]) -> Case:
    dtype = row.get("dtype")
    dtypes = {"*": canonical_dtype(str(dtype))} if isinstance(dtype, str) else {}
    return Case(str(row.get("case_id", "")), dtypes, {}, {}, dict(row))


# ------------------------------------------------------------------ test_cases.csv as pandas reads it


def read_cases(path: Path) -> list[dict[str, Any]]:
    """The rows of a semicolon-separated test_cases.csv, typed as the benchmark's harness types them
    (pandas.read_csv, then framework.utils.preprocess_dataframe): a column whose cells all read as numbers
    holds numbers, and ints where every value is integral; a column of True/False reads as bool, which the
    same rule then turns into 1/0; anything else stays text. An empty cell is NaN (and keeps its column
    from being made integral)."""
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh, delimiter=";"))
    if not rows:
        return []
    header = [h.strip() for h in rows[0]]
    body = [r + [""] * (len(header) - len(r)) for r in rows[1:] if any(c.strip() for c in r)]
    columns: dict[str, list[Any]] = {}
    for j, name in enumerate(header):
        columns[name] = _typed_column([r[j] for r in body])
    return [{name: columns[name][i] for name in header} for i in range(len(body))]


_BOOL = {"True": True, "TRUE": True, "true": True, "False": False, "FALSE": False, "false": False}


def _typed_column(cells: list[str]) -> list[Any]:
    values: list[Any] = []
    kind = "int"
    for cell in cells:
        text = cell.strip()
        if text == "":
            values.append(math.nan)
            kind = "float" if kind in ("int", "float") else kind
            continue
        if kind in ("int", "float"):
            try:
                values.append(int(text))
                continue
            except ValueError:
                pass
            try:
                values.append(float(text))
                kind = "float"
                continue
            except ValueError:
                kind = "bool" if all(c.strip() in _BOOL or not c.strip() for c in cells) else "str"
                break
        break
    if kind == "bool":
        if any(not c.strip() for c in cells):
            return [_BOOL.get(c.strip(), math.nan) if c.strip() else math.nan for c in cells]
        return [int(_BOOL[c.strip()]) for c in cells]  # preprocess_dataframe: bool is numeric, all integral
    if kind == "str":
        return [c if c != "" else math.nan for c in cells]
    has_nan = any(isinstance(v, float) and math.isnan(v) for v in values)
    if kind == "int":
        return values
    if not has_nan and all(float(v) == int(float(v)) for v in values):
        return [int(float(v)) for v in values]
    return [float(v) for v in values]


__all__ = ["NPUKernelBenchTask", "ReferenceProgramError", "load_tasks", "read_cases", "read_task"]
