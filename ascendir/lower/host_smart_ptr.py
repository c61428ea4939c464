"""Owning smart pointers in host tiling code, and the `try` that guards their allocation.

Vendor tiling classes keep their working values in a plain struct held through a smart pointer:

    std::unique_ptr<XTilingCalculationParameters> tilingParams;          // a class member
    try {
        tilingParams = std::make_unique<XTilingCalculationParameters>();
    } catch (const std::bad_alloc& e) {
        return ge::GRAPH_FAILED;
    }
    OP_TILING_CHECK(tilingParams == nullptr, ..., return ge::GRAPH_FAILED);
    tilingParams->n = shape.GetDim(0);                                   // later, in other methods

`std::unique_ptr<T>` / `std::shared_ptr<T>` of a plain struct `T` is modelled as a pointer to an object of
`T`, as `T *p = &obj;` is: `std::make_unique<T>(args...)` / `std::make_shared<T>(args...)` make a new object
(members initialised as declared, then the constructor for `args`) and `p->member` reads and writes it. A
pointer that holds no object yet reads as an unmodelled value, so a use before the allocation is still
reported. The comparison with `nullptr` after the allocation is false (an allocation here never fails).

`try { body } catch (...) { handler }`: the host model throws no C++ exception (an allocation does not fail,
the library calls it models return their errors), so the body runs as a plain block and no handler runs.
A body that throws itself (`throw` inside it) is not modelled: which handler takes it is not followed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.builder import Builder, InsertPoint

from ascendir.lower import ctypes as C
from ascendir.lower.function import Unsupported
from ascendir.lower.values import Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.ctypes import CType
    from ascendir.lower.host import HostLowerer

# the library class templates modelled as pointers, and the functions that allocate their object
SMART_POINTERS = frozenset({"unique_ptr", "shared_ptr"})
MAKERS = frozenset({"make_unique", "make_shared"})


def pointer_type(lw: HostLowerer, targs: list[A.TemplateArg] | None) -> CType | None:
    """`std::unique_ptr<T>` as `T *` when `T` is a plain struct of the program; None for anything else (the
    smart pointer stays an unmodelled library object)."""
    pointee = _pointee(lw, targs)
    return C.Pointer(pointee) if pointee is not None else None


def _pointee(lw: HostLowerer, targs: list[A.TemplateArg] | None) -> C.ClassT | None:
    if not targs or len(targs) != 1:
        return None
    t = lw._template_arg_value(targs[0])
    if not isinstance(t, C.ClassT) or t.name not in lw.scope.classes:
        return None
    return t


def make(lw: HostLowerer, e: A.Call, name: str, targs: list[A.TemplateArg] | None) -> Val:
    """`std::make_unique<T>(args...)`: a pointer to a new object of `T`."""
    t = _pointee(lw, targs)
    if t is None:
        raise Unsupported(f"std::{name} of anything but a struct of the program is not modelled", e)
    return _allocate(lw, t, [lw.expr(a) for a in e.args], name, e)


def new_object(lw: HostLowerer, e: A.New) -> Val:
    """`new T(args...)` of a class of the program (`new XTiling(context)` whose DoTiling the tiling function then
    calls through the pointer): a pointer to a new object, as make_unique's; `delete` of it does nothing."""
    t = lw.resolve_type(e.type, e)
    if not isinstance(t, C.ClassT) or t.name not in lw.scope.classes:
        raise Unsupported("new of anything but an array of numbers or an object of a class of the program is not "
                          "modelled by the host lowering", e)
    return _allocate(lw, t, [lw.expr(a) for a in e.args], "new", e)


def _allocate(lw: HostLowerer, t: C.ClassT, args: list[Val], name: str, e: A.Node) -> Val:
    lw._temps += 1
    label = f"__{name}{lw._temps}"
    if args or lw._entry_block is None:
        inst = lw.instantiate(t, label, e, args)
    else:
        # made in the function's entry block, so that its members are in scope wherever the pointer is read
        # (the allocation is often under an `if` or in a helper whose tail an early return put in a region)
        saved = lw.builder
        first = lw._entry_block.first_op
        lw.builder = Builder(InsertPoint.before(first) if first is not None else InsertPoint.at_end(lw._entry_block))
        try:
            inst = lw.instantiate(t, label, e, args)
        finally:
            lw.builder = saved
    return Val(C.Pointer(t), obj=inst)


def is_object_pointer(v: Val) -> bool:
    """A pointer to an object the lowering holds (what `make` returns, or `&obj`)."""
    return isinstance(v.ctype, C.Pointer) and isinstance(v.obj, Instance)


def lower_try(lw: HostLowerer, st: A.Try) -> None:
    """The body of `try { ... } catch ...` as a plain block; the handlers never run (see the module's doc)."""
    if any(isinstance(node, A.Throw) for node in st.body.walk()):
        raise Unsupported("a try block that throws is not modelled (which handler takes the exception)", st)
    lw.lower_block(st.body)
