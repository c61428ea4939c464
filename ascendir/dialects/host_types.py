"""Types, enum properties and shared op pieces of the host dialect: the context, shape, platform, string,
list, tiling-struct and matmul-object types, the enums printed as bare keywords, the
`of !host.infer_shape_context` directive, and what the tensor queries share (TensorQueryOp: `%ctx[0 + %i]`).

A module of its own because every op family (host_*_ops.py) builds on it.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, f32, i1, i64
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_attr_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    traits_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class ShapeKind(StrEnum):
    """Which view of a tensor's shape: `GetOriginShape()` or `GetStorageShape()`."""

    ORIGIN = "origin"
    STORAGE = "storage"


class CoreKind(StrEnum):
    """Which core count: `GetCoreNumAiv()`, `GetCoreNumAic()` or `GetCoreNumVector()`."""

    AIV = "aiv"
    AIC = "aic"
    VECTOR = "vector"


class MemSpace(StrEnum):
    """`platform_ascendc::CoreMemType` values accepted by `GetCoreMemSize`."""

    UB = "UB"
    L1 = "L1"
    L0_A = "L0_A"
    L0_B = "L0_B"
    L0_C = "L0_C"
    L2 = "L2"
    HBM = "HBM"


class MatmulMatrix(StrEnum):
    """Which operand a matmul tiling `SetXType` call describes."""

    A = "a"
    B = "b"
    C = "c"
    BIAS = "bias"


class MatmulShapeKind(StrEnum):
    """Which shape a matmul tiling call sets: `SetShape`, `SetOrgShape` or `SetSingleShape`."""

    SHAPE = "shape"
    ORG = "org"
    SINGLE_CORE = "single_core"


@irdl_attr_definition
class ShapeKindAttr(EnumAttribute[ShapeKind], SpacedOpaqueSyntaxAttribute):
    """Origin or storage shape."""

    name = "host.shape_kind"


@irdl_attr_definition
class CoreKindAttr(EnumAttribute[CoreKind], SpacedOpaqueSyntaxAttribute):
    """Kind of core being counted."""

    name = "host.core_kind"


@irdl_attr_definition
class MemSpaceAttr(EnumAttribute[MemSpace], SpacedOpaqueSyntaxAttribute):
    """On-chip or off-chip memory whose size is queried."""

    name = "host.mem_space"


@irdl_attr_definition
class MatmulMatrixAttr(EnumAttribute[MatmulMatrix], SpacedOpaqueSyntaxAttribute):
    """A, B, C or bias."""

    name = "host.matmul_matrix"


@irdl_attr_definition
class MatmulShapeKindAttr(EnumAttribute[MatmulShapeKind], SpacedOpaqueSyntaxAttribute):
    """Shape, original shape or single-core shape."""

    name = "host.matmul_shape_kind"


@irdl_attr_definition
class TilingContextType(ParametrizedAttribute, TypeAttribute):
    """`gert::TilingContext*`: the tiling function's only argument."""

    name = "host.tiling_context"


@irdl_attr_definition
class InferShapeContextType(ParametrizedAttribute, TypeAttribute):
    """`gert::InferShapeContext*`: the only argument of an op's InferShape function."""

    name = "host.infer_shape_context"


# The input and attribute queries read the same things through either context.
AnyContext = base(TilingContextType) | base(InferShapeContextType)


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """`gert::Shape`: a tensor's dimensions, as a value (what a query returns; never changes)."""

    name = "host.shape"


@irdl_attr_definition
class ShapeBufferType(ParametrizedAttribute, TypeAttribute):
    """A `gert::Shape` object that an InferShape function writes: an output's shape or a local
    `gert::Shape`. `host.shape_read` gives its current dims as a `!host.shape`."""

    name = "host.shape_buffer"


@irdl_attr_definition
class PlatformType(ParametrizedAttribute, TypeAttribute):
    """`platform_ascendc::PlatformAscendC`: core counts and memory sizes of the target chip."""

    name = "host.platform"


@irdl_attr_definition
class StringType(ParametrizedAttribute, TypeAttribute):
    """A C string, as returned for a string operator attribute."""

    name = "host.string"


@irdl_attr_definition
class IntListType(ParametrizedAttribute, TypeAttribute):
    """`gert::TypedContinuousVector<int64_t>`: a list-of-int operator attribute."""

    name = "host.int_list"


@irdl_attr_definition
class TilingDataType(ParametrizedAttribute, TypeAttribute):
    """A tiling struct (`!host.tiling_data<"AddCustomTilingData">`), named as in the C++ source."""

    name = "host.tiling_data"

    struct_name: StringAttr

    def __init__(self, struct_name: str | StringAttr) -> None:
        if isinstance(struct_name, str):
            struct_name = StringAttr(struct_name)
        super().__init__(struct_name)


@irdl_attr_definition
class MatmulTilingType(ParametrizedAttribute, TypeAttribute):
    """A Matmul API host tiling object (`matmul_tiling::MultiCoreMatmulTiling` or `MatmulApiTiling`)."""

    name = "host.matmul_tiling"


# Result types `host.attr` may produce, one per attribute getter of gert::RuntimeAttrs.
ATTR_RESULT_TYPES: dict[str, Attribute] = {
    "int": i64,
    "float": f32,
    "bool": i1,
    "str": StringType(),
    "list_int": IntListType(),
}


@irdl_custom_directive
class ContextOf(CustomDirective):
    """The type of a query's context operand: implicit for the tiling context, so that tiling IR reads as
    it always did, and written `of !host.infer_shape_context` for the other one."""

    context: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        typ = parser.parse_type() if parser.parse_optional_keyword("of") else TilingContextType()
        self.context.set(state, (typ,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (typ,) = self.context.get(op)
        if isinstance(typ, TilingContextType):
            return
        state.print_whitespace(printer)
        printer.print_string("of ")
        printer.print_attribute(typ)


def check_index(index: IntegerAttr, what: str) -> None:
    if index.value.data < 0:
        raise VerifyException(f"{what} index must be non-negative, got {index.value.data}")


class TensorQueryOp(IRDLOperation):
    """What the queries of one input or output tensor share (host.input_shape, host.has_input, ...): the
    context, and the tensor's index, which is the `index` property plus, when present, the runtime value of
    the `at` operand: `context->GetInputShape(i)` in a loop over the inputs (foreach ops) has `i` there,
    printed `%ctx[0 + %i]`. They are pure. An op declares its name, its result (and any other property), and
    where they differ, its context type and assembly format; TENSOR says which tensors `index` counts."""

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    TENSOR: ClassVar[str] = "input"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None, result_type: Attribute,
                 **properties: Attribute) -> None:
        super().__init__(
            operands=[context, [at] if at is not None else []],
            properties={"index": IntegerAttr(index, i64), **properties},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        check_index(self.index, self.TENSOR)
