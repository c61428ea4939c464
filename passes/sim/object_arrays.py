"""Arrays of TBuf objects (`TBuf<> sumBuf[2];` members of a kernel class).

The simulator's objects are static (`oN`), declared once; an array of them is one object per element, declared where
the array is. An element at a constant index is that object. An element chosen at run time (`sumBuf[i % 2].Get<T>()`)
cannot be one static object: it is modelled for TBuf::Get, which has no effect of its own and returns a tensor
handle, as a Get on every element and a select of the handle by the index (as arrays of LocalTensors are read), and
for TPipe::InitBuffer (`for (i...) pipe.InitBuffer(buf_[i], bytes)`, ops-nn softplus_v2_grad, bn_infer_grad), as an
InitBuffer of each element under a test of the index: only the chosen element's memory is given out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.sim.program import ObjectDecl
from passes.sim.registers import NotModelled

if TYPE_CHECKING:
    from passes.sim.builder import ProgramBuilder

MAX_OBJECT_ARRAY = 64  # elements; a larger array of buffers is not a ping-pong list


@dataclass
class ObjectArray:
    """The objects of an array, one per element, in row-major order."""

    names: list[str]
    shape: tuple[int, ...]


@dataclass
class ObjectChoice:
    """An element of an ObjectArray whose position is an i64 register known only at run time."""

    names: list[str]
    index: str


def declare(b: ProgramBuilder, ref: SSAValue, elem: Attribute, shape: tuple[int, ...], op: Operation) -> bool:
    """Declares the objects of `ref`, an array of `elem`; False where the element type is not a TBuf."""
    count = 1
    for d in shape:
        count *= d
    if not isinstance(elem, asc.TBufType) or not 0 < count <= MAX_OBJECT_ARRAY:
        return False
    position = elem.position.data
    names = []
    for i in range(count):
        # keyed by (array, element): an element has no SSA value of its own
        decl = ObjectDecl(len(b.objects), "tbuf", f"{ref.name_hint or 'objects'}_{i}",
                          {"pos": position, "mem": b.memory_of(position)})
        b.objects[(ref, i)] = decl  # type: ignore[index]
        names.append(f"o{decl.index}")
        b.emit("obj.init", [names[-1]], op=op)
    b.values[ref] = ObjectArray(names, shape)  # type: ignore[assignment]
    return True


def load(b: ProgramBuilder, arr: ObjectArray, op: Operation) -> None:
    """`arr[i...]`: the element's object, or an ObjectChoice for an index known at run time."""
    assert hasattr(op, "indices") and hasattr(op, "res")
    indices = list(op.indices)
    if len(indices) != len(arr.shape):
        raise NotModelled("an access to an array of objects with the wrong number of indices")
    fixed = b.constant_index(arr, indices)  # type: ignore[arg-type]
    if fixed is not None:
        b.values[op.res] = arr.names[fixed]
        return
    b.values[op.res] = ObjectChoice(arr.names, b.array_index(arr, indices, op))  # type: ignore[assignment, arg-type]


def tbuf_get(b: ProgramBuilder, choice: ObjectChoice, op: asc.TBufGetOp, mnemonic: str, count: str, offset: str,
             result: str) -> None:
    """TBuf::Get on an element chosen at run time: each element's tensor, the one the index names selected."""
    for i, name in enumerate(choice.names):
        got = b.regs.handle()
        b.emit(mnemonic, [name, count, offset], [got], op)
        if i == 0:
            b.emit("mov", [got], [result], op)
            continue
        hit = b.regs.scalar()
        b.emit("cmpi.eq.i64", [choice.index, b.regs.const("i64", str(i))], [hit], op)
        b.emit("select", [hit, got, result], [result], op)


def init_buffer(b: ProgramBuilder, pipe: str, choice: ObjectChoice, num: str, length: str, op: Operation) -> None:
    """TPipe::InitBuffer of an element chosen at run time: each element's InitBuffer, run where the index is its."""
    for i, name in enumerate(choice.names):
        hit = b.regs.scalar()
        skip = b.label("init_skip")
        b.emit("cmpi.eq.i64", [choice.index, b.regs.const("i64", str(i))], [hit], op)
        b.emit("brz", [hit, skip], op=op)
        b.emit("InitBuffer", [pipe, name, num, length], op=op)
        b.place(skip)


__all__ = ["ObjectArray", "ObjectChoice", "declare", "init_buffer", "load", "tbuf_get"]
