"""std::vector variables of a host program whose elements its code lists: configuration, lowered as C arrays.

A host program's std:: containers are host data and left out (ascendir/lower/host_program.py): the input arrays
main fills with random numbers and compares with its golden never reach the device. Some vectors hold what the
launch is made of, though: catlass's convolution examples keep their problem shape in an options struct,

    std::vector<uint32_t> fmapRelated = {1, 1, 1, 2, 9, 16};   // defaults, overwritten from argv
    fmapRelated[0] = std::atoi(argv[1]);  ...
    Conv3dParams::MakeConvCoord(options.fmapRelated.data(), ...)   // reads them through a pointer

and the device buffers' sizes and the kernel's parameters come from them. A vector of numbers declared with its
elements listed (`= {...}` or `{...}`: values written in the code, not data drawn or read at run time) is lowered
as the C array of those elements: `v[i]` reads and writes it, `v.data()` is the array (passed where a pointer is
taken), `v.size()` its length and `v.empty()` whether that is 0. Its length is fixed: `push_back`, `resize` and
the other members that change it are not modelled (a gap at the call). Vectors made with a count (`v(n)`), and
those of other element types, stay host data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ascendir.lower import ctypes as C
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer

_READS = frozenset({"data", "size", "empty"})


def listed_elements(d: A.Declarator) -> list[A.Node] | None:
    """The elements `std::vector<T> v = {a, b}` / `v{a, b}` lists; None for any other declarator."""
    if isinstance(d.init, A.InitList) and d.init.items:
        return list(d.init.items)
    return None


def _element_type(lw: FunctionLowerer, t: A.TypeRef) -> C.Scalar | None:
    """T of `std::vector<T>` written as such, when T is a number type; None otherwise."""
    base = t.base
    if isinstance(base, str) or t.pointers or [p.name for p in base.parts] != ["std", "vector"]:
        return None
    targs = base.parts[-1].template_args
    if not targs or len(targs) != 1:
        return None
    try:
        elem = lw._template_arg_value(targs[0])
    except Unsupported:
        return None
    return elem if isinstance(elem, C.Scalar) else None


def declare(lw: FunctionLowerer, d: A.Declarator, name: str) -> object | None:
    """The array a listed vector of numbers is lowered as (a Cell, as a C array's), its elements stored; None
    when `d` declares no such vector (it stays host data)."""
    items = listed_elements(d)
    elem = _element_type(lw, d.type) if items is not None else None
    if items is None or elem is None:
        return None
    t = C.ArrayT(elem, len(items))
    return lw.new_array(t, name, d, lw.init_list(t, items, d))


def method(lw: FunctionLowerer, e: A.Call, name: str, recv: Val) -> Val | None:
    """`v.data()`, `v.size()`, `v.empty()` of such a vector (a one-dimensional array of numbers); None for any
    other call."""
    t = recv.ctype
    if not (isinstance(t, C.ArrayT) and isinstance(t.elem, C.Scalar)):
        return None
    if name in _READS and e.args:
        return None
    if name == "data":
        return recv  # the array, which decays into a pointer to its first element where one is taken
    if name == "size":
        return Val(C.U64, const=t.size)
    if name == "empty":
        return Val(C.BOOL, const=int(t.size == 0))
    if name in ("push_back", "emplace_back", "resize", "clear", "insert", "erase", "pop_back", "assign"):
        from ascendir.lower.host_program import gap

        raise gap(lw, f"'{name}' of a std::vector lowered as the array of the elements it lists: its length is "
                  "fixed here, so what main computes from it would be wrong", e)
    return None
