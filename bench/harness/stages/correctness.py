"""Stage 3, correctness: every case of the answer on the simulator, outputs against the reference, and the
integrity checks that keep an answer from passing without computing the result (issue 31).

Per case, the inputs are drawn twice (two seeds). For each draw:
- the output buffers start filled with a poison pattern (a NaN with a payload for floats, a marker for integers,
  both different on each run), so an element no core writes never matches by accident; what is still poison
  afterwards is counted per output;
- an answer that writes into an input is marked, and its outputs are not accepted unless the task declares that
  input in place: the simulator reports each such write with its source line, core and elements (ASC963), and
  the kernel gets copies of the inputs, compared afterwards with the originals (the backstop);
- the expected outputs are computed apart (bench/harness/evaluate.py draws them) and never placed in the
  simulated memory, which holds only the declared inputs, outputs, workspace and tiling data;
- a run the instruction budget cuts off is not complete: neither correct nor fast.
Across the draws, outputs that stay the same while the expected ones change (an answer that ignores its inputs),
or a pass on one draw and a failure on the other, fail the case with that reason.

Each case's `checks` lists these checks and whether it passed them.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench.harness.stages.array_equal import same_bytes, same_values
from bench.harness.verdict import CaseResult, Finding
from bench.suites import Case, Comparison, Inputs, Task
from bench.suites.model import canonical_dtype

CHECKS = {
    "outputs_written": "every output element is written by a core",
    "inputs_unchanged": "the inputs are unchanged after the run (unless the task updates them in place)",
    "no_dynamic_findings": "the simulator found no error (out of bounds, uninitialised read, race, deadlock, ...)",
    "gm_declared_only": "no access outside the declared GM buffers",
    "within_budget": "the run completed within the instruction budget",
    "within_tolerance": "every output is within the task's tolerance",
    "draws_agree": "every input draw gives the same verdict",
    "follows_inputs": "the outputs change when the inputs do",
}
NOT_MODELLED_CODES = ("ASC958",)  # the simulator cannot run the construct: ours, not the answer's
GM_OUT_OF_BOUNDS = "ASC950"
BUDGET = "ASC957"
OUTPUT_NOT_WRITTEN = "ASC961"  # judged by the poison count (outputs_written), not as a runtime failure
INPUT_WRITTEN = "ASC963"  # a write into an input the task does not update in place (inputs_unchanged)


class SimulatorUnavailable(RuntimeError):
    """passes.sim cannot run kernels here (the simulator's extension is not built)."""


def simulator() -> Any:
    """The simulator's Python API, or SimulatorUnavailable with the reason."""
    try:
        import passes.sim.launch  # noqa: F401  (where passes.sim.run lives)
        import rust_sim._sim  # noqa: F401  (the built extension)
        from passes import sim
    except ImportError as exc:
        raise SimulatorUnavailable(f"not simulated: the simulator is not available ({exc})") from None
    return sim


def simulator_available() -> bool:
    try:
        simulator()
    except SimulatorUnavailable:
        return False
    return True


# ------------------------------------------------------------------ one simulated run


@dataclass
class Run:
    """One simulated launch of an answer on one draw."""

    outputs: dict[str, Any]  # by the task's output names (bfloat16 as float32 values)
    findings: list[Finding]
    completed: bool
    instructions: int = 0
    cycles: float | None = None
    unwritten: dict[str, int] = field(default_factory=dict)
    changed_inputs: list[str] = field(default_factory=list)
    not_modelled: str = ""  # why the simulator could not run it (our limitation), if so
    note: str = ""  # what qualifies a failure (the binding never calls the kernel: binding_source.bypass_reason)
    tiling_key: int | None = None  # the key the host set


def poison_bits(dtype: np.dtype[Any], seed: int) -> int:
    """The poison pattern of one run for an element type: a quiet NaN with a payload for floats, a marker for
    integers; both depend on `seed`."""
    salt = zlib.crc32(seed.to_bytes(8, "little", signed=False)) or 1
    if dtype == np.float16:
        return 0x7E00 | (salt & 0x1FF)
    if dtype == np.float32:
        return 0x7FC00000 | (salt & 0x3FFFFF)
    if dtype == np.float64:
        return 0x7FF8000000000000 | (salt & 0xFFFFFFFFFFFF)
    bits = dtype.itemsize * 8
    return (0xA5A5A5A5A5A5A5A5 ^ salt) & ((1 << bits) - 1)


def poisoned(shape: tuple[int, ...], dtype: np.dtype[Any], seed: int) -> np.ndarray:
    """An array of `shape` and `dtype` filled with the poison pattern (bools: all True, the unlikely value)."""
    if dtype == np.bool_:
        return np.ones(shape, dtype=np.bool_)
    if dtype.kind == "c":  # a complex element is two floats, each poisoned
        return poisoned((*shape, 2), np.dtype(f"f{dtype.itemsize // 2}"), seed).view(dtype).reshape(shape)
    raw = np.dtype(f"u{dtype.itemsize}")
    return np.full(shape, poison_bits(dtype, seed), dtype=raw).view(dtype)


def count_poison(arr: np.ndarray, seed: int) -> int:
    """Elements still holding the poison pattern: floats only. Every pattern of an integer type is a value a
    kernel may compute (an int8 output of 150528 elements holds the one-byte marker ~600 times by chance), so for
    integer outputs the simulator's own count of unwritten bytes (ASC961, from what each byte was written with)
    is the judge."""
    if arr.dtype.kind != "f" or arr.size == 0:
        return 0
    raw = arr.reshape(-1).view(np.dtype(f"u{arr.dtype.itemsize}"))
    return int(np.count_nonzero(raw == poison_bits(arr.dtype, seed)))


def to_sim(value: np.ndarray, dtype: str) -> np.ndarray:
    """An input as the simulator takes it (bfloat16 as uint16 bit patterns), a copy the kernel may write."""
    if canonical_dtype(dtype) == "bfloat16":
        flat = np.ascontiguousarray(value, dtype=np.float32).reshape(-1)
        return (flat.view(np.uint32) >> 16).astype(np.uint16).reshape(np.shape(value))
    return np.array(value, copy=True, order="C")


def sim_bits(value: np.ndarray, dtype: str) -> np.ndarray:
    """The bits `to_sim` gives the simulator for `value`, read in place where they are the array's own (every
    dtype but bfloat16): the inputs-unchanged check compares what the kernel left with them, and a copy of each
    2^26-element input of a big case was a copy too many."""
    if canonical_dtype(dtype) == "bfloat16":
        return to_sim(value, dtype)
    return np.ascontiguousarray(value)


def from_sim(value: np.ndarray, dtype: str) -> np.ndarray:
    if canonical_dtype(dtype) == "bfloat16" and value.dtype == np.uint16:
        return (value.astype(np.uint32).reshape(-1) << 16).view(np.float32).reshape(value.shape)
    return value


def zero_attributes(attrs: list[Any], zeroed: Sequence[int]) -> list[Any]:
    """`attrs` (the op's attributes in its order) with those of `zeroed` 0: what the op reads where the binding
    hands a float attribute over as a C++ float (ASC812, Compiled.zeroed_attrs)."""
    return [0.0 if i in zeroed and isinstance(a, int | float) else a for i, a in enumerate(attrs)]


def simulate(task: Task, case: Case, program: Any, chip: str, inputs: Inputs, expected: dict[str, Any],
             output_dtypes: Sequence[str], seed: int, budget: int | None, replay: bool = False,
             zeroed_attrs: Sequence[int] = ()) -> Run:
    """Run the answer once on `inputs`; the expected outputs give only the output buffers' shapes. With `replay`,
    a MultiKernelBench answer's op binding is replayed around the kernel (bench/harness/binding_replay.py).
    `zeroed_attrs`: the op's attributes (indices) it reads as 0 (Compiled.zeroed_attrs)."""
    note = ""
    if replay:
        from bench.harness.binding_source import bypass_reason
        from bench.harness.replay_run import simulate_binding

        replayed = simulate_binding(task, program, chip, inputs, expected, seed, budget, zeroed_attrs)
        if replayed is not None:
            return replayed
        note = bypass_reason(program)
    else:  # an answer's own aclnn layer, replayed around its kernel (bench/harness/aclnn_replay.py)
        from bench.harness.aclnn_replay import simulate_aclnn

        through, note = simulate_aclnn(task, program, chip, inputs, expected, seed, budget)
        if through is not None:
            return through
    sim = simulator()
    from passes.sim.launch import SimError, run_loaded

    inputs = task.answer_inputs(program, inputs)  # (an answer's own aclnn layer may pass them on reordered)

    tensors: list[Any] = []
    dtypes: list[str | None] = []  # what the arrays' own dtypes cannot say: bfloat16 travels as uint16 bits
    attrs = list(task.attr_values(case).values())  # the declared attributes, then the scalar inputs
    sent: dict[str, Any] = {}  # what the kernel got: an array, or a list of them for a tensor-list input
    for name, value in inputs.values.items():
        if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
            dtype = inputs.dtypes.get(name, str(value[0].dtype))
            sent[name] = [to_sim(v, dtype) for v in value]  # a dynamic input: the kernel gets a tensor list
            tensors.append(sent[name])
            dtypes.append(canonical_dtype(dtype))
        elif isinstance(value, np.ndarray):
            sent[name] = to_sim(value, inputs.dtypes.get(name, str(value.dtype)))
            tensors.append(sent[name])
            dtypes.append(canonical_dtype(inputs.dtypes.get(name, str(value.dtype))))
        elif value is None:
            tensors.append(None)
            dtypes.append(None)
        else:
            attrs.append(list(value) if isinstance(value, tuple) else value)
    attrs = zero_attributes(attrs + list(inputs.attrs), zeroed_attrs)
    aliased = {o.name: o.aliases for o in task.outputs if o.aliases}
    inplace = set(task.inplace) | set(aliased.values())  # inputs the kernel may write
    out_buffers: list[Any] = []  # an array per output, a list of arrays for a tensor-list output
    initial_fills = {o.name: o.initial for o in task.outputs if o.initial is not None}
    out_names: list[str] = []
    for (name, exp), dtype in zip(expected.items(), output_dtypes):
        if name in aliased:
            continue
        np_dtype = np.dtype(np.uint16) if canonical_dtype(dtype) == "bfloat16" else np.dtype(canonical_dtype(dtype))
        fill = initial_fills.get(name)
        if isinstance(exp, list):
            out_buffers.append([_initial(tuple(np.asarray(e).shape), np_dtype, dtype, fill, seed) for e in exp])
        else:
            out_buffers.append(_initial(tuple(np.asarray(exp).shape), np_dtype, dtype, fill, seed))
        out_names.append(name)
        dtypes.append(canonical_dtype(dtype))
    given_outputs: Any = out_buffers
    op_outputs = [o.name for o in task.outputs if not o.aliases]
    if out_names != op_outputs[:len(out_names)] and all(n in op_outputs for n in out_names):
        # some of the op's outputs, not its first ones (AddLayerNorm's binding returns x and y of y, mean, rstd,
        # x): given by name, the others get the buffers InferShape gives them
        given_outputs = dict(zip(out_names, out_buffers))
        by_name = dict(zip(out_names, dtypes[len(dtypes) - len(out_names):]))
        allocated = getattr(task, "binding_buffers", None)  # (test doubles of a Task may not have it)
        for name, (shape, dtype) in (allocated(case, inputs) if allocated is not None else {}).items():
            if name in op_outputs and name not in given_outputs:
                # not returned, not compared, but the kernel writes the buffer the binding made
                np_dtype = np.dtype(np.uint16) if dtype == "bfloat16" else np.dtype(dtype)
                given_outputs[name] = _initial(shape, np_dtype, dtype, None, seed)
                by_name[name] = dtype
        dtypes = dtypes[:len(dtypes) - len(out_names)] + [by_name.get(n) for n in op_outputs]
    try:
        result = run_loaded(program, chip, tensors, attrs, outputs=given_outputs, inplace=sorted(inplace),
                            budget=budget or sim.DEFAULT_BUDGET, dtypes=dtypes)
    except SimError as exc:
        return Run({}, [], False, not_modelled=str(exc))
    findings = [Finding.of(d) for d in result.findings]
    # an output the framework filled before the launch keeps that value where no core writes: not a finding. The
    # simulator names an output by the kernel's parameter, which need not be the op's name for it (NPUKernelBench
    # GroupedMatmulSliceKPerTokenDequant: output 'c', parameter 'd'): with every output filled, none is.
    all_filled = bool(initial_fills) and all(n in initial_fills for n in out_names)
    findings = [f for f in findings if f.code != OUTPUT_NOT_WRITTEN
                or not (all_filled or any(f"output '{n}'" in f.message for n in initial_fills))]
    not_modelled = next((f.message for f in findings if f.code in NOT_MODELLED_CODES or host_not_modelled(f)), "")
    outputs: dict[str, Any] = {}
    unwritten: dict[str, int] = {}
    for name, buf, dtype in zip(out_names, out_buffers, [d for n, d in zip(expected, output_dtypes)
                                                          if n not in aliased]):
        unwritten[name] = sum(_unwritten(b, dtype, seed) for b in _tensors(buf))
        outputs[name] = [from_sim(b, dtype) for b in buf] if isinstance(buf, list) else from_sim(buf, dtype)
    changed = []
    for name, arr in sent.items():
        if name in inplace:
            continue
        given = _tensors(inputs.values[name])
        dtype = inputs.dtypes.get(name, str(given[0].dtype) if given else "")
        if any(not same_bytes(a, sim_bits(g, dtype)) for a, g in zip(_tensors(arr), given)):
            changed.append(name)
    for out_name, input_name in aliased.items():
        if input_name in sent:
            dtype = inputs.dtypes.get(input_name, "")
            got = sent[input_name]
            outputs[out_name] = [from_sim(a, dtype) for a in got] if isinstance(got, list) else from_sim(got, dtype)
    return Run(outputs, findings, bool(result.completed), int(result.instructions),
               float(result.cycles) if result.cycles is not None else None, unwritten, changed, not_modelled, note,
               result.tiling_key)


def _initial(shape: tuple[int, ...], np_dtype: np.dtype[Any], dtype: str, fill: float | None,
             seed: int) -> np.ndarray:
    """An output buffer as the kernel finds it: the poison pattern, or the value the task's framework fills the
    output with before the launch (TensorDecl.initial), which the elements no core writes keep."""
    if fill is None:
        return poisoned(shape, np_dtype, seed)
    return to_sim(np.full(shape, fill, dtype=np.float32 if canonical_dtype(dtype) == "bfloat16" else np_dtype), dtype)


def _tensors(value: Any) -> list[np.ndarray]:
    """The arrays of an input or output: a tensor list's items, else the one array."""
    return list(value) if isinstance(value, list) else [value]


def _unwritten(buf: np.ndarray, dtype: str, seed: int) -> int:
    """How many elements of an output buffer still hold the run's poison pattern."""
    if canonical_dtype(dtype) != "bfloat16":
        return count_poison(buf, seed)
    return int(np.count_nonzero(buf == (poison_bits(np.dtype(np.float16), seed) & 0xFFFF)))


def host_not_modelled(f: Finding) -> bool:
    """A host tiling function that could not be run because the host interpreter does not model or lower
    something in it (its notes carry lowering codes, ASC1xx), or because it reads an input or attribute the
    harness does not have (the op takes more than the reference's arguments): our limitation, not a failure."""
    return f.code == "ASC602" and ("[ASC1" in f.message or "inputs were given" in f.message
                                   or "attributes were given" in f.message)


# ------------------------------------------------------------------ one case, all draws


def check_case(task: Task, case: Case, program: Any, chip: str,
               draws: Sequence[tuple[Inputs, dict[str, Any]]], output_dtypes: Callable[[Inputs], list[str]],
               budget: int | None, result: CaseResult, replay: bool = False,
               keyed: Sequence[tuple[Finding, int]] = (), zeroed_attrs: Sequence[int] = ()) -> list[Run]:
    """Run every draw of the case and fill `result` (status, reason, findings, checks, unwritten counts); `replay`
    replays the answer's op binding around the kernel (simulate). `keyed`: errors the build accepts in code one
    tiling key runs (Compiled.keyed): a run whose host sets that key fails with them. `zeroed_attrs`: attributes
    the op reads as 0 (Compiled.zeroed_attrs)."""
    runs: list[Run] = []
    verdicts: list[bool] = []
    checks = dict.fromkeys(CHECKS, True)
    reasons: list[str] = []
    for k, (inputs, expected) in enumerate(draws):
        seed = inputs.seed
        run = simulate(task, case, program, chip, inputs, expected, output_dtypes(inputs), seed, budget, replay,
                       zeroed_attrs)
        # outputs the binding does not return for these arguments are not compared, nor must they be written; nor
        # those the reference does not return (the benchmark zips the reference's outputs with the answer's: a
        # ModelNew returning only dx of GroupNormSwishGrad's dx, dgamma, dbeta leaves dgamma and dbeta unjudged)
        skip = set(task.uncompared(case, inputs)) | {o.name for o in task.outputs if o.name not in expected}
        if skip:
            run.findings = [f for f in run.findings if f.code != OUTPUT_NOT_WRITTEN
                            or not any(f"output '{n}'" in f.message for n in skip)]
            run.unwritten = {n: c for n, c in run.unwritten.items() if n not in skip}
            expected = {n: e for n, e in expected.items() if n not in skip}
        runs.append(run)
        if run.not_modelled:
            result.status = "skipped"
            result.reason = f"not evaluated: {run.not_modelled}"
            result.sim_findings = run.findings
            return runs
        errors = [f for f in run.findings if f.severity == "error" and f.code != OUTPUT_NOT_WRITTEN]
        errors += [f for f, key in keyed if run.tiling_key == key and f not in errors]
        result.sim_findings += [f for f in run.findings if f not in result.sim_findings]
        for name, n in run.unwritten.items():
            result.unwritten[name] = max(result.unwritten.get(name, 0), n)
        settle = getattr(task, "settle_ties", None)  # (test doubles of a Task may not have it)
        if settle is not None:
            expected = settle(case, inputs, expected, run.outputs)
        comparisons = task.compare(case, expected, run.outputs)
        result.outputs[f"draw{k}"] = {n: c.to_json() for n, c in comparisons.items()}
        ok = True
        if not run.completed:
            checks["within_budget"] = checks["within_budget"] and not any(f.code == BUDGET for f in errors)
            result.budget_cut = result.budget_cut or any(f.code == BUDGET for f in errors)
        if any(f.code == GM_OUT_OF_BOUNDS for f in errors):
            checks["gm_declared_only"] = False
        if errors or not run.completed:
            checks["no_dynamic_findings"] = False
            first = errors[0].render() if errors else "the run did not complete"
            reasons.append(f"draw {k}: {first}")
            ok = False
        not_written = [f for f in run.findings if f.code == OUTPUT_NOT_WRITTEN]
        if any(run.unwritten.values()) or not_written:
            checks["outputs_written"] = False
            parts = ", ".join(f"{n}: {c} of {sum(np.asarray(t).size for t in _tensors(expected[n]))}"
                              for n, c in run.unwritten.items() if c)
            # bool outputs hold no poison pattern: the simulator's own count (ASC961) says it for them
            reasons.append(f"draw {k}: output elements no core wrote ({parts or not_written[0].message})")
            ok = False
        written = [f for f in run.findings if f.code == INPUT_WRITTEN]
        if written or run.changed_inputs:
            checks["inputs_unchanged"] = False
            if written:  # the simulator's finding says where: the instruction's line, the core, the elements
                reasons.append(f"draw {k}: the kernel writes into an input the task does not update in place: "
                               f"{written[0].render()}")
            else:  # the copy taken before the run differs, with no write seen (the backstop)
                reasons.append(f"draw {k}: the kernel wrote into its input{'s' * (len(run.changed_inputs) > 1)} "
                               f"{', '.join(run.changed_inputs)}, which the task does not update in place")
            ok = False
        bad = {n: c for n, c in comparisons.items() if not c.ok}
        if bad:
            checks["within_tolerance"] = False
            name, c = next(iter(bad.items()))
            reasons.append(f"draw {k}: output '{name}': {c.reason or 'outside the tolerance'} (max abs error "
                           f"{c.max_abs:.3g}, max rel error {c.max_rel:.3g})")
            ok = False
        verdicts.append(ok)
    # what the draws show together comes first, unless a run was stopped or flagged (then that finding is the
    # reason: identical outputs of two failed runs say nothing about the answer ignoring its inputs)
    runtime = not checks["no_dynamic_findings"] or not checks["within_budget"]
    at = len(reasons) if runtime else 0
    if len(set(verdicts)) > 1:
        checks["draws_agree"] = False
        reasons.insert(at, "the answer passes one input draw and fails another")
    if len(runs) > 1 and _ignores_inputs(draws, runs):
        checks["follows_inputs"] = False
        reasons.insert(at, "the outputs do not change with the inputs: two draws give identical outputs where the "
                           "expected ones differ")
    result.checks = checks
    cycles = [r.cycles for r in runs if r.cycles is not None]
    result.cycles = cycles[0] if cycles and len(cycles) == len(runs) else None
    if all(checks.values()):
        result.status, result.reason = "pass", ""
    else:
        # a run the simulator stopped or flagged is a runtime failure; otherwise the outputs are wrong
        result.status = "error" if runtime else "fail"
        result.reason = reasons[0] if reasons else "failed"
        if runs[-1].note:
            result.reason = f"{runs[-1].note}; {result.reason}"
    return runs


def _ignores_inputs(draws: Sequence[tuple[Inputs, dict[str, Any]]], runs: Sequence[Run]) -> bool:
    (_, exp_a), (_, exp_b) = draws[0], draws[1]
    run_a, run_b = runs[0], runs[1]
    differs = False
    for name, a in exp_a.items():
        b = exp_b.get(name)
        if b is None or not _same_shapes(a, b):
            return False
        if not all(same_values(x, y) for x, y in zip(_tensors(a), _tensors(b))):
            differs = True
    if not differs:
        return False
    for name in exp_a:
        oa, ob = run_a.outputs.get(name), run_b.outputs.get(name)
        if oa is None or ob is None or not _same_shapes(oa, ob):
            return False
        if not all(same_bytes(x, y) for x, y in zip(_tensors(oa), _tensors(ob))):
            return False
    return True


def _same_shapes(a: Any, b: Any) -> bool:
    """Whether two outputs (arrays, or lists of arrays) have the same shapes."""
    ta, tb = _tensors(a), _tensors(b)
    return isinstance(a, list) == isinstance(b, list) and len(ta) == len(tb) and all(
        np.asarray(x).shape == np.asarray(y).shape for x, y in zip(ta, tb))


def comparisons_ok(comparisons: dict[str, Comparison]) -> bool:
    return all(c.ok for c in comparisons.values())
