"""Matmul API tiling objects in the host lowering (`matmul_tiling::MultiCoreMatmulTiling`, `MatmulApiTiling`):
their setters and GetTiling as `host.matmul_*` ops, by method name (MATMUL_METHODS).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from ascendir.dialects import host as hd
from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import CType, Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.host_context_methods import Method
from ascendir.lower.host_handles import TilingRef
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


MATMUL_CLASSES = ("MultiCoreMatmulTiling", "MatmulApiTiling")


def _matmul_args(lw: HostLowerer, e: A.Call, name: str,
                 params: Sequence[tuple[CType, int | None]]) -> list[SSAValue]:
    """The call's arguments converted to the parameter types, defaults filled in (None: no default)."""
    if len(e.args) > len(params):
        raise Unsupported(f"{name} takes at most {len(params)} arguments", e)
    values: list[SSAValue] = []
    for i, (t, default) in enumerate(params):
        if i < len(e.args):
            v = lw.expr(e.args[i])
            if not isinstance(v.ctype, Scalar | C.EnumT) or isinstance(v.const, str):
                raise Unsupported(f"argument {i + 1} of {name} ({v.ctype}) is not modelled", e)
            v = Val(C.I32, v.ssa, const=v.const) if isinstance(v.ctype, C.EnumT) else v
        elif default is not None:
            v = Val(t, const=default)
        else:
            raise Unsupported(f"{name} takes at least {i + 1} arguments", e)
        values.append(lw.ssa(lw.convert(v, t, e), e))
    return values


def _mm_set_dim(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (dim,) = _matmul_args(lw, e, "SetDim", [(C.I32, None)])
    lw.emit(hd.MatmulSetDimOp(lw.ssa(recv, e), dim), e)
    return Val(C.I32, const=0)


def _mm_set_type(matrix: hd.MatmulMatrix) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        params: list[tuple[CType, int | None]] = [(C.I32, None), (C.I32, None), (C.I32, None)]
        if matrix in (hd.MatmulMatrix.A, hd.MatmulMatrix.B):
            params.append((C.BOOL, 0))  # isTrans
        position, fmt, dtype, *rest = _matmul_args(lw, e, callee.member, params)
        trans = rest[0] if rest else lw.ssa(Val(C.BOOL, const=0), e)
        lw.emit(hd.MatmulSetTypeOp(lw.ssa(recv, e), matrix, position, fmt, dtype, trans), e)
        return Val(C.I32, const=0)

    return method


def _mm_set_shape(kind: hd.MatmulShapeKind) -> Method:
    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        default = -1 if kind == hd.MatmulShapeKind.SINGLE_CORE else None
        params: list[tuple[CType, int | None]] = [(C.I32, default)] * 3
        if kind == hd.MatmulShapeKind.ORG and len(e.args) == 4:
            params.append((C.I32, None))  # SetOrgShape(m, n, ka, kb)
        m, n, k, *kb = _matmul_args(lw, e, callee.member, params)
        lw.emit(hd.MatmulSetShapeOp(lw.ssa(recv, e), kind, m, n, k, kb[0] if kb else None), e)
        return Val(C.I32, const=0)

    return method


def _mm_set_fix_split(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = _matmul_args(lw, e, "SetFixSplit", [(C.I32, -1)] * 3)
    return Val(C.I32, lw.emit(hd.MatmulSetFixSplitOp(lw.ssa(recv, e), *values), e).results[0])


def _mm_set_bias(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    (enabled,) = _matmul_args(lw, e, callee.member, [(C.BOOL, 0)])
    lw.emit(hd.MatmulSetBiasOp(lw.ssa(recv, e), enabled), e)
    return Val(C.I32, const=0)


def _mm_set_buffer_space(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    values = _matmul_args(lw, e, "SetBufferSpace", [(C.I32, -1)] * 4)
    return Val(C.I32, lw.emit(hd.MatmulSetBufferSpaceOp(lw.ssa(recv, e), *values), e).results[0])


def _mm_get_tiling(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
    if len(e.args) != 1:
        raise Unsupported("GetTiling takes the TCubeTiling to fill", e)
    # `tiling.cubeTilingData`: the TCubeTiling field GetTiling fills, in the tiling struct that holds it
    arg = e.args[0]
    holder: Val | None = None
    try:
        lw.expr(arg)  # a name the compiler would reject is reported here
        if isinstance(arg, A.Member):
            holder = lw.expr(arg.obj)
    except Unsupported:
        pass
    if holder is not None and isinstance(holder.obj, TilingRef) and holder.ssa is not None:
        assert isinstance(arg, A.Member)
        op = hd.MatmulGetTilingOp(lw.ssa(recv, e), holder.ssa, holder.obj.field_name(arg.member))
    else:
        op = hd.MatmulGetTilingOp(lw.ssa(recv, e))
    return Val(C.I64, lw.emit(op, e).results[0])


def _mm_configure(returns: CType) -> Method:
    """A setter of the split search (its arguments are enum or size values, not lowered)."""

    def method(lw: HostLowerer, e: A.Call, recv: Val, callee: A.Member) -> Val:
        lw.emit(hd.MatmulConfigureOp(lw.ssa(recv, e), callee.member), e)
        return Val(returns, const=0) if isinstance(returns, Scalar) else Val(returns)

    return method


MATMUL_METHODS: dict[str, Method] = {
    "SetDim": _mm_set_dim,
    "SetAType": _mm_set_type(hd.MatmulMatrix.A), "SetBType": _mm_set_type(hd.MatmulMatrix.B),
    "SetCType": _mm_set_type(hd.MatmulMatrix.C), "SetBiasType": _mm_set_type(hd.MatmulMatrix.BIAS),
    "SetShape": _mm_set_shape(hd.MatmulShapeKind.SHAPE), "SetOrgShape": _mm_set_shape(hd.MatmulShapeKind.ORG),
    "SetSingleShape": _mm_set_shape(hd.MatmulShapeKind.SINGLE_CORE),
    "SetFixSplit": _mm_set_fix_split, "SetBias": _mm_set_bias, "EnableBias": _mm_set_bias,
    "SetBufferSpace": _mm_set_buffer_space, "GetTiling": _mm_get_tiling,
    # they change how GetTiling searches, not what its first checks read
    **{name: _mm_configure(C.I32) for name in (
        "SetTraverse", "SetMadType", "SetSplitRange", "SetDoubleBuffer", "SetSparse", "SetAlignSplit",
        "SetALayout", "SetBLayout", "SetCLayout", "SetBatchInfoForNormal", "SetBatchNum", "SetScaleAType",
        "SetScaleBType", "SetDequantType", "SetSingleRange")},
    **{name: _mm_configure(C.VoidT())
       for name in ("SetMatmulConfigParams", "EnableMultiCoreSplitK", "SetSplitK")},
}  # fmt: skip
MULTI_CORE_ONLY = {"SetDim", "SetSingleShape", "SetAlignSplit", "SetSingleRange", "EnableMultiCoreSplitK",
                    "SetSplitK"}  # fmt: skip
