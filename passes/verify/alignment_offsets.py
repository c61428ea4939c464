"""Alignment rules on where operands start: a UB sub-tensor `t[off]` passed to an API off the 32-byte grid, at
a constant offset or in a loop's second iteration (ASC404), TBuf::GetWithOffset at a byte offset off the grid
for a tensor a vector or DMA call takes (ASC405), and an L0A / L0B / L0C sub-tensor off its 512-byte or
64-byte grid (ASC406).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from xdsl.dialects import memref, scf
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.op_index import module_index
from passes.verify.rules import CheckContext, rule
from passes.verify.value_fold import elem_bytes, fold_int, sub_tensor_chain, sub_tensor_offset

if TYPE_CHECKING:
    from passes.verify.congruence import Reader


# API families whose tensor operands must start on the memory's alignment. Reductions' destinations
# only need element alignment (one result per repeat), so their `dst` is skipped.
_ALIGNED_FAMILIES = (
    "data_copy", "vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select",
    "reduce", "brcb", "transpose", "cube",
)  # fmt: skip
UB_POSITIONS = ("VECIN", "VECOUT", "VECCALC")
_L0 = {"A2": "L0A", "B2": "L0B", "CO1": "L0C"}


def _operand_names(op: asc.ApiCallOp) -> dict[int, str]:
    from passes.verify.ir import overload_of

    found = overload_of(op.api.data, op.overload.data, op.FAMILY)
    if found is None:
        return {}
    overload, has_receiver = found
    return {i + int(has_receiver): p.name for i, p in enumerate(overload.params)}


def _iteration_offsets(value: SSAValue) -> tuple[scf.ForOp, str, list[tuple[int, int]]] | None:
    """For `t[i * COLS]` in `for (i = lb; i < ub; i += step)` with constant bounds and at least two trips:
    the loop, its variable's name and (i, element offset) for its first two values. Each iteration runs the same
    call (see unguarded_within), so each offset must be aligned. None for any other offset."""
    from passes.verify.congruence import Reader

    chain = sub_tensor_chain(value)
    if chain is None:
        return None
    total = None
    reader = Reader(1 << 32)
    for offset in chain[0]:
        form = reader.form(offset)
        if form is None or len(form.terms) > 1:
            return None
        total = form if total is None else total.plus(form)
    if total is None or len(total.terms) != 1:
        return None
    (key, coefficient), = total.terms
    if not (isinstance(key, BlockArgument) and key.index == 0 and isinstance(key.owner, Block)
            and isinstance(key.owner.parent_op(), scf.ForOp)):
        return None
    loop = key.owner.parent_op()
    assert isinstance(loop, scf.ForOp)
    lb, ub, step = fold_int(loop.lb), fold_int(loop.ub), fold_int(loop.step)
    if lb is None or ub is None or not step or step < 0 or lb + step >= ub:
        return None  # fewer than two trips (or bounds not known)
    return loop, total.names.get(key, "the loop variable"), [(i, coefficient * i + total.constant)
                                                               for i in (lb, lb + step)]


def unguarded_within(op: Operation, ancestor: Operation) -> bool:
    """`op` lies inside `ancestor` with no branch or while loop between them that may keep it from running
    whenever `ancestor`'s region runs."""
    parent = op.parent_op()
    while parent is not None and parent is not ancestor:
        if isinstance(parent, scf.IfOp | scf.WhileOp):
            return False
        parent = parent.parent_op()
    return parent is ancestor


def grid_operands(ctx: CheckContext, spaces: tuple[str, ...]) -> Iterator[tuple[asc.ApiCallOp, SSAValue, str]]:
    """(call, operand, operand name) for each distinct LocalTensor operand in one of `spaces` that a call of
    the aligned families takes as an operand that must start on the memory's grid."""
    for op in module_index(ctx.module).of(*_ALIGNED_FAMILIES):
        names = _operand_names(op)
        seen: set[SSAValue] = set()
        for i, value in enumerate(op.args):
            t = value.type
            if not isinstance(t, asc.LocalTensorType) or value in seen:
                continue
            seen.add(value)
            if op.FAMILY == "reduce" and names.get(i) == "dst":
                continue
            if t.position.data in spaces:
                yield op, value, names.get(i, f"operand {i + 1}")


def _misaligned_subtensors(ctx: CheckContext, spaces: tuple[str, ...]) -> Iterator[tuple[asc.ApiCallOp, SSAValue, int, int, str, str]]:
    """(call, operand, element offset, alignment, operand name, when) for sub-tensor operands off the grid;
    `when` is "" for a constant offset, or names the loop iteration that is."""
    for op, value, name in grid_operands(ctx, spaces):
        t = value.type
        assert isinstance(t, asc.LocalTensorType)
        pos = t.position.data
        found = sub_tensor_offset(value)
        size = elem_bytes(t.element_type)
        if size is None:
            continue
        align = ctx.chip.alignments.get(_L0[pos], 32) if pos in _L0 else ctx.chip.alignments.get("UB", 32)
        if found is not None:
            if (found[0] * size) % align:
                yield op, value, found[0], align, name, ""
            continue
        iterations = _iteration_offsets(value)
        if iterations is None:
            continue
        loop, var, offsets = iterations
        if not unguarded_within(op, loop):
            continue
        for index, offset in offsets:
            if (offset * size) % align:
                yield op, value, offset, align, name, f" when {var} is {index}"
                break


@rule(
    "ASC404", "ub-subtensor-unaligned", "alignment",
    summary="A UB sub-tensor t[off] passed to an API starts at a byte offset that is not a multiple of 32: a "
            "constant offset, or a row offset t[r * COLS] in a loop of constant bounds whose second row is off "
            "the grid.",
    why="Vector instructions and DMA address UB in 32-byte blocks: the start address of every operand must "
        "be 32-byte aligned. An operand at t[10] (20 bytes into a half tensor) is rejected by the CPU-debug "
        "build ('absUbAddr ... must be 32B aligned') and on the device raises an AI Core exception or "
        "silently reads the aligned-down address.",
    example="Add(dst, src[10], src, 64);          // half: 20 bytes into src",
    instead="Add(dst, src[16], src, 64);          // 16 halves = 32 bytes; or shift with GetValue/SetValue",
)
def ub_subtensor_unaligned(ctx: CheckContext) -> None:
    for op, value, offset, align, name, when in _misaligned_subtensors(ctx, UB_POSITIONS):
        assert isinstance(value.type, asc.LocalTensorType)
        size = elem_bytes(value.type.element_type) or 1
        ctx.report(op, f"{op.api.data} {name} starts {offset} elements = {offset * size} bytes into its tensor{when}; "
                       f"UB operands must be {align}-byte aligned", ctx.note_at(value.owner, "sub-tensor taken here")
                   if isinstance(value.owner, Operation) else ctx.note_at(op, "here"))


@rule(
    "ASC405", "getwithoffset-unaligned", "alignment",
    summary="TBuf::GetWithOffset with a constant byte offset that is not a multiple of 32, for a tensor that a "
            "vector or DMA instruction takes.",
    why="GetWithOffset<T>(count, bufOffset) returns a tensor starting bufOffset bytes into the buffer; the "
        "offset must keep the 32-byte start alignment every vector and DMA operand needs, else the CPU-debug "
        "build aborts and the device raises an AI Core exception or works on the wrong bytes. A tensor that is "
        "only read and written element by element (SetValue/GetValue, SIMT code) needs no aligned start and is "
        "not reported.",
    example="LocalTensor<float> b = tmp.GetWithOffset<float>(64, 100);   // 100 bytes\nAdds(b, b, 1.0f, 64);",
    instead="LocalTensor<float> b = tmp.GetWithOffset<float>(64, 128);   // round the offset up to 32 bytes",
)
def getwithoffset_unaligned(ctx: CheckContext) -> None:
    for op in module_index(ctx.module).tbuf_gets:
        if op.byte_offset is None:
            continue
        off = fold_int(op.byte_offset)
        pos = op.buffer.type.position.data if isinstance(op.buffer.type, asc.TBufType) else "?"
        align = ctx.chip.alignments.get(_L0[pos], 32) if pos in _L0 else 32
        if off is None or not off % align:
            continue
        use = _aligned_use(op.result)
        if use is None:
            continue  # only read element by element (GetValue, SIMT code): scalar accesses need no 32-byte start
        ctx.report(op, f"GetWithOffset at byte offset {off}; offsets in {pos} must be a multiple of {align} bytes",
                   ctx.note_at(use, f"{use.api.data} takes the tensor here; its operands must start on the "
                               f"{align}-byte grid"))


def _aligned_use(tensor: SSAValue) -> asc.ApiCallOp | None:
    """The first vector or data-movement call that takes `tensor` (or a view of it: `t[off]`, a
    ReinterpretCast, a local it is stored in) as an operand that must start aligned."""
    work, seen = [tensor], {tensor}
    while work:
        value = work.pop()
        for use in value.uses:
            user = use.operation
            found: list[SSAValue] = []
            if isinstance(user, asc.SubTensorOp | asc.ReinterpretCastOp) and use.index == 0:
                found = [user.result]
            elif isinstance(user, memref.StoreOp) and use.index == 0:
                found = [u.operation.results[0] for u in user.memref.uses if isinstance(u.operation, memref.LoadOp)]
            elif isinstance(user, asc.ApiCallOp) and user.FAMILY in _ALIGNED_FAMILIES and value in user.args:
                if user.FAMILY != "reduce" or _operand_names(user).get(list(user.args).index(value)) != "dst":
                    return user
            for v in found:
                if v not in seen:
                    seen.add(v)
                    work.append(v)
    return None


@rule(
    "ASC406", "l0-subtensor-unaligned", "alignment",
    summary="A sub-tensor of an L0A/L0B (A2/B2) or L0C (CO1) tensor starts off the 512-byte / 64-byte grid.",
    why="L0A and L0B are addressed in 512-byte fractals and L0C in 64-byte units: LoadData, Mmad and "
        "Fixpipe operands must start on those boundaries. A sub-tensor that starts mid-fractal is rejected "
        "by the CPU-debug checks and on the device reads shifted fractals (wrong results).",
    example="Mmad(c, a[100], b, params);          // half in A2: 200 bytes, not a multiple of 512",
    instead="Mmad(c, a[256], b, params);          // one 16x16 fractal = 256 halves = 512 bytes",
)
def l0_subtensor_unaligned(ctx: CheckContext) -> None:
    for op, value, offset, align, name, when in _misaligned_subtensors(ctx, tuple(_L0)):
        assert isinstance(value.type, asc.LocalTensorType)
        size = elem_bytes(value.type.element_type) or 1
        ctx.report(op, f"{op.api.data} {name} starts {offset * size} bytes into its {value.type.position.data} "
                       f"tensor{when}; it must be a multiple of {align} bytes")
