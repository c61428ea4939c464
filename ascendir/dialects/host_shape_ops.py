"""Output shapes of an InferShape function in the host dialect: `!host.shape_buffer` objects (an output's
gert::Shape, a local `gert::Shape s;`), written dim by dim or copied into, and read back as `!host.shape`.

Separate because shape buffers are the dialect's one kind of mutable object.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import i1, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def, var_operand_def
from xdsl.traits import Pure

from ascendir.dialects.host_types import InferShapeContextType, ShapeBufferType, ShapeType, TensorQueryOp


# gert::Shape::kMaxDimNum: the dims a gert::Shape holds, in a fixed array.
MAX_DIM_NUM = 25


@irdl_op_definition
class OutputShapeBufferOp(TensorQueryOp):
    """`context->GetOutputShape(i)` of an InferShape context: the output's shape, which the function fills.
    Pure: it is the same object every time; reading or writing it goes through the ops below."""

    name = "host.output_shape_buffer"
    TENSOR: ClassVar[str] = "output"

    context = operand_def(InferShapeContextType)
    result = result_def(ShapeBufferType)

    custom_directives = ()
    assembly_format = "$context `[` $index (`+` $at^)? `]` attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(context, index, at, ShapeBufferType())


@irdl_op_definition
class ShapeLocalOp(IRDLOperation):
    """`gert::Shape s;`: a new shape object of rank 0 (not pure: each one is a distinct object)."""

    name = "host.shape_local"

    result = result_def(ShapeBufferType)

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[ShapeBufferType()])


@irdl_op_definition
class ShapeEqOp(IRDLOperation):
    """`a == b` of two gert::Shapes: the same rank and the same dims (gert::Shape::operator==)."""

    name = "host.shape_eq"

    lhs = operand_def(ShapeType)
    rhs = operand_def(ShapeType)
    result = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs: SSAValue, rhs: SSAValue) -> None:
        super().__init__(operands=[lhs, rhs], result_types=[i1])


@irdl_op_definition
class ShapeReadOp(IRDLOperation):
    """The dims a shape object holds now, as a value (`s.GetDim(i)` and friends read through this).

    Not pure: a write to the object between two reads changes what the second one returns.
    """

    name = "host.shape_read"

    buffer = operand_def(ShapeBufferType)
    result = result_def(ShapeType)

    assembly_format = "$buffer attr-dict"

    def __init__(self, buffer: SSAValue) -> None:
        super().__init__(operands=[buffer], result_types=[ShapeType()])


@irdl_op_definition
class MakeShapeOp(IRDLOperation):
    """`gert::Shape({d0, d1, ...})` / `{d0, d1, ...}`: the shape of exactly these dims."""

    name = "host.make_shape"

    dims = var_operand_def(i64)
    result = result_def(ShapeType)

    traits = traits_def(Pure())
    assembly_format = "`(` $dims `)` attr-dict"

    def __init__(self, dims: list[SSAValue]) -> None:
        super().__init__(operands=[dims], result_types=[ShapeType()])


@irdl_op_definition
class ShapeAssignOp(IRDLOperation):
    """`*y = shape`: the object takes the shape's rank and dims (gert::Shape's copy assignment)."""

    name = "host.shape_assign"

    buffer = operand_def(ShapeBufferType)
    value = operand_def(ShapeType)

    assembly_format = "$buffer `,` $value attr-dict"

    def __init__(self, buffer: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[buffer, value])


@irdl_op_definition
class ShapeSetDimNumOp(IRDLOperation):
    """`y->SetDimNum(n)`: the rank becomes n; the dims keep what the object's array held (0 when fresh)."""

    name = "host.shape_set_dim_num"

    buffer = operand_def(ShapeBufferType)
    rank = operand_def(i64)

    assembly_format = "$buffer `,` $rank attr-dict"

    def __init__(self, buffer: SSAValue, rank: SSAValue) -> None:
        super().__init__(operands=[buffer, rank])


@irdl_op_definition
class ShapeSetDimOp(IRDLOperation):
    """`y->SetDim(d, v)`: one dim, which must be below the rank."""

    name = "host.shape_set_dim"

    buffer = operand_def(ShapeBufferType)
    dim = operand_def(i64)
    value = operand_def(i64)

    assembly_format = "$buffer `[` $dim `]` `,` $value attr-dict"

    def __init__(self, buffer: SSAValue, dim: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[buffer, dim, value])


@irdl_op_definition
class ShapeAppendDimOp(IRDLOperation):
    """`y->AppendDim(v)`: one more dim at the end."""

    name = "host.shape_append_dim"

    buffer = operand_def(ShapeBufferType)
    value = operand_def(i64)

    assembly_format = "$buffer `,` $value attr-dict"

    def __init__(self, buffer: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[buffer, value])
