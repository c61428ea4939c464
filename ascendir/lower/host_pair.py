"""`std::pair` in host tiling functions: a pair of values, and a local array of pairs walked with a range-for.

Vendor shape checks keep a small table of (name, value) pairs and check each value in a loop (ops-nn
deep_norm):

    const std::pair<const char*, ge::DataType> others[] = {{"gx", gxDesc->GetDataType()}, {"y", ...}};
    for (const auto& item : others) { OP_CHECK_IF(item.second != xDtype, ..., return ge::GRAPH_FAILED); }
    std::pair<uint32_t, uint32_t> range = {lo, hi};   // range.first, range.second

A pair is its two values (read where it is written); an array of pairs is its list of pairs, known where it
is declared, so a range-for over it is unrolled (host_init_list). Reading `first` / `second` is modelled;
assigning to them, indexing the array or taking its address are not (reported where they occur).

A `std::array<std::pair<A, B>, N>` is such an array too (ops-math erf's table of tile sizes by input size,
searched for the first entry whose bound holds):

    constexpr std::array<std::pair<uint32_t, uint32_t>, 5> thresholdMap = {{{T1, N1}, ..., {UINT32_MAX, N5}}};
    auto it = std::find_if(thresholdMap.begin(), thresholdMap.end(), [n](const auto& p) { return n <= p.first; });
    uint32_t tile = it->second;

Its begin() / end() are positions in its list (host_std.SeqPos), and std::find_if over them (the predicate a
lambda, run on each pair) is the pair it found: each member a selection by the predicates' results, the first hit
winning; 0 when none holds (dereferencing end() is undefined in C++). Comparing that iterator is not modelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C, host_select
from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HostT
from ascendir.lower.host_std import ConstSeq, SeqPos
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


@dataclass(frozen=True)
class Pair:
    first: Val
    second: Val


@dataclass(frozen=True)
class FoundPair(Pair):
    """What std::find_if over an array of pairs returned, read through `->`: the found pair's members."""

    found: Val


@dataclass(frozen=True)
class PairArray:
    """A C array of std::pair, its elements read where it was declared."""

    pairs: tuple[Val, ...]


def _is_pair_name(base: object) -> bool:
    parts = getattr(base, "parts", None)
    if not parts:
        return False
    last = parts[-1]
    return last.name == "pair" and len(last.template_args or ()) == 2


def _is_pair_array_name(base: object) -> bool:
    """`std::array<std::pair<A, B>, N>`."""
    parts = getattr(base, "parts", None)
    if not parts or parts[-1].name != "array" or len(parts[-1].template_args or ()) != 2:
        return False
    elem = getattr(parts[-1].template_args[0], "value", None)
    return isinstance(elem, A.TypeRef) and not elem.pointers and _is_pair_name(elem.base)


def declares_pair(d: A.Node) -> bool:
    """Whether `d` declares a std::pair object or an array of them (by its written type)."""
    return isinstance(d, A.Declarator) and not d.type.pointers and (
        len(d.type.array_dims) <= 1 and _is_pair_name(d.type.base)
        or not d.type.array_dims and _is_pair_array_name(d.type.base))


def is_pair_value(v: Val | None) -> bool:
    return v is not None and isinstance(v.obj, Pair | PairArray)


def make_pair(lw: HostLowerer, items: list[A.Node], node: A.Node) -> Val:
    """`{a, b}` for a std::pair: both values read now."""
    if len(items) == 1 and isinstance(items[0], A.InitList):
        items = items[0].items
    if len(items) != 2:
        raise Unsupported(f"a std::pair initialised from {len(items)} values is not modelled", node)
    return Val(HostT("unmodelled", "pair"), obj=Pair(lw.expr(items[0]), lw.expr(items[1])))


def declare(lw: HostLowerer, d: A.Declarator) -> Val:
    """The value of a declared pair (`p = {a, b}`, `p{a, b}`, `p(a, b)`) or array of pairs
    (`a[] = {{..}, ..}`)."""
    is_array = bool(d.type.array_dims) or _is_pair_array_name(d.type.base)
    items = list(d.init.items) if isinstance(d.init, A.InitList) else list(d.ctor_args or [])
    if not d.type.array_dims and is_array and len(items) == 1 and isinstance(items[0], A.InitList) and \
            all(isinstance(i, A.InitList) for i in items[0].items):
        items = list(items[0].items)  # `= {{{a, b}, ...}}`: the std::array aggregate's braces around its C array
    if d.init is not None and not isinstance(d.init, A.InitList):
        if is_array:
            raise Unsupported("an array of std::pair not initialised from a braced list is not modelled", d)
        v = lw.expr(d.init)
        if not is_pair_value(v):
            raise Unsupported("a std::pair initialised from this expression is not modelled", d)
        return v
    if not is_array:
        return make_pair(lw, items, d)
    pairs = []
    for item in items:
        if not isinstance(item, A.InitList):
            raise Unsupported("an element of an array of std::pair other than {first, second} is not "
                              "modelled", item)
        pairs.append(make_pair(lw, list(item.items), item))
    return Val(HostT("unmodelled", "pair[]"), obj=PairArray(tuple(pairs)))


def elements(v: Val) -> list[Val] | None:
    return list(v.obj.pairs) if isinstance(v.obj, PairArray) else None


def member(obj: Val, name: str, node: A.Node) -> Val:
    """`p.first` / `p.second`."""
    if not isinstance(obj.obj, Pair) or name not in ("first", "second"):
        what = "an array of std::pair" if isinstance(obj.obj, PairArray) else "a std::pair"
        raise Unsupported(f"member '{name}' of {what} is not modelled", node)
    return obj.obj.first if name == "first" else obj.obj.second


def array_method(e: A.Call, name: str, v: Val) -> Val | None:
    """`begin()` / `end()` / `size()` of an array of pairs (a std::array of them); None for another member."""
    if not isinstance(v.obj, PairArray) or e.args or name not in ("begin", "end", "cbegin", "cend", "size"):
        return None
    if name == "size":
        return Val(C.U64, const=len(v.obj.pairs))
    seq = ConstSeq(v.obj.pairs)
    return Val(v.ctype, obj=SeqPos(seq, 0 if name in ("begin", "cbegin") else len(seq.values)))


def find_if(lw: HostLowerer, first: SeqPos, last: SeqPos, test: Callable[[Val], Val], node: A.Node) -> Val | None:
    """`std::find_if(first, last, pred)` over the pairs of an array (None when the range holds other things): the
    found pair, each member the value of the first pair whose predicate holds (selected from the last back)."""
    if first.seq != last.seq or first.index is None or last.index is None:
        return None
    pairs = first.seq.values[first.index:last.index]
    if not all(isinstance(p.obj, Pair) for p in pairs):
        return None
    hits = [lw.to_bool(test(p), node) for p in pairs]  # (every predicate runs, in order: they have no effects)
    a, b = _common([p.obj.first for p in pairs], node), _common([p.obj.second for p in pairs], node)
    firsts, seconds, found = Val(a, const=0), Val(b, const=0), Val(C.BOOL, const=0)
    for p, hit in reversed(list(zip(pairs, hits))):
        firsts = host_select.select(lw, hit, lw.convert(p.obj.first, a, node), firsts, node)
        seconds = host_select.select(lw, hit, lw.convert(p.obj.second, b, node), seconds, node)
        found = host_select.select(lw, hit, Val(C.BOOL, const=1), found, node)
    return Val(HostT("unmodelled", "pair iterator"), obj=FoundPair(firsts, seconds, found))


def _common(values: list[Val], node: A.Node) -> C.Scalar:
    types = [v.ctype for v in values]
    if not types or not all(isinstance(t, C.Scalar) for t in types):
        raise Unsupported("std::find_if over pairs of other than numbers is not modelled", node)
    t = types[0]
    for other in types[1:]:
        t = C.common_type(t, other)
    return t
