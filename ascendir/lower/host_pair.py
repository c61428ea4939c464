"""`std::pair` in host tiling functions: a pair of values, and a local array of pairs walked with a range-for.

Vendor shape checks keep a small table of (name, value) pairs and check each value in a loop (ops-nn
deep_norm):

    const std::pair<const char*, ge::DataType> others[] = {{"gx", gxDesc->GetDataType()}, {"y", ...}};
    for (const auto& item : others) { OP_CHECK_IF(item.second != xDtype, ..., return ge::GRAPH_FAILED); }
    std::pair<uint32_t, uint32_t> range = {lo, hi};   // range.first, range.second

A pair is its two values (read where it is written); an array of pairs is its list of pairs, known where it
is declared, so a range-for over it is unrolled (host_init_list). Reading `first` / `second` is modelled;
assigning to them, indexing the array or taking its address are not (reported where they occur).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendir.lower.function import Unsupported
from ascendir.lower.host_handles import HostT
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.host import HostLowerer


@dataclass(frozen=True)
class Pair:
    first: Val
    second: Val


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


def declares_pair(d: A.Node) -> bool:
    """Whether `d` declares a std::pair object or an array of them (by its written type)."""
    return isinstance(d, A.Declarator) and not d.type.pointers and len(d.type.array_dims) <= 1 and \
        _is_pair_name(d.type.base)


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
    is_array = bool(d.type.array_dims)
    items = list(d.init.items) if isinstance(d.init, A.InitList) else list(d.ctor_args or [])
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
