"""The cores' runs with concrete shapes: the sampled footprints of each kernel, pairs of neighbouring cores,
every core's run within a budget (every_core), the values a call computes on each core (observed_values), and
the extents of the GM tensors the shapes give.
"""

from __future__ import annotations

from typing import NamedTuple

from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from passes.verify.footprint import CoreRun
from passes.verify.ir import kernels_of
from passes.verify.kernel_only import op_description
from passes.verify.project import cached
from passes.verify.rules import CheckContext


def footprints(ctx: CheckContext) -> list[tuple[asc.KernelOp, int, dict[int, CoreRun]]]:
    """Per kernel: blockDim and the GM accesses of the sampled cores (0, 1, the last two), for the shapes
    given; empty without shapes. Computed once per check run."""
    from passes.verify.footprint import run_core

    def compute() -> list[tuple[asc.KernelOp, int, dict[int, CoreRun]]]:
        if ctx.tiling is None or not ctx.tiling.succeeded or not ctx.tiling.block_dim:
            return []
        dim = ctx.tiling.block_dim
        out = []
        for kernel in kernels_of(ctx):
            cores = sorted({0, min(1, dim - 1), max(dim - 2, 0), dim - 1})
            out.append((kernel, dim, {core: run_core(kernel, core, dim) for core in cores}))
        return out
    return cached(ctx, "coverage.footprints", compute)


def neighbouring_cores(dim: int, runs: dict[int, CoreRun]) -> list[tuple[int, int]]:
    """The pairs of neighbouring cores whose slices are compared: the first two and the last two that ran."""
    return [(a, b) for a, b in ((0, 1), (dim - 2, dim - 1)) if a != b and a in runs and b in runs]


def _dtype_bytes(name: str) -> int | None:
    """Bytes per element of a numpy-style dtype name ("float16"), or None for one we do not know."""
    from ascendir.dialects.host import GE_DATA_TYPE_SIZES
    from ascendir.host_eval import HostEvalError, ge_dtype

    try:
        return GE_DATA_TYPE_SIZES.get(ge_dtype(name))
    except HostEvalError:
        return None


class Extent(NamedTuple):
    """An op input or output whose shape is known, as the rules name it."""

    kind: str  # "input", "output", or "tensor" (a kernel-only answer's parameter, neither told apart)
    name: str
    nbytes: int
    shape: str  # "10x100 float32"
    elem: int  # bytes per element


def tensor_extents(ctx: CheckContext, kernel: asc.KernelOp, output: bool) -> dict[int, Extent]:
    """Kernel argument index -> extent of the op inputs (or outputs) whose shapes are known: given, or for an
    output the binding's allocation or the host InferShape gives (run_tiling).

    The build passes a kernel its GM_ADDR arguments in op order: inputs, outputs, then workspace and tiling;
    the mapping is only used when the kernel's parameter count says it follows that convention."""
    given = ctx.tiling.inputs if ctx.tiling is not None else None
    desc = op_description(ctx.program) if given is not None and ctx.program is not None else None
    if given is None or desc is None:
        return {}
    inputs = [str(d.get("name")) for d in desc.get("input_desc") or []]
    outputs = [str(d.get("name")) for d in desc.get("output_desc") or []]
    params = [a for a in kernel.body.blocks[0].args if isinstance(a.type, asc.GmPtrType)]
    if len(params) not in (len(inputs) + len(outputs), len(inputs) + len(outputs) + 1,
                           len(inputs) + len(outputs) + 2):
        return {}
    if desc.get("kernel_only"):
        # a kernel-only answer: each shape is its GM parameter's; the ones the kernel writes are its outputs
        # (output_not_fully_written keeps those)
        names, specs, first = inputs, given.inputs, 0
    else:
        names, specs, first = (outputs, given.outputs, len(inputs)) if output else (inputs, given.inputs, 0)
    out: dict[int, Extent] = {}
    for i, spec in enumerate(specs[:len(names)]):
        size = _dtype_bytes(spec.dtype) if spec is not None else None
        if spec is None or size is None:
            continue
        count = 1
        for d in spec.shape:
            count *= d
        # a kernel-only answer's parameters are not told apart as inputs and outputs: each is a 'tensor'
        kind = "tensor" if desc.get("kernel_only") else "output" if output else "input"
        out[params[first + i].index] = Extent(kind, names[i], count * size,
                                              f"{'x'.join(map(str, spec.shape))} {spec.dtype}", size)
    return out


ALL_CORES_BUDGET = 2_000_000  # ops over all cores of one kernel; a launch that needs more is not followed


def _all_cores(ctx: CheckContext, kernel: asc.KernelOp, dim: int, sampled: dict[int, CoreRun]
               ) -> tuple[list[CoreRun], bool]:
    """The runs of the launch's cores in order, as far as ALL_CORES_BUDGET goes (a run may have stopped early),
    and whether that budget was spent. Computed once per kernel."""
    from passes.verify.footprint import STEP_BUDGET, run_core

    def compute() -> tuple[list[CoreRun], bool]:
        left = ALL_CORES_BUDGET
        out = []
        for core in range(dim):
            if left <= 0:
                return out, True
            run = sampled.get(core) or run_core(kernel, core, dim, min(STEP_BUDGET, left))
            left -= run.steps
            out.append(run)
        return out, left <= 0
    return cached(ctx, ("coverage.all_cores", id(kernel)), compute)


def every_core(ctx: CheckContext, kernel: asc.KernelOp, dim: int, sampled: dict[int, CoreRun]
               ) -> list[CoreRun] | None:
    """The GM accesses of every core of the launch, or None when a core's run stopped early, a write's bytes
    were not known, or the runs together would take more than the budget."""
    runs, spent = _all_cores(ctx, kernel, dim, sampled)
    if spent or len(runs) < dim or any(run.stopped is not None or run.unknown_writes for run in runs):
        return None
    return runs


def observed_values(ctx: CheckContext, op: Operation, name: str) -> list[tuple[int, int]]:
    """For the given shapes: (core, value) of `name` (a parameter of `op`, or `padParams.rightPadding`) as the
    launch's cores compute it, each distinct value with the first core that computes it, from the runs of
    every core the budget allows (CoreRun.observed; a run that stopped early still counts for what it ran).
    Empty without shapes."""
    def compute() -> dict[tuple[Operation, str], list[tuple[int, int]]]:
        found: dict[tuple[Operation, str], list[tuple[int, int]]] = {}
        for kernel, dim, sampled in footprints(ctx):
            for run in _all_cores(ctx, kernel, dim, sampled)[0]:
                for key, values in run.observed.items():
                    seen = found.setdefault(key, [])
                    seen.extend((run.block_idx, v) for v in values if all(v != w for _, w in seen))
        return found
    return cached(ctx, "coverage.observed", compute).get((op, name), [])
