"""Arrays of catalogued parameter structs (`MultiCopyParams<T, ND> nddmaParams_[kMaxInputSlots];`, a kernel class
member of ops-nn softplus_v2_grad and fused_mul_apply_momentum), filled in a loop over the element and read back
by a run-time index: `nddmaParams_[inp].loopInfo.loopSize[nd] = v`, `auto params = nddmaParams_[inputIdx];`.

Each element is a struct of its own (registers for its scalar fields, stack arrays for its C array members, as a
single struct variable has them: builder_cells.define_cell). Their array members are laid out alike, one element
after another, so member m of element k lies at m's offset in element 0 plus k times the element's stack size:
an element chosen at run time (a StructChoice) reads and writes its arrays through one stack array spanning all
elements, at k times that stride on (an ArrayAt). Its scalar fields are selected by the index (a chain of selects);
storing a struct into a chosen element writes each element's scalar fields under a test of the index.

A chosen element given to a call as it is (not copied into a variable first) is not modelled: a call's struct
argument names its arrays by fixed stack offsets. Bounds: an index into an element's array is checked against
the span of all elements' arrays, not the one element's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.sim import struct_arrays
from passes.sim.registers import ELEMENT_BYTES, Array, NotModelled, Struct

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder

MAX_ELEMENTS = 64


@dataclass
class StructArray:
    """The structs of an array, one per element, row-major."""

    type_name: str
    elements: list[Struct]
    shape: tuple[int, ...]


@dataclass
class StructChoice:
    """Element `index` (an i64 register) of `array`, its fields under `prefix` (a nested struct member's view)."""

    array: StructArray
    index: str
    prefix: str = ""
    type_name: str = ""


@dataclass
class ArrayAt:
    """One element's array member inside `span` (all elements' arrays of that member): its element i is element
    `base + i` of span (`base` an i64 register)."""

    span: Array
    base: str
    size: int


def declare(b: ProgramBuilder, ref: SSAValue, elem: Attribute, shape: tuple[int, ...]) -> bool:
    """Declares `ref`, an array of the catalogued struct `elem`: one struct per element. False for other types."""
    if not isinstance(elem, asc.StructType) or b.catalog.struct(elem.type_name.data) is None:
        return False
    n = 1
    for d in shape:
        n *= d
    if not 0 < n <= MAX_ELEMENTS:
        raise NotModelled(f"an array of {n} {elem.type_name.data} structs (at most {MAX_ELEMENTS})")
    elements = []
    for _ in range(n):
        b.define_cell(ref, elem)  # (each element as a struct variable is made; the last definition is replaced)
        made = b.values[ref]
        assert isinstance(made, Struct)
        elements.append(made)
    b.values[ref] = StructArray(elem.type_name.data, elements, shape)
    return True


def _linear(b: ProgramBuilder, arr: StructArray, indices: list[SSAValue], op: Operation) -> int | str:
    """The element position: a number when every index is a constant, else an i64 register."""
    from passes.sim.builder_cells import HandleArray

    fixed = b.constant_index(HandleArray([], arr.shape), indices)  # (checks the bounds of constant indices)
    if fixed is not None:
        return fixed
    return b.array_index(Array(0, "i64", arr.shape), indices, op)


def load(b: ProgramBuilder, arr: StructArray, indices: list[SSAValue], result: SSAValue, op: Operation) -> None:
    at = _linear(b, arr, indices, op)
    b.values[result] = arr.elements[at] if isinstance(at, int) else StructChoice(arr, at, "", arr.type_name)


def _select(b: ProgramBuilder, choice: StructChoice, field: str, op: Operation) -> tuple[str, str]:
    """Scalar field `field` of the chosen element: element 0's, replaced by element j's where the index is j."""
    first = choice.array.elements[0].fields[field]
    out = b.regs.scalar()
    b.emit("mov", [first[0]], [out], op)
    for j, element in enumerate(choice.array.elements[1:], start=1):
        hit = b.regs.scalar()
        b.emit("cmpi.eq.i64", [choice.index, b.regs.const("i64", str(j))], [hit], op)
        b.emit("select", [hit, element.fields[field][0], out], [out], op)
    return out, first[1]


def _array_at(b: ProgramBuilder, choice: StructChoice, field: str, op: Operation) -> ArrayAt:
    arrays = [struct_arrays.parse_operand(e.fields[field][0]) for e in choice.array.elements]
    if any(a is None for a in arrays):
        raise NotModelled(f"the array member {field} of an element of an array of {choice.array.type_name}")
    first = arrays[0]
    assert first is not None
    size = ELEMENT_BYTES.get(first.elem, 8)
    stride = arrays[1].offset - first.offset if len(arrays) > 1 else 0  # type: ignore[union-attr]
    if any(a.offset != first.offset + k * stride for k, a in enumerate(arrays)) or stride % size:  # type: ignore
        raise NotModelled(f"the array member {field} of {choice.array.type_name}: elements laid out unevenly")
    span = Array(first.offset, first.elem, ((len(arrays) - 1) * stride // size + first.size,))
    base = b.regs.scalar()
    b.emit("muli.i64", [choice.index, b.regs.const("i64", str(stride // size))], [base], op)
    return ArrayAt(span, base, first.size)


def struct_get(b: ProgramBuilder, choice: StructChoice, name: str, result: SSAValue, op: Operation) -> None:
    """`chosen.field`: a scalar (selected), an array member (an ArrayAt) or a nested struct member (a view)."""
    field = choice.prefix + name
    fields = choice.array.elements[0].fields
    if field in fields:
        if fields[field][1]:
            b.values[result] = _select(b, choice, field, op)[0]
        else:
            b.values[result] = _array_at(b, choice, field, op)
        return
    inner = struct_arrays.nested_struct(b, choice.type_name, name)
    if inner is not None:
        b.values[result] = StructChoice(choice.array, choice.index, field + ".", inner)
        return
    raise NotModelled(f"the member {name} of an element of an array of {choice.array.type_name} chosen at run time")


def element_index(b: ProgramBuilder, arr: ArrayAt, linear: str, op: Operation) -> str:
    """The span's element that element `linear` of the chosen element's array is."""
    out = b.regs.scalar()
    b.emit("addi.i64", [arr.base, linear], [out], op)
    return out


def copy_into(b: ProgramBuilder, dst: Struct, choice: StructChoice, op: Operation) -> None:
    """`auto params = nddmaParams_[k];`: the chosen element's scalars and arrays copied into the struct `dst`."""
    for field, (reg, ty) in list(dst.fields.items()):
        if field not in choice.array.elements[0].fields:
            continue
        if ty:
            value, _ = _select(b, choice, field, op)
            b.emit("mov", [value], [reg], op)
            continue
        own = struct_arrays.parse_operand(reg)
        if own is None:
            continue
        source = _array_at(b, choice, field, op)
        for i in range(min(own.size, source.size)):
            value = b.regs.scalar()
            b.emit(f"ld.stack.{own.elem}", [source.span.operand(),
                                             element_index(b, source, b.regs.const("i64", str(i)), op)], [value], op)
            b.emit(f"st.stack.{own.elem}", [own.operand(), b.regs.const("i64", str(i)), value], op=op)


def store(b: ProgramBuilder, arr: StructArray, indices: list[SSAValue], value: object, op: Operation) -> None:
    """`arr[k] = s` (the lowering writes a struct back after setting one of its scalar fields)."""
    at = _linear(b, arr, indices, op)
    if isinstance(value, StructChoice) and value.array is arr and not value.prefix and at == value.index:
        return  # the element stored back as it was read
    if not isinstance(value, Struct):
        raise NotModelled(f"storing a {type(value).__name__} into an array of {arr.type_name}")
    if isinstance(at, int):
        b.move(arr.elements[at], value, op)
        return
    for j, element in enumerate(arr.elements):
        hit = b.regs.scalar()
        b.emit("cmpi.eq.i64", [at, b.regs.const("i64", str(j))], [hit], op)
        for field, (reg, ty) in value.fields.items():
            if not ty:
                if element.fields.get(field, (reg,))[0] != reg:
                    raise NotModelled(f"storing a struct with arrays of its own into an element of an array of "
                                      f"{arr.type_name} chosen at run time")
                continue
            b.emit("select", [hit, reg, element.fields[field][0]], [element.fields[field][0]], op)
