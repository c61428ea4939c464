"""A kernel too large to lower whole, lowered once per tiling key it tests (TILING_KEY_IS): a launch runs one key's
branch, and vendor kernels that dispatch to dozens of templates are large only taken together. The run's key gets a
budget of its own (MAX_RUN_KEY_OPS); what is left out is reported and recorded (kernel_entry.NOT_LOWERED_ATTR)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower.diagnostics import NOT_MODELLED, Reporter, span_of
from ascendir.lower.function import MAX_KERNEL_OPS, Frame, FunctionLowerer, KernelTooLarge
from ascendir.lower.kernel_entry import lower_entry, not_lowered_record
from frontend import ast as A
from frontend.diagnostics import error, warning


# on a kernel lowered once per tiling key (too large to lower whole): the key this KernelOp is for
TILING_KEY_ATTR = "ascendc.tiling_key"
# the ops lowered over all the keys of one such kernel
MAX_SPLIT_OPS = MAX_KERNEL_OPS
# A run lowers for the one tiling key its host chose (LoweringOptions.tiling_key: `ascendir run`, the simulator's
# launch), and that key's kernel is the only one that executes: a kernel too large for MAX_KERNEL_OPS (a bound on
# ascendc-check's time per kernel, which stays) is lowered again for the run with this budget of its own. ops-nn
# mat_mul_v3's MatmulBaseUnAlignedKernel instance (key 0 of 50x100 @ 100x70 half) inlines to more than 40,000.
MAX_RUN_KEY_OPS = 4 * MAX_KERNEL_OPS


def lower_per_tiling_key(make_lowerer: Callable[[], FunctionLowerer], fn: A.FunctionDecl,
                         template: list[A.TemplateParam] | None, reporter: Reporter, target: str | None,
                         too_large: KernelTooLarge, not_lowered: list[DictionaryAttr]) -> list[asc.KernelOp]:
    """A kernel too large to lower whole, lowered once per tiling key it tests (TILING_KEY_IS): a launch runs
    one key's branch, and vendor kernels that dispatch to dozens of templates are large only taken together.
    Each key's KernelOp carries the key (TILING_KEY_ATTR) and is checked as a kernel of its own. The keys are
    lowered in source order while the ops of all of them stay within MAX_SPLIT_OPS (the checking time of one
    kernel at the size limit); the keys left over, and a kernel without TILING_KEY_IS, are reported as not
    checked. A run's key (LoweringOptions.tiling_key) is lowered first with MAX_RUN_KEY_OPS of its own, and a
    kernel without TILING_KEY_IS (a template instance for the key, or one body) is lowered again with it; what
    is still left out is recorded in `not_lowered` (NOT_LOWERED_ATTR)."""
    name = fn.name.parts[-1].name
    first = make_lowerer()
    keys = _tiling_keys(first, fn)
    preferred = getattr(first.options, "tiling_key", None)
    if preferred in keys:
        keys.remove(preferred)
        keys.insert(0, preferred)
    if not keys:
        if isinstance(preferred, int):
            kernel = _lower_run_key(make_lowerer, fn, template, reporter, target, None, preferred, not_lowered)
            return [kernel] if kernel is not None else []
        not_lowered.append(not_lowered_record(fn, None, str(too_large), False))
        reporter.add(warning(NOT_MODELLED, f"kernel '{name}' is too large to check: {too_large}", span_of(fn)))
        return []
    kernels: list[asc.KernelOp] = []
    left_over: list[int] = []
    budget = MAX_SPLIT_OPS
    for key in keys:
        if key == preferred:  # the run's key: a budget of its own
            kernel = _lower_run_key(make_lowerer, fn, template, reporter, target, key, key, not_lowered)
            if kernel is not None:
                kernels.append(kernel)
            continue
        if budget <= 0:
            left_over.append(key)
            continue
        lowerer = make_lowerer()
        lowerer.tiling_key = key
        lowerer.max_ops = budget
        try:
            kernel = lower_entry(lowerer, fn, template, reporter, target)
        except KernelTooLarge:
            left_over.append(key)
            budget = 0  # spent on this key
            continue
        budget -= lowerer.op_count
        if kernel is not None:
            kernel.attributes[TILING_KEY_ATTR] = IntegerAttr(key, 64)
            kernels.append(kernel)
    if left_over:
        not_lowered.extend(not_lowered_record(fn, k, f"its kernel did not fit beside the other keys' ({too_large} "
                                                      "whole)", False) for k in left_over)
        shown = ", ".join(str(k) for k in left_over[:8]) + (", ..." if len(left_over) > 8 else "")
        reporter.add(warning(NOT_MODELLED, f"kernel '{name}' is too large to check whole ({too_large}); it was "
                                           f"checked once per tiling key, but not for "
                                           f"{len(left_over)} of its {len(keys)} keys ({shown})", span_of(fn)))
    return kernels


def _lower_run_key(make_lowerer: Callable[[], FunctionLowerer], fn: A.FunctionDecl,
                   template: list[A.TemplateParam] | None, reporter: Reporter, target: str | None,
                   branch: int | None, key: int, not_lowered: list[DictionaryAttr]) -> asc.KernelOp | None:
    """The kernel of the run's tiling key `key` with MAX_RUN_KEY_OPS: its TILING_KEY_IS branch (`branch`), or the
    whole kernel (a template instance for the key) when `branch` is None. Left out (too large, failed): an
    error at the kernel naming the key and why, and its NOT_LOWERED_ATTR record."""
    name = fn.name.parts[-1].name
    lowerer = make_lowerer()
    lowerer.tiling_key = branch
    lowerer.max_ops = MAX_RUN_KEY_OPS
    seen = len(reporter.diagnostics)
    try:
        kernel = lower_entry(lowerer, fn, template, reporter, target)
    except KernelTooLarge as exc:
        why = str(exc)
    else:
        if kernel is not None:
            if branch is not None:
                kernel.attributes[TILING_KEY_ATTR] = IntegerAttr(branch, 64)
            return kernel
        why = "its lowering failed: " + next((d.message for d in reporter.diagnostics[seen:] if d.is_error),
                                             "see the findings")
    not_lowered.append(not_lowered_record(fn, key, why, True))
    reporter.add(error(NOT_MODELLED, f"kernel '{name}' was not lowered for the run's tiling key {key}: {why}",
                       span_of(fn)))
    return None


def _tiling_keys(lowerer: FunctionLowerer, fn: A.FunctionDecl) -> list[int]:
    """The constant keys of the TILING_KEY_IS tests in a kernel entry's body, in source order."""
    keys: dict[int, None] = {}
    lowerer.frames.append(Frame(fn.name.parts[-1].name, [{}], None, {}, set()))
    try:
        for node in fn.body.walk() if fn.body is not None else ():
            if (isinstance(node, A.Call) and node.callee_name == "TILING_KEY_IS" and node.args):
                try:
                    key = lowerer.const_eval(node.args[0])
                except Exception:  # a key that does not fold is not one to lower for
                    continue
                if isinstance(key, int) and not isinstance(key, bool):
                    keys.setdefault(key)
    finally:
        lowerer.frames.pop()
    return list(keys)
