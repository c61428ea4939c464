"""Tiling rules on single GM accesses: scalar writes of neighbouring cores within one 64-byte cache line
(ASC604), statically or with concrete shapes, and a GM access outside its tensor's extent for the given shapes
(ASC605).
"""

from __future__ import annotations

from xdsl.ir import Operation

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.coverage_block_dim import block_dim
from passes.verify.coverage_core_runs import footprints, neighbouring_cores, tensor_extents
from passes.verify.coverage_strides import (
    block_strides,
    element_bytes,
    single_core_guard,
    tensor_base_stride,
    tensor_name,
)
from passes.verify.footprint import Access
from passes.verify.ir import is_kind, ops_of
from passes.verify.project import report_once
from passes.verify.rules import CheckContext, rule


CACHE_LINE = 64  # bytes: the unit in which a core's data cache writes scalar stores back to GM


@rule(
    "ASC604", "gm-scalar-write-shares-cache-line", "tiling",
    summary="Cores write neighbouring GM elements with SetValue: they share a 64-byte cache line and overwrite "
            "each other.",
    why="GlobalTensor::SetValue writes into the core's data cache, which is written back to GM a whole "
        "64-byte cache line at a time. When two cores store into the same line, the line written back last "
        "carries stale copies of the other core's elements: results vanish at random. Addresses written by "
        "different cores must be at least a cache line apart.",
    example="yGm.SetValue(GetBlockIdx(), sum);          // 4 bytes apart: 16 cores share one line\n"
            "for (i = GetBlockIdx(); i < n; i += GetBlockNum()) yGm.SetValue(i, v);",
    instead="collect the results in UB and write them with DataCopy (one core per 32-byte-aligned slice),\n"
            "or give each core a slice of at least 64 bytes: yGm.SetValue(GetBlockIdx() * 16, sum)",
)
def gm_scalar_write_shares_cache_line(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    if dim.exactly_one:
        return
    concrete = _shared_lines(ctx)
    strides = block_strides(ctx)
    for op in ops_of(ctx):
        if not is_kind(op, asc.SetValueOp) or not isinstance(op.tensor.type, asc.GlobalTensorType) \
                or op in concrete:
            continue
        base = tensor_base_stride(op.tensor, strides)
        index = strides.of(op.index)
        size = element_bytes(op.tensor)
        if base is None or index is None or size is None:
            continue
        stride = base + index
        if stride == 0 or abs(stride) * size >= CACHE_LINE:
            continue
        if single_core_guard(op, strides):
            continue
        name = tensor_name(op.tensor)
        cores_per_line = CACHE_LINE // (abs(stride) * size)
        report_once(ctx, op, f"neighbouring cores write elements of '{name}' {abs(stride) * size} bytes apart: "
                    f"up to {cores_per_line} cores share each 64-byte cache line, and SetValue's cache "
                    "write-back overwrites the other cores' results",
                    Note(dim.source if dim.values else "blockDim is not provably 1"),
                    Note("write per-core results to UB and DataCopy them out, or space the cores' elements "
                         f"at least {CACHE_LINE} bytes apart", kind="help"))


def _shared_lines(ctx: CheckContext) -> set[Operation]:
    """ASC604 with concrete shapes: scalar GM writes of two neighbouring cores that land in one cache line.
    Returns the ops reported."""
    reported: set[Operation] = set()
    for _, dim, runs in footprints(ctx):
        for a, b in neighbouring_cores(dim, runs):
            lines: dict[tuple[int, int], Access] = {}
            for w in runs[a].accesses:
                if w.write and isinstance(w.op, asc.SetValueOp):
                    lines.setdefault((w.arg, w.offset // CACHE_LINE), w)
            for w in runs[b].accesses:
                if not w.write or not isinstance(w.op, asc.SetValueOp) or w.op in reported:
                    continue
                other = lines.get((w.arg, w.offset // CACHE_LINE)) or lines.get((w.arg, (w.offset + w.size - 1)
                                                                                 // CACHE_LINE))
                if other is None:
                    continue
                line = w.offset // CACHE_LINE * CACHE_LINE
                report_once(ctx, w.op, f"cores {a} and {b} both write '{w.tensor}' within the 64-byte cache line at "
                            f"byte {line}: SetValue's cache write-back overwrites the other core's results",
                            ctx.note_at(other.op, f"core {a} writes byte {other.offset} of the same line here")
                            if other.op is not w.op else Note(f"core {a} writes byte {other.offset} of the same line"),
                            Note(f"core {b} writes byte {w.offset}; with the given shapes the cores' slices are not "
                                 "cache-line aligned"),
                            Note("write per-core results to UB and DataCopy them out, or align each core's slice to "
                                 f"{CACHE_LINE} bytes", kind="help"))
                reported.add(w.op)
                break
    return reported


@rule(
    "ASC605", "gm-access-out-of-bounds", "tiling",
    summary="For the given shapes, a core's DataCopy / GetValue / SetValue reaches past the end (or before the "
            "start) of an input or output tensor.",
    why="Each core computes its slice from the tiling values and its block index; when the slices or the "
        "loop trip counts do not match the tensor (a tail the split did not handle, a blockLength rounded up, "
        "one loop iteration too many), the last cores read beyond the input: garbage flows into the result, "
        "or the MTE raises an out-of-range AI Core exception. Writes past the end of an output land in "
        "whatever the framework placed after it. Checked only with concrete shapes (`--shape`, "
        "`--test-case`; an output's shape given, allocated by the binding or computed by InferShape), by "
        "running the kernel's address arithmetic for cores 0, 1 and the last one.",
    example="blockLength = (total + blockDim - 1) / blockDim;     // 1000 floats on 8 cores: 125 each\n"
            "DataCopy(xLocal, xGm[blockIdx * blockLength], 128);  // core 7 reads 3 floats past the end",
    instead="uint32_t len = min(blockLength, total - blockIdx * blockLength);\n"
            "DataCopyPad(xLocal, xGm[blockIdx * blockLength], {1, len * sizeof(float), 0, 0, 0}, {false, 0, 0, 0});",
)
def gm_access_out_of_bounds(ctx: CheckContext) -> None:
    for kernel, dim, runs in footprints(ctx):
        extents = tensor_extents(ctx, kernel, output=False) | tensor_extents(ctx, kernel, output=True)
        if not extents:
            continue
        reported: set[object] = set()
        for core, run in runs.items():
            if core not in (0, 1, dim - 1):
                continue
            for a in run.accesses:
                known = extents.get(a.arg)
                if known is None or a.op in reported:
                    continue
                kind, name, nbytes, shape, _ = known
                end = a.offset + a.size
                if a.offset >= 0 and end <= nbytes:
                    continue
                reported.add(a.op)
                past = f"{end - nbytes} bytes past its end" if end > nbytes else f"{-a.offset} bytes before its start"
                verb = "writes" if a.write else "reads"
                ctx.report(a.op, f"core {core} of {dim} {verb} bytes [{a.offset}, {end}) of {kind} '{name}' through "
                           f"'{a.tensor}', {past}", Note(f"'{name}' is {shape}: {nbytes} bytes"),
                           Note("clip the last core's slice and the last tile to the tensor's length", kind="help"))
