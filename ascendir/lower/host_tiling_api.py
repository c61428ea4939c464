"""Host-side queries of the AscendC high-level API tiling library: SoftmaxGrad's and the Reduce and sort APIs'
temporary space and tilings here, the other families' in the modules this one calls.

What each computes is the vendor tiling library's formula for the 220x chips (asc-devkit,
impl/adv_api/tiling/activation/softmax_tiling.cpp; the DAV_3510 branch is not modelled: the simulator's chips are
220x). Sizes are in bytes, counted in float words.

* `GetSoftMaxGradMinTmpSize(srcShape, typeSize, isFront, isReuseSource)` / `...MaxTmpSize`: srcShape read as
  [M, K] (K the last dim). Per row, with blk = 32 / typeSize: half, 2 * blk + 3 * K + 64 words; float,
  blk + K + 64 for the front part alone (isFront), else 2 * blk + K + 64. The minimum is one row, the maximum
  M rows.
* `SoftMaxGradTilingFunc(srcShape, typeSize, workSize, tiling[, isFront])`: its arguments run; the SoftMaxTiling
  block it fills is not written (the simulator does not read one; the kernel's SoftmaxGrad is not simulated).
* RmsNorm's, LayerNorm's, Normalize's, WelfordUpdate's and WelfordFinalize's size queries and tilings:
  host_norm_tiling.py.
* `GetTopKMaxMinTmpSize` and `TopKTilingFunc` (the TopkTiling fields): host_topk_tiling.py.
* `GetSoftMaxFlashV2MaxTmpSize` / `GetSoftMaxFlashV2MinTmpSize`: host_softmax_flash_size.py; SoftmaxFlash's
  `GetSoftMaxFlashMaxTmpSize` / `GetSoftMaxFlashMinTmpSize`: host_softmax_flash_v1_size.py.
* `GetReduce{Sum,Mean,Max,Min,Prod}MaxMinTmpSize(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource,
  maxValue, minValue)` (impl/adv_api/tiling/reduce/reduce_tiling.cpp): srcShape [first, last], pattern AR (reduce
  the last axis) or RA (the first); both outputs get one size (the library's maximum equals its minimum), 0 with
  isReuseSource (Prod's AR: 256). With p2(n) the largest power of two <= n, halved when it is n itself (and n > 1; for Sum/Mean's
  AR, when first > 1): Sum and Mean (float), AR 0 for last <= 64 else first * p2(last) * 4, RA p2(first) *
  align(last, 8) * 4; Max and Min, AR 0 for last within a 32-byte block, first * 32 bytes within a 256-byte
  repeat, else first * 256 bytes, RA p2(first) * align32(last * typeSize); Prod (float only: another type leaves
  both outputs as they were), AR (max(p2(last), 8) + 8 * first) * 4 + 256, RA as Max and Min. rust_sim checks ReduceSum's
  sharedTmpBuffer against the same RA/AR minimum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower import host_norm_tiling, host_softmax_flash_size, host_softmax_flash_v1_size, host_topk_tiling
from ascendir.lower.function import Unsupported
from ascendir.lower.host_select import both as _and
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.host_tiling_args import align as _align
from ascendir.lower.host_tiling_args import dim as _dim
from ascendir.lower.host_tiling_args import flag as _flag
from ascendir.lower.host_tiling_args import rank as _rank
from ascendir.lower.host_tiling_args import shape as _shape
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

SOFTMAX_GRAD_TMP_SIZE = {"GetSoftMaxGradMinTmpSize": False, "GetSoftMaxGradMaxTmpSize": True}
# the reference parameters each writes (the host lowering makes the variables passed there cells)
# the Reduce APIs' size queries: Sum and Mean share one formula (float only), Max and Min another, Prod its own AR
# form and Max/Min's RA one
REDUCE_TMP_SIZE = {"GetReduceSumMaxMinTmpSize": "sum", "GetReduceMeanMaxMinTmpSize": "sum",
                   "GetReduceMaxMaxMinTmpSize": "max", "GetReduceMinMaxMinTmpSize": "max",
                   "GetReduceProdMaxMinTmpSize": "prod"}
# (GetLayerNormMaxMinTmpSize's: (3, 4) of 5 arguments, (5, 6) of the rstd form's 7; host_decls takes both)
OUT_ARGS = {"GetRmsNormMaxMinTmpSize": (2, 3), **{name: (5, 6) for name in REDUCE_TMP_SIZE},
            "GetLayerNormMaxMinTmpSize": (3, 4, 5, 6), "GetNormalizeMaxMinTmpSize": (6, 7),
            "GetWelfordUpdateMaxMinTmpSize": (5, 6), "GetWelfordFinalizeMaxMinTmpSize": (3, 4),
            "GetTopKMaxMinTmpSize": (8, 9)}
# the sort family's tmp sizes on the 220x chips (asc-devkit sort_tiling_impl.cpp): Sort's 8 bytes a (score, index)
# pair whatever the type size (2 float or 4 half elements), Concat's none (on 2201 it only hands Sort its scores)
SORT_TMP_SIZE = {"GetSortTmpSize": 8, "GetConcatTmpSize": 0}
FUNCTIONS = frozenset({*SOFTMAX_GRAD_TMP_SIZE, "SoftMaxGradTilingFunc", "GetRmsNormMaxMinTmpSize",
                       "GetRmsNormTilingInfo", *REDUCE_TMP_SIZE, "GetLayerNormMaxMinTmpSize",
                       "GetLayerNormNDTilingInfo", "GetNormalizeMaxMinTmpSize", "GetWelfordUpdateMaxMinTmpSize",
                       "GetWelfordFinalizeMaxMinTmpSize", *SORT_TMP_SIZE, "GetTopKMaxMinTmpSize",
                       "TopKTilingFunc", *host_softmax_flash_size.FUNCTIONS,
                       *host_softmax_flash_v1_size.FUNCTIONS})


def call(lw: HostLowerer, e: A.Call, name: str) -> Val:
    if name in SOFTMAX_GRAD_TMP_SIZE and len(e.args) == 4:
        return _softmax_grad_tmp_size(lw, e, SOFTMAX_GRAD_TMP_SIZE[name])
    if name == "SoftMaxGradTilingFunc" and len(e.args) in (4, 5):
        return _softmax_grad_tiling(lw, e)
    if name == "GetRmsNormMaxMinTmpSize" and len(e.args) in (4, 5):
        return host_norm_tiling.rms_norm_tmp_size(lw, e)
    if name == "GetRmsNormTilingInfo" and len(e.args) in (5, 6):
        return host_norm_tiling.rms_norm_tiling_info(lw, e)
    if name in REDUCE_TMP_SIZE and len(e.args) == 7:
        return _reduce_tmp_size(lw, e, REDUCE_TMP_SIZE[name])
    if name == "GetLayerNormMaxMinTmpSize" and len(e.args) in (5, 7):
        return host_norm_tiling.layer_norm_tmp_size(lw, e)
    if name == "GetLayerNormNDTilingInfo" and len(e.args) in (5, 6):
        return host_norm_tiling.layer_norm_tiling(lw, e)
    if name == "GetNormalizeMaxMinTmpSize" and len(e.args) == 8:
        return host_norm_tiling.normalize_tmp_size(lw, e)
    if name == "GetWelfordUpdateMaxMinTmpSize" and len(e.args) == 7:
        return host_norm_tiling.welford_update_tmp_size(lw, e)
    if name == "GetWelfordFinalizeMaxMinTmpSize" and len(e.args) == 5:
        return host_norm_tiling.welford_finalize_tmp_size(lw, e)
    if name in SORT_TMP_SIZE and len(e.args) == 3:
        return _sort_tmp_size(lw, e, SORT_TMP_SIZE[name])
    if name == "GetTopKMaxMinTmpSize" and len(e.args) == 10:
        return host_topk_tiling.tmp_size(lw, e)
    if name == "TopKTilingFunc" and len(e.args) == 9:
        return host_topk_tiling.tiling_func(lw, e)
    if name in host_softmax_flash_size.FUNCTIONS:
        return host_softmax_flash_size.call(lw, e, name)
    if name in host_softmax_flash_v1_size.FUNCTIONS:
        return host_softmax_flash_v1_size.call(lw, e, name)
    raise Unsupported(f"'{name}' with {len(e.args)} arguments is not modelled", e)


def _sort_tmp_size(lw: HostLowerer, e: A.Call, per_element: int) -> Val:
    """GetSortTmpSize / GetConcatTmpSize(platform, elemCount, dataTypeSize) in bytes; the library asserts elemCount > 0
    and a type size of 2 or 4, which the sizes here do not depend on."""
    count = lw.convert(lw.expr(e.args[1]), C.U32, e)
    return lw.arith("*", count, _u32(per_element), e)


# SoftmaxGrad ----------------------------------------------------------------------------------------------


def _softmax_grad_tmp_size(lw: HostLowerer, e: A.Call, all_rows: bool) -> Val:
    shape = _shape(lw, e.args[0])
    type_size = lw.convert(lw.expr(e.args[1]), C.U32, e)
    is_front = _flag(lw, e, 2)
    lw.expr(e.args[3])  # isReuseSource changes neither size
    last = lw.arith("-", _rank(lw, shape, e), Val(C.U64, const=1), e)
    cols = _dim(lw, shape, last, e)
    blk = lw.arith("/", _u32(32), type_size, e)
    unit = _u32(64)
    half = lw.arith("+", lw.arith("+", lw.arith("*", blk, _u32(2), e), lw.arith("*", cols, _u32(3), e), e), unit, e)
    front = lw.arith("+", lw.arith("+", blk, cols, e), unit, e)
    full = lw.arith("+", lw.arith("+", lw.arith("*", blk, _u32(2), e), cols, e), unit, e)
    words = _select(lw, lw.compare("==", type_size, _u32(2), e), half, _select(lw, is_front, front, full, e), e)
    if all_rows:
        size = lw.convert(Val(C.I64, lw.emit(hd.ShapeSizeOp(shape), e).results[0]), C.U32, e)
        words = lw.arith("*", lw.arith("/", size, cols, e), words, e)
    return lw.arith("*", words, _u32(4), e)


def _library_block(lw: HostLowerer, node: A.Node, struct: str) -> None:
    """The tiling block a library tiling function fills: a field of the library's struct type."""
    target = lw.expr(node)
    detail = str(getattr(target.ctype, "detail", "")).split()
    if getattr(target.ctype, "kind", None) != "unmodelled" or not detail or not detail[0].endswith(struct):
        raise Unsupported(f"a {struct} block of {target.ctype} is not modelled", node)


def _softmax_grad_tiling(lw: HostLowerer, e: A.Call) -> Val:
    _shape(lw, e.args[0])
    for a in e.args[1:3]:
        lw.expr(a)
    _library_block(lw, e.args[3], "SoftMaxTiling")
    if len(e.args) > 4:
        lw.expr(e.args[4])
    return Val(C.VoidT())


# Reduce ---------------------------------------------------------------------------------------------------

# AscendC::ReducePattern's values (reduce_tiling.h); only AR and RA are accepted by the library
_REDUCE_PATTERNS = {"AR": 0, "RA": 1}


def _reduce_pattern(lw: HostLowerer, node: A.Node) -> str:
    if isinstance(node, A.Name) and node.qname.parts[-1].name in _REDUCE_PATTERNS:
        return node.qname.parts[-1].name
    v = lw.expr(node)
    for name, value in _REDUCE_PATTERNS.items():
        if v.const == value:
            return name
    raise Unsupported("a Reduce pattern other than ReducePattern::AR or ::RA (or one known only at run time) is "
                      "not modelled", node)


def _floor_pow2_halved(lw: HostLowerer, n: Val, halve_when: Val, node: A.Node) -> Val:
    """The largest power of two <= n (1 for n <= 1), halved when it equals n and `halve_when` holds: the split
    the library's binary reduction starts from."""
    k = _u32(1)
    for bit in range(1, 32):
        k = _select(lw, lw.compare(">=", n, _u32(1 << bit), node), _u32(1 << bit), k, node)
    halve = _and(lw, lw.compare("==", k, n, node), halve_when, node)
    return _select(lw, halve, lw.arith("/", k, _u32(2), node), k, node)


def _reduce_tmp_size(lw: HostLowerer, e: A.Call, kind: str) -> Val:
    from ascendir.dialects.host_data import GE_DATA_TYPE_SIZES, GE_DATA_TYPES

    shape = _shape(lw, e.args[0])
    dtype = lw.expr(e.args[1])
    if not isinstance(dtype.const, int) or dtype.const not in GE_DATA_TYPE_SIZES:
        raise Unsupported("a Reduce tiling query with a data type known only at run time is not modelled", e.args[1])
    type_size = GE_DATA_TYPE_SIZES[dtype.const]
    pattern = _reduce_pattern(lw, e.args[2])
    lw.expr(e.args[3])  # isSrcInnerPad: the library asserts it is true on these chips; no size depends on it
    reuse = _flag(lw, e, 4)
    if kind == "prod" and dtype.const != GE_DATA_TYPES["DT_FLOAT"]:
        return Val(C.VoidT())  # the library's float-only assert returns, leaving both outputs as they were
    first, last = _dim(lw, shape, 0, e), _dim(lw, shape, 1, e)
    more_than_one = lw.compare(">", first, _u32(1), e)
    sum_mean = kind == "sum"
    if kind == "prod" and pattern == "AR":
        # (max(k, a block of floats) + a block per row) floats and a repeat; reusing the source still a repeat
        k = _floor_pow2_halved(lw, last, more_than_one, e)
        blocks = _select(lw, lw.compare("<", k, _u32(8), e), _u32(8), k, e)
        size = lw.arith("+", lw.arith("*", lw.arith("+", blocks, lw.arith("*", first, _u32(8), e), e), _u32(4), e),
                        _u32(256), e)
        size = _select(lw, reuse, _u32(256), size, e)
        lw.assign(e.args[5], size, e)
        lw.assign(e.args[6], size, e)
        return Val(C.VoidT())
    if sum_mean and pattern == "AR":
        k = _floor_pow2_halved(lw, last, more_than_one, e)
        size = _select(lw, lw.compare("<=", last, _u32(64), e), _u32(0),
                       lw.arith("*", lw.arith("*", first, k, e), _u32(4), e), e)
    elif sum_mean:
        k = _floor_pow2_halved(lw, first, more_than_one, e)
        size = lw.arith("*", lw.arith("*", k, _align(lw, last, 8, e), e), _u32(4), e)
    elif pattern == "AR":
        per_blk, per_rep = 32 // type_size, 256 // type_size
        size = _select(lw, lw.compare("<=", last, _u32(per_blk), e), _u32(0),
                       _select(lw, lw.compare("<", last, _u32(per_rep), e), lw.arith("*", first, _u32(32), e),
                               lw.arith("*", first, _u32(256), e), e), e)
    else:
        k = _floor_pow2_halved(lw, first, more_than_one, e)
        size = lw.arith("*", k, _align(lw, lw.arith("*", last, _u32(type_size), e), 32, e), e)
    size = _select(lw, reuse, _u32(0), size, e)
    lw.assign(e.args[5], size, e)
    lw.assign(e.args[6], size, e)
    return Val(C.VoidT())
