"""`AscendC::GetSoftMaxFlashMaxTmpSize` / `GetSoftMaxFlashMinTmpSize(srcShape, dataTypeSize, isUpdate,
isReuseSource)` in host code: the temporary bytes of SoftmaxFlash, the first form of SoftmaxFlashV2
(ops-transformer's prompt_flash_attention tiling sizes its UB with the Min). asc-devkit
impl/adv_api/tiling/activation/softmax_tiling.cpp:222-304, [M, K] the shape's rows and last dim, blk = 32 /
dataTypeSize, in float words times 4: on the 220x chips the Min is blk + K + 64 without isUpdate and 4 blk + 2 K with
it, the Max M times that; on DAV_3510 / DAV_5102 the Min is M (blk + K) (the Max M (blk + K + 64)), without isUpdate
at least M (8 + K) + 256 + align(M, 8). 0 for an empty shape or a type size other than 2 or 4 (the library's
asserts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import handle_kind
from ascendir.lower.host_select import both as _and
from ascendir.lower.host_select import nonzero as _nonzero
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.host_softmax_flash_size import _regbase, _type_size, shape_rows
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

FUNCTIONS = frozenset({"GetSoftMaxFlashMaxTmpSize", "GetSoftMaxFlashMinTmpSize"})
_UNIT = 64  # SOFTMAX_BASICBLOCK_UNIT
_TILE = 8  # BASIC_TILE_NUM


def call(lw: HostLowerer, e: A.Call, name: str) -> Val:
    if len(e.args) != 4:
        raise Unsupported(f"'{name}' with {len(e.args)} arguments is not modelled", e)
    shape = lw.expr(e.args[0])
    if handle_kind(shape) not in ("shape", "shape_buffer"):
        raise Unsupported(f"a SoftmaxFlash tiling shape of {shape.ctype} is not modelled", e.args[0])
    value = lw._shape_value(shape, e.args[0])
    size = lw.convert(lw.expr(e.args[1]), C.U32, e.args[1])
    update = lw.to_bool(lw.expr(e.args[2]), e)
    count, m, k = shape_rows(lw, value, e)
    blk = lw.arith("/", _u32(32), _nonzero(lw, size, e), e)
    is_max = name == "GetSoftMaxFlashMaxTmpSize"

    def add(*vals: Val) -> Val:
        total = vals[0]
        for v in vals[1:]:
            total = lw.arith("+", total, v, e)
        return total

    def mul(a: Val, b: Val) -> Val:
        return lw.arith("*", a, b, e)

    # 220x
    row = _select(lw, update, add(mul(_u32(4), blk), mul(_u32(2), k)), add(blk, k, _u32(_UNIT)), e)
    words = mul(m, row) if is_max else row
    # DAV_3510 / DAV_5102
    need2 = mul(m, add(blk, k, _u32(_UNIT)) if is_max else add(blk, k))
    aligned_m = mul(lw.arith("/", add(m, _u32(_TILE - 1)), _u32(_TILE), e), _u32(_TILE))
    need1 = add(mul(m, add(_u32(_TILE), k)), _u32(_UNIT * 4), aligned_m)
    regbase_words = _select(lw, update, need2, _select(lw, lw.compare(">", need1, need2, e), need1, need2, e), e)
    words = _select(lw, _regbase(lw, e), regbase_words, words, e)
    valid = _and(lw, lw.compare("!=", count, _u32(0), e), _type_size(lw, size, e), e)
    return _select(lw, valid, mul(words, _u32(4)), _u32(0), e)
