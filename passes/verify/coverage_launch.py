"""Tiling rules on the launch itself: the host tiling function fails for the given shapes (ASC602), and a GM
output every core of a multi-core launch writes alike (ASC603).
"""

from __future__ import annotations

from xdsl.ir import Operation

from frontend.diagnostics import Note, Severity
from passes.verify.coverage_block_dim import block_dim
from passes.verify.coverage_gm_ops import tells_cores_apart, writes_gm
from passes.verify.ir import kernels_of, walk_of
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC602", "tiling-function-fails", "tiling",
    summary="The host tiling function fails for the given input shapes.",
    why="The host runs TilingFunc before every launch; when it returns GRAPH_FAILED or faults (a division "
        "by zero, an index past a shape's rank), aclnn reports `EZ9999: Inner Error` and the kernel never "
        "runs. The Matmul API's `GetTiling` counts too: it returns -1 (`do tiling failed, ret is -1`) for a "
        "fixed split whose base blocks do not fit L0A, L0B or L0C, a baseN over 256 with a bias on the 910B, "
        "a fixed base larger than M or N, or a zero M, N or K. Only checked when concrete shapes are given "
        "(`--shape`, `--test-case`).",
    example="if (shape.GetDimNum() != 2) { return ge::GRAPH_FAILED; }   // called with a 3-D input",
    instead="handle every rank and size the operator accepts, or reject them in InferShape with a message",
)
def tiling_function_fails(ctx: CheckContext) -> None:
    result = ctx.tiling
    if result is None or result.succeeded:
        return
    notes = [Note(m) for m in result.diagnostics[1:4]]
    if result.status is None and result.failure_op is None:
        ctx.report(None, "the host tiling function could not be run for the given shapes: "
                   + (result.diagnostics[0] if result.diagnostics else "nothing to run"), *notes,
                   severity=Severity.WARNING)
        return
    failures = [m for m in result.diagnostics if "not modelled" not in m] or result.diagnostics
    message = failures[0] if failures else "the tiling function failed"
    where = result.failure_op if result.failure_op is not None and result.failure_op.location else None
    if result.missing_inputs:  # the caller gave too few shapes or attributes: not the program's fault
        ctx.report(where, f"the shapes given are not enough to run the tiling function: {message}",
                   Note("give a --shape for every input of the op, in op order (and --attr for its attributes)",
                        kind="help"), severity=Severity.WARNING)
        return
    if not result.complete:  # the lowering left parts out: the failure may be ours, not the program's
        ctx.report(where, f"for the given shapes, {message}", Note(
            "the host lowering does not model all of this function, so this may not happen on the device"),
            severity=Severity.WARNING)
        return
    ctx.report(where, f"for the given shapes, {message}", *notes)


@rule(
    "ASC603", "output-written-by-every-core", "tiling",
    summary="The kernel runs on several cores but never reads GetBlockIdx(): every core writes the same output.",
    why="All blocks of a launch run the same code; without GetBlockIdx() they compute the same elements and "
        "write them to the same global addresses at once. When every write stores the same values the result "
        "survives, but the work is done blockDim times over; atomic accumulations, in-place updates and "
        "anything that reads the output back come out wrong. A warning: the stores alone are not provably "
        "a wrong result.",
    severity=Severity.WARNING,
    example="context->SetBlockDim(8);\n...\nDataCopy(yGm[i * tileLength], yLocal, tileLength);   // no GetBlockIdx()",
    instead="xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);",
)
def output_written_by_every_core(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    cores = dim.more_than_one
    if cores is None:
        return
    for kernel in kernels_of(ctx):
        first_write: Operation | None = None
        for op in walk_of(kernel):
            if tells_cores_apart(op):
                first_write = None
                break
            if first_write is None and writes_gm(op):
                first_write = op
        if first_write is not None:
            ctx.report(first_write, f"every one of the {cores} cores writes this: the kernel never reads "
                       "GetBlockIdx(), so all blocks compute and store the same elements",
                       Note(f"{dim.source}"),
                       Note("give each core its own slice: offset the GlobalTensors by "
                            "GetBlockIdx() * blockLength", kind="help"))
