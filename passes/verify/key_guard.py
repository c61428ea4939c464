"""Findings in code that only one tiling key runs, and errors the device build accepts.

A kernel entry dispatches on the tiling key its host sets (`if (TILING_KEY_IS(5)) { KernelMuls<int64_t> op; ...}`).
The device build compiles every branch into the one binary; a launch runs only its key's. So a finding in such a
branch says when it matters: `CheckContext.report` notes the key (`key_note`).

Most errors stop the build as well (no overload, no Cast route). Some do not: the vendor library compiles them
and they misbehave only when run, such as a Cast given a RoundMode its route has no case for (asc-devkit's
`CastIntrinsicsImpl` switch falls through: no instruction, the destination keeps what it held). Their rules
mark them with `BUILD_ACCEPTS`. An error that is both (`keyed_build_accepted`) does not stop an answer from
compiling; it is a failure of each run whose host picks that key (bench/harness/stages/compile.py). NPUKernelBench
Muls, correct on hardware, casts int64 -> float with CAST_NONE under tiling key 5, which none of its cases use.
"""

from __future__ import annotations

import re
from dataclasses import replace

from xdsl.dialects import scf
from xdsl.ir import Operation

from frontend.diagnostics import Diagnostic, Note

# the note a rule attaches to an error the device build compiles (it misbehaves only when it runs)
BUILD_ACCEPTS = "the device build compiles this; it goes wrong only where it runs"
_KEY_NOTE = "reached only under TILING_KEY_IS({key}): a launch runs it when its host sets tiling key {key}"
_KEY_RE = re.compile(r"^reached only under TILING_KEY_IS\((\d+)\)")


def branch_key(op: Operation) -> int | None:
    """The tiling key the innermost `TILING_KEY_IS(k)` branch around `op` requires (the then-branch of an
    scf.if on ascendc.tiling_key_is k); None when no such branch holds it."""
    from ascendir.dialects import ascendc as asc

    child: Operation = op
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.IfOp) and child.parent_region() is parent.true_region:
            cond = parent.cond.owner
            if isinstance(cond, asc.TilingKeyIsOp):
                return int(cond.key.value.data)
        child, parent = parent, parent.parent_op()
    return None


def key_note(op: Operation) -> Note | None:
    key = branch_key(op)
    return Note(_KEY_NOTE.format(key=key)) if key is not None else None


def merge_key_notes(kept: Diagnostic, again: Diagnostic) -> Diagnostic:
    """`kept` with the key notes of `again` (the same finding from another instantiation) it lacks; a finding in
    code some launch reaches outside any key branch loses them all (it is not confined to keys)."""
    def keyed(d: Diagnostic) -> list[Note]:
        return [n for n in d.notes if _KEY_RE.match(n.message)]

    if not keyed(kept) and not keyed(again):
        return kept
    if not keyed(kept) or not keyed(again):
        return replace(kept, notes=tuple(n for n in kept.notes if not _KEY_RE.match(n.message)))
    extra = tuple(n for n in keyed(again) if n not in kept.notes)
    return replace(kept, notes=kept.notes + extra) if extra else kept


def keyed_build_accepted(d: Diagnostic) -> int | None:
    """The tiling key of an error its rule marks BUILD_ACCEPTS in a branch of one key; None otherwise."""
    if not d.is_error or not any(n.message == BUILD_ACCEPTS for n in d.notes):
        return None
    keys = {int(m.group(1)) for n in d.notes if (m := _KEY_RE.match(n.message))}
    return keys.pop() if len(keys) == 1 else None
