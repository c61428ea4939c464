"""Which pass of a split chip's kernel compile a kernel source is read as.

On the 910B family a kernel source is compiled once per core kind: the AIV pass defines __DAV_C220_VEC__, the AIC
pass __DAV_C220_CUBE__, and a kernel's code picks its core's half by them (ops-nn transpose_batch_mat_mul's
utils: the L0C to GM Fixpipe and the L1 buffers exist only `#if defined(__DAV_C220_CUBE__)`). A mixed kernel is
checked as its vector pass (ascendir.chips.Chip.kernel_defines). A kernel that declares itself cube-only is built
for the AIC alone, so its only pass is the cube one: `KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY)`, or template
selections that all say `ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY)` (asc-devkit template_argument.h).
Read from the text of the kernel's sources, as frontend/opdef.py reads the OpDef: any other kernel type declared
beside it (an AIV-only or MIX selection for another key) keeps the vector pass.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable

from frontend.opdef import COMMENT_RE

_KERNEL_TYPES = re.compile(
    r"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(\s*(?:\w+\s*,\s*)?(?:\w+::)*KERNEL_TYPE_(\w+)"
    r"|\bASCENDC_TPL_KERNEL_TYPE_SEL\s*\(\s*ASCENDC_TPL_(\w+)")


def cube_only(texts: Iterable[str]) -> bool:
    """Whether the kernel sources `texts` declare one kernel type, and it is AIC_ONLY."""
    kinds = {kind for text in texts for m in _KERNEL_TYPES.finditer(COMMENT_RE.sub(" ", text))
             for kind in m.groups() if kind}
    return kinds == {"AIC_ONLY"}


_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def with_included(sources: Iterable[tuple[str, str]], read: Callable[[str], str | None]) -> list[str]:
    """The texts of `sources` (path, text) and of the headers they include by a quoted name found next to them, one
    level deep: a kernel file run alone declares its type in the tiling-key header it includes (ops-nn
    transpose_batch_mat_mul.cpp includes transpose_batch_mat_mul_tiling_key.h), which is no source of its own."""
    items = list(sources)
    seen = {os.path.normpath(path) for path, _ in items}
    texts = [text for _, text in items]
    for path, text in items:
        for name in _QUOTED_INCLUDE.findall(text):
            header = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if header in seen:
                continue
            seen.add(header)
            found = read(header)
            if found is not None:
                texts.append(found)
    return texts


def cube_pass(defines: dict[str, str | None], vector_macro: str | None) -> dict[str, str | None]:
    """`defines` of the vector pass turned into the cube pass's: the chip's vector-pass macro undefined and its
    cube-pass twin (`__DAV_C220_VEC__` -> `__DAV_C220_CUBE__`) defined."""
    if not vector_macro or not vector_macro.endswith("_VEC__"):
        return defines
    out = {k: v for k, v in defines.items() if k != vector_macro}
    out[vector_macro.removesuffix("_VEC__") + "_CUBE__"] = "1"
    return out
