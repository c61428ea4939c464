"""Standard-library tables in host tiling functions: a `std::map` / `std::unordered_map` built from a list, a
`std::set` / `std::unordered_set` of constants, and a namespace-scope `std::vector` of constants searched with
`std::find`.

Vendor tiling code keeps small lookup tables keyed by a dtype or a mode:

    static const std::map<ge::DataType, int32_t> BUF_CNT = {{ge::DT_BF16, 6}, {ge::DT_FLOAT16, 6}, {ge::DT_FLOAT, 4}};
    const auto iter = BUF_CNT.find(dtype);            // iter->second, iter == BUF_CNT.end()
    compileInfo.inputDataByte = typeLen[dtype];       // operator[]
    if (BUF_CNT.count(dtype) == 0) { ... }
    const std::set<ge::DataType> supportedDtype = {ge::DT_FLOAT, ge::DT_FLOAT16};
    if (supportedDtype.count(dataType) == 0) { ... }  // a set is the table of its keys, each its own value

    static const std::vector<ge::DataType> X_DTYPES = {ge::DT_FLOAT16, ge::DT_FLOAT};
    if (std::find(X_DTYPES.begin(), X_DTYPES.end(), dtype) == X_DTYPES.end()) { ... }

A table whose entries are compile-time constants is modelled where it is read: a lookup is a chain of
comparisons of the key against each entry's key and a selection of the value, so the evaluator runs it for the
case's dtype. Only reads are modelled (`find`, `at`, `operator[]`, `count`, `contains`, `size`, `empty`, `end`);
any call that changes the table (`insert`, `emplace`, `erase`, an assignment through `operator[]`) is reported as
not modelled. Dereferencing `find`'s end iterator, or `operator[]` of a key not in the table (which would insert
a value-initialised entry), reads 0 here; `at` of a missing key throws std::out_of_range in C++, which the host
lowering reports as a gap only when the key is a constant (a runtime key falls back to 0 as well).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C
from ascendir.lower.ctypes import Scalar
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer

# the library class names (unqualified) whose objects this module models
MAP_TYPES = frozenset({"map", "unordered_map"})
SET_TYPES = frozenset({"set", "unordered_set"})

# member functions that change a table: reported, never run
_WRITERS = frozenset({"insert", "emplace", "emplace_hint", "erase", "clear", "swap", "try_emplace",
                      "insert_or_assign", "merge", "extract"})


@dataclass(frozen=True)
class ConstMap:
    """A table of constant entries, in the order written (std::map's order does not matter to lookups)."""

    entries: tuple[tuple[Val, Val], ...]
    value_type: Scalar
    keys_only: bool = False  # a std::set: each entry its key twice, and `*iter` the key (deref)


@dataclass(frozen=True)
class MapIter:
    """What `table.find(key)` or `table.end()` returned: whether it points at an entry, and that entry."""

    table: ConstMap
    found: Val  # bool; const 0 for end()
    key: Val | None = None
    value: Val | None = None


@dataclass(frozen=True)
class ConstSeq:
    """A namespace-scope std::vector initialised from a list of constants and only read."""

    values: tuple[Val, ...]  # numbers, or (a vector of vectors) Vals holding a ConstSeq each


@dataclass(frozen=True)
class SeqPos:
    """An iterator into a ConstSeq: `begin()` (0), `end()` (len), or what std::find returned (`found` says
    whether it is not end())."""

    seq: ConstSeq
    index: int | None
    found: Val | None = None


def is_model(v: Val) -> bool:
    return isinstance(v.obj, ConstMap | MapIter | ConstSeq | SeqPos)


def make_seq(lw: HostLowerer, t: object, items: Sequence[A.Node], node: A.Node) -> Val:
    """`static const std::vector<T> v = {a, b, c};` of compile-time numbers (enumerators included); a vector of
    such vectors (`{{a, b}, {c, d}}`) holds one ConstSeq per row."""
    values = []
    for item in items:
        if isinstance(item, A.InitList):
            values.append(make_seq(lw, t, item.items, item))
            continue
        v = lw.expr(item)
        if isinstance(v.ctype, C.EnumT) and isinstance(v.const, int):
            v = Val(C.I32, const=v.const)
        if not isinstance(v.ctype, Scalar) or not isinstance(v.const, int | float):
            raise Unsupported("a std::vector whose items are not compile-time numbers is not modelled here", item)
        values.append(v)
    return Val(t, obj=ConstSeq(tuple(values)))  # type: ignore[arg-type]


def find(lw: HostLowerer, e: A.Call, args: Sequence[Val], test: Callable[[Val], Val] | None = None) -> Val:
    """`std::find(v.begin(), v.end(), x)` over a ConstSeq (`args`, the call's arguments lowered): an iterator
    that is end() when no item equals x; with `test`, `std::find_if(v.begin(), v.end(), pred)`: end() when pred
    holds for none."""
    first, last = args[0], args[1]
    if not (isinstance(first.obj, SeqPos) and isinstance(last.obj, SeqPos) and first.obj.seq == last.obj.seq
            and first.obj.index is not None and last.obj.index is not None):
        raise Unsupported("std::find is modelled over begin()..end() of a constant std::vector only", e)
    key = lw._enum_as_int(args[2], e) if test is None else None
    found = Val(C.BOOL, const=0)
    for item in first.obj.seq.values[first.obj.index:last.obj.index]:
        hit = lw.compare("==", key, item, e) if key is not None else test(item)  # type: ignore[misc]
        found = hit if found.const == 0 else found if hit.const == 0 else Val(C.BOOL, lw.emit(
            arith.SelectOp(lw.ssa(hit, e), lw.ssa(Val(C.BOOL, const=1), e), lw.ssa(found, e)), e).results[0])
    return Val(first.ctype, obj=SeqPos(first.obj.seq, None, found))


def _seq_method(lw: HostLowerer, e: A.Call, name: str, recv: Val) -> Val:
    seq = recv.obj
    assert isinstance(seq, ConstSeq)
    if name in ("begin", "cbegin") and not e.args:
        return Val(recv.ctype, obj=SeqPos(seq, 0))
    if name in ("end", "cend") and not e.args:
        return Val(recv.ctype, obj=SeqPos(seq, len(seq.values)))
    if name == "size" and not e.args:
        return Val(C.U64, const=len(seq.values))
    if name == "empty" and not e.args:
        return Val(C.BOOL, const=int(not seq.values))
    if name == "at" and len(e.args) == 1:
        # `CALC_ND_BASIC.at(1)` (ops-nn mat_mul_v3's tiling): the item, as `[]` reads it; an index known to be
        # past the end (where at() throws std::out_of_range) is a gap there
        from ascendir.lower import host_vector_table  # (it builds on this module)

        return host_vector_table.seq_index(lw, recv, lw.expr(e.args[0]), e)
    if name in ("front", "back") and not e.args and seq.values:
        return seq.values[0 if name == "front" else -1]
    raise Unsupported(f"std::vector::{name} is not modelled on a constant vector", e)


def make_map(lw: HostLowerer, t: object, items: Sequence[A.Node], node: A.Node) -> Val:
    """`std::map<K, V> m = {{k0, v0}, {k1, v1}}` (or `m{...}`, `m({...})`): the table of constant entries."""
    if len(items) == 1 and isinstance(items[0], A.InitList) and all(
            isinstance(i, A.InitList) for i in items[0].items):
        items = items[0].items  # `m({{k, v}, ...})`
    entries: list[tuple[Val, Val]] = []
    for item in items:
        pair = item.items if isinstance(item, A.InitList) else None
        if pair is None or len(pair) != 2:
            raise Unsupported("a std::map entry other than {key, value} is not modelled", item)
        key, value = lw.expr(pair[0]), lw.expr(pair[1])
        if isinstance(key.ctype, C.EnumT) and isinstance(key.const, int):
            key = Val(C.I32, const=key.const)
        if not all(isinstance(v.ctype, Scalar) and isinstance(v.const, int | float) for v in (key, value)):
            raise Unsupported("a std::map whose keys and values are not compile-time numbers is not modelled", item)
        entries.append((key, value))
    if not entries:
        raise Unsupported("an empty std::map (filled later) is not modelled", node)
    value_type = entries[0][1].ctype
    for _, value in entries[1:]:
        value_type = C.common_type(value_type, value.ctype)  # type: ignore[arg-type]
    return Val(t, obj=ConstMap(tuple(entries), value_type))  # type: ignore[arg-type]


def make_set(lw: HostLowerer, t: object, items: Sequence[A.Node], node: A.Node) -> Val:
    """`std::set<K> s = {k0, k1}` of constants (ops-math dot_v2's supported dtypes, read with `count`): a table
    whose entries are the keys, each its own value, so that `count`, `find`, `contains`, `end`, `size` read it as
    a map's and `*s.find(k)` is the key."""
    if len(items) == 1 and isinstance(items[0], A.InitList):
        items = items[0].items  # `s({k, ...})`
    keys = []
    for item in items:
        key = lw.expr(item)
        if isinstance(key.ctype, C.EnumT) and isinstance(key.const, int):
            key = Val(C.I32, const=key.const)
        if not isinstance(key.ctype, Scalar) or not isinstance(key.const, int | float):
            raise Unsupported("a std::set whose items are not compile-time numbers is not modelled", item)
        keys.append(key)
    if not keys:
        raise Unsupported("an empty std::set (filled later) is not modelled", node)
    value_type = keys[0].ctype
    for key in keys[1:]:
        value_type = C.common_type(value_type, key.ctype)  # type: ignore[arg-type]
    return Val(t, obj=ConstMap(tuple((k, k) for k in keys), value_type, keys_only=True))  # type: ignore[arg-type]


def _lookup(lw: HostLowerer, table: ConstMap, key: Val, node: A.Node) -> tuple[Val, Val]:
    """(found, value) for `key`: the value of the first entry whose key equals it, else 0."""
    key = lw._enum_as_int(key, node)
    if not isinstance(key.ctype, Scalar):
        raise Unsupported(f"a std::map key of type {key.ctype} is not modelled", node)
    found = Val(C.BOOL, const=0)
    value = Val(table.value_type, const=0)
    for k, v in reversed(table.entries):  # the first matching entry wins: select it last
        hit = lw.compare("==", key, k, node)
        v = lw.convert(v, table.value_type, node)
        if hit.const is not None:
            if hit.const:
                found, value = Val(C.BOOL, const=1), v
            continue
        hit_ssa = lw.ssa(hit, node)
        value = Val(table.value_type, lw.emit(arith.SelectOp(hit_ssa, lw.ssa(v, node), lw.ssa(value, node)),
                                              node).results[0])
        found = Val(C.BOOL, lw.emit(arith.SelectOp(hit_ssa, lw.ssa(Val(C.BOOL, const=1), node),
                                                   lw.ssa(found, node)), node).results[0])
    return found, value


def method(lw: HostLowerer, e: A.Call, name: str, recv: Val) -> Val:
    """A member function called on a table or an iterator into one."""
    if isinstance(recv.obj, ConstSeq):
        return _seq_method(lw, e, name, recv)
    if isinstance(recv.obj, MapIter | SeqPos):
        raise Unsupported(f"'{name}' on a std::map iterator is not modelled", e)
    table = recv.obj
    assert isinstance(table, ConstMap)
    if name in _WRITERS:
        raise Unsupported(f"std::map::{name} (a table changed at run time) is not modelled", e)
    if name in ("size", "empty") and not e.args:
        n = len({k.const for k, _ in table.entries})
        return Val(C.U64, const=n) if name == "size" else Val(C.BOOL, const=int(n == 0))
    if name == "end" and not e.args:
        return Val(recv.ctype, obj=MapIter(table, Val(C.BOOL, const=0)))
    if len(e.args) != 1 or name not in ("find", "at", "count", "contains"):
        raise Unsupported(f"std::map::{name} is not modelled", e)
    key = lw.expr(e.args[0])
    found, value = _lookup(lw, table, key, e)
    if name == "find":
        return Val(recv.ctype, obj=MapIter(table, found, key, value))
    if name == "count":
        return lw.convert(found, C.U64, e)
    if name == "contains":
        return found
    if found.const == 0:
        raise Unsupported("std::map::at of a key the table does not hold throws std::out_of_range", e)
    return value


def deref(v: Val) -> Val | None:
    """`*iter` of a std::set lookup that found its key: the key; None for anything else (a map's `*iter` is the
    entry, read through `.first` / `.second`)."""
    it = v.obj
    if isinstance(it, MapIter) and it.table.keys_only and it.value is not None:
        return it.value
    return None


def index(lw: HostLowerer, recv: Val, key: Val, node: A.Node) -> Val:
    """`table[key]` read: the entry's value (0 for a missing key, which C++ would insert)."""
    if not isinstance(recv.obj, ConstMap):
        raise Unsupported("indexing a std::map iterator is not modelled", node)
    return _lookup(lw, recv.obj, key, node)[1]


def member(lw: HostLowerer, obj: Val, name: str, node: A.Node) -> Val:
    """`iter->first` / `iter->second` (also through `(*iter).second`)."""
    it = obj.obj
    if not isinstance(it, MapIter) or it.value is None or name not in ("first", "second"):
        raise Unsupported(f"member '{name}' of a std::map object is not modelled", node)
    return it.key if name == "first" else it.value  # type: ignore[return-value]


def compare(lw: HostLowerer, op: str, a: Val, b: Val, node: A.Node) -> Val:
    """`iter == table.end()` / `!=`: whether the lookup missed (or hit); two lookups are not compared."""
    if isinstance(a.obj, SeqPos) and isinstance(b.obj, SeqPos) and a.obj.seq == b.obj.seq:
        end, it = (a.obj, b.obj) if a.obj.found is None else (b.obj, a.obj)
        if op in ("==", "!=") and it.found is not None and end.index == len(end.seq.values):
            return lw._not(it.found, node) if op == "==" else it.found
        raise Unsupported(f"operator '{op}' on these std::vector iterators is not modelled", node)
    if op not in ("==", "!=") or not isinstance(a.obj, MapIter) or not isinstance(b.obj, MapIter):
        raise Unsupported(f"operator '{op}' on std::map objects is not modelled", node)
    end, it = (a.obj, b.obj) if a.obj.value is None else (b.obj, a.obj)
    if end.value is not None or end.table is not it.table and end.table != it.table:
        raise Unsupported("comparing two std::map lookups is not modelled (only against end())", node)
    missed = lw._not(it.found, node)
    return missed if op == "==" else it.found
