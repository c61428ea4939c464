"""Tensor queries of the host dialect: an input's or output's shape, dtype and presence, tensor-list
instances, the input count, and reading a `!host.shape` (dims, rank, size).

Separate from the InferShape output shapes (host_shape_ops.py): these only read what the context holds.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import i1, i32, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from ascendir.dialects.host_types import (
    AnyContext,
    ContextOf,
    ShapeKind,
    ShapeKindAttr,
    ShapeType,
    TensorQueryOp,
    TilingContextType,
)


@irdl_op_definition
class InputShapeOp(TensorQueryOp):
    """`context->GetInputShape(i)->GetOriginShape()` (or `GetStorageShape()`); on an InferShape context,
    `context->GetInputShape(i)` itself, which is the origin shape."""

    name = "host.input_shape"

    kind = prop_def(ShapeKindAttr)
    result = result_def(ShapeType)

    assembly_format = "$context `[` $index (`+` $at^)? `]` $kind custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, kind: ShapeKind = ShapeKind.ORIGIN,
                 at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, ShapeType(), kind=ShapeKindAttr(kind))


@irdl_op_definition
class OutputShapeOp(TensorQueryOp):
    """`context->GetOutputShape(i)->GetOriginShape()` (or `GetStorageShape()`)."""

    name = "host.output_shape"
    TENSOR: ClassVar[str] = "output"

    context = operand_def(TilingContextType)
    kind = prop_def(ShapeKindAttr)
    result = result_def(ShapeType)

    custom_directives = ()
    assembly_format = "$context `[` $index (`+` $at^)? `]` $kind attr-dict"

    def __init__(self, context: SSAValue, index: int, kind: ShapeKind = ShapeKind.ORIGIN,
                 at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, ShapeType(), kind=ShapeKindAttr(kind))


@irdl_op_definition
class DynamicInputIndexOp(IRDLOperation):
    """The tensor index of instance `instance` of the dynamic (tensor-list) input `ir_index`, as
    `context->GetDynamicInputTensor(ir_index, instance)` finds it: the instances of the inputs before it, plus
    `instance`. Past the list's last tensor it is an index no input has (the query returns nullptr; has_input is
    false)."""

    name = "host.dynamic_input_index"

    context = operand_def(AnyContext)
    ir_index = operand_def(i64)
    instance = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $ir_index `,` $instance `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, ir_index: SSAValue, instance: SSAValue) -> None:
        super().__init__(operands=[context, ir_index, instance], result_types=[i64])


@irdl_op_definition
class InputInstanceNumOp(IRDLOperation):
    """`context->GetComputeNodeInfo()->GetInputInstanceInfo(i)->GetInstanceNum()`: how many tensors op input `i`
    is (the length of a tensor-list input's list; 1 for a plain input, 0 for an absent optional one)."""

    name = "host.input_instance_num"

    context = operand_def(AnyContext)
    index = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: SSAValue) -> None:
        super().__init__(operands=[context, index], result_types=[i64])


@irdl_op_definition
class InputCountOp(IRDLOperation):
    """`context->GetComputeNodeInputNum()`: how many tensors the node's inputs are (a tensor list counts each of
    its tensors; an absent optional input counts none)."""

    name = "host.input_count"

    context = operand_def(AnyContext)
    result = result_def(i64)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue) -> None:
        super().__init__(operands=[context], result_types=[i64])


@irdl_op_definition
class HasInputOp(TensorQueryOp):
    """`context->GetOptionalInputShape(i) != nullptr`: whether an optional input is present."""

    name = "host.has_input"

    result = result_def(i1)

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, i1)


@irdl_op_definition
class ShapeDimOp(IRDLOperation):
    """`shape.GetDim(d)`."""

    name = "host.shape_dim"

    shape = operand_def(ShapeType)
    dim = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$shape `[` $dim `]` attr-dict"

    def __init__(self, shape: SSAValue, dim: SSAValue) -> None:
        super().__init__(operands=[shape, dim], result_types=[i64])


@irdl_op_definition
class ShapeDimNumOp(IRDLOperation):
    """`shape.GetDimNum()`: the rank."""

    name = "host.shape_dim_num"

    shape = operand_def(ShapeType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$shape attr-dict"

    def __init__(self, shape: SSAValue) -> None:
        super().__init__(operands=[shape], result_types=[i64])


@irdl_op_definition
class ShapeSizeOp(IRDLOperation):
    """`shape.GetShapeSize()`: the product of the dimensions."""

    name = "host.shape_size"

    shape = operand_def(ShapeType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$shape attr-dict"

    def __init__(self, shape: SSAValue) -> None:
        super().__init__(operands=[shape], result_types=[i64])


@irdl_op_definition
class InputDtypeOp(TensorQueryOp):
    """`context->GetInputDesc(i)->GetDataType()` as its `ge::DataType` number."""

    name = "host.input_dtype"

    result = result_def(i32)

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, i32)


@irdl_op_definition
class OutputDtypeOp(TensorQueryOp):
    """`context->GetOutputDesc(i)->GetDataType()` as its `ge::DataType` number."""

    name = "host.output_dtype"
    TENSOR: ClassVar[str] = "output"

    result = result_def(i32)

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, i32)


@irdl_op_definition
class DtypeSizeOp(IRDLOperation):
    """`ge::GetSizeByDataType(dtype)`: bytes per element."""

    name = "host.dtype_size"

    dtype = operand_def(i32)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$dtype attr-dict"

    def __init__(self, dtype: SSAValue) -> None:
        super().__init__(operands=[dtype], result_types=[i64])
