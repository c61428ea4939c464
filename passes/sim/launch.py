"""Running a kernel on the simulator: source + numpy inputs -> outputs and findings (`passes.sim.run`).

The steps are those of `ascendc-check --shape`: read and lower the source for the inputs' dtypes, run the host
tiling function on their shapes (or take blockDim and tiling values from the caller for a kernel without host
code; a kernel-only NPUKernelBench answer launches on every vector core), fold its values into the IR, build the
simulator program, allocate the outputs and the workspace, and hand everything to rust_sim.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from frontend.diagnostics import Diagnostic, Note, Span, error, warning
from passes.sim.launch_args import check_arguments, missing_path
from passes.sim.launch_buffers import _allocation, _buffers, allocation_size, unbound_by_name
from passes.sim.launch_kernel import entry_files, kernel_name, key_not_lowered, lower_given_key
from passes.sim.launch_tensors import (
    INT4, ML_DTYPES, SimError, _declared_dtypes, _dtype_of, _given_outputs, _host_values, _items, _ordered_inputs,
    _output_spec, _spec_dtype, bfloat16_dtype, dtype_name, numpy_dtype, packed_int4_bytes)

# The names other modules and tests import from here (the binding and the tensors' helpers live in
# launch_buffers.py and launch_tensors.py since the split by purpose)
__all__ = ["DEFAULT_BUDGET", "INT4", "ML_DTYPES", "SIM_ERROR", "SimError", "SimResult", "allocation_size",
           "bfloat16_dtype", "dtype_name", "execute", "load_source", "numpy_dtype", "packed_int4_bytes", "run",
           "run_loaded"]

DEFAULT_BUDGET = 4_000_000_000  # instructions over all cores; the largest real kernels run far fewer
SIM_ERROR = "ASC958"  # what a run that cannot start reports (see passes/sim/rules.py)


@dataclass
class SimResult:
    """What one simulated launch produced."""

    outputs: dict[str, np.ndarray]
    findings: list[Diagnostic]
    instructions: int = 0
    per_core: list[int] = field(default_factory=list)
    completed: bool = True
    block_dim: int = 0
    tiling_key: int | None = None
    program: str = ""
    # the timing model (passes/sim/timing.py): None when the run was not timed
    cycles: int | None = None  # the launch's cycles at the chip clock
    pipes: dict[str, Any] | None = None  # per pipe: busy cycles (the last block), all blocks', utilization
    trace: list[dict[str, Any]] | None = None  # Chrome trace events, when asked for (trace=True)
    microseconds: float | None = None
    bound: str | None = None  # the pipe busiest on the block that finished last
    timing: dict[str, Any] | None = None  # everything the timing model reported (HBM use, waves, blocks, ...)
    trace_json: str | None = None  # the trace as a Chrome trace JSON document (write_trace writes it)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.findings if d.is_error]

    @property
    def ok(self) -> bool:
        return self.completed and not self.errors




def load_source(source: Any, fmt: str = "auto", chip: str | None = None,
                defines: Mapping[str, str | None] | None = None) -> tuple[Any, str]:
    """A path (file, folder, op project, answer), a frontend Bundle, or source text -> (Program, chip)."""
    from frontend.pipeline import read_text
    from frontend.readers import Bundle, collect_inputs
    from passes.verify import load_for_check

    if isinstance(source, Bundle):
        bundle = source
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                              and os.path.exists(source)):
        bundles = collect_inputs([os.fspath(source)], fmt)
        if not bundles:
            raise SimError(f"{source}: nothing to run there")
        bundle = bundles[0]
    elif (missing := missing_path(source)) is not None:
        raise SimError(f"{missing}: no such file or folder")
    elif isinstance(source, str):
        bundle = read_text(source, "<input>.cpp" if fmt in ("auto", "cpp") else "<input>", fmt=fmt)
    else:
        raise SimError(f"cannot read a kernel from {type(source).__name__}")
    return load_for_check(bundle, chip, defines)


def run(source: Any, inputs: Sequence[np.ndarray] | Mapping[str, np.ndarray], attrs: Sequence[Any] = (),
        chip: str | None = None, *, block_dim: int | None = None, tiling: Mapping[str, Any] | None = None,
        tiling_key: int | None = None, outputs: Mapping[str, Any] | Sequence[Any] | None = None,
        budget: int = DEFAULT_BUDGET, fmt: str = "auto", defines: Mapping[str, str | None] | None = None,
        outputs_initialised: bool = False, timing: bool = True, trace: bool | int = False,
        dtypes: Sequence[str | None] | Mapping[str, str] | None = None, inplace: Sequence[str] = (),
        workspace: int | None = None, tiling_data: bytes | None = None) -> SimResult:
    """Simulates `source` on `inputs` (numpy arrays in op input order, or by name). See passes.sim.run.
    `timing` times the launch (cycles, per-pipe figures); `trace` also records a Chrome trace (True, or the most
    events to keep). `dtypes` names the element types the arrays' own cannot say (bfloat16, passed as uint16 bit
    patterns): by tensor name, or by position over the inputs then the outputs (None: the array's). `inplace`
    names the inputs the op updates in place (as are those its op description also lists as outputs): each
    comes back among the outputs under its name, and a write into any other input is ASC963. `workspace` is the
    bytes of the kernel's workspace parameter, for a launch whose host (a .asc file's main, which is not
    evaluated) allocates it; it wins over a host tiling function's. `tiling_data` is the bytes of the tiling
    parameter's memory for a kernel with no host code, which the kernel reads itself (raw words, a cursor): the
    tiling values given by name (`tiling`) reach only the fields of a struct it reads."""
    dtypes = check_arguments(block_dim=block_dim, budget=budget, tiling=tiling, tiling_key=tiling_key,
                             dtypes=dtypes, workspace=workspace)
    program, chip = load_source(source, fmt, chip, defines)
    return run_loaded(program, chip, inputs, attrs, block_dim=block_dim, tiling=tiling, tiling_key=tiling_key,
                      outputs=outputs, budget=budget, outputs_initialised=outputs_initialised, timing=timing,
                      trace=trace, dtypes=dtypes, inplace=inplace, workspace=workspace, tiling_data=tiling_data)


def run_loaded(program: Any, chip: str, inputs: Any, attrs: Sequence[Any] = (), *, block_dim: int | None = None,
               tiling: Mapping[str, Any] | None = None, tiling_key: int | None = None, outputs: Any = None,
               budget: int = DEFAULT_BUDGET, outputs_initialised: bool = False, timing: bool = True,
               trace: bool | int = False, dtypes: Sequence[str | None] | Mapping[str, str] | None = None,
               inplace: Sequence[str] = (), workspace: int | None = None,
               tiling_data: bytes | None = None) -> SimResult:
    """`run` for a program already read (frontend.pipeline.Program) for `chip`."""
    diags = [d for d in program.diagnostics if d.is_error]
    if diags:
        return SimResult({}, diags, completed=False)
    return _run_program(program, chip, inputs, list(attrs), block_dim, tiling, tiling_key, outputs, budget,
                        outputs_initialised, timing, trace, dtypes, inplace, workspace, tiling_data)


def _run_program(program: Any, chip: str, inputs: Any, attrs: list[Any], block_dim: int | None,
                 tiling: Mapping[str, Any] | None, tiling_key: int | None, outputs: Any, budget: int,
                 outputs_initialised: bool, timing: bool = True, trace: bool | int = False,
                 dtypes: Sequence[str | None] | Mapping[str, str] | None = None,
                 inplace: Sequence[str] = (), workspace_bytes: int | None = None,
                 given_tiling_data: bytes | None = None) -> SimResult:
    from ascendir.chips import load_chip
    from ascendir.host_eval import TensorSpec, TilingInputs
    from ascendir.lower import GE_DTYPES, LoweringOptions, dtype_bindings
    from ascendir.lower.tiling_layout import tiling_bytes, unset_tiling_fields
    from passes.fold_tiling import FoldTilingPass
    from passes.sim import NotModelled, build_program
    from passes.verify import run_tiling
    from frontend.opdef_attrs import with_defaults
    from passes.verify.kernel_only import is_kernel_only, launch, op_description

    desc = op_description(program) or {}
    in_names = [str(d.get("name")) for d in desc.get("input_desc") or []]
    out_names = [str(d.get("name")) for d in desc.get("output_desc") or []]
    arrays = _ordered_inputs(inputs, in_names)
    declared = _declared_dtypes(dtypes, len(arrays))
    # a tensor list (a dynamic input) is one input of the op and one tensor per item for the host's queries
    per_input = [[TensorSpec(tuple(t.shape), declared(i, in_names[i] if i < len(in_names) else None)
                             or _spec_dtype(t), values=_host_values(t)) for t in _items(a)] if a is not None else [None]
                 for i, a in enumerate(arrays)]
    specs = [spec for group in per_input for spec in group]
    instances = [len(group) for group in per_input] if any(isinstance(a, list) for a in arrays) else None
    dtypes = dtype_bindings(program, [group[0].dtype for group in per_input if group and group[0] is not None])
    if not in_names:
        # no op description: msopgen's DTYPE_<NAME> macros follow the tensors' names (x -> DTYPE_X)
        named = dict(inputs) if isinstance(inputs, Mapping) else {}
        named.update(outputs if isinstance(outputs, Mapping) else {})
        for name, value in named.items():
            dt = _dtype_of(value)
            if dt is not None and dt in GE_DTYPES:
                dtypes.setdefault(f"DTYPE_{name.upper()}", GE_DTYPES[dt])
                dtypes.setdefault(f"ORIG_DTYPE_{name.upper()}", GE_DTYPES[dt])
    # the build compiles one binary per combination of input and output dtypes: outputs of a declared dtype
    # (a cast's float32 -> int32) bind their own DTYPE_<NAME>, not the first column the inputs match
    for i, name in enumerate(out_names if in_names else []):
        dt = declared(len(arrays) + i, name)
        spec = outputs.get(name) if isinstance(outputs, Mapping) else None
        if dt is None and not isinstance(spec, np.ndarray | list | None):
            # an output given as (shape, dtype) names the binary's dtype too: rms_norm_quant's y int4 (its OpDef's
            # int4 columns take the same inputs as its int8 ones, which the inputs alone would pick)
            dt = _dtype_of(spec)
        if dt is not None and str(dt).lower() in GE_DTYPES:
            dtypes[f"DTYPE_{name.upper()}"] = dtypes[f"ORIG_DTYPE_{name.upper()}"] = GE_DTYPES[str(dt).lower()]
    program = _with_dtype_codes(program, chip, dtypes)
    from passes.sim.lowering_cache import PreparedLaunch

    # lowered once per program and dtypes; the folds below are applied to a copy when the program is built
    # an optional input given no tensor is nullptr to the kernel (ascendir/lower/absent_inputs.py)
    absent = tuple(i for i, a in enumerate(arrays) if a is None) if in_names and not desc.get("kernel_only") else ()
    module = PreparedLaunch(program, LoweringOptions(chip=chip, dtypes=dtypes, absent_inputs=absent))
    findings = [d for d in module.diagnostics if d.is_error and d.code not in ("ASC103",)]
    has_host = any(u.unit.role == "host" for u in program.units)
    given_outputs = _given_outputs(outputs, out_names)
    if has_host and any(n not in given_outputs for n in out_names) and \
            all(n in out_names for n in given_outputs):
        # outputs the caller does not ask for (a reference that returns fewer than the op makes, or none: `ascendir
        # run` with inputs only): the host tiling may read their shapes and dtypes too (AddLayerNorm's mean and
        # rstd, mat_mul_v3's GetOutputDesc(0)->GetDataType()), so InferShape gives them before it runs
        bare = TilingInputs(specs, attrs=with_defaults(program.bundle, attrs), chip=chip, instances=instances)
        others = _inferred(program, bare, out_names)
        given_outputs = {n: given_outputs[n] if n in given_outputs else others[n] for n in out_names
                         if n in given_outputs or n in others}
    # optional attributes the caller leaves out take the OpDef's defaults, as the framework gives them
    shapes = TilingInputs(specs, attrs=with_defaults(program.bundle, attrs), chip=chip, instances=instances,
                          outputs=[_output_spec(t, declared(len(arrays) + i, name))
                                   for i, (name, a) in enumerate(given_outputs.items()) for t in _items(a)]
                          if given_outputs else [])
    workspace = 0
    need_atomic = False  # the host's SetNeedAtomic(true): outputs start as their InitValue (launch_buffers._buffers)
    key = tiling_key
    tiling_data: bytes | None = None
    if given_tiling_data is not None and (is_kernel_only(program) or (has_host and block_dim is None)):
        raise SimError("tiling data (--tiling-data) is for a kernel with no host code: this launch's tiling memory "
                       "is what its host tiling function writes" if has_host else
                       "tiling data (--tiling-data) is for a kernel with no host code: NPUKernelBench launches a "
                       "kernel-only answer with none")
    if is_kernel_only(program):
        unbound = _unbound_parameters(in_names, inputs, arrays, given_outputs)
        if unbound:
            # a kernel-only answer has no host or binding to size its outputs: a parameter given no tensor would
            # run as a 0-byte buffer and every write into it would read as an out-of-bounds write (ASC950)
            listed = ", ".join(f"'{n}'" for n in unbound)
            return SimResult({}, findings + [error(
                SIM_ERROR, f"no tensor for the kernel's GM parameter{'s' * (len(unbound) > 1)} {listed}: a kernel-only "
                           "answer has no host code that says an output's shape; give each as an input "
                           f"(--input {unbound[0]}=SHAPE:DTYPE) or an output (--output {unbound[0]}=SHAPE:DTYPE; "
                           "outputs=)",
                None)], completed=False)
        result = launch(program, shapes, chip)
        dim = block_dim or (result.block_dim if result else load_chip(chip).aiv_cores)
        lower_given_key(module, key, chip, dtypes)
        module.fold(FoldTilingPass(dict(tiling or {}), key, dim, tables=True))
    elif has_host and block_dim is None:
        if tiling:
            # values the caller gives win over the host's (a field the host interpreter cannot compute)
            module.fold(FoldTilingPass(dict(tiling), None, None, tables=True))
        result = run_tiling(program, None, shapes, chip)
        if not result.succeeded:
            why = "; ".join(result.diagnostics) or "it did not return success"
            return SimResult({}, findings + [error("ASC602", f"the host tiling function fails for these inputs: {why}",
                                                   None)], completed=False)
        module.fold(FoldTilingPass(result.fields, result.tiling_key, result.block_dim))  # what run_tiling folds
        if key_not_lowered(module.unfolded, result.tiling_key, kernel_name(program, module.unfolded, None, chip),
                           entry_files(program, module.unfolded, chip)):
            # a kernel lowered once per tiling key whose branch for this key did not fit beside the others:
            # lowered again, this key's branch first
            module.relower(LoweringOptions(chip=chip, dtypes=dtypes, tiling_key=result.tiling_key,
                                           absent_inputs=absent))
            # the findings are the lowering that runs, not the one it replaced
            findings = [d for d in module.diagnostics if d.is_error and d.code not in ("ASC103",)]
            if tiling:
                module.fold(FoldTilingPass(dict(tiling), None, None, tables=True))
        # array fields read at a run-time index (`td.startList[blockIdx]`): tables of the host's values
        module.fold(FoldTilingPass(result.fields, tables=True))
        dim = result.block_dim or 1
        key = result.tiling_key
        workspace = max(result.workspace.values(), default=0)
        need_atomic = result.need_atomic
        findings += _host_gap_warnings(result.gaps)
        tiling_data = tiling_bytes(program, result.struct_name, result.fields)
        if result.complete and not result.gaps:
            # a field the host never set holds 0 on the device (the tiling data starts zeroed); where the host
            # lowering left statements out, one of them may have set it: those stay unknown (ASC958)
            # (tables: an unset array field read at a run-time index, `td.shape[i]` in a loop, reads zeros too)
            module.fold(FoldTilingPass(unset_tiling_fields(program, result.struct_name, result.fields), None, None,
                                       tables=True))
        if not given_outputs:
            given_outputs = _inferred(program, result.inputs, out_names)
        elif any(n not in given_outputs for n in out_names) and all(n in out_names for n in given_outputs):
            # outputs the caller does not ask for (a reference that returns fewer than the op makes): the kernel
            # still writes them, into buffers the shapes InferShape computes
            others = _inferred(program, replace(result.inputs, outputs=[]), out_names)
            given_outputs = {n: given_outputs[n] if n in given_outputs else others[n] for n in out_names
                             if n in given_outputs or n in others}
    else:
        if block_dim is None:
            raise SimError("the kernel has no host tiling code: give block_dim (--block-dim) and its tiling values")
        dim = block_dim
        tiling_data = given_tiling_data
        lower_given_key(module, key, chip, dtypes)
        module.fold(FoldTilingPass(dict(tiling or {}), key, dim, tables=True))
    if workspace_bytes is not None:
        workspace = workspace_bytes
    missing = [n for n in out_names if n not in given_outputs]
    if missing:
        return SimResult({}, findings + [error(SIM_ERROR, f"the shape of output{'s' * (len(missing) > 1)} "
                                                          f"{', '.join(missing)} is not known (neither the binding nor "
                                                          "InferShape says it here): give it with outputs=/--output",
                                                None)], completed=False)
    try:
        # a case's draws fold the same values: built once (passes/sim/lowering_cache.py)
        sim_program = module.build(chip, key, lambda folded: build_program(folded, chip,
                                                                          kernel_name(program, folded, key, chip)))
    except NotModelled as exc:
        # (a kernel the lowering left out is said at that kernel: launch_kernel.kernel_name)
        return SimResult({}, findings + [error(SIM_ERROR, f"the simulator cannot run this kernel: it does not "
                                                          f"model {exc}", getattr(exc, "span", None))],
                         completed=False)
    unbound = unbound_by_name(sim_program, inputs, given_outputs) if not in_names else []
    if unbound:
        # (a kernel with no op description, its tensors given by the parameters' names: launch_buffers)
        listed, many = ", ".join(f"'{n}'" for n in unbound), len(unbound) > 1
        return SimResult({}, findings + [error(
            SIM_ERROR, f"no tensor for the kernel's GM parameter{'s' * many} {listed}: the inputs and outputs are "
                       f"given by the parameters' names, and none names {'them' if many else 'it'}; give each as an "
                       "input "
                       f"(--input {unbound[0]}=SHAPE:DTYPE) or an output (--output {unbound[0]}=SHAPE:DTYPE; outputs=)",
            None)], completed=False)
    buffers, out_arrays = _buffers(sim_program, [a for a, n in zip(arrays, in_names or arrays)
                                                 if not (desc.get("kernel_only") and isinstance(inputs, Mapping)
                                                         and n not in inputs)],
                                   in_names, given_outputs, out_names, workspace,
                                   outputs_initialised, inputs, tiling_data,
                                   # an input the op description lists as an output too is updated in place
                                   inplace=set(inplace) | (set(in_names) & set(out_names)),
                                   need_atomic=need_atomic,
                                   init_values={str(d.get("name")): d.get("init_value")
                                                for d in desc.get("output_desc") or [] if isinstance(d, dict)})
    return execute(sim_program, buffers, dim, chip, budget=budget, timing=timing, trace=trace, findings=findings,
                   outputs=out_arrays, key=key)


def execute(sim_program: Any, buffers: list[tuple[str, str, Any]], dim: int, chip: str, *, budget: int,
            timing: bool, trace: bool | int, findings: list[Diagnostic], outputs: dict[str, np.ndarray],
            key: int | None) -> SimResult:
    """Runs a built program on `dim` blocks over its buffers ((name, role, array), one per entry parameter; an
    'alias' buffer's array is the name of the buffer it shares), the kernel's writes back in the callers' arrays,
    with the run's findings after `findings` and its timing."""
    from ascendir.chips import load_chip
    from passes.sim.timing import fill_timing, run_options
    from rust_sim import _sim

    if sim_program.stack_bytes > _sim.MAX_STACK_BYTES:  # each core allocates its stack when it starts
        raise SimError(f"the kernel's local variables take {sim_program.stack_bytes} bytes of stack on each core; the "
                       f"simulator takes at most {_sim.MAX_STACK_BYTES} (an AI core's stack is far smaller)")
    kind = load_chip(chip)
    # a MIX launch counts blocks of one AIC and its AIVs: as many as there are AICs
    on_aic = sim_program.kernel_type == "aic" or sim_program.kernel_type.startswith("mix_aic")
    cores = kind.aic_cores if on_aic else kind.aiv_cores
    text = sim_program.text()
    allocations = [_allocation(b) for b in buffers]
    arrays_in = [None if r == "alias" else a for (_, r, _), (a, _) in zip(buffers, allocations)]
    raw = _sim.run(text, [(n, r, a) for (n, r, _), a in zip(buffers, arrays_in)], int(dim), int(cores),
                   int(budget), **run_options(kind, timing, trace), tensor_bytes=[t for _, t in allocations],
                   aliases=[a if r == "alias" else None for _, r, a in buffers])
    for (_, role, tensor), (allocation, size) in zip(buffers, allocations):
        if role != "alias" and tensor is not None and allocation is not tensor:
            tensor[:] = allocation[:size]  # the kernel's writes, back into the caller's arrays
    findings = findings + [_diagnostic(f) for f in raw["findings"]]
    return fill_timing(SimResult(outputs, findings, int(raw["instructions"]), list(raw["per_core"]),
                                 bool(raw["completed"]), int(dim), key, text), raw)


_DTYPE_CONDITION = re.compile(r"^[ \t]*#[ \t]*(?:el)?if\b[^\n]*\bORIG_DTYPE_", re.M)


def _unbound_parameters(params: list[str], inputs: Any, arrays: list[Any], outputs: Mapping[str, Any]) -> list[str]:
    """A kernel-only launch's tensor parameters (`params`, in order) that neither an input nor an output fills:
    by name when the inputs are named after the parameters, else the ones after the tensors given in order (the
    inputs, then the outputs), as launch_buffers._buffers pairs them."""
    if isinstance(inputs, Mapping) and all(k in params for k in inputs):
        return [p for p in params if inputs.get(p) is None and p not in outputs]
    return [p for p in params[len(arrays) + len(outputs):] if p not in outputs]


def _host_gap_warnings(gaps: Sequence[Any]) -> list[Diagnostic]:
    """The statements of the host tiling function the lowering left out and the run reached (TilingResult.gaps,
    ASC103 warnings): the launch runs with the values the rest computed, so a wrong output may be the host's
    and not the kernel's. The first is shown with that consequence, the others as they are."""
    out = list(gaps)
    if out:
        first = out[0]
        more = f" ({len(out) - 1} more below)" if len(out) > 1 else ""
        out[0] = replace(first, notes=tuple(first.notes) + (Note(
            "this is in the host tiling function, which the run reached: the kernel ran with the tiling values "
            f"computed without it, which may not be the device's{more}"),))
    return out


def _with_dtype_codes(program: Any, chip: str, dtypes: Mapping[str, str]) -> Any:
    """The program preprocessed as the build compiles it for these tensors' dtypes: ORIG_DTYPE_<NAME> is the
    ge::DataType code of each bound DTYPE (`#if ORIG_DTYPE_X != DT_FLOAT` chooses the half path for float16
    inputs). Checking reads the sources once with the first dtype combination's codes (or none, the float
    guess); a kernel that tests them in `#if` is read again when the launch's dtypes differ."""
    if not any(_DTYPE_CONDITION.search(u.unit.text) for u in program.units):
        return program
    from ascendir.lower import GE_DTYPES
    from frontend.vendor import DT_CODES
    from passes.verify import load_for_check, orig_dtype_defines

    codes: dict[str, str | None] = {}
    for macro, ctype in dtypes.items():
        code = next((DT_CODES[f"DT_{ge.upper()}"] for ge, c in GE_DTYPES.items()
                     if c == ctype and f"DT_{ge.upper()}" in DT_CODES), None)
        if macro.startswith("ORIG_DTYPE_") and code is not None:
            codes[macro] = str(code)
    first = orig_dtype_defines(program.bundle)
    if all(first.get(m) == c for m, c in codes.items()):
        return program
    reread, _ = load_for_check(program.bundle, chip, codes)
    return reread


def _inferred(program: Any, shapes: Any, out_names: list[str]) -> dict[str, Any]:
    """The outputs' shapes for a run of the host tiling on `shapes` (its TilingInputs): those given, else what
    InferShape computes for the outputs it can (its other outputs stay unknown), with the op json's dtypes."""
    from ascendir.host_eval import TensorSpec
    from ascendir.lower import output_dtypes
    from ascendir.lower.host import evaluate_program_infer_shape

    if shapes is not None and shapes.outputs and all(o is not None for o in shapes.outputs):
        return {name: spec for name, spec in zip(out_names, shapes.outputs)}
    if shapes is None:
        return {}
    inferred = evaluate_program_infer_shape(program, shapes)
    in_dtypes = [t.dtype for t in shapes.inputs if t is not None]
    dtypes = list(output_dtypes(program, in_dtypes))
    found: dict[str, Any] = {}
    for i, (name, shape) in enumerate(zip(out_names, inferred.outputs if inferred.succeeded else [])):
        dtype = dtypes[i] if i < len(dtypes) else None
        if dtype is None:  # the op description's first listed type for it, else the first input's
            dtype = _described_dtype(program, i, in_dtypes) or (in_dtypes[0] if in_dtypes else None)
        if shape is not None and dtype is not None:
            found[name] = TensorSpec(tuple(shape), dtype)
    return found


def _described_dtype(program: Any, index: int, in_dtypes: list[str]) -> str | None:
    """Output `index`'s dtype in the op description's type column whose inputs have `in_dtypes`."""
    from ascendir.lower import numpy_dtype_of_ge
    from passes.verify.kernel_only import op_description

    desc = op_description(program) or {}

    def column(d: Any) -> list[str | None]:
        types = d.get("type") or d.get("types") if isinstance(d, dict) else None
        types = types if isinstance(types, list) else [types] if types else []
        return [numpy_dtype_of_ge(t) for t in types]

    ins = [column(d) for d in desc.get("input_desc") or []]
    outs = desc.get("output_desc") or []
    if index >= len(outs):
        return None
    out = column(outs[index])
    for k in range(len(out)):
        if all(k < len(c) and c[k] == dt for c, dt in zip(ins, in_dtypes)):
            return out[k]
    return out[0] if out else None




def _diagnostic(f: Mapping[str, Any]) -> Diagnostic:
    span = Span.point(f["file"], int(f["line"]), int(f["col"])) if "file" in f else None
    message = str(f["message"])
    core, count, cores = int(f["core"]), int(f["count"]), int(f["cores"])
    if core >= 0:
        message += f" [core {core}" + (f"; {count} times on {cores} core{'s' * (cores != 1)}]" if count > 1 else "]")
    notes = tuple(Note(str(n)) for n in f.get("notes", []))
    make = error if f["severity"] == "error" else warning
    return make(str(f["code"]), message, span, *notes)
