"""`std::accumulate(first, last, init[, op])` over a run-time std::vector (ascendir/lower/host_vector.py) in host
tiling code, with iterators written as `v.begin()` / `v.end()` plus or minus an offset:

    dim1Count = std::accumulate(updateShape.begin() + 1, updateShape.begin() + newAxis, 1, std::multiplies<int64_t>());
    varDim3Count = std::accumulate(varShape.begin() + newAxis, varShape.end(), NUM_ONE, std::multiplies<int64_t>());

(NPUKernelBench ScatterList). The iterators are read from the call's text, not modelled as values: both must name
the same vector. The fold is an scf.for over the elements from the first position up to the last, carrying the sum
(no fourth argument, or `std::plus<T>()`) or the product (`std::multiplies<T>()`) in init's type, as the library
does (`init = op(std::move(init), *first)`). An empty range gives init; a range that runs backwards is undefined
in C++ and gives init here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.host_vector import RuntimeVector, is_vector, load_at, load_size
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

_OPS = {"plus": "+", "multiplies": "*"}


def _iterator(lw: HostLowerer, node: A.Node) -> tuple[RuntimeVector, Val]:
    """The vector an iterator expression walks and the element position it stands for."""
    offset: Val = Val(C.I64, const=0)
    if isinstance(node, A.Binary) and node.op in ("+", "-"):
        vec, base = _iterator(lw, node.lhs)
        step = lw.convert(lw.expr(node.rhs), C.I64, node)
        return vec, lw.arith(node.op, base, step, node)
    if isinstance(node, A.Call) and isinstance(node.callee, A.Member) and not node.args and \
            node.callee.member in ("begin", "end", "cbegin", "cend"):
        owner = lw.expr(node.callee.obj)
        if not is_vector(owner):  # (a vector initialised from a list is read only where a shape is made from it)
            raise Unsupported("'std::accumulate' is not modelled by the host lowering", node)
        vec = owner.obj
        assert isinstance(vec, RuntimeVector)
        if node.callee.member in ("end", "cend"):
            offset = lw.convert(load_size(lw, vec, node), C.I64, node)
        return vec, offset
    raise Unsupported("std::accumulate over iterators other than v.begin() / v.end() plus an offset", node)


def _operation(node: A.Node | None) -> str:
    if node is None:
        return "+"
    callee = node.callee if isinstance(node, A.Call) and not node.args else None
    name = callee.qname.parts[-1].name if isinstance(callee, A.Name) else None
    if name not in _OPS:
        raise Unsupported("std::accumulate with an operation other than std::plus or std::multiplies", node)
    return _OPS[name]


def accumulate(lw: HostLowerer, e: A.Call) -> Val:
    first_vec, first = _iterator(lw, e.args[0])
    last_vec, last = _iterator(lw, e.args[1])
    if first_vec is not last_vec:
        raise Unsupported("std::accumulate over iterators of two different vectors", e)
    op = _operation(e.args[3] if len(e.args) == 4 else None)
    init = lw.expr(e.args[2])
    if not isinstance(init.ctype, Scalar):
        raise Unsupported(f"std::accumulate with an initial value of type {init.ctype}", e)
    t = init.ctype
    start, end = lw.index_value(first, e), lw.index_value(last, e)
    step = lw.emit(arith.ConstantOp.from_int_and_width(1, IndexType()), e).results[0]
    body = Block(arg_types=[IndexType(), C.scalar_ir_type(t)])
    loop = lw.emit(scf.ForOp(start, end, step, [lw.ssa(init, e)], body), e)
    with lw.at_end_of(loop.body.block):
        elem = load_at(lw, first_vec, body.args[0], e)
        acc = lw.arith(op, Val(t, body.args[1]), lw.convert(Val(first_vec.elem, elem), t, e), e)
        lw.emit(scf.YieldOp(lw.ssa(lw.convert(acc, t, e), e)), e)
    return Val(t, loop.results[0])
