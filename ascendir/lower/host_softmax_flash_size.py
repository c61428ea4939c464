"""`AscendC::GetSoftMaxFlashV2MaxTmpSize` / `GetSoftMaxFlashV2MinTmpSize(srcShape, dataTypeSize1, dataTypeSize2,
isUpdate[, isBasicBlock[, isFlashOutputBrc]])` in host code: the bytes of temporary UB SoftmaxFlashV2 needs.

The formulas are those of the tiling library (asc-devkit impl/adv_api/tiling/activation/softmax_tiling.cpp:
GetSoftMaxFlashV2MaxTmpSize :541, the Min :634), in float words, times 4, by the chip's architecture
(GetCurNpuArch: the DAV_3510 / DAV_5102 branch, else the 220x one). srcShape is read as [M, K] (K the last dim, M
the product of the others, as GetLastAxisShapeND :62); blk = 32 / dataTypeSize2 elements (a block of dstMax /
expSum); isUpdate does not change the 220x sizes.

* 220x Max, a basic block (isBasicBlock, K % 64 == 0, M % 8 == 0): M halved while M * K >= 64 * 256 (one repeat's
  255-repeat limit); half M * (blk + K + 64), float M * (blk + 64), with 128 for 64 when K is 1024. Otherwise half
  M * (2 * blk + K + 64), float M * (blk + 64).
* 220x Min: the same per row for one basic tile of 8 rows (basic block, K % 64 == 0) or one row; with
  isFlashOutputBrc, times min(32 / dataTypeSize1, M) rows (a basic tile's 8 rows counted once).
* DAV_3510 (:566-606, :672-690), with isUpdate: for a half source align(2 * M, 128) + M * (2 * blk + K) (+ M * blk
  for a float dstMax), for a float one align(M, 64) + 2 * M * blk; the Max takes those only for M <= 2, else the
  220x row sizes (a basic block without the halving or the K = 1024 case). Without isUpdate:
  max(M * (s + K) + 256 + align(M, 8), M * (blk + K) (+ 64 * M for the Max)), s = 8 (4 for the Min of a basic
  block). No isFlashOutputBrc factor.
* A source of no elements, or a type size other than 2 or 4, returns 0 (the library's asserts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import handle_kind
from ascendir.lower.host_select import both as _and
from ascendir.lower.host_select import nonzero as _nonzero
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

FUNCTIONS = frozenset({"GetSoftMaxFlashV2MaxTmpSize", "GetSoftMaxFlashV2MinTmpSize"})
_UNIT = 64  # SOFTMAX_BASICBLOCK_UNIT: float words of one repeat
_TILE = 8  # BASIC_TILE_NUM: rows of a basic tile
_SPECIAL_K = 1024  # SOFTMAX_SPECIAL_BASICBLOCK_LEN: the K whose basic block takes two repeats of scratch


def call(lw: HostLowerer, e: A.Call, name: str) -> Val:
    if not 4 <= len(e.args) <= 6:
        raise Unsupported(f"'{name}' with {len(e.args)} arguments is not modelled", e)
    shape = lw.expr(e.args[0])
    if handle_kind(shape) not in ("shape", "shape_buffer"):
        raise Unsupported(f"a SoftmaxFlashV2 tiling shape of {shape.ctype} is not modelled", e.args[0])
    value = lw._shape_value(shape, e.args[0])
    size1, size2 = (lw.convert(lw.expr(a), C.U32, a) for a in e.args[1:3])
    update = lw.to_bool(lw.expr(e.args[3]), e)
    basic_flag, brc = (lw.to_bool(lw.expr(e.args[i]), e) if len(e.args) > i else Val(C.BOOL, const=0) for i in (4, 5))
    count, m, k = shape_rows(lw, value, e)
    blk = lw.arith("/", _u32(32), _nonzero(lw, size2, e), e)
    half = _eq(lw, size1, 2, e)
    k_unit = _eq(lw, lw.arith("%", k, _u32(_UNIT), e), 0, e)
    if name == "GetSoftMaxFlashV2MaxTmpSize":
        basic = _and(lw, _and(lw, basic_flag, k_unit, e), _eq(lw, lw.arith("%", m, _u32(_TILE), e), 0, e), e)
        rows = _select(lw, basic, _halved_below(lw, m, k, e), m, e)
        words = lw.arith("*", rows, _row_words(lw, basic, half, blk, k, e), e)
    else:
        basic = _and(lw, basic_flag, k_unit, e)
        words = _select(lw, basic, lw.arith("*", _u32(_TILE), _row_words(lw, basic, half, blk, k, e), e),
                        _row_words(lw, basic, half, blk, k, e), e)
        per_block = lw.arith("/", _u32(32), _nonzero(lw, size1, e), e)
        brc_rows = _select(lw, lw.compare("<", m, per_block, e), m, per_block, e)
        tiles = _select(lw, basic, lw.arith("/", words, _u32(_TILE), e), words, e)
        words = _select(lw, brc, lw.arith("*", tiles, brc_rows, e), words, e)
    regbase = _regbase(lw, e)
    words = _select(lw, regbase, _dav_3510(lw, name, (m, k, blk, half, size2), update, basic_flag, e), words, e)
    nonempty = lw.compare("!=", count, _u32(0), e)
    valid = _and(lw, nonempty, _and(lw, _type_size(lw, size1, e), _type_size(lw, size2, e), e), e)
    return _select(lw, valid, lw.arith("*", words, _u32(4), e), _u32(0), e)


def shape_rows(lw: HostLowerer, value: SSAValue, e: A.Call) -> tuple[Val, Val, Val]:
    """A softmax tiling shape as [M, K] (uint32): its element count, M = count / K (a K of 0 divides by 1) and K,
    its last dimension. Shared by SoftmaxFlash's sizes (host_softmax_flash_v1_size.py)."""
    count = lw.convert(Val(C.I64, lw.emit(hd.ShapeSizeOp(value), e).results[0]), C.U32, e)
    last = lw.ssa(lw.arith("-", Val(C.U64, lw.emit(hd.ShapeDimNumOp(value), e).results[0]), Val(C.U64, const=1), e), e)
    k = lw.convert(Val(C.I64, lw.emit(hd.ShapeDimOp(value, last), e).results[0]), C.U32, e)
    return count, lw.arith("/", count, _nonzero(lw, k, e), e), k


def _regbase(lw: HostLowerer, e: A.Call) -> Val:
    """GetCurNpuArch() is DAV_3510 or DAV_5102 (the library's condition for its other branch)."""
    arch = Val(C.I64, lw.emit(hd.ChipFactOp(lw.ssa(lw._platform(e), e), "npu_arch"), e).results[0])
    return _select(lw, lw.compare("==", arch, Val(C.I64, const=3510), e), Val(C.BOOL, const=1),
                   lw.compare("==", arch, Val(C.I64, const=5102), e), e)


def _dav_3510(lw: HostLowerer, name: str, dims: tuple[Val, Val, Val, Val, Val], update: Val, basic_flag: Val,
              e: A.Call) -> Val:
    """The DAV_3510 branch's float words (module docstring)."""
    m, k, blk, half, size2 = dims
    is_max = name == "GetSoftMaxFlashV2MaxTmpSize"
    # with isUpdate: the few-row form (the Max's for M <= 2; the Min's always)
    two_blk = lw.arith("*", blk, _u32(2), e)
    half_words = lw.arith("+", _align_by(lw, lw.arith("*", m, _u32(2), e), 2 * _UNIT, e),
                          lw.arith("*", m, lw.arith("+", two_blk, k, e), e), e)
    half_max = _eq(lw, size2, 2, e)
    half_words = _select(lw, half_max, half_words, lw.arith("+", half_words, lw.arith("*", m, blk, e), e), e)
    float_words = lw.arith("+", _align_by(lw, m, _UNIT, e), lw.arith("*", m, two_blk, e), e)
    few_rows = _select(lw, half, half_words, float_words, e)
    if is_max:
        k_unit = _eq(lw, lw.arith("%", k, _u32(_UNIT), e), 0, e)
        basic = _and(lw, _and(lw, basic_flag, k_unit, e), _eq(lw, lw.arith("%", m, _u32(_TILE), e), 0, e), e)
        rows = lw.arith("*", m, _row_words(lw, basic, half, blk, k, e, special=False), e)
        few_rows = _select(lw, lw.compare("<=", m, _u32(2), e), few_rows, rows, e)
    # without isUpdate
    per_row = _u32(_TILE) if is_max else _select(lw, basic_flag, _u32(4), _u32(_TILE), e)
    first = lw.arith("+", lw.arith("+", lw.arith("*", m, lw.arith("+", per_row, k, e), e), _u32(_UNIT * 4), e),
                     _align_by(lw, m, _TILE, e), e)
    second = lw.arith("*", m, lw.arith("+", lw.arith("+", blk, k, e), _u32(_UNIT if is_max else 0), e), e)
    plain = _select(lw, lw.compare("<", first, second, e), second, first, e)
    return _select(lw, update, few_rows, plain, e)


def _align_by(lw: HostLowerer, n: Val, unit: int, e: A.Call) -> Val:
    return lw.arith("*", lw.arith("/", lw.arith("+", n, _u32(unit - 1), e), _u32(unit), e), _u32(unit), e)


def _row_words(lw: HostLowerer, basic: Val, half: Val, blk: Val, k: Val, e: A.Call, special: bool = True) -> Val:
    """Float words per row: blk + 64 (float) or blk + K + 64 (half) in a basic block, 128 for 64 when K is 1024
    (the 220x branch: `special`); else 2 * blk + K + 64 (half) or blk + 64 (float)."""
    unit = _select(lw, _eq(lw, k, _SPECIAL_K, e), _u32(2 * _UNIT), _u32(_UNIT), e) if special else _u32(_UNIT)
    basic_words = lw.arith("+", blk, _select(lw, half, lw.arith("+", k, unit, e), unit, e), e)
    plain_half = lw.arith("+", lw.arith("+", lw.arith("*", blk, _u32(2), e), k, e), _u32(_UNIT), e)
    plain = _select(lw, half, plain_half, lw.arith("+", blk, _u32(_UNIT), e), e)
    return _select(lw, basic, basic_words, plain, e)


def _halved_below(lw: HostLowerer, m: Val, k: Val, e: A.Call) -> Val:
    """`while (M * K >= 64 * 256) M /= 2;` (uint32 arithmetic), unrolled: 32 halvings reach 0 from any M."""
    for _ in range(32):
        big = lw.compare(">=", lw.arith("*", m, k, e), _u32(_UNIT * 256), e)
        m = _select(lw, big, lw.arith("/", m, _u32(2), e), m, e)
    return m


def _type_size(lw: HostLowerer, size: Val, e: A.Call) -> Val:
    return _select(lw, _eq(lw, size, 2, e), Val(C.BOOL, const=1), _eq(lw, size, 4, e), e)


def _eq(lw: HostLowerer, v: Val, n: int, e: A.Call) -> Val:
    return lw.compare("==", v, _u32(n), e)
