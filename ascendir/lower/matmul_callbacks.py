"""A Matmul object's MatmulCallBackFunc callbacks, which the simulator does not run: reported where it is declared.

    MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MatmulCallBackFunc<nullptr, BmmCopyAL1, nullptr>> mm_;

A Matmul's sixth template argument (asc-devkit matmul_call_back.h; its docs/zh/api page MatmulCallBackFunc.md) names
up to three functions of the kernel that replace the library's own data movement: DataCopyOut (C from L0C
to GM), CopyA1 and CopyB1 (A and B from GM into L1, given the L1 tensor, the GM address, the block's row and
column, its size and the integers SetUserDefInfo / SetSelfDefineData gave the object). The simulator's Matmul is
one call of the Rust model (rust_sim cube/matmul), which moves the operands as the library does; it cannot call
back into kernel code. Where a kernel gives callbacks (ops-nn batch_mat_mul_v3's BmmCopyAL1 / BmmCopyBL1 for its
L1-full-load tiling keys, mat_mul_v3's and gemm_v3's CopyBL1, mat_mul_cvp_base_kernel.h's default CopyA / CopyB,
arch35 stream-k's CustomDataCopyOut; ops-transformer's arch32 flash attention grad DataCopyOutLocal through a
Conditional<...>::type, prompt / incre flash attention bmm1CopyB1 / bmm2CopyB1), what they do differently
(another layout, an offset, state they keep) is not modelled: an ASC103 warning at the declaration says so, and
the library's own copy is used.

So that the callbacks survive a class template parameter (`class MM_CB = MatmulCallBackFunc<nullptr, nullptr,
nullptr>`, then `MatmulImpl<..., MM_CB> mm_;`), the type MatmulCallBackFunc<...> keeps its arguments as written
(MatmulCallbacksT); before, every instance was the one unknown type 'MatmulCallBackFunc'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import node_text
from ascendir.lower.diagnostics import NOT_MODELLED, span_of
from frontend import ast as A
from frontend.diagnostics import warning

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

NAME = "MatmulCallBackFunc"
ROLES = ("DataCopyOut", "CopyA1", "CopyB1")  # its template parameters, in order


@dataclass(frozen=True)
class MatmulCallbacksT(C.UnknownT):
    """`MatmulCallBackFunc<out, a1, b1>`: the functions given, as written, one per role ('' for nullptr). Still an
    opaque type elsewhere (its members are not modelled), as the unknown type it was."""

    text: str = NAME
    reported: ClassVar[bool] = False  # (a library type, not an unknown name)
    given: tuple[str, ...] = ("", "", "")


def callback_type(args: Sequence[A.TemplateArg]) -> MatmulCallbacksT:
    given = ["" if _is_null(a.value) else node_text(a.value) for a in args[:len(ROLES)]]
    return MatmulCallbacksT(given=tuple(given + [""] * (len(ROLES) - len(given))))


def _is_null(value: object) -> bool:
    if isinstance(value, A.TypeArgExpr):
        value = value.type
    if isinstance(value, A.TypeRef) and isinstance(value.base, A.QualifiedName):
        return value.base.text in ("nullptr", "NULL")
    return isinstance(value, A.NullLit) or isinstance(value, A.IntLit) and value.value == 0 or \
        isinstance(value, A.Name) and value.qname.text in ("nullptr", "NULL")


def report_ignored(lw: FunctionLowerer, t: A.TypeRef, node: A.Node) -> None:
    """An ASC103 warning at `node` (a Matmul object's declared type `t`, or its declaration) when the type gives
    callbacks."""
    for _ in range(8):  # (`using MT = Matmul<...>; MT mm;` and Conditional<b, T, U>::type: as the config text goes)
        named = lw._bare_alias(t) or (lw._conditional_choice(t.base.parts) if isinstance(t.base, A.QualifiedName)
                                      else None)
        if named is None:
            break
        t = named
    if not isinstance(t.base, A.QualifiedName) or len(t.base.parts[-1].template_args or []) <= 5:
        return
    arg = (t.base.parts[-1].template_args or [])[5].value
    if isinstance(arg, A.TypeArgExpr):
        arg = arg.type
    if isinstance(arg, A.Name) and not any(p.template_args for p in arg.qname.parts):
        arg = A.TypeRef(span=arg.span, base=arg.qname)  # `MM_CB` parsed as an expression
    if isinstance(arg, A.Name) and arg.qname.parts[-1].name == NAME:
        found: object = callback_type(arg.qname.parts[-1].template_args or [])
    elif isinstance(arg, A.TypeRef):
        found = lw.resolve_type(arg, node)
    else:
        return
    if not isinstance(found, MatmulCallbacksT) or not any(found.given):
        return
    named = ", ".join(f"{role} = {fn}" for role, fn in zip(ROLES, found.given) if fn)
    lw.report.add(warning(NOT_MODELLED, f"this Matmul's MatmulCallBackFunc callbacks ({named}) are not run: the "
                          "simulator moves A, B and C as the library's own copy does, so what the callbacks do "
                          "differently is not modelled", span_of(node)))
