"""Tiling rule ASC606: an output two cores write, statically (a DataCopy to GM whose address does not move
with the block index and runs on every core) or, with concrete shapes, the same bytes written by two cores'
DataCopy.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref, scf
from xdsl.ir import Operation, SSAValue

from ascendir.dialects import ascendc as asc
from frontend.diagnostics import Note, Severity
from passes.verify.alignment_offsets import unguarded_within
from passes.verify.coverage_block_dim import block_dim
from passes.verify.coverage_core_runs import every_core, footprints, neighbouring_cores
from passes.verify.coverage_gm_ops import any_unseen_or_atomic, copies_to_gm
from passes.verify.coverage_strides import (
    FirstIterationStrides,
    Strides,
    base_tensor,
    block_strides,
    constant_value,
    first_iteration_strides,
    parents,
    stores_of,
    tensor_base_stride,
    tensor_name,
    trip_count_varies,
)
from passes.verify.footprint import Access, CoreRun
from passes.verify.ir import kernels_of, walk_of
from passes.verify.project import report_once
from passes.verify.rules import CheckContext, rule


@rule(
    "ASC606", "output-written-by-two-cores", "tiling",
    summary="A DataCopy to global memory writes the same addresses on every core (or, for the given shapes, "
            "two cores' output slices overlap).",
    why="Every block of a launch runs the kernel with its own GetBlockIdx(); a core's output slice must be "
        "offset by it. A GlobalTensor set up without the core offset (the `+ blockIdx * blockLength` left out "
        "of SetGlobalBuffer, or an index that does not move with the block) makes all cores store to the first "
        "core's slice at once: the rest of the output is never written, and what is written is whichever "
        "core's DMA landed last. The per-core offset of each write is worked out from the IR; with concrete "
        "shapes the first two and the last two cores' written bytes are compared. Writes with atomic "
        "accumulation on, writes under a condition on the block index, and kernels the checker cannot see "
        "all of are left alone. Without a known blockDim this is a warning: on one core nothing overlaps.",
    example="xGm.SetGlobalBuffer((__gm__ half*)x + blockLength * GetBlockIdx(), blockLength);\n"
            "zGm.SetGlobalBuffer((__gm__ half*)z, blockLength);      // no core offset\n"
            "DataCopy(zGm[i * tileLength], zLocal, tileLength);",
    instead="zGm.SetGlobalBuffer((__gm__ half*)z + blockLength * GetBlockIdx(), blockLength);",
)
def output_written_by_two_cores(ctx: CheckContext) -> None:
    dim = block_dim(ctx)
    if dim.exactly_one:
        return
    reported = _overlapping_core_writes(ctx)
    strides = block_strides(ctx)
    first = first_iteration_strides(ctx)
    cores = dim.more_than_one
    for kernel in kernels_of(ctx):
        ops = walk_of(kernel)
        if not any(isinstance(op, asc.ApiCallOp) and op.api.data == "GetBlockIdx" for op in ops):
            continue  # never told apart: ASC603's case
        if any_unseen_or_atomic(ctx, kernel):
            continue
        for op in ops:
            if op in reported or not copies_to_gm(op) or tensor_base_stride(op.args[0], first) != 0:
                continue
            if not _runs_on_every_core(op, first):  # (a single-core guard is a condition on the block index)
                continue
            name = tensor_name(op.args[0])
            every_iteration = tensor_base_stride(op.args[0], strides) == 0 and _runs_on_every_core(op, strides)
            in_loop = any(isinstance(p, scf.ForOp | scf.WhileOp) for p in parents(op))
            where = " in the first iteration of the loop around it" if not every_iteration and in_loop else ""
            with_work = not every_iteration and not in_loop  # passed only a test that the core has work
            reported.add(op)
            setup = [ctx.note_at(s, f"'{name}' is set up here, at the same address on every core")
                     for s in _buffer_setups(op.args[0]) if s.location is not None]
            help_note = Note(f"offset '{name}' by the core's slice: SetGlobalBuffer(... + GetBlockIdx() * "
                             "blockLength, blockLength), or index it with the block", kind="help")
            if cores is not None:
                who = f"the cores with work (of {cores})" if with_work else f"all {cores} cores"
                ctx.report(op, f"{who} write the same elements of '{name}'{where}: the address of "
                           "this copy does not depend on GetBlockIdx()", *setup, Note(dim.source), help_note)
            else:
                who = "every core with work" if with_work else "every core"
                ctx.report(op, f"{who} writes the same elements of '{name}'{where}: the address of this copy "
                           "does not depend on GetBlockIdx(), though the kernel reads it", *setup, Note(
                               "on more than one core the cores overwrite each other's results and the rest of "
                               "the output is never written"), help_note, severity=Severity.WARNING)


def _buffer_setups(tensor: SSAValue) -> list[Operation]:
    """The SetGlobalBuffer calls of the GlobalTensor that `tensor` is (a sub-tensor of)."""
    return [use.operation for use in base_tensor(tensor).uses if isinstance(use.operation, asc.SetGlobalBufferOp)]


def _runs_on_every_core(op: Operation, strides: Strides) -> bool:
    """No enclosing condition depends on the block index (or on anything not provably the same on every
    core), so no core is kept from `op` by a guard. A for loop whose trip count differs between cores (a
    former / tail split of rows) still runs its first iteration on every core that has work, so only
    conditions and while loops count. A condition `n == 1` (or the else of `n != 1`) is read as a test for
    a single-core launch (`if (blockNum == 1) { write the result; return; }`), which the checker cannot
    tell from other tests of a count."""
    child = op
    first_iteration = isinstance(strides, FirstIterationStrides)
    for parent in parents(op):
        if isinstance(parent, scf.IfOp) and first_iteration and (
                _work_test(parent, child, strides) or _written_in_both_arms(parent, child, op, strides)):
            child = parent
            continue
        if isinstance(parent, scf.IfOp):
            if strides.of(parent.cond) != 0:
                return False
            cond = parent.cond.owner
            if (isinstance(cond, arith.CmpiOp) and cond.predicate.value.data in (0, 1)
                    and 1 in (constant_value(cond.lhs), constant_value(cond.rhs))
                    and (child.parent_region() is parent.true_region) == (cond.predicate.value.data == 0)):
                return False
        if isinstance(parent, scf.WhileOp) and trip_count_varies(parent, strides) and not (
                first_iteration and _bound_test(parent)):
            return False
        child = parent
    return True


def _bound_test(loop: scf.WhileOp) -> bool:
    """The loop runs while a value is below (or above) a bound, `offset < coreLength`: like a for loop, its
    first iteration runs on every core that has work. (A test for equality could single one core out.) A
    loop with a `break` tests its break flag too, which is clear when the loop starts."""
    conditions = [o.condition for o in loop.before_region.walk() if isinstance(o, scf.ConditionOp)]
    return bool(conditions) and all(_bound_or_unbroken(c, loop) for c in conditions)


def _bound_or_unbroken(condition: SSAValue, loop: scf.WhileOp) -> bool:
    test = condition.owner
    if isinstance(test, arith.AndIOp):
        return all(_bound_or_unbroken(v, loop) for v in test.operands)
    if isinstance(test, arith.CmpiOp):
        return test.predicate.value.data >= 2  # not eq/ne
    # `!broken`: a flag the loop body sets, false on entry
    if isinstance(test, arith.XOrIOp) and constant_value(test.rhs) in (1, -1) and isinstance(test.lhs.owner, memref.LoadOp):
        flag = test.lhs.owner.memref
        before = [s for s in stores_of(flag) or [] if not loop.is_ancestor(s)]
        return len(before) == 1 and before[0].parent_block() is loop.parent_block() \
            and constant_value(before[0].value) == 0
    return False


def _work_test(branch: scf.IfOp, child: Operation, strides: Strides) -> bool:
    """`child` runs only where a count is not zero: the else of `if (coreLength == 0) return;` or of
    `if (curLen == 0) break;`, the then of `if (rows > 0)`. Every core with work passes it. (Not a test of
    the block index itself: the else of `if (GetBlockIdx() == 0)` leaves one core out.)"""
    test = branch.cond.owner
    if not isinstance(test, arith.CmpiOp) or constant_value(test.rhs) != 0 or strides.of(test.lhs) not in (None, 0):
        return False
    in_then = child.parent_region() is branch.true_region
    predicate = test.predicate.value.data  # eq ne slt sle sgt sge ult ule ugt uge
    return (predicate == 0 and not in_then) or (predicate in (1, 4, 8) and in_then)


def _written_in_both_arms(branch: scf.IfOp, child: Operation, op: Operation, strides: Strides) -> bool:
    """The other arm of `branch` writes the same GM tensor at the same core-independent address as `op`
    (`if (full) DataCopy(y[off], ...) else DataCopyPad(y[off], ...)`): whichever arm a core takes, it
    writes there."""
    if not copies_to_gm(op):
        return False
    other = branch.false_region if child.parent_region() is branch.true_region else branch.true_region
    base = base_tensor(op.args[0])
    for candidate in other.walk():
        if copies_to_gm(candidate) and base_tensor(candidate.args[0]) is base \
                and tensor_base_stride(candidate.args[0], strides) == 0 and unguarded_within(candidate, branch):
            return True
    return False


def _overlapping_core_writes(ctx: CheckContext) -> set[Operation]:
    """ASC606 with concrete shapes: DataCopy writes of two neighbouring cores that land on the same bytes of
    one GM argument. Returns the ops reported."""
    reported: set[Operation] = set()
    for kernel, dim, runs in footprints(ctx):
        if any_unseen_or_atomic(ctx, kernel):
            continue
        for a, b in neighbouring_cores(dim, runs):
            earlier = [w for w in runs[a].accesses if w.write and copies_to_gm(w.op)]
            for w in runs[b].accesses:
                if not w.write or not copies_to_gm(w.op) or w.op in reported:
                    continue
                other = next((o for o in earlier if o.arg == w.arg and o.offset < w.offset + w.size
                              and w.offset < o.offset + o.size), None)
                if other is None:
                    continue
                _report_overlap(ctx, dim, a, other, b, w)
                reported.add(w.op)
        runs_all = every_core(ctx, kernel, dim, runs)
        for b, w, a, other in _overlaps_between_cores(runs_all or []):
            if w.op not in reported:
                _report_overlap(ctx, dim, a, other, b, w)
                reported.add(w.op)
    return reported


def _report_overlap(ctx: CheckContext, dim: int, a: int, other: Access, b: int, w: Access) -> None:
    """Core `b`'s write `w` lands on bytes core `a` writes with `other`."""
    start, end = max(w.offset, other.offset), min(w.offset + w.size, other.offset + other.size)
    report_once(ctx, w.op, f"cores {a} and {b} both write bytes [{start}, {end}) of '{w.tensor}': "
                "their output slices overlap", *([ctx.note_at(other.op, f"core {a} writes them here")]
                                                 if other.op is not w.op else []),
                Note(f"for the given shapes, with blockDim {dim}"),
                Note("derive each core's offset and length from GetBlockIdx() so that the slices "
                     "tile the output", kind="help"))


def _overlaps_between_cores(runs: list[CoreRun]) -> list[tuple[int, Access, int, Access]]:
    """(core, write, other core, its earlier write over some of the same bytes) for the DataCopy writes to GM of all
    cores, in address order. Per argument, the writes of other cores that reach furthest are the farthest
    reach and, if that is the same core's, the farthest reach of any other core."""
    by_arg: dict[int, list[tuple[int, Access]]] = {}
    for run in runs:
        for w in run.accesses:
            if w.write and copies_to_gm(w.op):
                by_arg.setdefault(w.arg, []).append((run.block_idx, w))
    found = []
    for writes in by_arg.values():
        writes.sort(key=lambda cw: cw[1].offset)
        reach: tuple[int, Access] | None = None  # (core, write) ending furthest
        other: tuple[int, Access] | None = None  # the same of a core other than reach's
        for core, w in writes:
            candidate = reach if reach is not None and reach[0] != core else other
            if candidate is not None and candidate[1].offset + candidate[1].size > w.offset:
                found.append((core, w, *candidate))
            end = w.offset + w.size
            if reach is None or end > reach[1].offset + reach[1].size:
                if reach is not None and reach[0] != core:
                    other = reach
                reach = (core, w)
            elif core != reach[0] and (other is None or end > other[1].offset + other[1].size):
                other = (core, w)
    return found
