"""Which kernel of a lowered module a launch runs (passes/sim/launch.py): of an op folder's entries the one the
OpDef builds for the chip, of a kernel lowered once per tiling key the one of the key the host chose, and whether
the module must be lowered again for a key or template instance it was not lowered for.
"""

from __future__ import annotations

import os
from typing import Any


def key_not_lowered(module: Any, key: int | None, running: str | None = None,
                    files: set[str] | None = None) -> bool:
    """Whether `module`'s kernel was lowered once per tiling key and not for `key`, or is a kernel template
    instantiated from another template tiling key than `key` (ASCENDC_TPL_ARGS_DECL: TPL_KEY_ATTR). `running`: the
    kernel the launch runs, when known; another entry's template instance (the 950 entry beside the 910B one that
    runs) is not lowered again for nothing. `files`: the source files of the entry that runs (entry_files), where
    the op's entries lie in several."""
    from xdsl.dialects.builtin import IntegerAttr

    from ascendir.dialects import ascendc as asc
    from ascendir.lower.kernel_entry import TPL_KEY_ATTR
    from ascendir.lower.tiling_key_split import TILING_KEY_ATTR

    kernels = [op for op in module.walk() if isinstance(op, asc.KernelOp)]
    if files:
        # the keys of the entry that runs: another file's entry of one name lowered per key (ops-nn
        # group_norm_silu_apt.cpp's 950 keys beside group_norm_silu.cpp, lowered whole) needs no relowering
        kernels = [op for op in kernels if _source_file(op) in files]
    keys = {op.attributes[TILING_KEY_ATTR].value.data for op in kernels
            if isinstance(op.attributes.get(TILING_KEY_ATTR), IntegerAttr)}
    instances = {op.attributes[TPL_KEY_ATTR].value.data for op in kernels
                 if isinstance(op.attributes.get(TPL_KEY_ATTR), IntegerAttr)
                 and (running is None or op.sym_name.data == running)}
    # an entry (or this key's kernel of it) the lowering left out without the run's budget: a lowering for the
    # key gives it MAX_RUN_KEY_OPS (ascendir/lower/tiling_key_split.py)
    dropped = any(not r["run"] for r in _lost(module, files, key))
    return key is not None and ((bool(keys) and key not in keys) or bool(instances - {key}) or dropped)


def _lost(module: Any, files: set[str] | None, key: int | None) -> list[dict[str, Any]]:
    """The records (not_lowered) of the entry that runs for `key` left out: of the chip's entry (`files`) those of
    the key or of the whole entry; without `files` (one entry file) those of the key only, or any when no kernel
    is left to run (another kernel of the program may be the one launched)."""
    from ascendir.dialects import ascendc as asc

    records = not_lowered(module, files)
    no_kernel = not any(isinstance(op, asc.KernelOp) for op in module.walk())
    if key is None:
        # no key chosen: an entry left out says why the launch has nothing to run (before, 'the program has no
        # kernel', with no place), but not where another kernel runs
        return [r for r in records if r["key"] == -1] if no_kernel else []
    if files or no_kernel:
        return [r for r in records if r["key"] in (-1, key)]
    return [r for r in records if r["key"] == key]


def not_lowered(module: Any, files: set[str] | None = None) -> list[dict[str, Any]]:
    """The NOT_LOWERED_ATTR records of `module` (kernel entries, or tiling keys' kernels of them, the lowering
    left out), of the entry in `files` where given."""
    from ascendir.lower.kernel_entry import NOT_LOWERED_ATTR

    attr = module.attributes.get(NOT_LOWERED_ATTR)
    records = [{k: v.data if hasattr(v, "data") and not hasattr(v, "value") else v.value.data
                for k, v in d.data.items()} for d in (attr.data if attr is not None else ())]
    return [r for r in records if not files or os.path.normpath(r["file"]) in files]


def lower_given_key(module: Any, key: int | None, chip: str, dtypes: Any) -> None:
    """The tiling key the caller gives (--tiling-key) of a kernel lowered once per key whose branch for it did not
    fit beside the others: lowered again, that key's branch first, as for a key the host chooses."""
    from ascendir.lower import LoweringOptions

    if key_not_lowered(module.unfolded, key):
        module.relower(LoweringOptions(chip=chip, dtypes=dtypes, tiling_key=key,
                                       absent_inputs=module.options.absent_inputs))


def kernel_name(program: Any, module: Any, key: int | None = None, chip: str | None = None) -> str | None:
    """The op's kernel: snake_case of the op name where several kernels are defined; of a kernel lowered once per
    tiling key (too large to lower whole), the one of the tiling key the host chose."""
    from xdsl.dialects.builtin import IntegerAttr

    from ascendir.dialects import ascendc as asc
    from ascendir.lower.tiling_key_split import TILING_KEY_ATTR
    from passes.sim import NotModelled

    files = entry_files(program, module, chip) if key is not None else set()
    # of several entries of the op's name, the keys of the one the chip builds only: a key another file's entry
    # was lowered for (group_norm_silu_apt.cpp's, for the 950) says nothing of the 910B's group_norm_silu.cpp
    keyed = {op.attributes[TILING_KEY_ATTR].value.data: op.sym_name.data for op in module.walk()
             if isinstance(op, asc.KernelOp) and isinstance(op.attributes.get(TILING_KEY_ATTR), IntegerAttr)
             and (not files or _source_file(op) in files)}
    lost = _lost(module, files, key)
    if lost:
        # the entry the chip builds, left out for this key: said with the lowering's reason, rather than another
        # entry (another chip's) running in its place
        from frontend.diagnostics import Span

        exc = NotModelled(f"kernel '{lost[0]['kernel']}'{'' if key is None else f' for tiling key {key}'}: it was "
                          f"not lowered ({lost[0]['reason']})")
        exc.span = Span.point(lost[0]["file"], lost[0]["line"], lost[0]["col"]) if lost[0]["line"] else None
        raise exc
    if keyed and key is not None:
        if key not in keyed:
            raise NotModelled(f"the kernel's branch for tiling key {key}: the kernel is lowered once per tiling key "
                              "(too large whole), and this key's branch did not fit")
        return keyed[key]
    kernels = [op.sym_name.data for op in module.walk() if isinstance(op, asc.KernelOp)]
    if len(kernels) <= 1:
        return None
    from passes.sim.op_file import op_type

    op = op_type(program.bundle)
    snake = "".join("_" + c.lower() if c.isupper() else c for c in op).lstrip("_")
    # an op folder with an entry per architecture (ops-nn's op.cpp for the 910B, op_apt.cpp for the 950, both
    # `op`; the second renamed `op_2`): the one in the file the OpDef builds for the chip (passes/sim/op_file.py)
    named = [k for k in module.walk() if isinstance(k, asc.KernelOp) and snake in (
        k.sym_name.data, getattr(k.attributes.get(asc.SOURCE_NAME_ATTR), "data", None))]
    if len(named) > 1 and chip is not None:
        from ascendir.chips import load_chip
        from passes.sim.op_file import kernel_file

        arch = load_chip(chip).npu_arch
        stem = kernel_file(program.bundle, arch) or snake
        own = [k for k in named if _source_stem(k) == stem]
        if len(own) > 1:
            # one file name in several architecture folders (ops-nn deep_norm: op_kernel/deep_norm.cpp and
            # op_kernel/arch35/deep_norm.cpp): the chip's folder, else the one in no such folder
            own = ([k for k in own if _source_arch(k) == arch] or [k for k in own if _source_arch(k) is None])
        if len(own) == 1:
            return own[0].sym_name.data
    return snake if snake in kernels else None


def entry_files(program: Any, module: Any, chip: str | None) -> set[str]:
    """Where the op's kernel entries of one name lie in several files (ops-nn's op.cpp for the 910B, op_apt.cpp
    for the 950): the file(s) of the entry the OpDef builds for `chip` (passes/sim/op_file.py; the chip's
    architecture folder first), each entry lowered whole or once per tiling key. Empty for one file."""
    from ascendir.chips import folder_arch, load_chip
    from ascendir.dialects import ascendc as asc
    from passes.sim.op_file import kernel_file, op_type

    if chip is None:
        return set()
    snake = "".join("_" + c.lower() if c.isupper() else c for c in op_type(program.bundle)).lstrip("_")
    named = [k for k in module.walk() if isinstance(k, asc.KernelOp) and snake in (
        k.sym_name.data, getattr(k.attributes.get(asc.SOURCE_NAME_ATTR), "data", None))]
    # with the entries the lowering left out (not_lowered): the chip's may be one of them
    paths = {os.path.normpath(f) for f in (_source_file(k) for k in named) if f is not None}
    paths |= {os.path.normpath(r["file"]) for r in not_lowered(module) if r["kernel"] == snake and r["file"]}
    if len(paths) <= 1:
        return set()
    arch = load_chip(chip).npu_arch
    stem = kernel_file(program.bundle, arch) or snake
    own = [f for f in paths if os.path.splitext(os.path.basename(f))[0] == stem]
    own = [f for f in own if folder_arch(f) == arch] or [f for f in own if folder_arch(f) is None] or own
    return set(own)


def _source_file(kernel: Any) -> str | None:
    """The source file a kernel was lowered from (its location)."""
    from xdsl.dialects.builtin import FileLineColLoc

    loc = kernel.location
    return os.path.normpath(loc.filename.data) if isinstance(loc, FileLineColLoc) else None


def _source_arch(kernel: Any) -> int | None:
    """The architecture the folder of a kernel's source builds for (arch35: 3510), or None."""
    from xdsl.dialects.builtin import FileLineColLoc

    from ascendir.chips import folder_arch

    loc = kernel.location
    return folder_arch(loc.filename.data) if isinstance(loc, FileLineColLoc) else None


def _source_stem(kernel: Any) -> str | None:
    """The stem of the source file a kernel was lowered from (its location)."""
    from xdsl.dialects.builtin import FileLineColLoc

    loc = kernel.location
    if isinstance(loc, FileLineColLoc):
        return os.path.splitext(os.path.basename(loc.filename.data))[0]
    return None
