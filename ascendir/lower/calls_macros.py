"""The kernel-entry macros in the lowering of calls: GET_TILING_DATA and its forms, COPY_TILING_WITH_STRUCT,
GET_TILING_DATA_MEMBER, TILING_KEY_IS, KERNEL_TASK_TYPE(_DEFAULT), likely / unlikely / __builtin_expect; and a
helper that copies the tiling words from GM into a local struct (CopyTiling), whose effect is modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


_KERNEL_TYPES = {
    "KERNEL_TYPE_AIV_ONLY": "aiv", "KERNEL_TYPE_AIC_ONLY": "aic", "KERNEL_TYPE_MIX_AIC_1_1": "mix_aic_1_1",
    "KERNEL_TYPE_MIX_AIC_1_2": "mix_aic_1_2", "KERNEL_TYPE_MIX_AIV_1_0": "mix_aiv_1_0",
    "KERNEL_TYPE_MIX_AIC_1_0": "mix_aic_1_0", "KERNEL_TYPE_MIX_VECTOR_CORE": "mix_vector_core",
}  # fmt: skip


def copies_tiling(args: Sequence[Val]) -> bool:
    """`CopyTiling(&tilingStruct, tilingGM)`: a helper that copies the tiling words from GM into a local
    struct through an int pointer. Byte-level copies into a struct are not modelled; the effect is."""
    has_struct = any(isinstance(a.ctype, C.Pointer) and isinstance(a.ctype.pointee, C.TilingT)
                     and isinstance(a.obj, Cell) and isinstance(a.obj.ctype, C.TilingT) for a in args)
    has_gm = any(isinstance(a.ctype, C.Pointer) and a.ctype.gm for a in args)
    return has_struct and has_gm and len(args) == 2


def tiling_copy(lw: FunctionLowerer, e: A.Call, args: Sequence[Val]) -> Val:
    cell = next(a.obj for a in args if isinstance(a.obj, Cell) and isinstance(a.obj.ctype, C.TilingT))
    ptr = next(a for a in args if isinstance(a.ctype, C.Pointer) and a.ctype.gm)
    assert isinstance(cell, Cell) and isinstance(cell.ctype, C.TilingT)
    op = asc.GetTilingDataOp.create(operands=[lw.ssa(ptr, e)], result_types=[asc.TilingType(cell.ctype.name)])
    lw.store(cell, Val(cell.ctype, lw.emit(op, e).results[0]), e)
    return Val(C.VoidT())


def _macro_name_arg(node: A.Node) -> str | None:
    if isinstance(node, A.Name):
        return node.qname.parts[-1].name
    if isinstance(node, A.TypeRef) and isinstance(node.base, A.QualifiedName):
        return node.base.parts[-1].name
    if isinstance(node, A.TypeArgExpr):
        return _macro_name_arg(node.type)
    return None


def _get_tiling_data(lw: FunctionLowerer, e: A.Call) -> Val:
    """GET_TILING_DATA(td, tiling) and its WITH_STRUCT / PTR forms: declares `td`."""
    callee = e.callee
    assert isinstance(callee, A.Name)
    macro = callee.qname.parts[-1].name
    args = e.args
    struct: str | None = None
    if macro in ("GET_TILING_DATA_WITH_STRUCT", "GET_TILING_DATA_PTR_WITH_STRUCT") and len(args) == 3:
        struct = lw.instantiated_tiling_struct(args[0]) or _macro_name_arg(args[0])
        args = args[1:]
    if len(args) < 2:
        raise Unsupported(f"{macro} needs a variable name and the tiling pointer", e)
    var = _macro_name_arg(args[0])
    if var is None:
        raise Unsupported(f"the first argument of {macro} must be a name", e)
    struct = struct or lw.default_tiling or lw.options.tiling_struct or "TilingData"  # type: ignore[attr-defined]
    ptr = lw.expr(args[1])
    p = lw.ssa(ptr, e)
    if not isinstance(p.type, asc.GmPtrType):
        raise Unsupported(f"{macro} needs the kernel's tiling pointer", e)
    op = asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(struct)])
    value = lw.emit(op, e).results[0]
    value.name_hint = var
    val = Val(C.TilingT(struct), value)
    if macro == "GET_TILING_DATA_PTR_WITH_STRUCT":
        lw.bind(var, Val(C.Pointer(C.TilingT(struct), gm=True), p))
    else:
        lw.bind(var, val)
    return Val(C.VoidT())


def _copy_tiling(lw: FunctionLowerer, e: A.Call) -> Val:
    """COPY_TILING_WITH_STRUCT(Struct, src, dst) (kernel_tiling.h): declares `dst`, a pointer to a local copy
    of the Struct that `src` points to: the kernel's tiling pointer, or a struct inside tiling data already
    read (`&tdp->mm0Tiling`, ops-nn fused_linear_cross_entropy_loss_grad). Reads through it are the tiling's."""
    if len(e.args) != 3:
        raise Unsupported("COPY_TILING_WITH_STRUCT takes a struct, a source pointer and a name", e)
    struct, var = _macro_name_arg(e.args[0]), _macro_name_arg(e.args[2])
    if struct is None or var is None:
        raise Unsupported("COPY_TILING_WITH_STRUCT needs a struct and a variable name", e)
    src = lw.expr(e.args[1])
    if isinstance(src.ctype, C.Pointer) and src.ctype.gm and not isinstance(src.ctype.pointee, C.TilingT):
        p = lw.ssa(src, e)
        if isinstance(p.type, asc.GmPtrType):  # the kernel's `GM_ADDR tiling`
            lw.bind(var, Val(C.Pointer(C.TilingT(struct), gm=True), p))
            return Val(C.VoidT())
    if not isinstance(src.ctype, C.Pointer):
        raise Unsupported("COPY_TILING_WITH_STRUCT needs a pointer to copy from", e)
    lw.bind(var, src)
    return Val(C.VoidT())


def _get_tiling_data_member(lw: FunctionLowerer, e: A.Call) -> Val:
    """GET_TILING_DATA_MEMBER(Struct, member, var, tiling): declares `var` as one field."""
    if len(e.args) != 4:
        raise Unsupported("GET_TILING_DATA_MEMBER takes four arguments", e)
    struct, member, var = (_macro_name_arg(a) for a in e.args[:3])
    if not (struct and member and var):
        raise Unsupported("GET_TILING_DATA_MEMBER needs names", e)
    p = lw.ssa(lw.expr(e.args[3]), e)
    tiling = Val(C.TilingT(struct), lw.emit(asc.GetTilingDataOp.create(operands=[p], result_types=[asc.TilingType(struct)]), e).results[0])
    lw.bind(var, lw.tiling_field(tiling, member, e))
    return Val(C.VoidT())


def _register_tiling_default(lw: FunctionLowerer, e: A.Call) -> Val:
    """REGISTER_TILING_DEFAULT(S) in a kernel's body (the API reference's own example writes it there, before
    GET_TILING_DATA; ops-transformer mc2 kernels too): the struct the kernel's GET_TILING_DATA reads, over the
    program's guess, as the namespace-scope form is (Scope.default_tiling)."""
    name = _macro_name_arg(e.args[0]) if e.args else None
    if name is not None:
        lw.default_tiling = name
    return Val(C.VoidT())


def _tiling_key_is(lw: FunctionLowerer, e: A.Call) -> Val:
    key = lw.const_eval(e.args[0]) if e.args else None
    if not isinstance(key, int):
        raise Unsupported("TILING_KEY_IS needs a constant key", e)
    if lw.tiling_key is not None:
        return Val(C.BOOL, const=int(key == lw.tiling_key))
    op = asc.TilingKeyIsOp.create(properties={"key": IntegerAttr(key, 64)}, result_types=[C.scalar_ir_type(C.BOOL)])
    return Val(C.BOOL, lw.emit(op, e).results[0])


def _kernel_task_type(lw: FunctionLowerer, e: A.Call) -> Val:
    if e.args:
        name = _macro_name_arg(e.args[-1])
        if name in _KERNEL_TYPES and (lw.kernel_type == "default" or e.callee.qname.parts[-1].name == "KERNEL_TASK_TYPE_DEFAULT"):  # type: ignore[union-attr]
            lw.kernel_type = _KERNEL_TYPES[name]
    return Val(C.VoidT())


def _branch_hint(lw: FunctionLowerer, e: A.Call) -> Val:
    """`likely(c)` / `unlikely(c)` (macros of the AscendC headers) and `__builtin_expect(c, v)`: the value of c."""
    if not e.args:
        raise Unsupported(f"'{e.callee.qname.parts[-1].name}' needs an argument", e)  # type: ignore[union-attr]
    return lw.expr(e.args[0])


# the compiler's float constants, which it folds (no call is made): ops-math segsum's kernel writes
# `#define INFINITY (__builtin_inff())` and fills with -INFINITY; as a call the lowering left opaque, every core
# stopped there (ASC958). `__builtin_nanf("")`'s argument is the NaN's payload.
_FLOAT_CONSTANTS: dict[str, tuple[C.Scalar, float]] = {
    "__builtin_inff": (C.F32, float("inf")), "__builtin_huge_valf": (C.F32, float("inf")),
    "__builtin_nanf": (C.F32, float("nan")), "__builtin_inf": (C.F64, float("inf")),
    "__builtin_huge_val": (C.F64, float("inf")), "__builtin_nan": (C.F64, float("nan")),
}  # fmt: skip


def _float_constant(lw: FunctionLowerer, e: A.Call) -> Val:
    ctype, number = _FLOAT_CONSTANTS[e.callee.qname.parts[-1].name]  # type: ignore[union-attr]
    return Val(ctype, const=number)


MACROS = {
    **dict.fromkeys(_FLOAT_CONSTANTS, _float_constant),
    "likely": _branch_hint,
    "unlikely": _branch_hint,
    "__builtin_expect": _branch_hint,
    "REGISTER_TILING_DEFAULT": _register_tiling_default,
    "GET_TILING_DATA": _get_tiling_data,
    "GET_TILING_DATA_WITH_STRUCT": _get_tiling_data,
    "GET_TILING_DATA_PTR_WITH_STRUCT": _get_tiling_data,
    "GET_TILING_DATA_MEMBER": _get_tiling_data_member,
    "COPY_TILING_WITH_STRUCT": _copy_tiling,
    "TILING_KEY_IS": _tiling_key_is,
    "KERNEL_TASK_TYPE_DEFAULT": _kernel_task_type,
    "KERNEL_TASK_TYPE": _kernel_task_type,
}
