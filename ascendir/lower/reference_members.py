"""A member of a parameter struct passed to a non-const reference parameter: the callee's writes reach it.

`SetLoopInfo(paramsMain.loopInfo, paramsTail.loopInfo)` with `void SetLoopInfo(MultiCopyLoopInfo<8>& loopInfo, ...)`
(ops-math slice_nddma.h, strided_slice_nddma*.h): the lowering holds a catalogued struct as a value, and
`params.loopInfo` read as an argument is a copy of the member. The callee's parameter, a cell of its own when its
body writes it, took that copy and its arrays (passes/sim/struct_arrays.py), so the writes never reached `params`:
its DataCopy moved nothing, silently. C++ binds the reference to the member itself ([dcl.init.ref]/5). Here the
parameter keeps its own cell while the body runs, and when the call returns its final value is stored back into
the member (a struct_set on the variable's cell, which copies the arrays in): the same as the binding, unless the
body also reads the variable through another name while it runs. The variable is a local or parameter (`p.m`), or
a member of the object whose method this is (`p_.m`, `this->p_.m`); other forms (`a.b.m`, `q->m`) are reported
where they are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr

from ascendir.dialects import ascendc as asc
from ascendir.lower import ctypes as C
from ascendir.lower.ast_queries import non_const_reference
from ascendir.lower.values import Cell, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


@dataclass
class Place:
    """A call's argument `root.member` bound to the parameter `param`; `cell` is the parameter's own cell, once
    the callee made one (None: the body never writes it)."""

    param: str
    root: str
    member: str
    cell: Cell | None = None
    via_this: bool = False  # `this->root.member`: root is the object's member whatever a local of that name is


def places(lw: FunctionLowerer, fn: A.FunctionDecl, call: A.Node) -> list[Place]:
    """The arguments of `call` that name a struct member of a catalogued parameter struct variable and go to a
    non-const reference parameter of `fn`. Their variables get a cell now (in the scope that declares them), as
    an out-parameter's does, so that the member can be stored back."""
    if not isinstance(call, A.Call):
        return []
    found: list[Place] = []
    for p, a in zip(fn.params, call.args):
        if p.name is None or not non_const_reference(p) or not isinstance(a, A.Member) or a.arrow:
            continue
        if isinstance(a.obj, A.Name) and len(a.obj.qname.parts) == 1:
            root, via_this = a.obj.qname.parts[0].name, False
        elif isinstance(a.obj, A.Member) and a.obj.arrow and isinstance(a.obj.obj, A.This):
            root, via_this = a.obj.member, True  # `this->params.loopInfo`: as `params.loopInfo` in a method
        else:
            continue
        bound = _bound(lw, root, via_this)
        if not isinstance(bound, Val | Cell) or not isinstance(bound.ctype, C.StructT) \
                or lw._struct_struct_member(bound.ctype.name, a.member) is None:
            continue
        if isinstance(bound, Val):
            this = lw.frame.this
            held = (this.hidden if root in this.hidden else this.members) if via_this and this is not None else \
                next((s for s in reversed(lw.frame.scopes) if s.get(root) is bound), None)
            if held is None:
                continue
            held[root] = lw.new_cell(bound.ctype, root, call, bound)
        found.append(Place(p.name, root, a.member, via_this=via_this))
    return found


def _bound(lw: FunctionLowerer, root: str, via_this: bool) -> object:
    """What `root` names: the object's member of that name for `this->root`, else the innermost declaration."""
    if not via_this:
        return lw.lookup(root)
    this = lw.frame.this if lw.frames else None
    return this.member(root) if this is not None else None


def write_back(lw: FunctionLowerer, found: list[Place], node: A.Node) -> None:
    """After the call: each parameter's final value into its member (`root.member = param`)."""
    for place in found:
        root = _bound(lw, place.root, place.via_this)
        if place.cell is None or not isinstance(root, Cell) or not isinstance(root.ctype, C.StructT):
            continue
        value = lw.ssa(lw.load(place.cell, node), node)
        whole = lw.ssa(lw.load(root, node), node)
        op = asc.StructSetOp.create(operands=[whole, value], properties={"field": StringAttr(place.member)},
                                    result_types=[whole.type])
        lw.store(root, Val(root.ctype, lw.emit(op, node).results[0]), node)
