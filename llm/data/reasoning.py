"""Reasoning derived from the IR of a reference solution for one test case, true by construction.

The host tiling function runs on the case's shapes (the same interpreter `ascendc-check --shape` uses) and
its values are folded into the kernel's IR; the text then states what the program does: the problem size,
how many cores the split uses and what each gets (per-core share and remainder), the UB tile and the buffers
the TPipe hands out (count, bytes, their share of the chip's UB), and the pipeline of the main loop
(the queue and data-movement ops and the vector instructions between them, in program order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.suites import Case, Task

_SIZES = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1, "uint8": 1, "int16": 2, "int32": 4,
          "int64": 8, "bool": 1}


@dataclass
class Plan:
    """What the reasoning says, as data (tests compare it with the IR)."""

    case: str
    elements: dict[str, int]
    block_dim: int | None
    tiling_key: int | None
    fields: dict[str, Any]
    buffers: list[tuple[str, str, int, int | None]] = field(default_factory=list)  # name, position, num, bytes
    ub_bytes: int = 0
    pipeline: list[str] = field(default_factory=list)
    cores: int = 0
    # per core that ran: (elements of the outputs it writes, how many GM writes that took), from running the
    # kernel's address arithmetic for that block index (passes.verify.footprint)
    shares: list[tuple[int, int]] = field(default_factory=list)


def plan(task: Task, case: Case) -> Plan:
    """The solution's tiling and pipeline for `case`, from its lowered IR with the tiling folded in."""
    from xdsl.dialects import scf

    from ascendir import dialects as _  # noqa: F401  (registers the dialects)
    from ascendir.chips import load_chip
    from ascendir.dialects import ascendc as asc
    from ascendir.lower import LoweringOptions, dtype_bindings, lower_program
    from bench.harness.evaluate import draw
    from bench.harness.stages.compile import Compiled, tiling_inputs
    from frontend.readers import read_input
    from passes.verify import load_for_check, run_tiling
    from passes.verify.alignment import fold_int

    if task.solution is None:
        raise ValueError(f"task {task.name} has no reference solution")
    program, chip = load_for_check(read_input(task.solution, "project"), task.chip)
    inputs, expected = draw(task, case, 0)
    shapes = tiling_inputs(task, case, inputs, expected, Compiled(program, chip))
    if shapes is None:
        raise ValueError(f"task {task.name}, case {case.id}: no static shapes (a list input)")
    dtypes = dtype_bindings(program, [t.dtype for t in shapes.inputs if t is not None])
    module = lower_program(program, LoweringOptions(chip=chip, dtypes=dtypes)).module
    tiling = run_tiling(program, module, shapes, chip)
    if not tiling.succeeded:
        raise ValueError(f"task {task.name}, case {case.id}: the tiling function fails: {tiling.diagnostics}")
    names: dict[Any, tuple[str, str]] = {}
    buffers = []
    pipeline: list[str] = []
    loop_ops: list[Any] = []
    for op in module.walk():
        if isinstance(op, (asc.TQueOp, asc.TBufOp)):
            names[op.result] = (op.var_name.data, op.result.type.position.data)
        elif isinstance(op, asc.InitBufferOp) and op.buffer in names:
            name, position = names[op.buffer]
            num = fold_int(op.num) if op.num is not None else 1
            length = fold_int(op.length)
            buffers.append((name, position, int(num or 1), int(length) if length is not None else None))
        elif isinstance(op, (scf.ForOp, scf.WhileOp)) and not loop_ops:
            loop_ops = [o for o in op.walk() if o is not op]
    for op in loop_ops:
        step = _step(op, names, asc)
        if step and (not pipeline or pipeline[-1] != step):
            pipeline.append(step)
    elements = {name: math.prod(shape) for name, shape in case.shapes.items() if isinstance(shape, tuple)}
    ub = sum(num * (math.ceil(length / 32) * 32) for _, _, num, length in buffers if length is not None)
    kernel = next((k for k in module.walk() if isinstance(k, asc.KernelOp) and k.sym_name.data == task.kernel_name),
                  None)
    outputs = range(len(task.inputs), len(task.inputs) + len([o for o in task.outputs if o.aliases is None]))
    shares = _shares(kernel, tiling.block_dim or 1, set(outputs)) if kernel is not None else []
    return Plan(case.id, elements, tiling.block_dim, tiling.tiling_key, dict(tiling.fields), buffers, ub, pipeline,
                load_chip(chip).aiv_cores, shares)


def _shares(kernel: Any, block_dim: int, outputs: set[int]) -> list[tuple[int, int]]:
    """(output elements written, GM writes) per core, while every core's run reaches its end."""
    from passes.verify.footprint import elem_bytes, run_core

    out = []
    for idx in range(block_dim):
        run = run_core(kernel, idx, block_dim)
        if run.stopped or run.unknown_writes:
            return []
        writes = [a for a in run.accesses if a.write and a.arg in outputs]
        size = next((elem_bytes(a.op.operands[0].type) for a in writes if elem_bytes(a.op.operands[0].type)), None)
        covered: set[tuple[int, int]] = set()
        for a in writes:
            covered.update((a.arg, b) for b in range(a.offset, a.offset + a.size))
        out.append((len(covered) // (size or 1), len(writes)))
    return out


def _runs(shares: list[tuple[int, int]]) -> list[tuple[int, int, tuple[int, int]]]:
    """Consecutive cores with the same share: (first core, last core, share)."""
    out: list[tuple[int, int, tuple[int, int]]] = []
    for idx, share in enumerate(shares):
        if out and out[-1][2] == share and out[-1][1] == idx - 1:
            out[-1] = (out[-1][0], idx, share)
        else:
            out.append((idx, idx, share))
    return out


def _step(op: Any, names: dict[Any, tuple[str, str]], asc: Any) -> str | None:
    """One pipeline step in words, or None for ops that are not queue, copy or vector work."""
    def queue(value: Any) -> str:
        return names.get(value, ("a queue", ""))[0]

    if isinstance(op, asc.AllocTensorOp):
        return f"AllocTensor({queue(op.operands[0])})"
    if isinstance(op, asc.EnQueOp):
        return f"EnQue({queue(op.operands[0])})"
    if isinstance(op, asc.DeQueOp):
        return f"DeQue({queue(op.operands[0])})"
    if isinstance(op, asc.FreeTensorOp):
        return f"FreeTensor({queue(op.operands[0])})"
    if isinstance(op, asc.ApiCallOp) and op.FAMILY not in ("system", "struct"):
        api = op.api.data
        if api.startswith("DataCopy"):
            overload = op.overload.data
            direction = "GM->UB" if "gm_to_local" in overload or "gm2" in overload else (
                "UB->GM" if "local_to_gm" in overload else "")
            return f"{api} {direction}".strip()
        return api
    return None


def describe(task: Task, p: Plan, dtype_size: int) -> str:
    """The plan as the reasoning text of an answer."""
    total = max(p.elements.values()) if p.elements else 0
    lines = [f"Plan for case {p.case} ({', '.join(f'{n}: {v} elements' for n, v in p.elements.items())}):"]
    f = p.fields
    if p.block_dim is not None:
        lines.append(f"- The host tiling runs {p.block_dim} of the {p.cores} AIV cores (blockDim {p.block_dim}).")
    if f:
        lines.append("- Tiling data: " + ", ".join(f"{k} = {v}" for k, v in f.items()) + ".")
    if p.shares:
        parts = []
        for first, last, (count, writes) in _runs(p.shares):
            who = f"core {first}" if first == last else f"cores {first}..{last}"
            parts.append(f"{who} write{'s' * (first == last)} {count} output elements"
                         + (f" in {writes} cop{'ies' if writes != 1 else 'y'} out" if count else ""))
        written = sum(c for c, _ in p.shares)
        lines.append("- Per-core share: " + "; ".join(parts) + f" ({written} in all, each element by one core).")
    if "tileLength" in f:
        lines.append(f"- UB tile: {f['tileLength']} elements ({int(f['tileLength']) * dtype_size} bytes), so a core "
                     f"loops over ceil(share / {f['tileLength']}) tiles; the last tile of a core may be partial.")
    for name, position, num, length in p.buffers:
        size = f"{length} bytes" if length is not None else "a length set at run time"
        lines.append(f"- {name} ({position}): {num} buffer{'s' * (num > 1)} of {size}"
                     + (" (double buffered: the next tile's transfer overlaps this tile's work)" if num == 2 else "")
                     + ".")
    if p.ub_bytes:
        lines.append(f"- UB in use: {p.ub_bytes} bytes of the chip's UB, 32-byte aligned.")
    if p.pipeline:
        lines.append("- Per tile: " + " -> ".join(p.pipeline) + ".")
    if p.tiling_key is not None:
        lines.append(f"- Tiling key {p.tiling_key} selects the kernel branch.")
    return "\n".join(lines)


def reasoning(task: Task, case: Case) -> tuple[str, Plan]:
    p = plan(task, case)
    size = _SIZES.get(case.dtype, 4)
    return describe(task, p, size), p
