"""`std::vector` temporaries and equality in host tiling code:

    if (perm == std::vector<int64_t>{0, 2, 1}) { ... }       // ops-math transpose_v2's choice of kernel

`std::vector<T>{a, b, ...}` (or `std::vector<T>({...})`) is a new run-time vector holding the items
(host_vector.declare_items), and `v == w` / `v != w` of two such vectors is C++'s: equal sizes and equal elements in
order, compared as an scf.for over the first's elements that ands each element's equality into the size check
(elements past the second's size are read inside its CAPACITY array; the size check decides those cases).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower import host_vector
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


def construct(lw: HostLowerer, items: list[A.Node], node: A.Node) -> Val | None:
    """`std::vector<T>{items}` as an expression: a new vector of them; None when `node` names no vector of a
    scalar T."""
    type_ref = getattr(node, "type", None)
    elem = host_vector.element_type(lw, type_ref) if isinstance(type_ref, A.TypeRef) else None
    if elem is None:
        return None
    if len(items) == 1 and isinstance(items[0], A.InitList):  # `std::vector<T>({a, b})`
        items = list(items[0].items)
    if any(isinstance(i, A.InitList) for i in items):
        raise Unsupported("a std::vector of aggregates is not modelled", node)
    values = tuple(lw.convert(lw.expr(i), elem, i) for i in items)
    return host_vector.declare_items(lw, "", elem, values, node)


def compare(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val | None:
    """`a == b` / `a != b` of two run-time vectors; None when either is not one."""
    if op not in ("==", "!=") or not (host_vector.is_vector(a) and host_vector.is_vector(b)):
        return None
    va, vb = a.obj, b.obj
    assert isinstance(va, host_vector.RuntimeVector) and isinstance(vb, host_vector.RuntimeVector)
    if C.scalar_ir_type(va.elem) != C.scalar_ir_type(vb.elem):
        raise Unsupported(f"comparing a std::vector<{va.elem}> with a std::vector<{vb.elem}>", node)
    size_a, size_b = host_vector.load_size(lw, va, node), host_vector.load_size(lw, vb, node)
    same_size = lw.emit(arith.CmpiOp(lw.ssa(size_a, node), lw.ssa(size_b, node), "eq"), node).results[0]
    zero = lw.emit(arith.ConstantOp.from_int_and_width(0, IndexType()), node).results[0]
    one = lw.emit(arith.ConstantOp.from_int_and_width(1, IndexType()), node).results[0]
    body = Block(arg_types=[IndexType(), i1])
    loop = lw.emit(scf.ForOp(zero, lw.index_value(size_a, node), one, [same_size], body), node)
    with lw.at_end_of(body):
        x = host_vector.load_at(lw, va, body.args[0], node)
        y = host_vector.load_at(lw, vb, body.args[0], node)
        eq = arith.CmpfOp(x, y, "oeq") if va.elem.is_float else arith.CmpiOp(x, y, "eq")
        equal = lw.emit(eq, node).results[0]
        both = lw.emit(arith.AndIOp(body.args[1], equal), node).results[0]
        lw.emit(scf.YieldOp(both), node)
    result = loop.results[0]
    if op == "!=":
        result = lw.emit(arith.XOrIOp(result, lw.const_ssa(1, C.BOOL, node)), node).results[0]
    return Val(C.BOOL, result)
