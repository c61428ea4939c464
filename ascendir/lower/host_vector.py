"""Run-time `std::vector`s of numbers and `new T[n]` arrays in host tiling code.

Vendor tiling code collects values whose count is known only when it runs:

    std::vector<int64_t> axes;                                  // filled from an input tensor's values
    for (int64_t i = 0; i < listSize; i++) { axes.emplace_back(listDataPtr[i]); }
    for (size_t i = 0; i < axes.size(); i++) { beginAdjust[axes[i]] = begin[i]; }
    std::vector<uint64_t> inshapeVector1(outDimNum, 1);         // n copies of a value
    int64_t *beginAdjust = new int64_t[dimNum];  ...  delete[] beginAdjust;

A vector of a scalar type is modelled as an array of CAPACITY elements (one memref) and its size (a scalar
cell): `push_back` / `emplace_back` store at the size and grow it, `size()`, `empty()`, `clear()`, `back()`,
`v[i]` / `v.at(i)` read and write the array, `data()` is a pointer to it. `std::vector<T> v(n)` / `v(n, x)` set the
size to n and fill it. A vector passed by reference is the caller's; one passed by value is copied. `new T[n]` of a
scalar T is a zero-filled array of CAPACITY elements and `delete[]` does nothing. An access past CAPACITY stops
the evaluation with the out-of-bounds access; past the size but inside CAPACITY (undefined in C++) it reads what
the array holds. `begin()` / `end()` are iterators (host_iterators.py); other member functions (`insert`, `erase`,
`resize`) are reported as not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, SSAValue

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Cell, Val
from ascendir.lower.vector_type import vector_argument
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

# the elements a run-time vector or a `new T[n]` array can hold here
CAPACITY = 4096

KIND = "runtime_vector"


@dataclass(frozen=True)
class RuntimeVector:
    """A `std::vector<elem>`: its elements (an array memref of CAPACITY) and its size (an int64 cell); or, with
    `row`, row `row` of a vector of vectors (host_vector_table.py): `data` is its [ROWS][ROW_CAPACITY] array and
    `size` its array of row sizes, both read at that row."""

    elem: Scalar
    data: Cell
    size: Cell
    row: SSAValue | None = None


def load_size(lw: HostLowerer, vec: RuntimeVector, node: A.Node) -> Val:
    """The vector's size (int64)."""
    if vec.row is None:
        return lw.load(vec.size, node)
    op = memref.LoadOp.create(operands=[vec.size.ref, vec.row], result_types=[C.ir_type(C.I64)])
    return Val(C.I64, lw.emit(op, node).results[0])


def store_size(lw: HostLowerer, vec: RuntimeVector, n: Val, node: A.Node) -> None:
    if vec.row is None:
        lw.store(vec.size, n, node)
        return
    x = lw.ssa(lw.convert(n, C.I64, node), node)
    lw.emit(memref.StoreOp.create(operands=[x, vec.size.ref, vec.row]), node)


def load_at(lw: HostLowerer, vec: RuntimeVector, index: SSAValue, node: A.Node) -> SSAValue:
    """Element `index` (an index value) of the vector's array."""
    where = [index] if vec.row is None else [vec.row, index]
    return lw.emit(memref.LoadOp.create(operands=[vec.data.ref, *where], result_types=[C.ir_type(vec.elem)]),
                   node).results[0]


def store_at(lw: HostLowerer, vec: RuntimeVector, index: SSAValue, x: SSAValue, node: A.Node) -> None:
    where = [index] if vec.row is None else [vec.row, index]
    lw.emit(memref.StoreOp.create(operands=[x, vec.data.ref, *where]), node)


def is_vector(v: Val) -> bool:
    return isinstance(v.obj, RuntimeVector)


def element_type(lw: HostLowerer, type_ref: A.TypeRef) -> Scalar | None:
    """The scalar T of a `std::vector<T>` type as written; None for anything else."""
    arg = vector_argument(type_ref)
    if arg is None:
        return None
    t = lw._template_arg_value(arg)
    if isinstance(t, C.EnumT):
        return C.I32  # `std::vector<ge::DataType>`: an enum's elements are held as their numbers
    return t if isinstance(t, Scalar) else None


def _value(lw: HostLowerer, vec: RuntimeVector) -> Val:
    from ascendir.lower.host import HostT

    return Val(HostT(KIND, f"std::vector<{vec.elem}>"), obj=vec)


def _index(lw: HostLowerer, v: Val, node: A.Node) -> SSAValue:
    return lw.index_value(v, node)


def _const_index(lw: HostLowerer, value: int, node: A.Node) -> SSAValue:
    return lw.emit(arith.ConstantOp(IntegerAttr(value, IndexType())), node).results[0]


def _fill(lw: HostLowerer, vec: RuntimeVector, start: SSAValue, end: SSAValue, value: Val, node: A.Node) -> None:
    """data[start:end] = value, as an scf.for."""
    x = lw.ssa(lw.convert(value, vec.elem, node), node)
    body = Block(arg_types=[IndexType()])
    loop = lw.emit(scf.ForOp(start, end, _const_index(lw, 1, node), [], body), node)
    with lw.at_end_of(loop.body.block):
        store_at(lw, vec, body.args[0], x, node)
        lw.emit(scf.YieldOp(), node)


def declare(lw: HostLowerer, name: str, elem: Scalar, ctor_args: list[A.Node], node: A.Node) -> Val:
    """`std::vector<T> v;`, `v(n)`, `v(n, x)`: a new vector."""
    data = lw.new_array(C.ArrayT(elem, CAPACITY), name, node, None)
    size = lw.new_cell(C.I64, f"{name}.size", node, Val(C.I64, const=0))
    vec = RuntimeVector(elem, data, size)
    if len(ctor_args) > 2:
        raise Unsupported("std::vector constructed from more than a count and a value is not modelled", node)
    if len(ctor_args) == 2:
        first, last = lw.expr(ctor_args[0]), lw.expr(ctor_args[1])
        from ascendir.lower import host_iterators

        if host_iterators.is_position(first):
            # `std::vector<T> v(w.begin(), w.end())`: a copy of the elements in that range
            return host_iterators.range_copy(lw, name, elem, first, last, node)
        ctor_args = [lw._stand_in(first, ctor_args[0]), lw._stand_in(last, ctor_args[1])]
    if ctor_args:
        n = lw.convert(lw.expr(ctor_args[0]), C.I64, node)
        value = lw.expr(ctor_args[1]) if len(ctor_args) == 2 else Val(elem, const=0)
        if not isinstance(value.ctype, Scalar):
            raise Unsupported("std::vector constructed from something other than a count and a value", node)
        _fill(lw, vec, _const_index(lw, 0, node), _index(lw, n, node), value, node)
        lw.store(size, n, node)
    return _value(lw, vec)


def declare_items(lw: HostLowerer, name: str, elem: Scalar, items: tuple[Val, ...], node: A.Node) -> Val:
    """`std::vector<T> v = {a, b};` / `v{a, b}`: a new vector holding the items, in order."""
    if len(items) > CAPACITY:
        raise Unsupported(f"a std::vector initialised with more than {CAPACITY} items is not modelled", node)
    vec = declare(lw, name, elem, [], node)
    data = vec.obj
    assert isinstance(data, RuntimeVector)
    for i, item in enumerate(items):
        write(lw, vec, Val(C.I64, const=i), item, node)
    store_size(lw, data, Val(C.I64, const=len(items)), node)
    return vec


def assign_items(lw: HostLowerer, v: Val, items: tuple[Val, ...], node: A.Node) -> None:
    """`v = {a, b};`: the vector now holds the items, in order (ops-nn scaled_masked_softmax_grad_v2 refills the
    dims it then builds a ge::Shape of)."""
    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    if len(items) > CAPACITY:
        raise Unsupported(f"a std::vector assigned more than {CAPACITY} items is not modelled", node)
    for i, item in enumerate(items):
        write(lw, v, Val(C.I64, const=i), item, node)
    store_size(lw, vec, Val(C.I64, const=len(items)), node)


def shape_of(lw: HostLowerer, v: Val, node: A.Node) -> SSAValue:
    """`ge::Shape(v)` (its `const std::vector<int64_t> &dims` constructor): a shape of the vector's size and
    elements as they are when it runs, built in a shape object (its rank, then each dim) and read back."""
    from ascendir.dialects import host as hd

    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    buffer = lw.emit(hd.ShapeLocalOp(), node).results[0]
    n = load_size(lw, vec, node)
    lw.emit(hd.ShapeSetDimNumOp(buffer, lw.ssa(lw.convert(n, C.I64, node), node)), node)
    body = Block(arg_types=[IndexType()])
    loop = lw.emit(scf.ForOp(_const_index(lw, 0, node), _index(lw, n, node), _const_index(lw, 1, node), [], body),
                   node)
    with lw.at_end_of(loop.body.block):
        dim = lw.emit(arith.IndexCastOp(body.args[0], C.ir_type(C.I64)), node).results[0]
        x = Val(vec.elem, load_at(lw, vec, body.args[0], node))
        lw.emit(hd.ShapeSetDimOp(buffer, dim, lw.ssa(lw.convert(x, C.I64, node), node)), node)
        lw.emit(scf.YieldOp(), node)
    return lw.emit(hd.ShapeReadOp(buffer), node).results[0]


def copy(lw: HostLowerer, source: Val, node: A.Node, first: Val | None = None, last: Val | None = None) -> Val:
    """A vector passed by value: a new one with the same size and elements; with `first` and `last`, of the
    elements between those positions only (`std::vector<T> v(w.begin(), w.end())`)."""
    vec = source.obj
    assert isinstance(vec, RuntimeVector)
    start = first if first is not None else Val(C.I64, const=0)
    end = last if last is not None else load_size(lw, vec, node)
    n = lw.arith("-", end, start, node)
    data = lw.new_array(C.ArrayT(vec.elem, CAPACITY), "", node, None)
    size = lw.new_cell(C.I64, "", node, lw.convert(n, C.I64, node))
    copied = RuntimeVector(vec.elem, data, size)
    body = Block(arg_types=[IndexType()])
    loop = lw.emit(scf.ForOp(_const_index(lw, 0, node), _index(lw, n, node), _const_index(lw, 1, node), [], body),
                   node)
    with lw.at_end_of(loop.body.block):
        at = lw.emit(arith.AddiOp(body.args[0], _index(lw, start, node)), node).results[0]
        store_at(lw, copied, body.args[0], load_at(lw, vec, at, node), node)
        lw.emit(scf.YieldOp(), node)
    return _value(lw, copied)


def _number(lw: HostLowerer, value: Val, node: A.Node) -> Val:
    """An enumerator as its number (a vector of an enum holds numbers); anything else as it is."""
    return lw._enum_as_int(value, node) if isinstance(value.ctype, C.EnumT) else value


def read(lw: HostLowerer, v: Val, index: Val, node: A.Node) -> Val:
    """`v[i]`."""
    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    return Val(vec.elem, load_at(lw, vec, _index(lw, index, node), node))


def write(lw: HostLowerer, v: Val, index: Val, value: Val, node: A.Node) -> None:
    """`v[i] = x`."""
    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    x = lw.ssa(lw.convert(_number(lw, value, node), vec.elem, node), node)
    store_at(lw, vec, _index(lw, index, node), x, node)


def method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val:
    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    size = load_size(lw, vec, e)
    if name in ("push_back", "emplace_back") and len(e.args) == 1:
        write(lw, v, size, lw.expr(e.args[0]), e)
        store_size(lw, vec, lw.arith("+", size, Val(C.I64, const=1), e), e)
        return Val(C.VoidT())
    if name == "pop_back" and not e.args:
        store_size(lw, vec, lw.arith("-", size, Val(C.I64, const=1), e), e)
        return Val(C.VoidT())
    if name == "size" and not e.args:
        return lw.convert(size, C.U64, e)
    if name == "empty" and not e.args:
        return lw.compare("==", size, Val(C.I64, const=0), e)
    if name == "clear" and not e.args:
        store_size(lw, vec, Val(C.I64, const=0), e)
        return Val(C.VoidT())
    if name == "at" and len(e.args) == 1:
        return read(lw, v, lw.expr(e.args[0]), e)
    if name == "back" and not e.args:
        return read(lw, v, lw.arith("-", size, Val(C.I64, const=1), e), e)
    if name == "front" and not e.args:
        return read(lw, v, Val(C.I64, const=0), e)
    if name == "data" and not e.args and vec.row is None:
        return Val(C.ArrayT(vec.elem, CAPACITY), obj=vec.data)
    raise Unsupported(f"std::vector::{name} is not modelled by the host lowering", e)


def new_array(lw: HostLowerer, e: A.New) -> Val:
    """`new T[n]` of a scalar T: a zero-filled array (see the module's doc)."""
    dims = e.type.array_dims
    t = lw.resolve_type(replace(e.type, array_dims=[]), e)
    if len(dims) != 1 or e.type.pointers or not isinstance(t, Scalar):
        raise Unsupported("new of anything but an array of numbers is not modelled by the host lowering", e)
    lw.expr(dims[0])  # the count: its side effects, if any
    return Val(C.ArrayT(t, CAPACITY), obj=lw.new_array(C.ArrayT(t, CAPACITY), "", e, None))


def param_mismatch(param: A.Param, arg: Val) -> bool:
    """Whether an overload's parameter cannot take `arg` because one is a std::vector and the other is not
    (`CopyData2Array(..., int64_t dataList[])` beside `CopyData2Array(..., std::vector<int64_t> &dataList)`)."""
    base = param.type.base
    wants_vector = not isinstance(base, str) and bool(base.parts) and base.parts[-1].name == "vector" and \
        not param.type.pointers.count("*")
    from ascendir.lower.host_init_list import is_braced_vector

    return wants_vector != (is_vector(arg) or is_braced_vector(arg))


def lower_range_for(lw: HostLowerer, st: A.RangeFor) -> bool:
    """`for (auto w : v)` over a run-time vector (ops-nn avg_pool3_d's divisors, gathered with push_back) as the
    loop it stands for, `for (size_t i = 0; i < v.size(); ++i) { auto w = v[i]; body }`; False when the range is
    no run-time vector. A reference loop variable reads the element as a copy does, so one the body assigns to
    (which would write the element) is a gap."""
    rng = lw.expr(st.range)
    if not is_vector(rng):
        return False
    var = st.var
    if "&" in var.type.pointers and var.name in lw.assigned_names(st.body):
        raise Unsupported("a range-for over a std::vector that writes its elements through the loop variable is "
                          "not modelled", st)
    lw._temps += 1
    vec, index = f"__range{lw._temps}", f"__range_index{lw._temps}"
    lw.bind(vec, rng)
    span = st.span

    def name(text: str) -> A.Name:
        return A.Name(span, A.QualifiedName(span, [A.NamePart(span, text)]))

    start = A.VarDecl(span, [], [A.Declarator(span, index, A.TypeRef(span, "unsigned long"), A.IntLit(span, "0", 0),
                                              "=")])
    cond = A.Binary(span, "<", name(index), A.Call(span, A.Member(span, name(vec), "size", False), []))
    step = A.IncDec(span, "++", name(index), True)
    element = replace(var, type=replace(var.type, pointers=[p for p in var.type.pointers if p != "&"]),
                      init=A.Index(span, name(vec), name(index)), init_style="=")
    body = A.Compound(span, [A.VarDecl(span, [], [element]), st.body])
    lw.lower_stmt(A.For(span, start, cond, step, body))
    return True
