"""The simulator launch's lowerings, kept per process: a program is lowered once per chip, dtype bindings and
tiling key, and every launch gets a copy of that module to fold its tiling values into (FoldTilingPass rewrites
the module in place, so the kept one is never handed out).

An answer's cases and input draws launch the same program with the same dtypes: without this, each launch
lowered it again. That lowering is most of a launch's time for a big kernel (NPUKernelBench OptimizedMatmul,
37,849 ops: about 45 s of the 80 s of a launch under the profiler; bench/README.md). Lowering is a function of
the program and the options alone, so the copy of a kept lowering is the module a fresh lowering would build.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ascendir.lower import LoweringOptions, LoweringResult, lower_program

# a few programs at a time: one answer's launches come one after another (the harness evaluates an answer's
# cases in order), and a big kernel's module holds hundreds of MB
_KEPT = 4
_kept: OrderedDict[tuple[Any, ...], tuple[Any, LoweringResult]] = OrderedDict()


def _key(program: Any, options: LoweringOptions) -> tuple[Any, ...]:
    return (id(program), options.chip, tuple(sorted(options.dtypes.items())), options.tiling_struct,
            options.tiling_key, options.absent_inputs, options.host_args, options.host_counts, options.host_given)


def _kept_lowering(program: Any, options: LoweringOptions) -> LoweringResult:
    key = _key(program, options)
    entry = _kept.get(key)
    if entry is None or entry[0] is not program:  # (the program is held, so its id is not another's)
        entry = (program, lower_program(program, options))
        _kept[key] = entry
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return entry[1]


def lowered_copy(program: Any, options: LoweringOptions) -> LoweringResult:
    """`lower_program(program, options)`, from the kept lowering when there is one: a fresh copy of its module
    (its kernels, in the same order, are the copy's), the same diagnostics."""
    return _copy(_kept_lowering(program, options))


def _copy(kept: LoweringResult) -> LoweringResult:
    module = kept.module.clone()
    # the clone mirrors the module op for op: a kernel of the kept lowering is found at its walk position
    position = {id(op): i for i, op in enumerate(kept.module.walk())}
    copied = list(module.walk())
    kernels = [copied[position[id(k)]] for k in kept.kernels if id(k) in position]
    return LoweringResult(module, list(kept.diagnostics), kernels)  # type: ignore[arg-type]


# the simulator programs built from kept lowerings, by the folds applied: a case's draws fold the same tiling
_BUILT = 8
_built: OrderedDict[tuple[Any, ...], tuple[Any, Any]] = OrderedDict()


class PreparedLaunch:
    """A launch's module before it exists: the kept lowering, the tiling folds (FoldTilingPass) to apply in
    order, then the simulator program built from it. Two launches of one program with the same lowering options
    and the same folds (a case's input draws) share the program built for the first; a new combination folds into
    a fresh copy of the kept module, exactly as a launch that lowered it itself did."""

    def __init__(self, program: Any, options: LoweringOptions) -> None:
        self.program = program
        self.relower(options)

    def relower(self, options: LoweringOptions) -> None:
        """Start over from the lowering with `options` (no folds)."""
        self.options = options
        self.kept = _kept_lowering(self.program, options)
        self.folds: list[Any] = []

    @property
    def diagnostics(self) -> list[Any]:
        return self.kept.diagnostics

    @property
    def unfolded(self) -> Any:
        """The kept module: to read (which kernels were lowered), never to change."""
        return self.kept.module

    def fold(self, fold_pass: Any) -> None:
        self.folds.append(copy.deepcopy(fold_pass))  # as it is now: the caller's mappings may change later

    def build(self, chip: str, kernel_key: int | None, build: Callable[[Any], Any]) -> Any:
        """`build(module)` on the kept module copied and folded, or what it returned for the same folds before.
        An exception it raises is not kept (the next launch raises it again)."""
        from ascendir.context import make_context

        key = (_key(self.program, self.options), chip, kernel_key, tuple(repr(f) for f in self.folds))
        entry = _built.get(key)
        if entry is None or entry[0] is not self.program:
            module = self.kept.module.clone()
            for f in self.folds:
                f.apply(make_context(), module)
            entry = (self.program, build(module))
            _built[key] = entry
            while len(_built) > _BUILT:
                _built.popitem(last=False)
        _built.move_to_end(key)
        return entry[1]


def forget() -> None:
    """Drops every kept lowering and built program (tests; a caller that edits a program in place)."""
    _kept.clear()
    _built.clear()
