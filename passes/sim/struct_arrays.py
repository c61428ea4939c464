"""The C array members of catalogued parameter structs (`uint8_t padList[4]` of LoadData3DParamsV2, `uint16_t
elementLengths[4]` of MrgSort4Info), on the simulator's scalar stack.

Each struct value built by a struct_init owns its arrays, as a C++ object does: an array given to the
constructor is copied element by element into the struct's own (a later store into the caller's array does not
show through), one not given starts as zeros (the member's default); a struct stored into a variable is copied
into the variable's own arrays (store_into). The lowering reads `p.padList` as a
struct_get whose result is that array's memref, so `p.padList[i] = v` stores into the struct's array and a call
given `p` reads what was stored.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from passes.sim.registers import Array, Struct

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder

# arrays over this many elements keep naming the caller's storage (a copy per construction would cost more
# than any catalogued struct needs)
_MAX_COPY = 64


def member_shape(c_type: str) -> tuple[str, tuple[int, ...]] | None:
    """(element C type, shape) of a member declared `uint8_t[4]`; None for anything else."""
    if "[" not in c_type or "<" in c_type or "*" in c_type:
        return None
    elem, _, rest = c_type.partition("[")
    dims = re.findall(r"\[\s*(\d+)\s*\]", "[" + rest)
    if not dims or len(dims) != c_type.count("["):
        return None
    return elem.replace("const ", "").strip(), tuple(int(d) for d in dims)


def parse_operand(text: str) -> Array | None:
    """The Array a struct field's stack operand (`s16:4:i8`) names (one dimension: its element count)."""
    m = re.fullmatch(r"s(\d+):(\d+):(\w+)", text)
    if m is None:
        return None
    return Array(int(m.group(1)), m.group(3), (int(m.group(2)),))


def own_array(b: ProgramBuilder, struct: str, name: str, given: Array | None,
              op: Operation | None) -> Array | None:
    """A fresh stack array for member `name` of catalogued struct `struct`: a copy of `given`, or zeros; None
    when the member is no C array of scalars."""
    from passes.sim.builder_calls import C_SCALARS
    from passes.sim.builder_cells import array_elem

    found = b.catalog.struct(struct)
    member = next((f for f in found.fields if f.name == name), None) if found is not None else None
    shape = member_shape(member.c_type) if member is not None else None
    if shape is None:
        return None
    ty = C_SCALARS.get(shape[0])
    size = 1
    for d in shape[1]:
        size *= d
    if ty is None or size > _MAX_COPY or given is not None and given.elem != array_elem(ty):
        return None
    arr = b.regs.array(array_elem(ty), shape[1])
    operand = arr.operand()
    zero = b.regs.const(ty, "0")
    for i in range(arr.size):
        index = b.regs.const("i64", str(i))
        if given is not None and i < given.size:
            value = b.regs.scalar()
            b.emit(f"ld.stack.{arr.elem}", [given.operand(), index], [value], op)
        else:
            value = zero
        b.emit(f"st.stack.{arr.elem}", [operand, index, value], op=op)
    return arr


# A member whose type is itself a catalogued struct (MultiCopyParams' `MultiCopyLoopInfo loopInfo`) is kept in
# the outer struct's fields under dotted names (`loopInfo.loopSize`), so a call given the outer struct sees
# `params.loopInfo.loopSize=s16:5:i32` and `p.loopInfo.loopSize[i] = v` stores into the outer struct's own array.


def nested_struct(b: ProgramBuilder, struct: str, name: str) -> str | None:
    """The catalogued struct type of member `name` of catalogued struct `struct`, else None."""
    found = b.catalog.struct(struct)
    member = next((f for f in found.fields if f.name == name), None) if found is not None else None
    if member is None or b.catalog.struct(member.c_type) is None:
        return None
    return b.catalog.struct(member.c_type).name  # type: ignore[union-attr]


def own_nested(b: ProgramBuilder, struct: str, name: str, given: Struct | None,
               op: Operation | None) -> dict[str, tuple[str, str]]:
    """Member `name` (a struct) of `struct` as the outer struct's dotted fields: the scalars of `given` (or the
    member's defaults), and arrays of its own, copies of `given`'s or zeros (a C++ member is a copy)."""
    inner = nested_struct(b, struct, name)
    assert inner is not None
    fields = dict(given.fields) if given is not None else b.struct_defaults(inner, fresh=False)
    found = b.catalog.struct(inner)
    for member in found.fields if found is not None else ():
        arr = parse_operand(fields[member.name][0]) if member.name in fields else None
        own = own_array(b, inner, member.name, arr, op)
        if own is not None:
            fields[member.name] = (own.operand(), "")
    return {f"{name}.{field}": value for field, value in fields.items()}


def view(b: ProgramBuilder, source: Struct, name: str) -> Struct | None:
    """The nested member `name` of `source` as a struct of its own, sharing its arrays (so `p.loopInfo.loopSize[i]
    = v` lands in `p`'s); None when `name` is no nested struct member of `source`."""
    inner = nested_struct(b, source.type_name, name)
    if inner is None:
        return None
    prefix = f"{name}."
    return Struct(inner, {k[len(prefix):]: v for k, v in source.fields.items() if k.startswith(prefix)})


def replace(b: ProgramBuilder, source: Struct, name: str, value: Struct, op: Operation) -> Struct:
    """`source` with its nested member `name` set to a copy of `value` (`p.loopInfo = info`)."""
    prefix = f"{name}."
    fields = {k: v for k, v in source.fields.items() if not k.startswith(prefix)}
    fields.update(own_nested(b, source.type_name, name, value, op))
    return Struct(source.type_name, fields)


def own_members(b: ProgramBuilder, struct: str, op: Operation | None) -> dict[str, tuple[str, str]]:
    """The C array and struct members of catalogued struct `struct` as a value made without a brace list has
    them (a variable or class member declared `MultiCopyParams<T, 5> params_;`): arrays of zeros of their own, a
    nested struct's fields dotted; the scalar members are struct_defaults'."""
    found = b.catalog.struct(struct)
    fields: dict[str, tuple[str, str]] = {}
    for member in found.fields if found is not None else ():
        if nested_struct(b, struct, member.name):
            fields.update(own_nested(b, struct, member.name, None, op))
        elif (own := own_array(b, struct, member.name, None, op)) is not None:
            fields[member.name] = (own.operand(), "")
    return fields


def store_into(b: ProgramBuilder, cell: Struct, value: Struct, op: Operation) -> None:
    """A struct value stored into a struct variable (`auto other = params;`, `p = q;`): the variable keeps its
    own arrays, into which the value's are copied element by element, so a later store through either does not
    show in the other; the scalars move as before. (A value the variable's own arrays already hold, a field set
    on the variable's value, `p.n = 5`, copies nothing.)"""
    rest: dict[str, tuple[str, str]] = {}
    for name, (reg, ty) in value.fields.items():
        own = parse_operand(cell.fields[name][0]) if not ty and name in cell.fields else None
        given = parse_operand(reg) if own is not None else None
        if own is None or given is None or given.elem != own.elem:
            rest[name] = (reg, ty)
            continue
        if given.offset == own.offset:
            continue
        for i in range(min(own.size, given.size)):
            index = b.regs.const("i64", str(i))
            element = b.regs.scalar()
            b.emit(f"ld.stack.{own.elem}", [given.operand(), index], [element], op)
            b.emit(f"st.stack.{own.elem}", [own.operand(), index, element], op=op)
    b.move(cell, Struct(value.type_name, rest), op)
