"""The tiling header the build gives a kernel file checked on its own.

A kernel's `GET_TILING_DATA(td, tiling)` names no struct: it reads the one the operator registered on the host
side, `REGISTER_TILING_DATA_CLASS(OpType, Struct)` in a header of an op_host folder, whose BEGIN_TILING_DATA_DEF
defines it ("the TilingData structure needs to be defined in the corresponding operator implementation on the
host"; "the tiling structure is a global attribute", the API reference's GET_TILING_DATA and TilingData Structure
Registration pages). The build finds it by the operator type, the kernel's entry name in CamelCase
(`ada_layer_norm_quant` -> AdaLayerNormQuant), and puts its definition before the kernel. A kernel file read alone
has no such header among its sources: its op folder's op_host holds it, or, for an op built from another op's
code, that op's (ops-nn's ada_layer_norm_quant registers its struct in ada_layer_norm/op_host). This module finds
those headers; the pipeline parses them as build context (Program.context), which the lowering reads tiling
structs and registrations from and the checks do not check.
"""

from __future__ import annotations

import functools
import os
import re

REGISTER_RE = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*[\w:]+\s*\)")
_ENTRY_RE = re.compile(r"\b__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(")
_KEY_SUFFIX = re.compile(r"_\d+$")  # `OpType_<tiling key>`: the struct of one tiling key
_MAX_HEADERS = 256  # header files looked at per op_host folder


def op_type_key(name: str) -> str:
    """An operator type or a kernel entry name as the build matches them: `AlltoAllAllGatherBatchMatMul` and
    `allto_all_all_gather_batch_mat_mul` alike, a tiling key's registration (`Op_101010`) as its op's."""
    return _KEY_SUFFIX.sub("", name).replace("_", "").lower()


@functools.lru_cache(maxsize=256)
def _registrations(host: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(header path, op type keys it registers tiling structs for) for each header under `host` that does."""
    found: list[tuple[str, frozenset[str]]] = []
    seen = 0
    for dirpath, dirnames, filenames in os.walk(host):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith((".h", ".hpp")) or seen >= _MAX_HEADERS:
                continue
            seen += 1
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            ops = frozenset(op_type_key(m) for m in REGISTER_RE.findall(text))
            if ops:
                found.append((path, ops))
    return tuple(found)


def tiling_headers(path: str, text: str) -> list[str]:
    """The op_host headers registering a tiling struct for a kernel entry `text` defines, for a kernel file
    under `<op>/op_kernel/`: those of its own op's op_host, else those of the op folders beside it."""
    parts = os.path.abspath(path).split(os.sep)
    if "op_kernel" not in parts[:-1] or "GET_TILING_DATA" not in text:
        return []
    entries = {op_type_key(n) for n in _ENTRY_RE.findall(text)}
    if not entries:
        return []
    op_folder = os.sep.join(parts[:len(parts) - 2 - parts[-2::-1].index("op_kernel")])
    own = os.path.join(op_folder, "op_host")
    ops_folder = os.path.dirname(op_folder)
    try:
        siblings = sorted(os.path.join(ops_folder, d, "op_host") for d in os.listdir(ops_folder))
    except OSError:
        siblings = []
    for host in [own, *(s for s in siblings if s != own)]:
        if not os.path.isdir(host):
            continue
        hits = [p for p, ops in _registrations(host) if ops & entries]
        if hits:
            return hits
    return []
