"""`AscendC::SoftMaxFlashV2TilingFuncImpl(srcM, srcK, dataTypeSize1, dataTypeSize2, workLocalSize[, isUpdate,
isBasicBlock, isDataFormatNZ, isFlashOutputBrc])` in kernel code: the SoftMaxTiling a kernel computes for itself
when its rows and columns are known only at run time (NPUKernelBench's large-head-dim flash attention calls it
before each SoftmaxFlashV2). It is an inline library function of plain arithmetic, so it is lowered to that
arithmetic, and the result is a SoftMaxTiling struct value whose fields the simulator sees (SoftmaxFlashV2 reads
its srcM and srcK when no SoftMaxShapeInfo is given; `newTiling.reduceM` reads the field's value).

What it computes (asc-devkit impl/adv_api/detail/activation/softmax: softmax_flashv2_base_impl.h and
softmax_common_shape_process.h, read for the facts), in uint32_t, with `workLocalSize` in floats and
e = 32 / dataTypeSize2 (elements of the max/sum type in a 32-byte block):
- srcM, srcK, srcSize = srcM * srcK; outMaxM = srcM, outMaxK = e, outMaxSize = srcM * e; reduceK = e,
  splitK = srcK.
- reduceM, the rows per pass: NZ format: workLocalSize / (16 * 3 + srcK). ND: with isBasicBlock, srcK % 64 == 0
  and srcM % 8 == 0, the basic-block split (below); else workLocalSize / (2 * e + srcK + 64) for 2-byte data,
  workLocalSize / (e + 64) for 4-byte data. Then, below srcM and above the basic tile (8 rows; 16 for half data
  with isFlashOutputBrc), rounded down to a multiple of it; at most srcM.
- the basic-block split: workLocalSize / (e + srcK + 64) for 2-byte data, / (e + 64) for 4-byte, at most srcM;
  if above 8 (and srcM % 8 == 0): rounded down to a multiple of 8, lowered by 8 until it divides srcM, then
  halved while split * srcK >= 64 * 256 (one instruction repeats at most 255 times).
- splitM = reduceM, reduceSize = reduceM * e, splitSize = reduceM * srcK, rangeM = srcM / reduceM,
  tailM = srcM % reduceM, tailSplitSize = tailM * srcK, tailReduceSize = tailM * e.
isUpdate does not change the tiling. (The library's assertion under isFlashOutputBrc, that reduceM is a
multiple of a block, is not checked here.) A reduceM of 0 (too little work space) divides by zero in rangeM, as
the library's code does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block, Region

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

FUNCTIONS = frozenset({"SoftMaxFlashV2TilingFuncImpl", "SoftMaxFlashV2TilingFunc"})

# the SoftMaxTiling fields, in the library's order
FIELDS = ("srcM", "srcK", "srcSize", "outMaxM", "outMaxK", "outMaxSize", "splitM", "splitK", "splitSize",
          "reduceM", "reduceK", "reduceSize", "rangeM", "tailM", "tailSplitSize", "tailReduceSize")

_BLOCK_BYTES = 32
_FLOAT_REPEAT = 64  # floats in one 256-byte repeat
_BASIC_TILE = 8
_HALF_PER_BLOCK = 16
_NZ_BASIC = 16
_NZ_BLOCKS = 3
_MAX_REPEAT_ELEMENTS = _FLOAT_REPEAT * 256


class _Arith:
    """uint32_t arithmetic and selection at one call."""

    def __init__(self, lw: FunctionLowerer, e: A.Call) -> None:
        self.lw, self.e = lw, e

    def u32(self, v: Val | int) -> Val:
        return Val(C.U32, const=v) if isinstance(v, int) else self.lw.convert(v, C.U32, self.e)

    def op(self, op: str, a: Val | int, b: Val | int) -> Val:
        return self.lw.convert(self.lw.arith(op, self.u32(a), self.u32(b), self.e), C.U32, self.e)

    def cmp(self, op: str, a: Val | int, b: Val | int) -> Val:
        return self.lw.compare(op, self.u32(a), self.u32(b), self.e)

    def both(self, a: Val, b: Val) -> Val:
        return self.select_bool(a, b, Val(C.BOOL, const=0))

    def select_bool(self, cond: Val, a: Val, b: Val) -> Val:
        if cond.const is not None:
            return a if cond.const else b
        if a.const is not None and b.const is not None and a.const == b.const:
            return a
        lw, e = self.lw, self.e
        op = arith.SelectOp(lw.ssa(cond, e), lw.ssa(a, e), lw.ssa(b, e))
        return Val(C.BOOL, lw.emit(op, e).results[0])

    def select(self, cond: Val, a: Val | int, b: Val | int) -> Val:
        a, b = self.u32(a), self.u32(b)
        if cond.const is not None:
            return a if cond.const else b
        if a.const is not None and b.const is not None and a.const == b.const:
            return a
        lw, e = self.lw, self.e
        return Val(C.U32, lw.emit(arith.SelectOp(lw.ssa(cond, e), lw.ssa(a, e), lw.ssa(b, e)), e).results[0])

    def loop(self, start: Val, guard: Val, cond, step) -> Val:  # type: ignore[no-untyped-def]
        """`while (guard && cond(v)) v = step(v);` from `start`, in a cell (no loop when guard is false here)."""
        if guard.const is not None and not guard.const:
            return start
        lw, e = self.lw, self.e
        cell = lw.new_cell(C.U32, "splitM", e, start)
        before, after = Block(), Block()
        lw.emit(scf.WhileOp([], [], Region(before), Region(after)), e)
        with lw.at_end_of(before):
            go = self.both(guard, cond(lw.load(cell, e)))
            lw.emit(scf.ConditionOp(lw.ssa(go, e)), e)
        with lw.at_end_of(after):
            lw.store(cell, step(lw.load(cell, e)), e)
            lw.emit(scf.YieldOp(), e)
        return lw.load(cell, e)


def _basic_split(x: _Arith, m: Val, k: Val, work: Val, per_block: Val, half: Val, basic: Val,
                 rows_of_tiles: Val) -> Val:
    """The rows per pass of the basic-block split (CalculateNDSplitM with isBasicBlock); only computed where
    `basic` may hold."""
    if basic.const is not None and not basic.const:
        return Val(C.U32, const=0)  # not taken: nothing to compute
    split = x.op("/", work, x.select(half, x.op("+", x.op("+", per_block, k), _FLOAT_REPEAT),
                                     x.op("+", per_block, _FLOAT_REPEAT)))
    split = x.select(x.cmp("<", split, m), split, m)
    round_it = x.both(basic, x.both(x.cmp(">", split, _BASIC_TILE), rows_of_tiles))
    split = x.select(round_it, x.op("*", x.op("/", split, _BASIC_TILE), _BASIC_TILE), split)
    # under round_it the split is a multiple of 8 from 8 up and srcM one of 8: the first loop stops by 8
    split = x.loop(split, round_it,
                   lambda s: x.cmp("!=", x.op("%", m, x.select(x.cmp("==", s, 0), 1, s)), 0),
                   lambda s: x.op("-", s, _BASIC_TILE))
    return x.loop(split, round_it,
                  lambda s: x.cmp(">=", x.op("*", s, k), _MAX_REPEAT_ELEMENTS),
                  lambda s: x.op("/", s, 2))


def _flag(lw: FunctionLowerer, args: list[Val], i: int, e: A.Call) -> Val:
    return lw.to_bool(args[i], e) if i < len(args) else Val(C.BOOL, const=0)


def _wrapper_args(e: A.Call) -> list[A.Node]:
    """`SoftMaxFlashV2TilingFunc(shapeInfo, dataTypeSize1, dataTypeSize2, localWorkSpaceSize[, flags])`, the
    kernel-side constexpr wrapper (asc-devkit softmaxflashv2.h): the Impl's arguments, shapeInfo.srcM and .srcK
    first and the work space in bytes divided by 4 (floats)."""
    if not 4 <= len(e.args) <= 8:
        raise Unsupported("SoftMaxFlashV2TilingFunc takes 4 to 8 arguments (shapeInfo, dataTypeSize1, "
                          "dataTypeSize2, localWorkSpaceSize, isUpdate, isBasicBlock, isDataFormatNZ, "
                          "isFlashOutputBrc)", e)
    shape, span = e.args[0], e.span
    if isinstance(shape, A.InitList) and len(shape.items) >= 2:
        rows, cols = shape.items[0], shape.items[1]  # SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK}
    elif isinstance(shape, A.Expr) and not isinstance(shape, A.InitList):
        rows, cols = (A.Member(span=span, obj=shape, member=f, arrow=False) for f in ("srcM", "srcK"))
    else:
        raise Unsupported("SoftMaxFlashV2TilingFunc's shapeInfo is not modelled in this form", shape)
    work = e.args[3]
    assert isinstance(work, A.Expr)
    floats = A.Binary(span=span, op="/", lhs=work, rhs=A.IntLit(span=span, text="4", value=4))
    return [rows, cols, e.args[1], e.args[2], floats, *e.args[4:]]


def call(lw: FunctionLowerer, e: A.Call, name: str) -> Val:
    if name == "SoftMaxFlashV2TilingFunc":
        e = A.Call(span=e.span, callee=e.callee, args=_wrapper_args(e))
    if not 5 <= len(e.args) <= 9:
        raise Unsupported(f"{name} takes 5 to 9 arguments (srcM, srcK, dataTypeSize1, dataTypeSize2, "
                          f"workLocalSize, isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc)", e)
    args = [lw.expr(a) for a in e.args]
    if not all(isinstance(a.ctype, C.Scalar) for a in args):
        raise Unsupported(f"{name} of non-arithmetic arguments", e)
    x = _Arith(lw, e)
    m, k, size1, size2, work = (x.u32(a) for a in args[:5])
    basic_block, nz, flash_brc = (_flag(lw, args, i, e) for i in (6, 7, 8))
    per_block = x.op("/", _BLOCK_BYTES, size2)
    half = x.cmp("==", size1, 2)

    rows_of_tiles = x.cmp("==", x.op("%", m, _BASIC_TILE), 0)
    basic = x.both(basic_block, x.both(x.cmp("==", x.op("%", k, _FLOAT_REPEAT), 0), rows_of_tiles))
    split = _basic_split(x, m, k, work, per_block, half, basic, rows_of_tiles)
    general = x.op("/", work, x.select(half, x.op("+", x.op("+", x.op("*", per_block, 2), k), _FLOAT_REPEAT),
                                       x.op("+", per_block, _FLOAT_REPEAT)))
    nd_rows = x.select(basic, split, general)
    reduce_m = nd_rows if nz.const == 0 else x.select(nz, x.op("/", work, x.op("+", _NZ_BASIC * _NZ_BLOCKS, k)), nd_rows)
    tile = x.select(x.both(flash_brc, half), _HALF_PER_BLOCK, _BASIC_TILE)
    shrink = x.both(x.cmp("<", reduce_m, m), x.cmp(">", reduce_m, tile))
    reduce_m = x.select(shrink, x.op("*", x.op("/", reduce_m, tile), tile), reduce_m)
    reduce_m = x.select(x.cmp("<", reduce_m, m), reduce_m, m)
    tail_m = x.op("%", m, reduce_m)
    values = {
        "srcM": m, "srcK": k, "srcSize": x.op("*", m, k),
        "outMaxM": m, "outMaxK": per_block, "outMaxSize": x.op("*", m, per_block),
        "splitM": reduce_m, "splitK": k, "splitSize": x.op("*", reduce_m, k),
        "reduceM": reduce_m, "reduceK": per_block, "reduceSize": x.op("*", reduce_m, per_block),
        "rangeM": x.op("/", m, reduce_m), "tailM": tail_m,
        "tailSplitSize": x.op("*", tail_m, k), "tailReduceSize": x.op("*", tail_m, per_block),
    }  # fmt: skip
    operands = [lw.ssa(values[f], e) for f in FIELDS]
    op = asc.StructInitOp.create(operands=operands, properties={"fields": ArrayAttr([StringAttr(f) for f in FIELDS])},
                                 result_types=[asc.TilingType("SoftMaxTiling")])
    return Val(C.TilingT("SoftMaxTiling"), lw.emit(op, e).results[0])
