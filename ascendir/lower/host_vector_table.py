"""Run-time vectors of vectors (`std::vector<std::vector<T>>` of numbers) in host tiling code.

Vendor tiling code keeps candidate block shapes as rows and picks one (ops-nn mat_mul_v3's CalcBase):

    const std::vector<std::vector<uint64_t>> CALC_M_BASIC = {{128, 256, 128}, {128, 128, 256}, {64, 512, 64}};
    std::vector<std::vector<uint64_t>> calBaseMNK;
    for (size_t i = 0; i < baseMNK.size(); ++i) {
        std::vector<uint64_t> tempBaseMNK(baseMNK[i].begin(), baseMNK[i].end());
        tempBaseMNK[0] = ...;
        calBaseMNK.push_back(tempBaseMNK);
        ...
    }
    runInfo_.baseM = calBaseMNK[index][0];

A table is modelled as a [ROWS][ROW_CAPACITY] array, an array of ROWS row sizes and its own size: `push_back`
copies a row in (a run-time vector, a row of another table, or a braced list), `t[i]` is a view of row i (a
host_vector.RuntimeVector with `row` set, so every vector operation, iterators included, works on it), `size()`,
`empty()`, `clear()`, `pop_back()`, `back()`, `front()`. A constant table (host_std.ConstSeq of rows) read at an
index known only when the tiling runs is copied once into such a table, in the function's entry block, and read
there; a constant vector of numbers so read likewise becomes a run-time vector. More rows than ROWS, or a row
longer than ROW_CAPACITY, stops the evaluation with the out-of-bounds access. A table passed by value is the
caller's own here (C++ copies it; a callee changing its copy is not modelled).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.builder import Builder, InsertPoint
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower import host_vector
from ascendir.lower.ctypes import Scalar
from ascendir.lower.vector_type import vector_argument
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HostT, VectorItems
from ascendir.lower.host_std import ConstSeq
from ascendir.lower.host_vector import RuntimeVector
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

# the rows a table holds, and the elements a row holds, here
ROWS = 64
ROW_CAPACITY = 64


@dataclass(frozen=True)
class RuntimeTable:
    """A `std::vector<std::vector<elem>>`: its rows ([ROWS][ROW_CAPACITY]), their sizes ([ROWS] int64), and its
    size (an int64 cell)."""

    elem: Scalar
    data: Cell
    sizes: Cell
    size: Cell


def is_table(v: Val) -> bool:
    return isinstance(v.obj, RuntimeTable)


def element_type(lw: HostLowerer, type_ref: A.TypeRef) -> Scalar | None:
    """T of a `std::vector<std::vector<T>>` as written (an enum's elements held as numbers); None otherwise."""
    arg = vector_argument(type_ref)
    if arg is None:
        return None
    inner = arg.value
    inner = inner.type if isinstance(inner, A.TypeArgExpr) else inner
    if isinstance(inner, A.Name):
        inner = A.TypeRef(inner.span, inner.qname)
    return host_vector.element_type(lw, inner) if isinstance(inner, A.TypeRef) else None


def _value(table: RuntimeTable) -> Val:
    return Val(HostT(host_vector.KIND, f"std::vector<std::vector<{table.elem}>>"), obj=table)


def _index(lw: HostLowerer, value: int, node: A.Node) -> object:
    return lw.emit(arith.ConstantOp.from_int_and_width(value, IndexType()), node).results[0]


def declare(lw: HostLowerer, name: str, elem: Scalar, node: A.Node, rows: tuple[Val, ...] = ()) -> Val:
    """`std::vector<std::vector<T>> t;` (or `= {{...}, ...}`: the rows pushed in order)."""
    data = lw.new_array(C.ArrayT(C.ArrayT(elem, ROW_CAPACITY), ROWS), name, node, None)
    sizes = lw.new_array(C.ArrayT(C.I64, ROWS), f"{name}.sizes", node, None)
    size = lw.new_cell(C.I64, f"{name}.size", node, Val(C.I64, const=0))
    table = _value(RuntimeTable(elem, data, sizes, size))
    for row in rows:
        push(lw, table, row, node)
    return table


def row(lw: HostLowerer, v: Val, index: Val, node: A.Node) -> Val:
    """`t[i]`: row i, a vector view of the table's arrays."""
    table = v.obj
    assert isinstance(table, RuntimeTable)
    at = lw.index_value(lw.convert(index, C.I64, node), node)
    vec = RuntimeVector(table.elem, table.data, table.sizes, row=at)
    return Val(HostT(host_vector.KIND, f"std::vector<{table.elem}>"), obj=vec)


def _items(v: Val) -> tuple[Val, ...] | None:
    """The elements of a row given as known values: a constant vector, a braced vector (or list, see method)."""
    return v.obj.values if isinstance(v.obj, ConstSeq | VectorItems) else None


def push(lw: HostLowerer, v: Val, src: Val, node: A.Node) -> None:
    """`t.push_back(row)`: the row's elements copied into row size(), which then counts."""
    table = v.obj
    assert isinstance(table, RuntimeTable)
    n = lw.load(table.size, node)
    dest = RuntimeVector(table.elem, table.data, table.sizes, row=lw.index_value(n, node))
    items = _items(src)
    if items is not None:
        for i, item in enumerate(items):
            host_vector.write(lw, Val(C.VoidT(), obj=dest), Val(C.I64, const=i), item, node)
        count: Val = Val(C.I64, const=len(items))
    elif host_vector.is_vector(src):
        vec = src.obj
        assert isinstance(vec, RuntimeVector)
        count = host_vector.load_size(lw, vec, node)
        body = Block(arg_types=[IndexType()])
        loop = lw.emit(scf.ForOp(_index(lw, 0, node), lw.index_value(count, node), _index(lw, 1, node), [], body),
                       node)
        with lw.at_end_of(loop.body.block):
            x = host_vector.load_at(lw, vec, body.args[0], node)
            host_vector.store_at(lw, dest, body.args[0], lw.ssa(lw.convert(Val(vec.elem, x), table.elem, node),
                                                                 node), node)
            lw.emit(scf.YieldOp(), node)
    else:
        raise Unsupported(f"pushing a {src.ctype} into a std::vector of vectors is not modelled", node)
    host_vector.store_size(lw, dest, count, node)
    lw.store(table.size, lw.arith("+", n, Val(C.I64, const=1), node), node)


def method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val:
    table = v.obj
    assert isinstance(table, RuntimeTable)
    size = lw.load(table.size, e)
    if name in ("push_back", "emplace_back") and len(e.args) == 1:
        arg = e.args[0]
        src = lw.expr(arg) if not isinstance(arg, A.InitList) else \
            Val(C.VoidT(), obj=VectorItems(tuple(lw.expr(i) for i in arg.items)))
        push(lw, v, src, e)
        return Val(C.VoidT())
    if name == "size" and not e.args:
        return lw.convert(size, C.U64, e)
    if name == "empty" and not e.args:
        return lw.compare("==", size, Val(C.I64, const=0), e)
    if name == "clear" and not e.args:
        lw.store(table.size, Val(C.I64, const=0), e)
        return Val(C.VoidT())
    if name == "pop_back" and not e.args:
        lw.store(table.size, lw.arith("-", size, Val(C.I64, const=1), e), e)
        return Val(C.VoidT())
    if name == "at" and len(e.args) == 1:
        return row(lw, v, lw.expr(e.args[0]), e)
    if name == "back" and not e.args:
        return row(lw, v, lw.arith("-", size, Val(C.I64, const=1), e), e)
    if name == "front" and not e.args:
        return row(lw, v, Val(C.I64, const=0), e)
    raise Unsupported(f"std::vector<std::vector<T>>::{name} is not modelled by the host lowering", e)


def _const_elem(values: tuple[Val, ...]) -> Scalar:
    return C.F64 if any(isinstance(v.const, float) for v in values) else C.I64


def seq_index(lw: HostLowerer, v: Val, index: Val, node: A.Node) -> Val:
    """`seq[i]` of a constant vector (host_std.ConstSeq): the item for a known i, else a read of the run-time copy
    made in the entry block (a row view for a table of rows)."""
    seq = v.obj
    assert isinstance(seq, ConstSeq)
    index = lw._enum_as_int(index, node)
    if isinstance(index.const, int):
        if not 0 <= index.const < len(seq.values):
            raise Unsupported(f"element {index.const} of a constant std::vector of {len(seq.values)}", node)
        return seq.values[index.const]
    copy = _runtime_copy(lw, seq, node)
    if is_table(copy):
        return row(lw, copy, index, node)
    return host_vector.read(lw, copy, index, node)


def _runtime_copy(lw: HostLowerer, seq: ConstSeq, node: A.Node) -> Val:
    """The run-time table (or vector) holding a constant one, made once per tiling function in its entry block
    (where every read of it, under any control flow, can see it)."""
    entry = lw._entry_block
    cache: dict[tuple[int, int], tuple[ConstSeq, Val]] = lw.__dict__.setdefault("_const_vector_copies", {})
    key = (id(seq), id(entry))
    if key in cache:
        return cache[key][1]
    saved = lw.builder
    if entry is not None:
        first = entry.first_op
        lw.builder = Builder(InsertPoint.before(first) if first is not None else InsertPoint.at_end(entry))
    try:
        rows = [r.obj for r in seq.values if isinstance(r.obj, ConstSeq)]
        if rows and len(rows) == len(seq.values):
            elem = _const_elem(tuple(x for r in rows for x in r.values))
            copy = declare(lw, "", elem, node, tuple(seq.values))
        elif not rows:
            copy = host_vector.declare_items(lw, "", _const_elem(seq.values), seq.values, node)
        else:
            raise Unsupported("a constant std::vector mixing rows and numbers", node)
    finally:
        lw.builder = saved
    cache[key] = (seq, copy)
    return copy

