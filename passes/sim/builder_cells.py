"""Memref cells and C arrays in the simulator program: a scalar cell is a register, a struct a set of field
registers, a C array a slice of the scalar stack, an array of tensors one handle register per element (a
run-time index selects over them); loads, stores and the linear index of `a[i][j]...`.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Attribute, Operation, SSAValue

from ascendir.dialects import ascendc as asc
from passes.sim import object_arrays, struct_array, struct_arrays
from passes.sim.registers import Array, NotModelled, Struct, is_handle_type, is_object_type, scalar_type


# arrays of tensors up to this many elements live in handle registers (see alloca)
_MAX_HANDLE_ARRAY = 64


@dataclass
class HandleArray:
    """An array of LocalTensor / GlobalTensor values: one handle register per element, row-major."""

    regs: list[str]
    shape: tuple[int, ...]


def _product(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


class CellEmission:
    """Memref cells and C arrays: methods of ProgramBuilder (builder.py), which inherits them."""

    def alloca(self, op: memref.AllocaOp) -> None:
        t = op.memref.type
        assert isinstance(t, MemRefType)
        elem = t.element_type
        shape = tuple(int(d) for d in t.get_shape())
        if shape:
            ty = scalar_type(elem)
            if ty is None and is_handle_type(elem) and 0 < _product(shape) <= _MAX_HANDLE_ARRAY:
                # `LocalTensor<half> l1A[STAGES]` (catlass's ping-pong buffers): one handle register per element
                self.values[op.memref] = HandleArray([self.regs.handle() for _ in range(_product(shape))], shape)
                return
            if ty is None and struct_array.declare(self, op.memref, elem, shape):  # type: ignore[arg-type]
                return  # `MultiCopyParams<T, 5> params_[2]`: one struct per element (struct_array.py)
            if ty is None and object_arrays.declare(self, op.memref, elem, shape, op):
                return  # `TBuf<> sumBuf[2]`: one object per element
            if ty is None:
                raise NotModelled(f"an array of {elem}")
            self.values[op.memref] = self.regs.array(array_elem(ty), shape)
            return
        self.define_cell(op.memref, elem)

    def define_cell(self, ref: SSAValue, elem: Attribute) -> None:
        if isinstance(elem, asc.StructType):
            fields = self.struct_defaults(elem.type_name.data)
            for name in [n for n in fields if struct_arrays.nested_struct(self, elem.type_name.data, n)]:
                del fields[name]  # a struct member is its fields, dotted (own_members)
            # its C array and struct members, so that `p.loopInfo.loopSize[i] = v` has an array to store into
            fields.update(struct_arrays.own_members(self, elem.type_name.data, None))  # type: ignore[arg-type]
            self.values[ref] = Struct(elem.type_name.data, fields)
        elif isinstance(elem, asc.TilingType):
            self.values[ref] = Struct(elem.type_name.data, {})  # a tiling struct: fields as stores give them
        elif is_object_type(elem):
            self.values[ref] = "o?"  # set by the first store
        else:
            self.values[ref] = self.regs.new_like(elem, value=ref)

    def memref_load(self, op: memref.LoadOp) -> None:
        cell = self.loc(op.memref)
        if isinstance(cell, HandleArray):
            result = self.define(op.res)
            assert isinstance(result, str)
            fixed = self.constant_index(cell, op.indices)
            if fixed is not None:
                self.emit("mov", [cell.regs[fixed]], [result], op)
                return
            # a run-time index (`l1A[listId]`): the element whose position it is, by selects over them all
            index = self.array_index(cell, op.indices, op)  # type: ignore[arg-type]
            self.emit("mov", [cell.regs[0]], [result], op)
            for i, reg in enumerate(cell.regs[1:], start=1):
                hit = self.regs.scalar()
                self.emit("cmpi.eq.i64", [index, self.regs.const("i64", str(i))], [hit], op)
                self.emit("select", [hit, reg, result], [result], op)
            return
        if isinstance(cell, object_arrays.ObjectArray):
            object_arrays.load(self, cell, op)
            return
        if isinstance(cell, struct_array.StructArray):
            struct_array.load(self, cell, list(op.indices), op.res, op)  # type: ignore[arg-type]
            return
        if isinstance(cell, struct_array.ArrayAt):  # an array member of an element chosen at run time
            result = self.define(op.res)
            assert isinstance(result, str)
            index = struct_array.element_index(self, cell, self.array_index(
                Array(0, cell.span.elem, (cell.size,)), op.indices, op), op)
            self.emit(f"ld.stack.{cell.span.elem}", [cell.span.operand(), index], [result], op)
            return
        if isinstance(cell, Array):
            result = self.define(op.res)
            assert isinstance(result, str)
            index = self.array_index(cell, op.indices, op)
            self.emit(f"ld.stack.{cell.elem}", [f"s{cell.offset}:{cell.size}:{cell.elem}", index], [result], op)
            return
        if cell == "o?":
            raise NotModelled("an object read from a variable before anything was stored in it")
        if isinstance(cell, str) and cell.startswith("o"):
            self.values[op.res] = cell
            return
        result = self.define(op.res)
        self.move(result, cell, op)

    def memref_store(self, op: memref.StoreOp) -> None:
        cell = self.loc(op.memref)
        if isinstance(cell, HandleArray):
            self.store_handle(cell, op.indices, self.reg(op.value), op)
            return
        if isinstance(cell, object_arrays.ObjectArray):
            raise NotModelled("an object stored into an array of objects")
        if isinstance(cell, struct_array.StructArray):
            struct_array.store(self, cell, list(op.indices), self.loc(op.value), op)  # type: ignore[arg-type]
            return
        if isinstance(cell, struct_array.ArrayAt):
            index = struct_array.element_index(self, cell, self.array_index(
                Array(0, cell.span.elem, (cell.size,)), op.indices, op), op)
            self.emit(f"st.stack.{cell.span.elem}", [cell.span.operand(), index, self.reg(op.value)], op=op)
            return
        if isinstance(cell, Struct) and isinstance(chosen := self.loc(op.value), struct_array.StructChoice):
            struct_array.copy_into(self, cell, chosen, op)  # type: ignore[arg-type]  # `auto p = params_[k];`
            return
        if isinstance(cell, Array):
            index = self.array_index(cell, op.indices, op)
            self.emit(f"st.stack.{cell.elem}", [f"s{cell.offset}:{cell.size}:{cell.elem}", index,
                                                 self.reg(op.value)], op=op)
            return
        if isinstance(cell, str) and cell.startswith("o"):
            self.values[op.memref] = self.obj(op.value)
            return
        value = self.loc(op.value)
        if isinstance(cell, Struct) and isinstance(value, Struct):
            struct_arrays.store_into(self, cell, value, op)  # the variable's arrays keep their own storage
            return
        self.move(cell, value, op)

    def store_handle(self, cell: HandleArray, indices: Sequence[SSAValue], value: str, op: Operation) -> None:
        """`cell[indices] = value` for an array of tensor handles (a run-time index selects over every element)."""
        fixed = self.constant_index(cell, indices)
        if fixed is not None:
            self.emit("mov", [value], [cell.regs[fixed]], op)
            return
        index = self.array_index(cell, indices, op)  # type: ignore[arg-type]
        for i, reg in enumerate(cell.regs):
            hit = self.regs.scalar()
            self.emit("cmpi.eq.i64", [index, self.regs.const("i64", str(i))], [hit], op)
            self.emit("select", [hit, value, reg], [reg], op)

    def tensor_addresses(self, cell: HandleArray, what: str) -> Array:
        """An array of tensors passed whole to an API (`TransDataTo5HD<float>(dstList, srcList, params)` on two
        `LocalTensor<float> list[16]`): the instruction takes the tensors' addresses (asc-devkit loads the list
        into its VA registers, as for the uint64_t form), so the elements' addresses as they are at the call,
        each its GetPhyAddr, go into an array of uint64 on the stack that the call passes instead."""
        if len(cell.shape) != 1:
            raise NotModelled(f"a {'x'.join(map(str, cell.shape))} array of tensors passed as {what}")
        words = self.regs.array("i64", cell.shape)
        for i, handle in enumerate(cell.regs):
            addr = self.regs.scalar()
            self.emit("call", ["GetPhyAddr.plain", f"self={handle}"], [f"{addr}:i64"])
            self.emit("st.stack.i64", [words.operand(), self.regs.const("i64", str(i)), addr])
        return words

    @staticmethod
    def constant_index(arr: HandleArray, indices: Sequence[SSAValue]) -> int | None:
        """The linear position of `arr[i][j]...` when every index is an arith.constant, else None."""
        linear = 0
        for dim, idx in zip(arr.shape, indices):
            owner = idx.owner
            if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
                return None
            i = owner.value.value.data
            if not 0 <= i < dim:
                raise NotModelled(f"an index {i} outside an array of {dim} tensors")
            linear = linear * dim + i
        return linear if len(indices) == len(arr.shape) else None

    def array_index(self, arr: Array, indices: Sequence[SSAValue], op: Operation) -> str:
        """The linear element index of `arr[i][j]...` as an i64 register."""
        if len(indices) != len(arr.shape):
            raise NotModelled("an array access with the wrong number of indices")
        linear: str | None = None
        for dim, idx in zip(arr.shape, indices):
            i = self.as_i64(idx, op)
            if linear is None:
                linear = i
            else:
                scaled = self.regs.scalar()
                self.emit("muli.i64", [linear, self.regs.const("i64", str(dim))], [scaled], op)
                summed = self.regs.scalar()
                self.emit("addi.i64", [scaled, i], [summed], op)
                linear = summed
        return linear or self.regs.const("i64", "0")

    def as_i64(self, value: SSAValue, op: Operation) -> str:
        ty = scalar_type(value.type)
        reg = self.reg(value)
        if ty == "i64":
            return reg
        if ty is None or ty.startswith(("f", "b")):
            raise NotModelled(f"an index of type {value.type}")
        out = self.regs.scalar()
        self.emit(f"extsi.{ty}.i64", [reg], [out], op)
        return out


def array_elem(ty: str) -> str:
    return "bool" if ty == "i1" else ty
