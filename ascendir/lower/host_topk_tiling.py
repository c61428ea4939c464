"""Host-side TopK tiling queries on the 220x chips (asc-devkit impl/adv_api/tiling/sort/topk_tiling_impl.cpp; the
2002 and 3510 branches are not modelled: the simulator's chips are 220x). Called from host_tiling_api.call.

* `GetTopKMaxMinTmpSize(platform, inner, outter, isReuseSource, isInitIndex, mode, isLargest, dataTypeSize,
  maxValue, minValue)`: one size in both outputs (the library's maximum is its minimum), in bytes. Normal mode
  16 * inner, plus 4 * inner without isInitIndex (the generated index row); Small mode (mode TOPK_NSMALL)
  8 * inner * outter (Sort32's pairs) + 64 (the GatherMask pattern block), plus 4 * inner * outter for
  isLargest false (the negated copy) and 4 * inner * outter more without isInitIndex. The library's checks (inner
  a positive multiple of 32, exactly 32 in Small mode, type size 2 or 4) only log there: it writes the sizes anyway,
  and returns true.
* `TopKTilingFunc(platform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, TopkTiling)`: fills the
  fields the 220x branch sets (the others keep their values); returns false, writing nothing, for a dataTypeSize
  of 0. In elements of T (dts the type size): allDataSize inner * outter, kAlignFourBytes align(k, 8). Normal:
  kAlignTwoBytes align(k, 16), sortRepeat inner / 32, mrgSortRepeat inner / 4, copyUbToUbBlockCount inner / 4,
  maskVreducev2FourBytes 2k, maskVreducev2TwoBytes 4k, mrgFourQueueTailPara1 2 * inner, mrgFourQueueTailPara2
  4 / dts; float: tmpLocalSize 4 * inner, innerDataSize 2 * inner, maskOffset outter * align(k, 8), the merge
  offsets 2 / 4 / 6 and the two-queue one 2; half: 8 * inner, 4 * inner, outter * align(k, 16), 4 / 8 / 12 and 4.
  Without isInitIndex srcIndexOffset is the float (half) 4 (8) * inner and tmpLocalSize grows by inner (2 * inner).
  Small: innerDataSize inner * outter * 8 / dts, maskOffset outter * k, topkMrgSrc1MaskSizeOffset innerDataSize
  (+ inner * outter for isLargest false), tmpLocalSize that + 64 / dts; without isInitIndex
  topkNSmallSrcIndexOffset = that + 64 / dts and tmpLocalSize = it + inner * outter * 4 / dts; and the GatherMask
  patterns: vreduceIdxMask0 '10' k times (k <= 16; else 0xAAAAAAAA and vreduceIdxMask1 '10' k - 16 times, up to
  k 32), float vreduceValMask0 / 1 the same with '01', half vreducehalfValMask0..7 '0001' min(4, k - 4j) times
  each (mask j for k > 4j; mask 0 '0001' k times below 5, else 0x1111).

TopkTiling is a library struct with typed fields (host_tiling_struct._LIBRARY_STRUCTS, topk_tilingdata.h).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.host_select import both as _and
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.host_tiling_args import assign_if as _assign_if
from ascendir.lower.host_tiling_args import flag as _flag
from ascendir.lower.host_tiling_args import when as _when
from ascendir.lower.library_structs import library_struct_fields
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

# topk_tilingdata.h, in its order, with the types the catalog gives them (library_structs.py)
TOPK_TILING_FIELDS: tuple[tuple[str, C.CType], ...] = library_struct_fields("TopkTiling")
TOPK_MODES = {"TOPK_NORMAL": 0, "TOPK_NSMALL": 1}  # TopKMode's values (catalog enums.toml)
TOPK_NSMALL = TOPK_MODES["TOPK_NSMALL"]


def tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    inner, outter = (lw.convert(lw.expr(a), C.U32, e) for a in e.args[1:3])
    lw.expr(e.args[3])  # isReuseSource: not read
    init, small, largest = _flag(lw, e, 4), _small(lw, e, 5), _flag(lw, e, 6)
    lw.expr(e.args[7])  # dataTypeSize: the 220x sizes do not depend on it
    normal = lw.arith("*", inner, _select(lw, init, _u32(16), _u32(20), e), e)
    n = lw.arith("*", inner, outter, e)
    per = lw.arith("+", _u32(8), lw.arith("+", _select(lw, largest, _u32(0), _u32(4), e),
                                          _select(lw, init, _u32(0), _u32(4), e), e), e)
    small_size = lw.arith("+", lw.arith("*", n, per, e), _u32(64), e)
    size = _select(lw, small, small_size, normal, e)
    _assign_if(lw, Val(C.BOOL, const=1), list(e.args[8:10]), (size, size), e)
    return Val(C.BOOL, const=1)


def tiling_func(lw: HostLowerer, e: A.Call) -> Val:
    from ascendir.lower.host_handles import TilingRef, handle_kind

    inner, outter, k, dts = (lw.convert(lw.expr(a), C.U32, e) for a in e.args[1:5])
    init, small, largest = _flag(lw, e, 5), _small(lw, e, 6), _flag(lw, e, 7)
    block = lw.expr(e.args[8])
    if handle_kind(block) != "tiling" or not isinstance(block.obj, TilingRef) or not block.obj.path:
        raise Unsupported(f"a TopkTiling block of {block.ctype} is not modelled", e.args[8])
    ok = lw.compare("!=", dts, _u32(0), e)
    _when(lw, ok, lambda: _fill(lw, block, (inner, outter, k, dts), init, small, largest, e), e)
    return ok


def _small(lw: HostLowerer, e: A.Call, at: int) -> Val:
    """Whether the mode argument is TopKMode::TOPK_NSMALL (its enumerators by name; other expressions by value)."""
    node = e.args[at]
    if isinstance(node, A.Name) and len(node.qname.parts) >= 2 and node.qname.parts[-2].name == "TopKMode":
        last = node.qname.parts[-1].name
        if last not in TOPK_MODES:
            raise Unsupported(f"TopKMode has no enumerator '{last}' (TOPK_NORMAL, TOPK_NSMALL)", node)
        return Val(C.BOOL, const=int(TOPK_MODES[last] == TOPK_NSMALL))
    mode = lw.convert(lw.expr(node), C.U32, e)
    return lw.compare("==", mode, _u32(TOPK_NSMALL), e)


def _fill(lw: HostLowerer, block: Val, dims: tuple[Val, Val, Val, Val], init: Val, small: Val, largest: Val,
          e: A.Call) -> None:
    """Both modes' fields under a branch on the mode (a field the library does not set keeps its value)."""
    from ascendir.lower.host_handles import TilingRef

    ref = block.obj
    assert isinstance(ref, TilingRef)
    types = dict(TOPK_TILING_FIELDS)

    def put(values: dict[str, Val]) -> None:
        for name, value in values.items():
            lw._set_field(block.ssa, ref, ref.field_name(name), types[name], lw.convert(value, types[name], e), e)

    inner, outter, k, dts = dims
    put({"allDataSize": lw.arith("*", inner, outter, e), "kAlignFourBytes": _align(lw, k, 8, e)})
    def mode(fields: Callable[..., tuple[dict[str, Val], dict[str, Val]]]) -> None:
        # each mode's fields, and those it sets only without isInitIndex (its index row in the tmp buffer)
        always, generated = fields(lw, dims, init, largest, e)
        put(always)
        _when(lw, lw._not(init, e), lambda: put(generated), e)

    _when(lw, lw._not(small, e), lambda: mode(_normal_fields), e)

    def small_mode() -> None:
        mode(_small_fields)
        for name, (when, value) in _masks(lw, k, dts, e).items():
            _when(lw, when, lambda name=name, value=value: put({name: value}), e)

    _when(lw, small, small_mode, e)


def _align(lw: HostLowerer, n: Val, unit: int, e: A.Node) -> Val:
    return lw.arith("*", lw.arith("/", lw.arith("+", n, _u32(unit - 1), e), _u32(unit), e), _u32(unit), e)


def _normal_fields(lw: HostLowerer, dims: tuple[Val, Val, Val, Val], init: Val, largest: Val,
                   e: A.Call) -> tuple[dict[str, Val], dict[str, Val]]:
    inner, outter, k, dts = dims
    half = lw.compare("==", dts, _u32(2), e)

    def by_type(f: int, h: int) -> Val:
        return _select(lw, half, _u32(h), _u32(f), e)

    def times(n: Val, f: int, h: int) -> Val:
        return lw.arith("*", n, by_type(f, h), e)

    k16 = _align(lw, k, 16, e)
    return {
        "kAlignTwoBytes": k16,
        "tmpLocalSize": _select(lw, init, times(inner, 4, 8), times(inner, 5, 10), e),
        "innerDataSize": times(inner, 2, 4),
        "copyUbToUbBlockCount": lw.arith("/", inner, _u32(4), e),
        "sortRepeat": lw.arith("/", inner, _u32(32), e),
        "mrgSortRepeat": lw.arith("/", inner, _u32(4), e),
        "maskOffset": lw.arith("*", outter, _select(lw, half, k16, _align(lw, k, 8, e), e), e),
        "maskVreducev2FourBytes": lw.arith("*", k, _u32(2), e),
        "maskVreducev2TwoBytes": lw.arith("*", k, _u32(4), e),
        "mrgSortSrc1offset": by_type(2, 4),
        "mrgSortSrc2offset": by_type(4, 8),
        "mrgSortSrc3offset": by_type(6, 12),
        "mrgSortTwoQueueSrc1Offset": by_type(2, 4),
        "mrgFourQueueTailPara1": lw.arith("*", inner, _u32(2), e),
        "mrgFourQueueTailPara2": by_type(1, 2),
    }, {"srcIndexOffset": times(inner, 4, 8)}


def _small_fields(lw: HostLowerer, dims: tuple[Val, Val, Val, Val], init: Val, largest: Val,
                  e: A.Call) -> tuple[dict[str, Val], dict[str, Val]]:
    inner, outter, k, dts = dims
    n = lw.arith("*", inner, outter, e)
    inner_data = lw.arith("/", lw.arith("*", n, _u32(8), e), dts, e)
    mask_off = lw.arith("+", inner_data, _select(lw, largest, _u32(0), n, e), e)
    index_off = lw.arith("+", mask_off, lw.arith("/", _u32(64), dts, e), e)
    values = {
        "innerDataSize": inner_data, "maskOffset": lw.arith("*", outter, k, e),
        "topkMrgSrc1MaskSizeOffset": mask_off,
        "tmpLocalSize": _select(lw, init, index_off,
                                lw.arith("+", index_off, lw.arith("/", lw.arith("*", n, _u32(4), e), dts, e), e), e),
    }
    return values, {"topkNSmallSrcIndexOffset": index_off}


def _pattern(lw: HostLowerer, times: Val, width: int, unit: int, e: A.Node) -> Val:
    """`unit` (a `width`-bit pattern) repeated `times` times from bit 0 up, at least once (the library's loops
    start from one copy): unit * (2^(width * n) - 1) / (2^width - 1), in 64 bits."""
    n = lw.convert(_select(lw, lw.compare("<", times, _u32(1), e), _u32(1), times, e), C.U64, e)
    shift = lw.arith("*", n, Val(C.U64, const=width), e)
    ones = lw.arith("-", lw.arith("<<", Val(C.U64, const=1), shift, e), Val(C.U64, const=1), e)
    return lw.convert(lw.arith("*", lw.arith("/", ones, Val(C.U64, const=(1 << width) - 1), e),
                               Val(C.U64, const=unit), e), C.U32, e)


def _masks(lw: HostLowerer, k: Val, dts: Val, e: A.Call) -> dict[str, tuple[Val, Val]]:
    """GetVreduceMask's GatherMask patterns (module docstring), each with the condition under which the library sets
    it (the field keeps its value otherwise)."""
    def upto(n: int) -> Val:
        return lw.compare("<=", k, _u32(n), e)

    def low(n: int) -> Val:  # k - n, not below 0
        return _select(lw, lw.compare(">", k, _u32(n), e), lw.arith("-", k, _u32(n), e), _u32(0), e)

    mid = _and(lw, lw._not(upto(16), e), upto(32), e)
    flt = lw.compare("==", dts, _u32(4), e)
    out: dict[str, tuple[Val, Val]] = {  # field -> (when set, value)
        "vreduceIdxMask0": (upto(32), _select(lw, upto(16), _pattern(lw, k, 2, 2, e), _u32(0xAAAAAAAA), e)),
        "vreduceIdxMask1": (mid, _pattern(lw, low(16), 2, 2, e)),
        "vreduceValMask0": (_and(lw, flt, upto(32), e),
                            _select(lw, upto(16), _pattern(lw, k, 2, 1, e), _u32(0x55555555), e)),
        "vreduceValMask1": (_and(lw, flt, mid, e), _pattern(lw, low(16), 2, 1, e)),
        "vreducehalfValMask0": (lw._not(flt, e), _select(lw, upto(4), _pattern(lw, k, 4, 1, e), _u32(0x1111), e)),
    }
    for j in range(1, 8):
        count = _select(lw, lw.compare(">=", k, _u32(4 * j + 5), e), _u32(4), low(4 * j), e)
        value = _select(lw, lw.compare(">=", k, _u32(4 * j + 1), e), _pattern(lw, count, 4, 1, e), _u32(0), e)
        out[f"vreducehalfValMask{j}"] = (lw._not(flt, e), value)
    return out

