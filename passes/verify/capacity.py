"""Capacity (ASC3xx): local-memory budgets (UB, L1, L0A, L0B, L0C) of the chosen chip.

A buffer costs num x len rounded up to 32 bytes (InitBuffer), and the memory is the one its TPosition lives
in on the chip (ascendir.chips.tposition_memory). Only constant lengths count: a length read from the
tiling data is unknown unless `fold-tiling` made it a constant, and unknown lengths count as zero, so a
finding is a lower bound that already does not fit. Sums are per path (TILING_KEY_IS branches with their
own pipes do not add up), from `buffer_state`.
"""

from __future__ import annotations

from passes.verify.buffer_state import analyze
from passes.verify.rules import CheckContext, rule


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
