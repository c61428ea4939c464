"""Iterators of std::vectors and the <algorithm> calls that take them, in host tiling code.

Vendor tiling code checks a list of dtypes against a table of supported combinations (ops-nn mat_mul_v3's
OpSpecificCheck):

    std::vector<ge::DataType> dtype = {args.aType, args.bType, args.cType};
    if (args.hasBias) { dtype.push_back(args.biasType); }
    for (auto& supported : dtypeSuportList) {                  // a std::vector<std::vector<ge::DataType>> constant
        if (std::equal(dtype.begin(), dtype.end(), supported.begin())) { return ge::GRAPH_SUCCESS; }
    }

An iterator is a position in one vector: in a run-time vector (ascendir/lower/host_vector.py) a VecPos, whose
index is a run-time number; in a vector of constants (host_std.ConstSeq) host_std's SeqPos, whose index is known.
`begin()` / `end()` make them, `it + n` / `it - n` move them, `*it` reads the element, and two positions in one
vector compare by their indices. The algorithms `std::equal` (three or four iterators), `std::find`,
`std::find_if`, `std::count`, `std::any_of` / `all_of` / `none_of` (the predicate a lambda) run over the elements
(`std::find_if` over a std::array of pairs is the pair found: host_pair): unrolled where
the range's elements are known (a constant vector, or a run-time range compared with one: at most as many steps
as the constant one holds), else as an scf.for over the run-time range. Reading a run-time vector past its size
inside CAPACITY reads what its array holds (undefined in C++); iterators of two different vectors compared, or
any other algorithm, are reported as not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.ir import Block

from ascendir.lower import ctypes as C
from ascendir.lower import host_pair, host_std, host_vector, lambdas
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HostT, VectorItems
from ascendir.lower.host_std import ConstSeq, SeqPos
from ascendir.lower.host_vector import RuntimeVector
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

ITERATOR_T = HostT("unmodelled", "std::vector iterator")

# the <algorithm> functions modelled here (std:: qualified)
ALGORITHMS = frozenset({"equal", "find", "find_if", "count", "any_of", "all_of", "none_of"})


@dataclass(frozen=True)
class VecPos:
    """A position in a run-time vector: its element index (an int64 value)."""

    vec: RuntimeVector
    index: Val


def _same_vector(a: RuntimeVector, b: RuntimeVector) -> bool:
    """Whether two iterators walk one vector: the same array (a row of a vector of vectors read twice,
    `t[i].begin()` and `t[i].end()`, is one row; iterators of two rows would be undefined in C++)."""
    return a.data is b.data


def range_copy(lw: HostLowerer, name: str, elem: C.Scalar, first: Val, last: Val, node: A.Node) -> Val:
    """`std::vector<T> v(first, last)`: a new run-time vector holding the elements of that range."""
    if isinstance(first.obj, VecPos) and isinstance(last.obj, VecPos) and _same_vector(first.obj.vec, last.obj.vec):
        source = Val(ITERATOR_T, obj=first.obj.vec)
        return host_vector.copy(lw, source, node, first.obj.index, last.obj.index)
    r = _range(lw, first, last, node)
    assert r.items is not None
    return host_vector.declare_items(lw, name, elem, r.items, node)


def is_position(v: Val) -> bool:
    return isinstance(v.obj, VecPos) or isinstance(v.obj, SeqPos) and v.obj.index is not None


def vector_method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val | None:
    """`v.begin()` / `v.end()` of a run-time vector; None for another member."""
    vec = v.obj
    assert isinstance(vec, RuntimeVector)
    if e.args or name not in ("begin", "end", "cbegin", "cend"):
        return None
    index = Val(C.I64, const=0) if name in ("begin", "cbegin") else host_vector.load_size(lw, vec, e)
    return Val(ITERATOR_T, obj=VecPos(vec, index))


def items_method(lw: HostLowerer, e: A.Call, name: str, v: Val) -> Val | None:
    """`v.begin()` / `v.end()` / `v.size()` of a vector whose items were read where it was declared
    (host_handles.VectorItems, `const std::vector<int64_t> v = {a, b};`): positions in those items."""
    items = v.obj
    assert isinstance(items, VectorItems)
    if e.args or name not in ("begin", "end", "cbegin", "cend", "size"):
        return None
    if name == "size":
        return Val(C.U64, const=len(items.values))
    seq = ConstSeq(items.values)
    return Val(v.ctype, obj=SeqPos(seq, 0 if name in ("begin", "cbegin") else len(seq.values)))


def step(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val:
    """`it + n`, `n + it`, `it - n`, and `it - first` (the distance between two positions in one vector)."""
    if is_position(a) and is_position(b) and op == "-":
        if isinstance(a.obj, VecPos) and isinstance(b.obj, VecPos) and _same_vector(a.obj.vec, b.obj.vec):
            return lw.arith("-", a.obj.index, b.obj.index, node)
        if isinstance(a.obj, SeqPos) and isinstance(b.obj, SeqPos) and a.obj.seq == b.obj.seq:
            return Val(C.I64, const=a.obj.index - b.obj.index)  # type: ignore[operator]
        raise Unsupported("the distance between iterators of two different std::vectors is not modelled", node)
    it, n = (a, b) if is_position(a) else (b, a)
    if not isinstance(n.ctype, C.Scalar) or op == "-" and it is b:
        raise Unsupported(f"operator '{op}' on {a.ctype} and {b.ctype}", node)
    return moved(lw, it, op, n, node)


def moved(lw: HostLowerer, it: Val, op: str, n: Val, node: A.Node) -> Val:
    """`it + n` / `it - n`."""
    n = lw.convert(n, C.I64, node)
    if isinstance(it.obj, VecPos):
        return Val(ITERATOR_T, obj=VecPos(it.obj.vec, lw.arith(op, it.obj.index, n, node)))
    pos = it.obj
    assert isinstance(pos, SeqPos) and pos.index is not None
    if not isinstance(n.const, int):
        raise Unsupported("moving an iterator of a constant std::vector by a run-time count is not modelled", node)
    return Val(it.ctype, obj=SeqPos(pos.seq, pos.index + (n.const if op == "+" else -n.const)))


def deref(lw: HostLowerer, it: Val, node: A.Node) -> Val:
    """`*it`: the element at the position."""
    if isinstance(it.obj, VecPos):
        return host_vector.read(lw, Val(it.ctype, obj=it.obj.vec), it.obj.index, node)
    pos = it.obj
    assert isinstance(pos, SeqPos) and pos.index is not None
    if not 0 <= pos.index < len(pos.seq.values):
        raise Unsupported("dereferencing an iterator outside its constant std::vector", node)
    return pos.seq.values[pos.index]


def compare(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val | None:
    """Two positions in one run-time vector, by their indices; None when either is not such a position."""
    if not (isinstance(a.obj, VecPos) and isinstance(b.obj, VecPos)):
        return None
    if not _same_vector(a.obj.vec, b.obj.vec):
        raise Unsupported("comparing iterators of two different std::vectors is not modelled", node)
    return lw.compare(op, a.obj.index, b.obj.index, node)


def _and(lw: HostLowerer, a: Val, b: Val, node: A.Node) -> Val:
    if a.const is not None or b.const is not None:
        known, other = (a, b) if a.const is not None else (b, a)
        return other if known.const else Val(C.BOOL, const=0)
    return Val(C.BOOL, lw.emit(arith.AndIOp(lw.ssa(a, node), lw.ssa(b, node)), node).results[0])


def _or(lw: HostLowerer, a: Val, b: Val, node: A.Node) -> Val:
    return lw._not(_and(lw, lw._not(a, node), lw._not(b, node), node), node)


@dataclass(frozen=True)
class _Range:
    """[first, last) of one vector: its elements when known (a constant vector), else the run-time vector
    and the two indices."""

    items: tuple[Val, ...] | None
    vec: RuntimeVector | None = None
    first: Val | None = None
    last: Val | None = None


def _range(lw: HostLowerer, first: Val, last: Val, node: A.Node) -> _Range:
    if isinstance(first.obj, VecPos) and isinstance(last.obj, VecPos) and _same_vector(first.obj.vec, last.obj.vec):
        return _Range(None, first.obj.vec, first.obj.index, last.obj.index)
    if isinstance(first.obj, SeqPos) and isinstance(last.obj, SeqPos) and first.obj.seq == last.obj.seq and \
            first.obj.index is not None and last.obj.index is not None:
        return _Range(first.obj.seq.values[first.obj.index:last.obj.index])
    raise Unsupported("an algorithm over iterators other than begin() / end() of one std::vector", node)


def _element(lw: HostLowerer, start: Val, i: int, node: A.Node) -> Val | None:
    """The element i places after the iterator `start`; None past the end of a constant vector."""
    if isinstance(start.obj, VecPos):
        index = lw.arith("+", start.obj.index, Val(C.I64, const=i), node)
        return host_vector.read(lw, Val(start.ctype, obj=start.obj.vec), index, node)
    pos = start.obj
    if not isinstance(pos, SeqPos) or pos.index is None:
        raise Unsupported("an algorithm over an iterator other than one of a std::vector", node)
    return pos.seq.values[pos.index + i] if pos.index + i < len(pos.seq.values) else None


def _remaining(start: Val) -> int | None:
    """How many elements a constant vector's iterator has up to its end; None for a run-time vector's."""
    pos = start.obj
    return len(pos.seq.values) - pos.index if isinstance(pos, SeqPos) and pos.index is not None else None


def _length(lw: HostLowerer, r: _Range, node: A.Node) -> Val:
    if r.items is not None:
        return Val(C.I64, const=len(r.items))
    assert r.first is not None and r.last is not None
    return lw.arith("-", r.last, r.first, node)


def _fold(lw: HostLowerer, r: _Range, init: Val, step: Callable[[Val, Val], Val], node: A.Node) -> Val:
    """step(acc, element) over a range: unrolled over known elements, else an scf.for carrying acc (a scalar)."""
    if r.items is not None:
        acc = init
        for item in r.items:
            acc = step(acc, item)
        return acc
    assert r.vec is not None and r.first is not None and r.last is not None and isinstance(init.ctype, C.Scalar)
    t = init.ctype
    one = lw.emit(arith.ConstantOp.from_int_and_width(1, IndexType()), node).results[0]
    body = Block(arg_types=[IndexType(), C.scalar_ir_type(t)])
    loop = lw.emit(scf.ForOp(lw.index_value(r.first, node), lw.index_value(r.last, node), one,
                             [lw.ssa(init, node)], body), node)
    with lw.at_end_of(body):
        index = Val(C.I64, lw.emit(arith.IndexCastOp(body.args[0], C.scalar_ir_type(C.I64)), node).results[0])
        item = host_vector.read(lw, Val(ITERATOR_T, obj=r.vec), index, node)
        acc = lw.convert(step(Val(t, body.args[1]), item), t, node)
        lw.emit(scf.YieldOp(lw.ssa(acc, node)), node)
    return Val(t, loop.results[0])


def _same(lw: HostLowerer, a: Val, b: Val, node: A.Node) -> Val:
    return lw.compare("==", lw._enum_as_int(a, node), lw._enum_as_int(b, node), node)


def _equal(lw: HostLowerer, e: A.Call, args: list[Val]) -> Val:
    """`std::equal(first1, last1, first2[, last2])`: whether the ranges hold equal elements (with last2, also
    equally many; without it the second range is taken to be long enough, as C++ requires, except that a
    constant one too short compares unequal)."""
    r1 = _range(lw, args[0], args[1], e)
    start2 = args[2]
    n1 = _length(lw, r1, e)
    same_length = Val(C.BOOL, const=1)
    if len(args) == 4:
        same_length = lw.compare("==", n1, _length(lw, _range(lw, start2, args[3], e), e), e)
    if r1.items is not None:
        result = same_length
        for i, item in enumerate(r1.items):
            other = _element(lw, start2, i, e)
            result = _and(lw, result, Val(C.BOOL, const=0) if other is None else _same(lw, item, other, e), e)
        return result
    bound = _remaining(start2)
    if bound is not None:
        # a run-time range against a constant vector: at most `bound` steps, each counted while i < n1
        result = _and(lw, same_length, lw.compare("<=", n1, Val(C.I64, const=bound), e), e)
        for i in range(bound):
            inside = lw.compare("<", Val(C.I64, const=i), n1, e)
            item = host_vector.read(lw, Val(ITERATOR_T, obj=r1.vec), lw.arith("+", r1.first, Val(C.I64, const=i), e),
                                    e)
            other = _element(lw, start2, i, e)
            assert other is not None
            result = _and(lw, result, _or(lw, lw._not(inside, e), _same(lw, item, other, e), e), e)
        return result
    # two run-time ranges: walk the first, reading the second at the same distance from its start
    assert isinstance(start2.obj, VecPos) and r1.first is not None
    offset = lw.arith("-", start2.obj.index, r1.first, e)
    second = start2.obj.vec
    one = lw.emit(arith.ConstantOp.from_int_and_width(1, IndexType()), e).results[0]
    body = Block(arg_types=[IndexType(), i1])
    loop = lw.emit(scf.ForOp(lw.index_value(r1.first, e), lw.index_value(r1.last, e), one,
                             [lw.ssa(same_length, e)], body), e)
    with lw.at_end_of(body):
        index = Val(C.I64, lw.emit(arith.IndexCastOp(body.args[0], C.scalar_ir_type(C.I64)), e).results[0])
        item = host_vector.read(lw, Val(ITERATOR_T, obj=r1.vec), index, e)
        other = host_vector.read(lw, Val(ITERATOR_T, obj=second), lw.arith("+", index, offset, e), e)
        lw.emit(scf.YieldOp(lw.ssa(_and(lw, Val(C.BOOL, body.args[1]), _same(lw, item, other, e), e), e)), e)
    return Val(C.BOOL, loop.results[0])


def _find(lw: HostLowerer, e: A.Call, args: list[Val], test: Callable[[Val], Val] | None = None) -> Val:
    """`std::find(first, last, x)` over a run-time vector: the position of the first element equal to x, else
    last; with `test`, `std::find_if(first, last, pred)`: of the first element pred holds for."""
    r = _range(lw, args[0], args[1], e)
    if r.vec is None or r.first is None or r.last is None:
        raise Unsupported("std::find over this range is not modelled", e)
    x = args[2]
    one = lw.emit(arith.ConstantOp.from_int_and_width(1, IndexType()), e).results[0]
    i64 = C.scalar_ir_type(C.I64)
    body = Block(arg_types=[IndexType(), i64, i1])
    loop = lw.emit(scf.ForOp(lw.index_value(r.first, e), lw.index_value(r.last, e), one,
                             [lw.ssa(r.last, e), lw.ssa(Val(C.BOOL, const=0), e)], body), e)
    with lw.at_end_of(body):
        index = Val(C.I64, lw.emit(arith.IndexCastOp(body.args[0], i64), e).results[0])
        item = host_vector.read(lw, Val(ITERATOR_T, obj=r.vec), index, e)
        hit = _same(lw, item, x, e) if test is None else test(item)
        first_hit = _and(lw, lw._not(Val(C.BOOL, body.args[2]), e), hit, e)
        at = lw.emit(arith.SelectOp(lw.ssa(first_hit, e), lw.ssa(index, e), body.args[1]), e).results[0]
        found = _or(lw, Val(C.BOOL, body.args[2]), hit, e)
        lw.emit(scf.YieldOp(at, lw.ssa(found, e)), e)
    return Val(ITERATOR_T, obj=VecPos(r.vec, Val(C.I64, loop.results[0])))


def _predicate(lw: HostLowerer, e: A.Call, v: Val) -> Callable[[Val], Val]:
    closure = lambdas.closure_of(v)
    if closure is None:
        raise Unsupported("an algorithm's predicate other than a lambda is not modelled", e)
    return lambda item: lw.to_bool(lambdas.call(lw, closure, [item], e), e)


def algorithm(lw: HostLowerer, e: A.Call, name: str) -> Val:
    """`std::<name>(...)` of ALGORITHMS over vector iterators."""
    args = [lw.expr(a) for a in e.args]
    if name == "equal" and len(args) in (3, 4) and all(is_position(a) for a in args):
        return _equal(lw, e, args)
    if len(args) != 3 or not (is_position(args[0]) and is_position(args[1])):
        raise Unsupported(f"'std::{name}' with these arguments is not modelled by the host lowering", e)
    if name == "find" and isinstance(args[0].obj, SeqPos):
        return host_std.find(lw, e, args)
    if name == "find_if" and isinstance(args[0].obj, SeqPos) and isinstance(args[1].obj, SeqPos):
        # (an array of pairs: the pair found, read through `->`; other ranges are not modelled)
        found = host_pair.find_if(lw, args[0].obj, args[1].obj, _predicate(lw, e, args[2]), e)
        if found is not None:
            return found
    if name == "find_if" and isinstance(args[0].obj, SeqPos):
        return host_std.find(lw, e, args, _predicate(lw, e, args[2]))  # a constant vector: unrolled
    if name == "find_if":
        return _find(lw, e, args, _predicate(lw, e, args[2]))  # `std::find_if(...) != v.end()`
    if name == "find":
        return _find(lw, e, args)
    r = _range(lw, args[0], args[1], e)
    if name == "count":
        return _fold(lw, r, Val(C.I64, const=0), lambda acc, item: lw.arith(
            "+", acc, lw.convert(_same(lw, item, args[2], e), C.I64, e), e), e)
    test = _predicate(lw, e, args[2])
    if name == "any_of":
        return _fold(lw, r, Val(C.BOOL, const=0), lambda acc, item: _or(lw, acc, test(item), e), e)
    every = _fold(lw, r, Val(C.BOOL, const=1), lambda acc, item: _and(
        lw, acc, test(item) if name == "all_of" else lw._not(test(item), e), e), e)
    assert name in ("all_of", "none_of")
    return every

