"""Objects copied member by member: what a class's implicit copy constructor and copy assignment do for the
objects of the function lowering (lower_objects.py), data members, arrays, base parts, unions and object arrays.

Separate from the making of objects (constructors, aggregate initialisers) in lower_objects.py: a copy needs no
constructor, only the two objects' members side by side.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

from ascendir.lower import ctypes as C, object_arrays, unions
from ascendir.lower.errors import Unsupported
from ascendir.lower.fast_ops import load_op
from ascendir.lower.values import Cell, Instance, Val
from frontend import ast as A


class ObjectCopying:
    """Copies of objects: methods of FunctionLowerer (function.py), through ObjectLowering."""

    def _copy_members(self, dst: Instance, src: Instance, node: A.Node) -> None:
        """What a copy constructor does for the data members modelled as cells (objects are shared), and for
        tensor members held as values: the copy's member is the same handle ([class.copy.ctor]/14)."""
        for members, source_of in [(dst.members, src.members.get)] + [
                (dpart.hidden, spart.member) for dpart, spart in zip(object_parts(dst), object_parts(src))
                if dpart.info is spart.info]:  # (a base part's own members: each of tla's EBO<I, T> holds a `t_`)
            for fname, member in list(members.items()):
                source = source_of(fname)
                if isinstance(member, Val) and isinstance(member.ctype, C.LocalTensorT | C.GlobalTensorT) and \
                        isinstance(source, Val) and isinstance(source.ctype, C.LocalTensorT | C.GlobalTensorT):
                    members[fname] = source
                else:
                    self._copy_binding(member, source, node)

    def _copy_binding(self, member: object, source: object, node: A.Node) -> None:
        """One data member copied (see _copy_members)."""
        if isinstance(member, Cell) and isinstance(source, Cell) and isinstance(member.ctype, C.ArrayT):
            if isinstance(source.ctype, C.ArrayT):
                self._copy_array(member, source, node)  # a Coord's `Index idx[RANK]`
        elif isinstance(member, Cell) and isinstance(source, Cell):
            self.store(member, self.load(source, node), node)
        elif isinstance(member, Instance) and isinstance(source, Instance) and member.info is source.info:
            self._copy_members(member, source, node)
        elif isinstance(member, Val) and isinstance(member.obj, object_arrays.ObjectArray) \
                and isinstance(source, Val) and isinstance(source.obj, object_arrays.ObjectArray):
            object_arrays.copy(self, member.obj, source.obj, node)
        elif isinstance(member, Val) and isinstance(member.obj, unions.UnionObject) \
                and isinstance(source, Val) and isinstance(source.obj, unions.UnionObject):
            unions.copy_into(self, member.obj, source.obj, node)  # a union member: its bytes (unions.py)

    def _copy_instance(self, dst: Instance, src: Instance, node: A.Node) -> None:
        # `a = b`: every member, those of base parts a sibling's member of the same name hides included (the
        # implicit copy assignment assigns each base subobject, [class.copy.assign]/12). Only `members` before:
        # of tla's EBO<0, Shape> / EBO<1, Stride> one `t_` was copied, and catlass 14's DeviceGemm `params = ...`
        # kept its layouts' strides but not their shapes
        pairs = [(name, b, dst.members.get(name)) for name, b in src.members.items()] + [
            (name, spart.member(name), target) for dpart, spart in zip(object_parts(dst), object_parts(src))
            if dpart.info is spart.info for name, target in dpart.hidden.items()]
        for name, b, target in pairs:
            if isinstance(target, Cell) and isinstance(b, Cell):
                if isinstance(b.ctype, C.ArrayT):
                    self._copy_array(target, b, node)
                else:
                    self.store(target, self.load(b, node), node)
            elif isinstance(target, Instance) and isinstance(b, Instance) and target is not b:
                self._copy_instance(target, b, node)
            elif isinstance(target, Val) and isinstance(target.obj, object_arrays.ObjectArray) \
                    and isinstance(b, Val) and isinstance(b.obj, object_arrays.ObjectArray) and target.obj is not b.obj:
                object_arrays.copy(self, target.obj, b.obj, node)
            elif isinstance(target, Val) and isinstance(target.obj, unions.UnionObject) \
                    and isinstance(b, Val) and isinstance(b.obj, unions.UnionObject) and target.obj is not b.obj:
                unions.copy_into(self, target.obj, b.obj, node)

    def _copy_array(self, dst: Cell, src: Cell, node: A.Node) -> None:
        """An array member copied with its object, element by element (`next = scheduler.GetBlockCoord(i)` copies
        a catlass Coord's `idx[3]`)."""
        # (a field of an element of an object array has the element's position before its own indices)
        shape = list(src.ref.type.get_shape())[len(src.at):]  # type: ignore[attr-defined]
        if shape != list(dst.ref.type.get_shape())[len(dst.at):] or math.prod(shape) > 64:  # type: ignore[attr-defined]
            raise Unsupported(f"copying an array member of {math.prod(shape)} elements", node)
        for position in itertools.product(*(range(n) for n in shape)):
            idx = [self.index_const(i, node) for i in position]
            value = self.emit(load_op(src.ref, [*src.at, *idx]), node).results[0]
            self.store_element(value, dst.ref, [*dst.at, *idx], node)


def object_parts(inst: Instance) -> Iterator[Instance]:
    """The base-class parts of an object, depth first."""
    for b in inst.bases:
        yield b
        yield from object_parts(b)
