"""Host-side queries of the AscendC normalisation APIs' tiling library: RmsNorm's, LayerNorm's (both forms),
Normalize's and WelfordUpdate / WelfordFinalize's temporary space and tilings, called from host_tiling_api.call.

What each computes is the vendor tiling library's formula for the 220x chips (asc-devkit,
impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp, layernorm_tiling_impl.cpp, normalize_tiling_impl.cpp and
the welford ones; the DAV_3510 branch is not modelled: the simulator's chips are 220x). Sizes are in bytes, counted
in float words.

* `GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock)`: srcShape [B, S, H]; the
  maximum (B * S * H * (2 for half, else 1) + align(B * S, 32 / typeSize)) * 4, the minimum
  (H * (2 for half, else 1) + 8) * 4; with isBasicBlock, a shape that is not one (H % 64, B * S % 8, H >= 2048)
  returns false and writes neither.
* `GetRmsNormTilingInfo(srcShape, originSrcShape, stackBytes, typeSize, tiling, isBasicBlock)`: true when the
  shapes pass the library's checks (both of rank 3, the same B and S, H >= the original H > 0, H * typeSize a
  multiple of 32, the basic-block shape when asked) and stackBytes is at least the minimum. It fills the
  RmsNormTiling (rust_sim's RmsNorm reads it): b, s, h, the original h, reciprocalOfHLength = float(1.0 /
  float(oh)); the rows per pass bs, from 1 up while (bs + 1) * h * (1 for float, else 2) + align(bs + 1, 8) fits in
  stackBytes / 4 floats, then bs = min(bs * h, b * s * h) / h, for a basic block rounded down to a multiple of 8
  (from 8 up), else at most 255; mainBshLength = bs * h, mainBsLength = bs, mainBsLengthAlign = align(bs, 8),
  loopRound = bsh / mainBshLength, the tail (bsh % mainBshLength) in tailBshLength, tailBsLength (its rows) and
  inputTailPos (where it starts). Where the call returns false the block is left as it was.
* `GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` (layernorm_tiling_impl.cpp),
  srcShape [B, S, H, originH]: three f32 buffers (two for a float source it may reuse) plus mean and variance,
  max n * align32(B * S * H * 4) + 2 * align32(B * S * 4), min n * align32(H * 4) + 2 * align32(B * S * 4). The
  rstd form's `(srcShape, typeSize, isReuseSource, isComputeRstd, isOnlyOutput, maxValue, minValue)`, srcShape
  [A, R], R padded to 32 bytes of typeSize: max 2 * align32(A * Rp * 4) + align32(A * 4), min 2 * align32(Rp * 4) +
  align32(A * 4), each raised to Normalize's own (GetNormalizeMaxMinTmpSize with U = T: max 2 * align32(Rp * 4) + 2 *
  align32(align(A, 8) * Rp * 4), min max(align32(A * 4), 2 (4 for half) * align32(Rp * 4))) plus align32(A * 4).
* `GetLayerNormNDTilingInfo(srcShape, stackBytes, typeSize, isReuseSource, LayerNormTiling)`: the library's fields
  (rust_sim's LayerNorm reads them): tmpBufSize = stackBytes / 4 floats; for half, mean and variance (align(B * S,
  8) floats each) first; oneTmpSize = (tmpBufSize - those) / n buffers, whole rows of H, at most B * S * H;
  loopRound passes of it and the tail's elements, rows and positions; lastDimValueBack = 1.0f / originH. A stack
  that holds no row (oneTmpSize 0) writes nothing, as in the library. The rstd form's `(srcShape, stackBytes,
  typeSize, isReuseSource, isComputeRstd, LayerNormSeparateTiling)`: the variance (align(A, 8) floats) first, two
  buffers of whole padded rows, rValueBack = 1.0f / R; the 3510-only fields (rHeadLength, k2Rec, ...) not written.
* `GetNormalizeMaxMinTmpSize(srcShape [A, R], typeSizeU, typeSizeT, isReuseSource, isComputeRstd, isOnlyOutput,
  maxValue, minValue)`: R padded to 32 bytes of typeSizeT; max 2 * align32(Rp * 4) + 2 * align32(align(A, 8) * Rp * 4),
  min max(align32(A * 4), 2 * align32(Rp * 4)) (4 * for typeSizeU 2); isComputeRstd false or isOnlyOutput true
  leave both as they were (the library's asserts return). `GetWelfordUpdateMaxMinTmpSize(srcShape [rn, ab],
  typeSizeT, typeSizeU, isReuseSource, isInplace, maxValue, minValue)`: min 3 * 256 for a half x, 256 reusing a float
  one, else 512; max ceil(rn * ab / 64) * min. `GetWelfordFinalizeMaxMinTmpSize(srcShape [ab], typeSize,
  isReuseSource, maxValue, minValue)`: min 1,024, max the same up to 64 columns, else (128 + 2 * ab) * 4; ab 0 or not a
  multiple of 8 leaves both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.host_select import both as _and
from ascendir.lower.host_select import nonzero as _nonzero
from ascendir.lower.host_select import select as _select
from ascendir.lower.host_select import u32 as _u32
from ascendir.lower.host_tiling_args import align as _align
from ascendir.lower.host_tiling_args import assign_if as _assign_if
from ascendir.lower.host_tiling_args import dim as _dim
from ascendir.lower.host_tiling_args import flag as _flag
from ascendir.lower.host_tiling_args import rank as _rank
from ascendir.lower.host_tiling_args import shape as _shape
from ascendir.lower.host_tiling_args import when as _when
from ascendir.lower.library_structs import library_field_type
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


# RmsNorm --------------------------------------------------------------------------------------------------


def _basic_block_mismatch(lw: HostLowerer, b: Val, s: Val, h: Val, node: A.Node) -> Val:
    bs = lw.arith("*", b, s, node)
    h_off = lw.compare("!=", lw.arith("%", h, _u32(64), node), _u32(0), node)
    bs_off = lw.compare("!=", lw.arith("%", bs, _u32(8), node), _u32(0), node)
    return _or(lw, _or(lw, h_off, bs_off, node), lw.compare(">=", h, _u32(2048), node), node)


def _rms_min(lw: HostLowerer, h: Val, type_size: Val, node: A.Node) -> Val:
    per = _select(lw, lw.compare("==", type_size, _u32(2), node), _u32(2), _u32(1), node)
    return lw.arith("*", lw.arith("+", lw.arith("*", h, per, node), _u32(8), node), _u32(4), node)


def rms_norm_tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    type_size = lw.convert(lw.expr(e.args[1]), C.U32, e)
    b, s, h = (_dim(lw, shape, i, e) for i in range(3))
    basic = _flag(lw, e, 4)
    bs = lw.arith("*", b, s, e)
    unit = lw.arith("/", _u32(32), type_size, e)
    bs_aligned = lw.arith("*", lw.arith("/", lw.arith("-", lw.arith("+", bs, unit, e), _u32(1), e), unit, e), unit, e)
    per = _select(lw, lw.compare("==", type_size, _u32(2), e), _u32(2), _u32(1), e)
    most = lw.arith("*", lw.arith("+", lw.arith("*", lw.arith("*", bs, h, e), per, e), bs_aligned, e), _u32(4), e)
    least = _rms_min(lw, h, type_size, e)
    ok = lw._not(_and(lw, basic, _basic_block_mismatch(lw, b, s, h, e), e), e)
    # false leaves both outputs as they were
    for target, value in ((e.args[2], most), (e.args[3], least)):
        old = lw.convert(lw.expr(target), C.U32, e)
        lw.assign(target, _select(lw, ok, value, old, e), e)
    return ok


def rms_norm_tiling_info(lw: HostLowerer, e: A.Call) -> Val:
    shape, origin = _shape(lw, e.args[0]), _shape(lw, e.args[1])
    stack = lw.convert(lw.expr(e.args[2]), C.U32, e)
    type_size = lw.convert(lw.expr(e.args[3]), C.U32, e)
    block = _rms_norm_block(lw, e.args[4])
    basic = _flag(lw, e, 5)
    three = Val(C.U64, const=3)
    ranks = _and(lw, lw.compare("==", _rank(lw, shape, e), three, e),
                 lw.compare("==", _rank(lw, origin, e), three, e), e)
    # (the library returns false before reading the dims of a shape of another rank; here GetDim past the rank
    # stops the run with its own message, which only a shape the tiling built wrongly reaches)
    checks: list[Val] = [ranks]
    b, s, h = (_dim(lw, shape, i, e) for i in range(3))
    ob, os_, oh = (_dim(lw, origin, i, e) for i in range(3))
    checks.append(lw.compare("==", b, ob, e))
    checks.append(lw.compare("==", s, os_, e))
    checks.append(lw.compare(">=", h, oh, e))
    checks.append(lw.compare("!=", oh, _u32(0), e))
    checks.append(lw.compare("==", lw.arith("%", lw.arith("*", h, type_size, e), _u32(32), e), _u32(0), e))
    checks.append(lw._not(_and(lw, basic, _basic_block_mismatch(lw, b, s, h, e), e), e))
    checks.append(lw.compare(">=", stack, _rms_min(lw, h, type_size, e), e))
    ok = checks[0]
    for c in checks[1:]:
        ok = _and(lw, ok, c, e)
    _rms_norm_fill(lw, block, ok, (b, s, h, oh), stack, type_size, basic, e)
    return ok


def _rms_norm_block(lw: HostLowerer, node: A.Node) -> Val:
    """The RmsNormTiling GetRmsNormTilingInfo fills: a field of the tiling struct (its fields modelled,
    host_tiling_struct._LIBRARY_STRUCTS)."""
    from ascendir.lower.host_handles import TilingRef, handle_kind

    target = lw.expr(node)
    if handle_kind(target) != "tiling" or not isinstance(target.obj, TilingRef) or not target.obj.path:
        raise Unsupported(f"an RmsNormTiling block of {target.ctype} is not modelled", node)
    return target


def _rms_norm_fill(lw: HostLowerer, block: Val, ok: Val, dims: tuple[Val, Val, Val, Val], stack: Val,
                   type_size: Val, basic: Val, e: A.Call) -> None:
    """The RmsNormTiling fields, as rmsnorm_tiling_impl.cpp computes them (module docstring), set only where the
    call returns true (the library leaves the block as it was otherwise)."""
    _when(lw, ok, lambda: _rms_norm_set(lw, block, dims, stack, type_size, basic, e), e)


def _rms_norm_set(lw: HostLowerer, block: Val, dims: tuple[Val, Val, Val, Val], stack: Val, type_size: Val,
                  basic: Val, e: A.Call) -> None:
    from ascendir.lower.host_handles import TilingRef

    b, s, h, oh = dims

    def safe(v: Val) -> Val:  # a divisor: the values divided by 0 only where the call returns false
        return _select(lw, lw.compare("==", v, _u32(0), e), _u32(1), v, e)

    x_size = lw.arith("*", lw.arith("*", b, s, e), h, e)
    total = lw.arith("/", stack, _u32(4), e)
    per_row = lw.arith("*", h, _select(lw, lw.compare("==", type_size, _u32(4), e), _u32(1), _u32(2), e), e)
    # the library's `while (total >= (bs + 1) * h * coeff + align(bs + 1, 8)) bs++` from bs = 1: the largest k
    # with k * h * coeff + align(k, 8) <= total (at most total / (h * coeff + 1), within 8 of it), at least 1
    k = lw.arith("/", total, safe(lw.arith("+", per_row, _u32(1), e)), e)
    for _ in range(8):
        over = lw.compare(">", lw.arith("+", lw.arith("*", k, per_row, e), _align(lw, k, 8, e), e), total, e)
        k = _select(lw, _and(lw, lw.compare(">", k, _u32(0), e), over, e), lw.arith("-", k, _u32(1), e), k, e)
    bs = _select(lw, lw.compare("==", k, _u32(0), e), _u32(1), k, e)
    one = lw.arith("*", bs, h, e)
    one = _select(lw, lw.compare(">", one, x_size, e), x_size, one, e)
    bs = lw.arith("/", one, safe(h), e)
    basic_bs = _select(lw, lw.compare("<", bs, _u32(8), e), bs, lw.arith("*", lw.arith("/", bs, _u32(8), e),
                                                                          _u32(8), e), e)
    capped = _select(lw, lw.compare(">", bs, _u32(255), e), _u32(255), bs, e)
    bs = _select(lw, basic, basic_bs, capped, e)
    one = lw.arith("*", bs, h, e)
    tail = lw.arith("%", x_size, safe(one), e)
    recip = lw.convert(lw.arith("/", Val(C.F64, const=1.0),
                                lw.convert(lw.convert(safe(oh), C.F32, e), C.F64, e), e), C.F32, e)
    values = {"bLength": b, "sLength": s, "hLength": h, "originalHLength": oh, "reciprocalOfHLength": recip,
              "mainBshLength": one, "mainBsLength": bs, "mainBsLengthAlign": _align(lw, bs, 8, e),
              "loopRound": lw.arith("/", x_size, safe(one), e), "inputTailPos": lw.arith("-", x_size, tail, e),
              "tailBshLength": tail, "tailBsLength": lw.arith("/", tail, safe(h), e)}
    ref = block.obj
    assert isinstance(ref, TilingRef)
    for name, value in values.items():
        t = library_field_type("RmsNormTiling", name)
        lw._set_field(block.ssa, ref, ref.field_name(name), t, value, e)


def _or(lw: HostLowerer, a: Val, b: Val, node: A.Node) -> Val:
    return _select(lw, a, Val(C.BOOL, const=1), b, node)


# LayerNorm ------------------------------------------------------------------------------------------------


def _align_by(lw: HostLowerer, n: Val, unit: Val, node: A.Node) -> Val:
    return lw.arith("*", lw.arith("/", lw.arith("-", lw.arith("+", n, unit, node), _u32(1), node), unit, node), unit,
                    node)


def _set_fields(lw: HostLowerer, block: Val, struct: str, values: dict[str, Val], ok: Val, e: A.Call) -> None:
    """Write `values` into the library tiling block (a `struct`), only where `ok` (the library returns early
    otherwise), each field with its catalogued type."""
    from ascendir.lower.host_handles import TilingRef

    ref = block.obj
    assert isinstance(ref, TilingRef)

    def write() -> None:
        for name, value in values.items():
            lw._set_field(block.ssa, ref, ref.field_name(name), library_field_type(struct, name), value, e)

    _when(lw, ok, write, e)


def layer_norm_tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    type_size = lw.convert(lw.expr(e.args[1]), C.U32, e)
    reuse = _flag(lw, e, 2)
    reuse_float = _and(lw, reuse, lw.compare("==", type_size, _u32(4), e), e)
    if len(e.args) == 5:  # [B, S, H, originH]: three f32 buffers (two reusing a float source), mean and variance
        b, s, h = (_dim(lw, shape, i, e) for i in range(3))
        bs = lw.arith("*", b, s, e)
        mv = _align(lw, lw.arith("*", bs, _u32(4), e), 32, e)
        whole = _align(lw, lw.arith("*", lw.arith("*", bs, h, e), _u32(4), e), 32, e)
        row = _align(lw, lw.arith("*", h, _u32(4), e), 32, e)
        n = _select(lw, reuse_float, _u32(2), _u32(3), e)
        most = lw.arith("+", lw.arith("*", n, whole, e), lw.arith("*", _u32(2), mv, e), e)
        least = lw.arith("+", lw.arith("*", n, row, e), lw.arith("*", _u32(2), mv, e), e)
        outs = e.args[3:5]
    else:  # [A, R], the rstd form: two f32 buffers and the variance, at least what Normalize needs
        for a in e.args[3:5]:
            lw.expr(a)  # isComputeRstd, isOnlyOutput: the 220x sizes do not depend on them
        a_len, r = _dim(lw, shape, 0, e), _dim(lw, shape, 1, e)
        r_pad = _align_by(lw, r, lw.arith("/", _u32(32), _nonzero(lw, type_size, e), e), e)
        mv = _align(lw, lw.arith("*", a_len, _u32(4), e), 32, e)
        row = _align(lw, lw.arith("*", r_pad, _u32(4), e), 32, e)
        whole = _align(lw, lw.arith("*", lw.arith("*", a_len, r_pad, e), _u32(4), e), 32, e)
        most = lw.arith("+", lw.arith("*", _u32(2), whole, e), mv, e)
        least = lw.arith("+", lw.arith("*", _u32(2), row, e), mv, e)
        # GetNormalizeMaxMinTmpSize with U = T
        norm_most, norm_least = _normalize_sizes(lw, a_len, r_pad, type_size, e)
        least = _select(lw, lw.compare("<=", lw.arith("-", least, mv, e), norm_least, e),
                        lw.arith("+", norm_least, mv, e), least, e)
        most = _select(lw, lw.compare("<=", lw.arith("-", most, mv, e), norm_most, e),
                       lw.arith("+", norm_most, mv, e), most, e)
        outs = e.args[5:7]
    lw.assign(outs[0], most, e)
    lw.assign(outs[1], least, e)
    return Val(C.VoidT())


def layer_norm_tiling(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    stack = lw.convert(lw.expr(e.args[1]), C.U32, e)
    type_size = lw.convert(lw.expr(e.args[2]), C.U32, e)
    reuse = _flag(lw, e, 3)
    if len(e.args) == 6:
        lw.expr(e.args[4])  # isComputeRstd: not read on 220x
        return _layer_norm_separate_tiling(lw, e, shape, stack, type_size)
    block = _rms_norm_block(lw, e.args[4])
    b, s, h, oh = (_dim(lw, shape, i, e) for i in range(4))
    x_size = lw.arith("*", lw.arith("*", b, s, e), h, e)
    mv_size = lw.arith("*", b, s, e)
    is_float = lw.compare("==", type_size, _u32(4), e)
    n_buf = _select(lw, _and(lw, reuse, is_float, e), _u32(2), _u32(3), e)
    mv_tmp = _align(lw, mv_size, 8, e)
    mv_total = _select(lw, is_float, _u32(0), lw.arith("*", _u32(2), mv_tmp, e), e)
    tmp_buf = lw.arith("/", stack, _u32(4), e)
    one = lw.arith("/", lw.arith("-", tmp_buf, mv_total, e), n_buf, e)
    one = lw.arith("*", lw.arith("/", one, _nonzero(lw, h, e), e), h, e)
    one = _select(lw, lw.compare(">", one, x_size, e), x_size, one, e)
    ok = _and(lw, lw.compare("!=", h, _u32(0), e), lw.compare("!=", one, _u32(0), e), e)
    one_safe = _nonzero(lw, one, e)
    h_safe = _nonzero(lw, h, e)
    tail = lw.arith("%", x_size, one_safe, e)
    mv_round = lw.arith("/", one, h_safe, e)
    mv_tail = lw.arith("/", tail, h_safe, e)
    first = mv_total
    second = lw.arith("+", first, one, e)
    recip = lw.convert(lw.arith("/", Val(C.F32, const=1.0), lw.convert(_nonzero(lw, oh, e), C.F32, e), e), C.F32, e)
    values = {"bLength": b, "sLength": s, "hLength": h, "originalHLength": oh, "inputXSize": x_size,
              "meanVarSize": mv_size, "numberOfTmpBuf": n_buf, "meanTmpTensorPos": _u32(0),
              "meanTmpTensorSize": mv_tmp, "varianceTmpTensorPos": mv_tmp, "varianceTmpTensorSize": mv_tmp,
              "tmpBufSize": tmp_buf, "oneTmpSize": one, "firstTmpStartPos": first, "secondTmpStartPos": second,
              "thirdTmpStartPos": lw.arith("+", second, one, e), "loopRound": lw.arith("/", x_size, one_safe, e),
              "inputRoundSize": one, "inputTailSize": tail, "inputTailPos": lw.arith("-", x_size, tail, e),
              "meanVarRoundSize": mv_round, "meanVarTailSize": mv_tail,
              "meanVarTailPos": lw.arith("-", mv_size, mv_tail, e), "bshCurLength": one, "bsCurLength": mv_round,
              "lastDimValueBack": recip}
    _set_fields(lw, block, "LayerNormTiling", values, ok, e)
    return Val(C.VoidT())


def _layer_norm_separate_tiling(lw: HostLowerer, e: A.Call, shape: SSAValue, stack: Val, type_size: Val) -> Val:
    block = _rms_norm_block(lw, e.args[5])
    a_len, r = _dim(lw, shape, 0, e), _dim(lw, shape, 1, e)
    r_pad = _align_by(lw, r, lw.arith("/", _u32(32), _nonzero(lw, type_size, e), e), e)
    x_size = lw.arith("*", a_len, r_pad, e)
    var_size = _align(lw, a_len, 8, e)
    tmp_buf = lw.arith("/", stack, _u32(4), e)
    one = lw.arith("/", lw.arith("-", tmp_buf, var_size, e), _u32(2), e)
    one = lw.arith("*", lw.arith("/", one, _nonzero(lw, r_pad, e), e), r_pad, e)
    one = _select(lw, lw.compare(">", one, x_size, e), x_size, one, e)
    ok = lw.compare("!=", one, _u32(0), e)
    one_safe, pad_safe = _nonzero(lw, one, e), _nonzero(lw, r_pad, e)
    tail = lw.arith("%", x_size, one_safe, e)
    mv_round = lw.arith("/", one, pad_safe, e)
    mv_tail = lw.arith("/", tail, pad_safe, e)
    recip = lw.convert(lw.arith("/", Val(C.F32, const=1.0), lw.convert(_nonzero(lw, r, e), C.F32, e), e), C.F32, e)
    values = {"aLength": a_len, "rLength": r, "inputXSize": x_size, "meanVarSize": a_len, "numberOfTmpBuf": _u32(2),
              "varianceTmpTensorPos": _u32(0), "varianceTmpTensorSize": var_size, "tmpBufSize": tmp_buf,
              "oneTmpSize": one, "firstTmpStartPos": var_size, "secondTmpStartPos": lw.arith("+", var_size, one, e),
              "loopRound": lw.arith("/", x_size, one_safe, e), "inputRoundSize": one, "inputTailSize": tail,
              "inputTailPos": lw.arith("-", x_size, tail, e), "meanVarRoundSize": mv_round,
              "meanVarTailSize": mv_tail, "meanVarTailPos": lw.arith("-", a_len, mv_tail, e), "arCurLength": one,
              "aCurLength": mv_round, "rValueBack": recip}
    _set_fields(lw, block, "LayerNormSeparateTiling", values, ok, e)
    return Val(C.VoidT())


def _normalize_sizes(lw: HostLowerer, a_len: Val, r_pad: Val, u_size: Val, e: A.Call) -> tuple[Val, Val]:
    """GetNormalizeMaxMinTmpSize's 220x sizes (normalize_tiling_impl.cpp): max 2 * align32(Rp * 4) + 2 *
    align32(align(A, 8) * Rp * 4), min max(align32(A * 4), 2 * align32(Rp * 4)), 4 * for a half gamma/beta."""
    row = _align(lw, lw.arith("*", r_pad, _u32(4), e), 32, e)
    mv = _align(lw, lw.arith("*", a_len, _u32(4), e), 32, e)
    most = lw.arith("+", lw.arith("*", _u32(2), row, e), lw.arith("*", _u32(2), _align(
        lw, lw.arith("*", lw.arith("*", _align(lw, a_len, 8, e), r_pad, e), _u32(4), e), 32, e), e), e)
    rows = lw.arith("*", _select(lw, lw.compare("==", u_size, _u32(4), e), _u32(2), _u32(4), e), row, e)
    return most, _select(lw, lw.compare(">=", mv, rows, e), mv, rows, e)


def normalize_tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    u_size = lw.convert(lw.expr(e.args[1]), C.U32, e)
    t_size = lw.convert(lw.expr(e.args[2]), C.U32, e)
    lw.expr(e.args[3])  # isReuseSource: not read
    rstd, only_output = _flag(lw, e, 4), _flag(lw, e, 5)
    a_len, r = _dim(lw, shape, 0, e), _dim(lw, shape, 1, e)
    r_pad = _align_by(lw, r, lw.arith("/", _u32(32), _nonzero(lw, t_size, e), e), e)
    ok = _and(lw, rstd, lw._not(only_output, e), e)
    _assign_if(lw, ok, list(e.args[6:8]), _normalize_sizes(lw, a_len, r_pad, u_size, e), e)
    return Val(C.VoidT())


def welford_update_tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    t_size = lw.convert(lw.expr(e.args[1]), C.U32, e)
    lw.expr(e.args[2])  # typeSizeU: not read
    reuse = _flag(lw, e, 3)
    lw.expr(e.args[4])  # isInplace: not read
    rn, ab = _dim(lw, shape, 0, e), _dim(lw, shape, 1, e)
    # one 256-byte repeat per buffer: 3 for a half x, 1 reusing a float x, else 2
    least = _select(lw, lw.compare("==", t_size, _u32(2), e), _u32(768), _select(lw, reuse, _u32(256), _u32(512), e),
                    e)
    most = lw.arith("*", lw.arith("/", lw.arith("+", lw.arith("*", rn, ab, e), _u32(63), e), _u32(64), e), least, e)
    ok = lw.compare("==", _rank(lw, shape, e), Val(C.U64, const=2), e)
    _assign_if(lw, ok, list(e.args[5:7]), (most, least), e)
    return Val(C.VoidT())


def welford_finalize_tmp_size(lw: HostLowerer, e: A.Call) -> Val:
    shape = _shape(lw, e.args[0])
    for a in e.args[1:3]:
        lw.expr(a)  # typeSize, isReuseSource: not read
    ab = _dim(lw, shape, 0, e)
    least = _u32(64 * 4 * 4)  # four 64-float buffers
    most = _select(lw, lw.compare("<=", ab, _u32(64), e), least,
                   lw.arith("*", lw.arith("+", _u32(128), lw.arith("*", ab, _u32(2), e), e), _u32(4), e), e)
    ok = _and(lw, lw.compare("==", _rank(lw, shape, e), Val(C.U64, const=1), e),
              _and(lw, lw.compare("!=", ab, _u32(0), e),
                   lw.compare("==", lw.arith("%", ab, _u32(8), e), _u32(0), e), e), e)
    _assign_if(lw, ok, list(e.args[3:5]), (most, least), e)
    return Val(C.VoidT())
