"""The chip an answer runs on when the task's chip lacks instructions its kernel calls.

A benchmark task names one chip (NPUKernelBench: Ascend910_93, arch 2201). An op project builds its kernel for the
SoCs its op definition lists (`AddConfig("ascend310p")`), and its aclnn layer may launch the kernel only on some of
them: NPUKernelBench's TopKV3 answer is built for 310P, 910B and 910_93, sorts with the region-proposal
instructions of arch 2002 (ProposalConcat, RpSort16, MrgSort4, ProposalExtract: the 2201 devkit aborts on them),
and its l0op launches it on ASCEND310P only. Such an answer is judged on the chip it was written for: the listed
one on whose architecture every arch-restricted API it calls exists (the catalog's `archs`). Any other answer
keeps the task's chip, so a kernel that calls them for the 910B alone is still reported (ASC516).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ascendir.catalog import load_catalog
from ascendir.chips import load_chip, op_def_archs


@functools.cache
def _restricted() -> dict[str, frozenset[int]]:
    """APIs the catalog gives to some architectures only: name -> those architectures."""
    out: dict[str, frozenset[int]] = {}
    for api in load_catalog().apis:
        if api.archs is not None and api.receiver is None:
            out[api.name] = out.get(api.name, frozenset()) | api.archs
    return out


def _called(text: str, names: dict[str, frozenset[int]]) -> dict[str, frozenset[int]]:
    found = {}
    for m in re.finditer(r"\b([A-Z]\w*)\s*(?:<[^;(){}]*>)?\s*\(", text):
        if m.group(1) in names:
            found[m.group(1)] = names[m.group(1)]
    return found


def answer_chip(bundle: Any, task_chip: str) -> str:
    """`task_chip`, or the chip of another architecture the answer's op definition builds for when the kernel
    calls APIs that exist on that one and not on the task chip's."""
    units = getattr(bundle, "units", ()) or ()
    kernel = "\n".join(u.text for u in units if "op_host" not in u.path.replace("\\", "/").split("/"))
    calls = _called(kernel, _restricted())
    arch = load_chip(task_chip).npu_arch
    if not calls or all(arch in archs for archs in calls.values()):
        return task_chip
    defs = "\n".join(u.text for u in units if u.path.endswith("_def.cpp") or "OpDef" in u.text)
    for other, chip in sorted(op_def_archs(defs).items()):
        if other != arch and all(other in archs for archs in calls.values()):
            return chip
    return task_chip
