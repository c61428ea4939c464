"""Memory bugs: UB capacity, 32-byte alignment, transfer lengths, and each core's slice of global memory."""

from __future__ import annotations

import re
from collections.abc import Iterator

from passes.mutate.lines import Site, call_args, code_lines, replaced, split_args
from passes.mutate.model import Operator
from passes.mutate.queue import INIT_BUFFER

DATACOPY = re.compile(r"\b(AscendC::)?DataCopy\s*(<[^;()]*>)?\s*\(")
SET_GLOBAL = re.compile(r"(\.|->)SetGlobalBuffer\s*\(")
_BLOCK_INDEX = re.compile(r"(?:AscendC::)?GetBlockIdx\s*\(\s*\)|\bblockIdx\b|\bBlockIdx\b|\bblock_idx\b|\bcoreIdx\b|\bCoreIdx\b")
_GM_PLUS = re.compile(r"(\s*\(\s*__gm__\s+[\w:<>\s]+\*\s*\)\s*\(?\s*\w+\s*\)?)\s*\+\s*(.+)$", re.S)
# `{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}`: a DataCopyExtParams / DataCopyParams brace list
_COPY_PARAMS = re.compile(r"\b(?:AscendC::)?DataCopy(?:Ext)?Params\s+\w+\s*\{")
_SIZEOF = re.compile(r"\bsizeof\s*\(\s*([\w:]+)\s*\)")


def _oversize_buffer(lines: list[str]) -> Iterator[Site]:
    """`pipe.InitBuffer(q, 2, len)` -> `pipe.InitBuffer(q, 2, 1048608)`: over every on-chip buffer of every chip
    (1 MB + 32 bytes), as a length computed in elements times a size twice would be."""
    for i in code_lines(lines):
        if not INIT_BUFFER.match(lines[i]):
            continue
        start = lines[i].index("InitBuffer")
        parsed = split_args(lines[i], lines[i].index("(", start))
        if not parsed or len(parsed[0]) < 2:
            continue
        begin, end = parsed[0][-1]
        yield i, replaced(lines, i, lines[i][:begin] + " 1048608" + lines[i][end:])


def _misalign_copy(lines: list[str]) -> Iterator[Site]:
    """`DataCopy(dst, src, n)` -> `DataCopy(dst, src, n + 1)`: the off-by-one that leaves a transfer length off
    the 32-byte grid. A length the checker can fold is proven wrong directly (ASC401); one read from the tiling
    only when another copy on the same path moves `n` of the same element size (ASC408), so a kernel with a
    single copy of that length is an expected miss."""
    for i in code_lines(lines):
        for _, args in call_args(lines[i], DATACOPY):
            if len(args) != 3:
                continue
            begin, end = args[2]
            count = lines[i][begin:end].strip()
            if not re.fullmatch(r"[\w.\->()\s*+/]+", count) or "Params" in count or "params" in count:
                continue  # a DataCopyParams argument, not an element count
            yield i, replaced(lines, i, lines[i][:begin] + f" ({count}) + 1" + lines[i][end:])
            break


def _written_globals(lines: list[str]) -> set[str]:
    joined = "\n".join(lines)
    return set(re.findall(r"\bDataCopy(?:Pad)?\s*(?:<[^;()]*>)?\s*\(\s*(?:this->)?(\w+)\s*[\[,]", joined))


def _core_offset_sites(lines: list[str], outputs_only: bool) -> Iterator[tuple[int, int, int, re.Match[str]]]:
    """(line, begin, end of the pointer argument, its `base + offset` match) of every SetGlobalBuffer whose
    pointer adds an offset that names the block index (or an `offset` the file computes from it)."""
    written = _written_globals(lines)
    for i in code_lines(lines):
        match = SET_GLOBAL.search(lines[i])
        receiver = re.search(r"(\w+)\s*$", lines[i][:match.start()]) if match else None
        if not match or not receiver or (outputs_only and receiver.group(1) not in written):
            continue
        parsed = split_args(lines[i], match.end() - 1)
        if not parsed:
            continue
        begin, end = parsed[0][0]
        plus = _GM_PLUS.match(lines[i][begin:end])
        if plus and (_BLOCK_INDEX.search(plus.group(2)) or re.search(r"[Oo]ffset", plus.group(2))):
            yield i, begin, end, plus


def _drop_core_offset(lines: list[str]) -> Iterator[Site]:
    """`yGm.SetGlobalBuffer((__gm__ T*)y + offset, n)` -> `yGm.SetGlobalBuffer((__gm__ T*)y, n)` where the offset
    names the block index, for a GlobalTensor the file copies into: every core then writes the first core's
    slice. (Without the offset on an input, every core reads the same slice, which looks like a broadcast
    operand such as a norm's gamma: nothing to prove there.)"""
    for i, begin, end, plus in _core_offset_sites(lines, outputs_only=True):
        yield i, replaced(lines, i, lines[i][:begin] + plus.group(1).rstrip() + lines[i][end:])


_OFFSET_ASSIGN = re.compile(r"^\s*(?:[\w:<>]+\s+)?\w*[Oo]ffset\w*\s*=\s*([^;]+);")


def _core_offset_plus_one(lines: list[str]) -> Iterator[Site]:
    """`(__gm__ T*)x + blockLength * GetBlockIdx()` -> `... * (GetBlockIdx() + 1)`, also where the offset is
    computed first (`offset = blockLength * blockIdx;`): every core starts one slice late, so the last core
    reads and writes past the end of the tensor and the first slice is never touched."""
    edited = set()
    for i, begin, end, plus in _core_offset_sites(lines, outputs_only=False):
        index = _BLOCK_INDEX.search(plus.group(2))
        if index is None:
            continue
        at = begin + plus.start(2) + index.start()
        edited.add(i)
        yield i, replaced(lines, i, lines[i][:at] + f"({index.group(0)} + 1)" + lines[i][at + len(index.group(0)):])
    for i in code_lines(lines):
        assign = _OFFSET_ASSIGN.match(lines[i])
        index = _BLOCK_INDEX.search(assign.group(1)) if assign else None
        if assign is None or index is None or i in edited:
            continue
        at = assign.start(1) + index.start()
        yield i, replaced(lines, i, lines[i][:at] + f"({index.group(0)} + 1)" + lines[i][at + len(index.group(0)):])


def _sizeof_mismatch(lines: list[str]) -> Iterator[Site]:
    """`InitBuffer(q, n, len * sizeof(float))` -> `... sizeof(half)`, `sizeof(T)` -> `sizeof(half)`: the buffer is
    sized for 2-byte elements while the kernel stores 4-byte ones (for T = float), so every full-tile vector
    op and copy runs past the end of its buffer."""
    for i in code_lines(lines):
        if not INIT_BUFFER.match(lines[i]):
            continue
        match = _SIZEOF.search(lines[i])
        if match is None or match.group(1) in ("half", "int16_t", "uint16_t", "bfloat16_t", "int8_t", "uint8_t"):
            continue
        yield i, replaced(lines, i, lines[i][:match.start(1)] + "half" + lines[i][match.end(1):])


def _copy_elements_as_bytes(lines: list[str]) -> Iterator[Site]:
    """`DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0}` -> `{1, len, ...}`: DataCopyPad's
    blockLen counts bytes, and the element count moves only a half or a quarter of the row."""
    for i in code_lines(lines):
        match = _COPY_PARAMS.search(lines[i])
        if match is None:
            continue
        parsed = split_args(lines[i], match.end() - 1)
        if not parsed or len(parsed[0]) < 2:
            continue
        begin, end = parsed[0][1]
        length = lines[i][begin:end]
        inner = re.fullmatch(r"\s*(?:static_cast\s*<\s*\w+\s*>\s*)?\(?\s*\(?\s*(.+?)\s*\)?\s*\*\s*sizeof\s*\(\s*[\w:]+"
                             r"\s*\)\s*\)?\s*", length)
        if inner is None or "sizeof" in inner.group(1):
            continue
        yield i, replaced(lines, i, lines[i][:begin] + " " + inner.group(1).strip("() ") + lines[i][end:])


MEMORY_OPERATORS = [
    Operator("oversize-buffer", ("ASC3",), "an InitBuffer length replaced by 1 MB + 32 bytes", _oversize_buffer,
             "ub_budget_tile_size", "size every buffer from the tile length and the element size so that all "
             "buffers fit in the chip's local memory (UB is 192 KB on 910B)"),
    Operator("sizeof-mismatch", ("ASC3",), "an InitBuffer length sized with sizeof(half) for wider elements",
             _sizeof_mismatch, "ub_budget_tile_size",
             "size a buffer with the element type it holds (sizeof(T), or sizeof(float) for a float buffer)"),
    Operator("misalign-copy", ("ASC4",), "a DataCopy element count plus one", _misalign_copy, "alignment",
             "DataCopy moves whole 32-byte blocks: keep its length a multiple of 32 bytes (use DataCopyPad for a "
             "length that is not)"),
    Operator("copy-elements-as-bytes", ("ASC3", "ASC4", "ASC6"), "DataCopyPad's byte length given in elements",
             _copy_elements_as_bytes, "alignment",
             "DataCopyExtParams.blockLen is in bytes: multiply the element count by sizeof(T)"),
    Operator("drop-core-offset", ("ASC6",), "the per-core offset dropped from a SetGlobalBuffer pointer",
             _drop_core_offset, "multicore_coverage_or_offset",
             "offset each core's GlobalTensor by its own slice (GetBlockIdx() times the per-core length)"),
    Operator("core-offset-plus-one", ("ASC6",), "the block index in a SetGlobalBuffer offset plus one",
             _core_offset_plus_one, "multicore_coverage_or_offset",
             "core i starts at i times the per-core length (GetBlockIdx(), not GetBlockIdx() + 1)"),
]

