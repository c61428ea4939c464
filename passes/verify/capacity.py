"""Capacity (ASC3xx): local-memory budgets (UB, L1, L0A, L0B, L0C) of the chosen chip.

A buffer costs num x len rounded up to 32 bytes (InitBuffer), and the memory is the one its TPosition lives
in on the chip (ascendir.chips.tposition_memory). Only constant lengths count: a length read from the
tiling data is unknown unless `fold-tiling` made it a constant, and unknown lengths count as zero, so a
finding is a lower bound that already does not fit. Sums are per path (TILING_KEY_IS branches with their
own pipes do not add up), from `buffer_state`.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ascendir.dialects import ascendc as asc
from passes.verify.alignment_copies import datacopy_params, fold_unsigned
from passes.verify.buffer_state import analyze
from passes.verify.ir import api_calls_of, arg, ops_of_kind, overload_of
from passes.verify.rules import CheckContext, rule
from passes.verify.value_bounds import upper_bound
from passes.verify.value_fold import fold_int, source_of, tensor_elem_bytes, type_name


def _report(ctx: CheckContext, code: str) -> None:
    for f in analyze(ctx.module, ctx.chip).findings.get(code, []):
        ctx.report(f.op, f.message, *(ctx.note_at(op, msg) for op, msg in f.notes))


@rule(
    "ASC301", "local-memory-over-capacity", "capacity",
    summary="The InitBuffer buffers of one local memory (UB, L1, L0A, L0B, L0C), num x len rounded up to "
            "32 bytes summed on a path, exceed that memory on the target chip.",
    why="TPipe carves buffers one after the other from the start of the memory; past its end the addresses "
        "are out of range: the CPU-debug build aborts ('buffer size ... exceeds the limit'), the NPU raises an "
        "AI Core exception (507035, 'ub address out of bounds') or corrupts other buffers.",
    example="pipe.InitBuffer(inQueueX, 2, 64 * 1024);\npipe.InitBuffer(outQueueY, 2, 64 * 1024);   "
            "// 256 KB of UB on a 192 KB chip",
    instead="pipe.InitBuffer(inQueueX, 2, 32 * 1024);\npipe.InitBuffer(outQueueY, 2, 32 * 1024);   "
            "// smaller tiles, more loop iterations",
)
def local_memory_over_capacity(ctx: CheckContext) -> None:
    _report(ctx, "ASC301")


@rule(
    "ASC302", "buffer-larger-than-memory", "capacity",
    summary="A single InitBuffer asks for more bytes (num x len rounded up to 32) than its whole local memory "
            "has on the target chip.",
    why="The buffer cannot fit even alone: every access past the end of the memory is out of range (AI Core "
        "exception 507035 on the NPU, an abort in the CPU-debug build).",
    example="pipe.InitBuffer(calcBuf, 256 * 1024);   // TBuf<VECCALC>: UB is 192 KB on 910B",
    instead="pipe.InitBuffer(calcBuf, 64 * 1024);    // tile the work to fit",
)
def buffer_larger_than_memory(ctx: CheckContext) -> None:
    _report(ctx, "ASC302")


@rule(
    "ASC303", "local-alloc-over-capacity", "capacity",
    summary="The blocks a LocalMemAllocator hands out (Alloc element counts x element size) exceed its memory "
            "on the target chip.",
    why="LocalMemAllocator is a bump allocator from the start of the memory with no bound check on the NPU: "
        "blocks past the end address out-of-range memory (AI Core exception) or wrap onto other data.",
    example="LocalMemAllocator<Hardware::UB> ub;\nauto a = ub.Alloc<float, 32768>();\n"
            "auto b = ub.Alloc<float, 32768>();   // 256 KB of UB",
    instead="LocalMemAllocator<Hardware::UB> ub;\nauto a = ub.Alloc<float, 16384>();\n"
            "auto b = ub.Alloc<float, 16384>();   // 128 KB",
)
def local_alloc_over_capacity(ctx: CheckContext) -> None:
    _report(ctx, "ASC303")


# ----------------------------------------------------------------------------------------------------
# ASC304: a count-form API that runs past the end of its local tensor
# ----------------------------------------------------------------------------------------------------

# Families whose count form processes `count` elements of every LocalTensor it takes (a reduction's dst,
# a compare's bit mask or a gather's index tensor hold fewer, so their families are left out).
_WHOLE_COUNT_FAMILIES = ("data_copy", "vec_unary", "vec_binary", "vec_scalar", "duplicate", "cast")


@rule(
    "ASC304", "local-tensor-overrun", "capacity",
    summary="A count-form call (DataCopy, Add, Muls, Exp, Cast, Duplicate, ...) processes more elements than "
            "its LocalTensor holds: count x sizeof(T) past the bytes InitBuffer gave the queue or TBuf buffer, "
            "less the offset of a sub-tensor `t[off]`; likewise a DataCopy / DataCopyPad whose blockCount x "
            "blockLen (32-byte blocks for DataCopy, bytes for DataCopyPad) alone is more than that. A count that is "
            "the smaller of two values (std::min, a ternary: a tile loop's `min(rest, TILE)`) counts as its "
            "smallest bounded operand, the whole tile it is on every full pass.",
    why="Nothing checks the count against the tensor on the NPU: the instruction reads or writes the bytes "
        "after the buffer, which belong to the next buffer (silently corrupted data) or lie past the end of "
        "UB (AI Core exception 507035). The CPU-debug build stops with a tensor size check failure.",
    example="pipe.InitBuffer(inQueueX, 2, TILE * sizeof(float));\nLocalTensor<float> x = inQueueX.AllocTensor<float>();\n"
            "DataCopy(x, xGm[offset], 2 * TILE);   // twice what the buffer holds",
    instead="DataCopy(x, xGm[offset], TILE);       // or give the queue 2 * TILE * sizeof(float) bytes",
)
def local_tensor_overrun(ctx: CheckContext) -> None:
    lengths: dict[SSAValue, int] = {}
    for init in ops_of_kind(ctx, (asc.InitBufferOp,)):
        assert isinstance(init, asc.InitBufferOp)
        buffer = source_of(init.buffer)
        length = fold_int(init.length)
        if buffer is not None and length is not None and length > 0:
            # InitBuffer rounds each buffer up to 32 bytes (arange's 2-byte start buffer holds a 32-byte copy);
            # a buffer initialised twice (one TPipe per tiling-key branch) holds the larger length at most
            lengths[buffer] = max((length + 31) // 32 * 32, lengths.get(buffer, 0))

    def room(tensor: SSAValue) -> tuple[int, str] | None:
        """Bytes from the tensor's first element to the end of its buffer, and the buffer's name."""
        offset = 0
        value: SSAValue | None = tensor
        for _ in range(16):
            value = source_of(value)
            if value is None:
                return None
            owner = value.owner
            if isinstance(owner, asc.SubTensorOp):
                elems, size = fold_int(owner.offset), tensor_elem_bytes(owner.tensor)
                if elems is None or size is None:
                    return None
                offset += elems * size
                value = owner.tensor
            elif isinstance(owner, asc.ReinterpretCastOp):
                value = owner.tensor
            elif isinstance(owner, asc.AllocTensorOp | asc.DeQueOp | asc.TBufGetOp):
                buffer = source_of(owner.queue if not isinstance(owner, asc.TBufGetOp) else owner.buffer)
                if isinstance(owner, asc.TBufGetOp) and (owner.count is not None or owner.byte_offset is not None):
                    return None  # Get<T>(n) / GetWithOffset: a view whose own size the call gives
                if buffer is None or buffer not in lengths:
                    return None
                return lengths[buffer] - offset, _buffer_name(buffer)
            else:
                return None
        return None

    for call in api_calls_of(ctx, *_WHOLE_COUNT_FAMILIES):
        found = overload_of(call.api.data, call.overload.data, call.FAMILY)
        if found is None or found[1]:
            continue  # (methods: no count form here)
        count_arg = arg(call, "count")
        if count_arg is not None:
            count = fold_int(count_arg)
            at_most = count is None  # a tile loop's min(rest, tile): as many as its smallest bounded operand
            count = upper_bound(count_arg) if at_most else count
            if count is None or count <= 0:
                continue
            what = None
        else:
            copied = _copied_bytes(ctx, call)
            if copied is None:
                continue
            count, what, at_most = copied
        for i, p in enumerate(found[0].params):
            if p.kind != "local_tensor" or i >= len(call.args):
                continue
            tensor = call.args[i]
            size = tensor_elem_bytes(tensor)
            hit = room(tensor)
            if size is None or hit is None:
                continue
            available, name = hit
            need = count * size if what is None else count
            if need > available:
                elem = type_name(tensor.type.element_type)  # type: ignore[attr-defined]
                moved = f"{count} x {elem} = {need} bytes" if what is None else f"{need} bytes ({what})"
                moved = f"up to {moved}" if at_most else moved
                ctx.report(call, f"{call.api.data} goes through {moved} of {p.name}, "
                                 f"but {name}'s buffer has {max(available, 0)} bytes from that tensor's start")
                break


def _copied_bytes(ctx: CheckContext, call: asc.ApiCallOp) -> tuple[int, str, bool] | None:
    """Bytes a DataCopy / DataCopyPad in the params form moves, from its blockCount and blockLen (DataCopy
    counts blockLen in 32-byte blocks, DataCopyPad in bytes; strides only add gaps), how, and whether that is
    an upper bound (a field that is a min, value_bounds) rather than the amount."""
    given = datacopy_params(call) if call.overload.data != "enhanced" else None  # (CO1 -> CO2: other units)
    struct = ctx.catalog.struct(given[0]) if given is not None else None
    if given is None or struct is None:
        return None
    fields = given[1]
    values = []
    at_most = False
    for name in ("blockCount", "blockLen"):
        if name in fields:
            value = fold_unsigned(fields[name])
            if value is None:
                value = upper_bound(fields[name])
                at_most = value is not None
        else:
            declared = struct.field(name)
            default = declared.default if declared is not None else None
            value = int(default) if default is not None and default.isdigit() else None
        if value is None or value <= 0:
            return None
        values.append(value)
    blocks, length = values
    if call.api.data == "DataCopy":
        return blocks * length * 32, f"blockCount {blocks} x blockLen {length} x 32 bytes", at_most
    return blocks * length, f"blockCount {blocks} x blockLen {length} bytes", at_most


def _buffer_name(buffer: SSAValue) -> str:
    name = getattr(buffer.owner, "sym_name", None) or buffer.name_hint
    return str(getattr(name, "data", name) or "the")
