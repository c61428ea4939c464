"""Tensors' views and values and raw `__gm__` pointers in the `ascendc` dialect: SetGlobalBuffer, sub-tensors
(`t[offset]`), GetValue/SetValue, ReinterpretCast, and pointer offsets, casts, loads and stores. Separate
because these are where addresses come from, which the alignment, bounds and coverage rules follow.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.ascendc_types import GlobalTensorType, GmPtrType, LocalTensorType


@irdl_op_definition
class SetGlobalBufferOp(IRDLOperation):
    """`xGm.SetGlobalBuffer((__gm__ T*)ptr, count)`; without a count the tensor's size is 0."""

    name = "ascendc.set_global_buffer"
    tensor = operand_def(GlobalTensorType)
    pointer = operand_def(GmPtrType)
    count = opt_operand_def()
    assembly_format = (
        "$tensor `,` $pointer (`count` $count^ `:` type($count))? attr-dict `:` type($tensor) `,` type($pointer)"
    )


@irdl_op_definition
class SubTensorOp(IRDLOperation):
    """`t[offset]`: the same memory from element `offset` on."""

    name = "ascendc.subtensor"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    offset = operand_def()
    result = result_def(LocalTensorType | GlobalTensorType)
    assembly_format = "$tensor `[` $offset `]` attr-dict `:` type($tensor) `,` type($offset) `->` type($result)"

    def verify_(self) -> None:
        if self.tensor.type != self.result.type:
            raise VerifyException("a sub-tensor has the type of the tensor it is taken from")


@irdl_op_definition
class GetValueOp(IRDLOperation):
    """`t.GetValue(i)` (or reading `t(i)`): a scalar read through the scalar pipe."""

    name = "ascendc.get_value"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    index = operand_def()
    result = result_def()
    assembly_format = "$tensor `[` $index `]` attr-dict `:` type($tensor) `,` type($index) `->` type($result)"


@irdl_op_definition
class SetValueOp(IRDLOperation):
    """`t.SetValue(i, v)`: a scalar write through the scalar pipe."""

    name = "ascendc.set_value"
    tensor = operand_def(LocalTensorType | GlobalTensorType)
    index = operand_def()
    value = operand_def()
    assembly_format = (
        "$tensor `[` $index `]` `,` $value attr-dict `:` type($tensor) `,` type($index) `,` type($value)"
    )


@irdl_op_definition
class ReinterpretCastOp(IRDLOperation):
    """`t.ReinterpretCast<U>()`: the same bytes seen as another element type."""

    name = "ascendc.reinterpret_cast"
    tensor = operand_def(LocalTensorType)
    result = result_def(LocalTensorType)
    assembly_format = "$tensor attr-dict `:` type($tensor) `->` type($result)"


@irdl_op_definition
class GmPtrOffsetOp(IRDLOperation):
    """`ptr + n` on a `__gm__ T*`: advances by `n` elements of T."""

    name = "ascendc.gm_ptr_offset"
    pointer = operand_def(GmPtrType)
    offset = operand_def()
    result = result_def(GmPtrType)
    assembly_format = "$pointer `,` $offset attr-dict `:` type($pointer) `,` type($offset)  `->` type($result)"


@irdl_op_definition
class GmPtrCastOp(IRDLOperation):
    """`(__gm__ T*)ptr`, `reinterpret_cast<__gm__ T*>(ptr)`."""

    name = "ascendc.gm_ptr_cast"
    pointer = operand_def(GmPtrType)
    result = result_def(GmPtrType)
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class GmPtrFromIntOp(IRDLOperation):
    """`reinterpret_cast<__gm__ T*>(word)`: an integer used as a GM address (a tensor list's pointer table holds
    its tensors' addresses as uint64 words)."""

    name = "ascendc.gm_ptr_from_int"
    value = operand_def()
    result = result_def(GmPtrType)
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"


@irdl_op_definition
class UbPtrTensorOp(IRDLOperation):
    """`p[i]` / `*p` through a raw `__ubuf__ T *` (a UB byte address, ub_pointer.py): the UB memory from that
    address on, seen as a local tensor of T, which the element's GetValue / SetValue then read or write."""

    name = "ascendc.ub_ptr_tensor"
    address = operand_def()
    result = result_def(LocalTensorType)
    assembly_format = "$address attr-dict `:` type($address) `->` type($result)"


@irdl_op_definition
class GmPtrToIntOp(IRDLOperation):
    """`(uint64_t)ptr`: a GM pointer's address as an integer."""

    name = "ascendc.gm_ptr_to_int"
    pointer = operand_def(GmPtrType)
    result = result_def()
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class GmLoadOp(IRDLOperation):
    """`ptr[i]` / `*ptr` read through a raw `__gm__` pointer."""

    name = "ascendc.gm_load"
    pointer = operand_def(GmPtrType)
    index = operand_def()
    result = result_def()
    assembly_format = "$pointer `[` $index `]` attr-dict `:` type($pointer) `,` type($index) `->` type($result)"


@irdl_op_definition
class GmStoreOp(IRDLOperation):
    """`ptr[i] = v` through a raw `__gm__` pointer."""

    name = "ascendc.gm_store"
    pointer = operand_def(GmPtrType)
    index = operand_def()
    value = operand_def()
    assembly_format = (
        "$pointer `[` $index `]` `,` $value attr-dict `:` type($pointer) `,` type($index) `,` type($value)"
    )
