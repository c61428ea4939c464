"""A local union of numbers: one storage whose members alias, read for reinterpreting bits.

ops-nn's nll_loss converts between float and its bits with an anonymous union (`union { float f; uint32_t u; }
c; c.f = f; uint32_t bits = c.u;`). C++ makes reading a member other than the one last written undefined
([class.union]/2 allows only one active member), but the compilers the vendor builds kernels with (bisheng, on
clang) define it as GCC and clang document it: the read takes the object representation, the bytes the write left
([basic.types.general]/4, little-endian on the NPU's scalar unit as on the host). So the union here is one 64-bit
storage cell: writing a member stores its bits (a float's as the integer of its width) into the low bytes, the
other bytes kept; reading a member takes its width of the low bytes, as that member's type.

A class's data member of a named union type is such a storage too (lower_objects.instantiate, `of_type`). A copy
of a union is a storage of its own holding the same bytes ([class.copy.ctor]/15: `Word b = a;`, `auto b = a;`,
`b = a;`, a parameter taken by value, the member of a copied object: object_copy.py); a reference (`Word &r = a;`)
or a pointer (`Word *p = &a;`, a `Word *` parameter) is the union itself. The address of a member (`uint32_t *p =
&c.u;`) is reported where taken (a pointer into the cell's bytes is not modelled). Only unions whose members are all numbers
are modelled so; any other (an array member, a class member, a method) keeps the gap it was: the variable exists,
and a read or write of its members is reported where it runs (ASC958).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import arith

from ascendir.lower import ctypes as C, object_layout
from ascendir.lower.errors import Unsupported
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A

if TYPE_CHECKING:
    from ascendir.lower.function import FunctionLowerer


@dataclass(eq=False)
class UnionObject:
    """A union variable: its storage (the low bytes hold what the last write left) and its members' types."""

    storage: Cell
    members: dict[str, C.Scalar]

    @property
    def bits(self) -> int:
        return max(t.bits for t in self.members.values())


def declare(lw: FunctionLowerer, decl: A.ClassDecl, d: A.Declarator) -> Val | None:
    """The variable `d` of union `decl`, where its members are all numbers; None for another union (or a
    struct or class). Initialised by a brace list of one value, or by a copy of another such union."""
    if decl.key != "union" or d.type.array_dims or d.type.pointers and (
            d.type.pointers != ["&"] or not isinstance(d.init, A.Node) or isinstance(d.init, A.InitList)):
        return None
    members: dict[str, C.Scalar] = {}
    for m in decl.members:
        if isinstance(m, A.VarDecl) and "static" not in m.specifiers:
            for field in m.declarators:
                t = lw.resolve_type(field.type, field)
                if not isinstance(t, C.Scalar) or t.bits > 64 or field.type.pointers or field.type.array_dims:
                    return None
                members[field.name] = t
        elif not isinstance(m, A.AccessSpec):
            return None  # (a method, a nested type, a constructor: not a plain union of numbers)
    if not members:
        return None
    if d.type.pointers:  # `Word &r = a;`: the union a names itself
        source = lw.expr(d.init)  # type: ignore[arg-type]
        if not isinstance(source.obj, UnionObject):
            raise Unsupported(f"reference '{d.name}' to a union bound to a {source.ctype} value", d)
        return source
    union = UnionObject(lw.new_cell(C.U64, d.name, d), members)
    if d.init is not None and not isinstance(d.init, A.InitList):
        source = lw.expr(d.init)  # `Word w = other;`: the same bytes ([class.copy.ctor]/15 copies the object)
        if not isinstance(source.obj, UnionObject):
            raise Unsupported(f"union '{d.name}' initialised from a {source.ctype} value", d)
        lw.store(union.storage, lw.load(source.obj.storage, d), d)
    elif isinstance(d.init, A.InitList) and len(d.init.items) > 1:
        raise Unsupported(f"union '{d.name}' given {len(d.init.items)} initialisers", d)
    elif isinstance(d.init, A.InitList):
        # `= {1.5f}` initialises the first member ([dcl.init.aggr]/16); `= {}` the first member with 0
        first = next(iter(members))
        value = lw.expr(d.init.items[0]) if d.init.items else Val(members[first], const=0)
        write(lw, union, first, value, d)
    return Val(C.UnknownT(decl.name or "anonymous union"), obj=union)


def of_type(lw: FunctionLowerer, t: C.CType, d: A.Declarator) -> Val | None:
    """The variable or class data member `d` of a named union type `t` (`Word w;`), as `declare` makes it; None
    where `t` is no union of numbers."""
    named = isinstance(t, C.ClassT) or isinstance(t, C.TilingT) and not t.path
    info = lw.scope.classes.get(t.name) if named else None  # type: ignore[union-attr]
    return declare(lw, info.decl, d) if info is not None else None


def _member_type(union: UnionObject, name: str, node: A.Node) -> C.Scalar:
    t = union.members.get(name)
    if t is None:
        raise Unsupported(f"union has no member '{name}'", node)
    return t


def read(lw: FunctionLowerer, union: UnionObject, name: str, node: A.Node) -> Val:
    """`c.u`: the member's width of the storage's low bytes, as the member's type."""
    t = _member_type(union, name, node)
    word = lw.ssa(lw.load(union.storage, node), node)
    return Val(t, object_layout.from_i64(lw, word, t, node))


def write(lw: FunctionLowerer, union: UnionObject, name: str, value: Val, node: A.Node) -> None:
    """`c.f = x`: x converted to the member's type, its bits into the storage's low bytes; the bytes past its
    width keep what they held (a narrower member written over a wider one's value)."""
    t = _member_type(union, name, node)
    v = lw.ssa(lw.convert(value, t, node), node)
    word = object_layout.to_i64(lw, v, t, node)
    if t.bits < union.bits:
        old = lw.ssa(lw.load(union.storage, node), node)
        keep = lw.ssa(Val(C.U64, const=~((1 << t.bits) - 1) & ((1 << 64) - 1)), node)
        kept = lw.emit(arith.AndIOp(old, keep), node).results[0]
        word = lw.emit(arith.OrIOp(kept, word), node).results[0]
    lw.store(union.storage, Val(C.U64, word), node)


def copy_into(lw: FunctionLowerer, dst: UnionObject, src: UnionObject, node: A.Node) -> None:
    """`b = a` (or a member of a copied object): dst's storage takes src's bytes, the two stay apart after."""
    lw.store(dst.storage, lw.load(src.storage, node), node)


def copy(lw: FunctionLowerer, v: Val, name: str, node: A.Node) -> Val:
    """A union of its own with the bytes of the union `v` holds (a parameter taken by value); `v` for any other
    value, a pointer to a union included (`&a` is the union itself in this model, as for objects)."""
    if not isinstance(v.obj, UnionObject) or isinstance(v.ctype, C.Pointer):
        return v
    union = UnionObject(lw.new_cell(C.U64, name, node), dict(v.obj.members))
    copy_into(lw, union, v.obj, node)
    return Val(v.ctype, obj=union)


def no_member_address(lw: FunctionLowerer, operand: A.Node, node: A.Node) -> None:
    """`&c.u`, `&h.w.u`: reported where `c` (`h.w`) is a union of this module, whose members' bytes are part of one
    64-bit cell that the lowering gives no address; before, the address was of a copy of the value read, and a
    write through it was lost with no finding. The union is found without lowering `operand` (no ops)."""
    if isinstance(operand, A.Member) and isinstance(_named(lw, operand.obj), UnionObject):
        raise Unsupported(f"the address of union member '{operand.member}' (a pointer into a union's storage is "
                          "not modelled)", node)


def _named(lw: FunctionLowerer, node: A.Node) -> object:
    """What a local, `this`, or a data member of one names, looked up only; None for any other expression."""
    found: object = None
    if isinstance(node, A.Name) and len(node.qname.parts) == 1:
        found = lw.lookup(node.qname.parts[0].name)
    elif isinstance(node, A.This) and lw.frames:
        found = lw.frame.this
    elif isinstance(node, A.Member):
        owner = _named(lw, node.obj)
        found = owner.member(node.member) if isinstance(owner, Instance) else None
    return found.obj if isinstance(found, Val) else found
