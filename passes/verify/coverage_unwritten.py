"""Tiling rule ASC607: output bytes no core writes, over every core's run with concrete shapes.
"""

from __future__ import annotations

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note
from passes.verify.coverage_core_runs import Extent, every_core, footprints, tensor_extents
from passes.verify.coverage_gm_ops import any_unseen_or_atomic
from passes.verify.footprint import Access, CoreRun
from passes.verify.kernel_only import is_kernel_only
from passes.verify.rules import CheckContext, rule


def _unwritten(writes: list[Access], nbytes: int) -> list[tuple[int, int]]:
    """The byte ranges of [0, nbytes) that none of `writes` covers, in order."""
    gaps, covered = [], 0
    for w in sorted(writes, key=lambda w: w.offset):
        if w.offset > covered:
            gaps.append((covered, min(w.offset, nbytes)))
        covered = max(covered, w.offset + w.size)
        if covered >= nbytes:
            break
    if covered < nbytes:
        gaps.append((covered, nbytes))
    return [(a, b) for a, b in gaps if a < b]


@rule(
    "ASC607", "output-not-fully-written", "tiling",
    summary="For the given shapes, some elements of an output are written by no core: a tail the split "
            "drops, a last tile not copied out, cores that skip their slice.",
    why="The output tensor comes to the kernel uninitialised (or holding an earlier result); elements that no "
        "core writes keep whatever was there, and the comparison with the reference fails on them, often only "
        "for shapes that do not divide evenly by blockDim x tileLength. Checked only with concrete shapes "
        "(`--shape`, `--test-case`) and an output shape that is given, that the Python binding allocates "
        "(`at::empty_like(x)`) or that the host InferShape computes, "
        "by running the address arithmetic of every core; a kernel whose writes are not all followed "
        "(data-dependent branches, Matmul objects, atomics, lengths not computed) is not judged.",
    example="blockLength = totalLength / blockDim;                 // 1000 floats on 8 cores: 125 each\n"
            "tileNum = blockLength / 64;                           // 1 tile of 64; 61 floats per core dropped\n"
            "for (i = 0; i < tileNum; i++) DataCopy(yGm[i * 64], yLocal, 64);",
    instead="handle the remainder: a last, shorter tile per core (DataCopyPad with its byte length), and\n"
            "give the last core totalLength - (blockDim - 1) * blockLength elements",
)
def output_not_fully_written(ctx: CheckContext) -> None:
    for kernel, dim, sampled in footprints(ctx):
        extents = tensor_extents(ctx, kernel, output=True)
        if not extents or any_unseen_or_atomic(ctx, kernel):
            continue
        runs = every_core(ctx, kernel, dim, sampled)
        if runs is None:
            continue
        kernel_only = ctx.program is not None and is_kernel_only(ctx.program)
        inputs = set() if kernel_only else set(tensor_extents(ctx, kernel, output=False))
        writes_an_input = any(a.write and a.arg in inputs for run in runs for a in run.accesses)
        for arg, extent in sorted(extents.items()):
            writes = [a for run in runs for a in run.accesses if a.write and a.arg == arg]
            if not writes and (writes_an_input or kernel_only):
                continue  # the kernel updates an input in place, which the output aliases; or (a kernel-only
                # answer, whose parameters are not labelled) a parameter it only reads
            cut = [a for run in runs for a in run.cut_writes if a.arg == arg]
            if not _unwritten(writes + cut, extent.nbytes):
                continue  # what is missing is what a DataCopy length cut to whole blocks dropped (ASC401)
            _report_unwritten(ctx, kernel, dim, runs, extent, writes, _unwritten(writes, extent.nbytes))


def _report_unwritten(ctx: CheckContext, kernel: asc.KernelOp, dim: int, runs: list[CoreRun], extent: Extent,
                      writes: list[Access], gaps: list[tuple[int, int]]) -> None:
    name, nbytes, size = extent.name, extent.nbytes, extent.elem
    missing = sum(b - a for a, b in gaps)
    amount = f"{missing // size} elements ({missing} bytes)" if size > 1 and missing % size == 0 else f"{missing} bytes"
    given = Note(f"'{name}' is {extent.shape}, {nbytes} bytes; the run is for the given shapes, with blockDim {dim}")
    if not writes:
        ctx.report(kernel, f"no core writes output '{name}': none of the {dim} cores copies anything to it",
                   given, Note("copy each core's results to its slice of the output", kind="help"))
        return
    start, end = gaps[0]
    before = [w for w in writes if w.offset + w.size == start]
    anchor = before[-1] if before else max(writes, key=lambda w: w.offset + w.size)
    core = next(run.block_idx for run in runs if any(a is anchor for a in run.accesses))
    if len(gaps) == 1 and end == nbytes:
        message = f"the last {amount} of output '{name}' are written by no core"
    else:
        ranges = f" in {len(gaps)} ranges" if len(gaps) > 1 else ""
        message = f"{amount} of output '{name}'{ranges} are written by no core, the first at bytes [{start}, {end})"
    ctx.report(anchor.op, message, given, Note(f"core {core}'s write here ends at byte {anchor.offset + anchor.size}"),
               Note("make the cores' slices reach the end of the output: give the last tile and the last core the "
                    "remainder (a shorter DataCopyPad), or reject the shapes the split cannot handle in the tiling "
                    "function", kind="help"))
