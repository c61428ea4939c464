"""The host InferShape function against the op's outputs (ASC907).

InferShape is lowered to IR (`ascendir.lower.host.lower_host_infer_shape`): every `context->GetOutputShape(i)`
is one `host.output_shape_buffer` op, and what writes the shape (`*y = *x`, SetDimNum, SetDim, AppendDim) uses
its result. An output whose shape no op writes on any path is never set.
"""

from __future__ import annotations

from xdsl.ir import Operation

from ascendir.dialects import host as hd
from frontend.diagnostics import Note
from passes.verify.project import cached, op_info
from passes.verify.rules import CheckContext, rule

# ops that write the gert::Shape their first operand names
_SHAPE_WRITES = (hd.ShapeAssignOp, hd.ShapeSetDimNumOp, hd.ShapeSetDimOp, hd.ShapeAppendDimOp)


def _written_outputs(ctx: CheckContext) -> tuple[Operation, set[int]] | None:
    """The InferShape function (its func.func) and the indices of the outputs whose shapes it writes on some
    path; None without one, or when the lowering left something out or an index is computed (a loop over the
    outputs), where the writes are not all known."""
    from xdsl.dialects import func

    from ascendir.lower.host import lower_host_infer_shape

    assert ctx.program is not None
    lowered = lower_host_infer_shape(ctx.program)
    if lowered.module is None or lowered.diagnostics:
        return None
    entry = next((op for op in lowered.module.ops if isinstance(op, func.FuncOp)), None)
    if entry is None:
        return None
    written: set[int] = set()
    for op in lowered.module.walk():
        if isinstance(op, func.CallOp):
            return None  # a helper not inlined may write the shapes
        if not isinstance(op, hd.OutputShapeBufferOp):
            continue
        if op.at is not None:
            return None
        if any(isinstance(use.operation, _SHAPE_WRITES) and use.index == 0 for use in op.result.uses):
            written.add(op.index.value.data)
    return entry, written


@rule(
    "ASC907", "infer-shape-output-not-set", "host",
    summary="The host InferShape function never sets the shape of one of the op's outputs (typically it sets "
            "the first output's and forgets the others of a multi-output op).",
    why="The framework allocates each output with the shape InferShape gives it. An output whose gert::Shape "
        "InferShape never writes keeps an empty (rank 0) or undefined shape: graph compilation fails, or the "
        "output gets no memory and the kernel writes into memory that is not its own. Projects whose Python "
        "binding allocates the outputs itself (`at::empty_like(x)` passed to EXEC_NPU_CMD) do not run "
        "InferShape and are not checked.",
    example="*context->GetOutputShape(0) = *context->GetInputShape(0);   // op outputs y0 and y1; y1 never set",
    instead="*context->GetOutputShape(0) = *context->GetInputShape(0);\n"
            "*context->GetOutputShape(1) = *context->GetInputShape(1);",
)
def infer_shape_output_not_set(ctx: CheckContext) -> None:
    if ctx.program is None:
        return
    from passes.verify import binding_outputs

    op = op_info(ctx)
    if op is None or not op.outputs or not _all_required_outputs(ctx):
        return
    if binding_outputs(ctx.program) is not None:
        return  # the binding allocates the outputs: InferShape does not run
    found = cached(ctx, "infer_shape.written", lambda: _written_outputs(ctx))
    if found is None:
        return
    entry, written = found
    missing = [i for i in range(len(op.outputs)) if i not in written]
    if not missing:
        return
    names = ", ".join(f"{i} ('{op.outputs[i]}')" for i in missing)
    plural = "s" if len(missing) > 1 else ""
    set_ones = ", ".join(f"'{op.outputs[i]}'" for i in sorted(written) if i < len(op.outputs))
    notes = [Note(f"op {op.name} has {len(op.outputs)} outputs; InferShape sets "
                  + (f"only {set_ones}" if set_ones else "none of them"))]
    notes.append(Note("set each output's shape: *context->GetOutputShape(i) = ... (or SetDimNum and SetDim)",
                      kind="help"))
    ctx.report(entry, f"InferShape never sets the shape of output{plural} {names}", *notes)


def _all_required_outputs(ctx: CheckContext) -> bool:
    """Whether the op json (when there is one) declares every output required: an optional or dynamic (list)
    output need not be set, and a list output's index is not its position."""
    assert ctx.program is not None
    for op in (ctx.program.bundle.op_json or [])[:1]:
        for desc in op.get("output_desc") or []:
            kind = str(desc.get("param_type", "required")).lower() if isinstance(desc, dict) else "required"
            if kind != "required":
                return False
    return True

