"""The `host` dialect: the gert / platform API seen by an AscendC host tiling function.

`ge::graphStatus TilingFunc(gert::TilingContext* context)` lowers to a `func.func` taking one
`!host.tiling_context` and returning the graphStatus as `i32`. Its scalar C++ becomes `arith`, `scf`
and `memref` cells; every call into the runtime becomes one small op here:

* queries: input/output shapes and dtypes, operator attributes, the platform's core counts and memory
  sizes. They are pure, so later passes may fold or drop them;
* effects on the context: block dim, tiling key, workspace sizes;
* the tiling struct: `host.tiling_data` is the context's own buffer viewed as a POD struct
  (`GetTilingData<S>()`), `host.tiling_local` a legacy `BEGIN_TILING_DATA_DEF` object that only reaches
  the context through `host.tiling_save` (`SaveToBuffer` + `SetDataSize`).

Integer results use signless `i64` (`i32` for `ge::DataType` values, `i1` for predicates); the lowering
casts to the C++ width it needs. `ascendir.host_eval` interprets these ops for concrete shapes.

`ge::graphStatus InferShape(gert::InferShapeContext* context)` lowers the same way, to a `func.func`
taking one `!host.infer_shape_context`. The input and attribute queries take either context (on an
InferShape context they print `of !host.infer_shape_context`); the output shapes it computes are
`!host.shape_buffer`s, the one kind of mutable object here: `host.output_shape_buffer` names an output's
gert::Shape, `host.shape_set_dim_num` / `host.shape_set_dim` / `host.shape_append_dim` / `host.shape_assign`
write one, and `host.shape_read` takes its current dims as an ordinary `!host.shape` value.

Examples:

    func.func @TilingFunc(%ctx: !host.tiling_context) -> i32 {
      %x = host.input_shape %ctx[0] origin
      %n = host.shape_size %x
      %td = host.tiling_data %ctx : !host.tiling_data<"AddTilingData">
      host.tiling_set %td["totalLength"], %n unsigned : !host.tiling_data<"AddTilingData">, i64
      ...
    }

    func.func @InferShape(%ctx: !host.infer_shape_context) -> i32 {
      %x = host.input_shape %ctx[0] origin of !host.infer_shape_context
      %y = host.output_shape_buffer %ctx[0]
      host.shape_assign %y, %x
      ...
    }
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    AnyFloatConstr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    UnitAttr,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
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

# ----------------------------------------------------------------------------------------------------
# Data: ge::DataType and graphStatus
# ----------------------------------------------------------------------------------------------------

# Numeric values of `ge::DataType`, from the public CANN headers (graph/types.h). The lowering turns
# `ge::DT_FLOAT16` into `arith.constant 1 : i32`; `host.input_dtype` yields the same numbers.
GE_DATA_TYPES: dict[str, int] = {
    "DT_FLOAT": 0,
    "DT_FLOAT16": 1,
    "DT_INT8": 2,
    "DT_INT32": 3,
    "DT_UINT8": 4,
    "DT_INT16": 6,
    "DT_UINT16": 7,
    "DT_UINT32": 8,
    "DT_INT64": 9,
    "DT_UINT64": 10,
    "DT_DOUBLE": 11,
    "DT_BOOL": 12,
    "DT_STRING": 13,
    "DT_DUAL_SUB_INT8": 14,
    "DT_DUAL_SUB_UINT8": 15,
    "DT_COMPLEX64": 16,
    "DT_COMPLEX128": 17,
    "DT_QINT8": 18,
    "DT_QINT16": 19,
    "DT_QINT32": 20,
    "DT_QUINT8": 21,
    "DT_QUINT16": 22,
    "DT_RESOURCE": 23,
    "DT_STRING_REF": 24,
    "DT_DUAL": 25,
    "DT_VARIANT": 26,
    "DT_BF16": 27,
    "DT_UNDEFINED": 28,
    "DT_INT4": 29,
    "DT_UINT1": 30,
    "DT_INT2": 31,
    "DT_UINT2": 32,
    "DT_COMPLEX32": 33,
    "DT_HIFLOAT8": 34,
}

# numpy-style dtype names (what callers of the evaluator write) to `ge::DataType` names.
NUMPY_TO_GE: dict[str, str] = {
    "float32": "DT_FLOAT",
    "float16": "DT_FLOAT16",
    "int8": "DT_INT8",
    "int32": "DT_INT32",
    "uint8": "DT_UINT8",
    "int16": "DT_INT16",
    "uint16": "DT_UINT16",
    "uint32": "DT_UINT32",
    "int64": "DT_INT64",
    "uint64": "DT_UINT64",
    "float64": "DT_DOUBLE",
    "bool": "DT_BOOL",
    "bfloat16": "DT_BF16",
    # a complex tensor is pairs of floats in memory (real, imaginary); the host sees its own dtype
    "complex64": "DT_COMPLEX64",
    "complex128": "DT_COMPLEX128",
}

# Bytes per element, as `ge::GetSizeByDataType` reports them.
GE_DATA_TYPE_SIZES: dict[int, int] = {
    GE_DATA_TYPES["DT_FLOAT"]: 4,
    GE_DATA_TYPES["DT_FLOAT16"]: 2,
    GE_DATA_TYPES["DT_INT8"]: 1,
    GE_DATA_TYPES["DT_INT32"]: 4,
    GE_DATA_TYPES["DT_UINT8"]: 1,
    GE_DATA_TYPES["DT_INT16"]: 2,
    GE_DATA_TYPES["DT_UINT16"]: 2,
    GE_DATA_TYPES["DT_UINT32"]: 4,
    GE_DATA_TYPES["DT_INT64"]: 8,
    GE_DATA_TYPES["DT_UINT64"]: 8,
    GE_DATA_TYPES["DT_DOUBLE"]: 8,
    GE_DATA_TYPES["DT_BOOL"]: 1,
    GE_DATA_TYPES["DT_BF16"]: 2,
    GE_DATA_TYPES["DT_COMPLEX64"]: 8,
    GE_DATA_TYPES["DT_COMPLEX128"]: 16,
    GE_DATA_TYPES["DT_COMPLEX32"]: 4,
    GE_DATA_TYPES["DT_QINT8"]: 1,
    GE_DATA_TYPES["DT_QINT16"]: 2,
    GE_DATA_TYPES["DT_QINT32"]: 4,
    GE_DATA_TYPES["DT_QUINT8"]: 1,
    GE_DATA_TYPES["DT_QUINT16"]: 2,
    GE_DATA_TYPES["DT_HIFLOAT8"]: 1,
}

# `ge::graphStatus` is a uint32_t; a TilingFunc returns one of these.
GRAPH_SUCCESS = 0
GRAPH_FAILED = 0xFFFFFFFF

# The Matmul high-level API's host tiling objects (`matmul_tiling::MultiCoreMatmulTiling`,
# `MatmulApiTiling`) take their own enums. Values from the devkit's `matmul_tiling_base.h`
# (cannmirror/asc-devkit include/adv_api/matmul). `matmul_tiling::DataType` agrees with `ge::DataType`
# wherever both name a type.
MATMUL_POSITIONS: dict[str, int] = {
    "GM": 0, "A1": 1, "A2": 2, "B1": 3, "B2": 4, "C1": 5, "C2": 6, "CO1": 7, "CO2": 8, "VECIN": 9,
    "VECOUT": 10, "VECCALC": 11, "LCM": 11, "SPM": 12, "SHM": 12, "TSCM": 13,
}  # fmt: skip
MATMUL_FORMATS: dict[str, int] = {
    "ND": 0, "NZ": 1, "ZN": 2, "ZZ": 3, "NN": 4, "ND_ALIGN": 5, "SCALAR": 6, "VECTOR": 7, "ROW_MAJOR": 0,
    "COLUMN_MAJOR": 8,
}  # fmt: skip
MATMUL_DATA_TYPES: dict[str, int] = {
    **GE_DATA_TYPES, "DT_INT4": 29, "DT_BFLOAT16": 33, "DT_HIFLOAT8": 34, "DT_FLOAT8_E4M3FN": 35,
    "DT_FLOAT8_E5M2": 36, "DT_FLOAT4_E2M1": 37, "DT_FLOAT8_E8M0": 38, "DT_FLOAT4_E1M2": 39,
}  # fmt: skip
# Bits per element of the types the tiling library sizes buffers for (its DTYPE_BIT_TAB); for any other
# type GetTiling throws instead of returning.
MATMUL_DTYPE_BITS: dict[int, int] = {
    0: 32, 1: 16, 2: 8, 6: 16, 7: 16, 4: 8, 3: 32, 9: 64, 8: 32, 10: 64, 27: 16, 33: 16, 29: 4, 37: 4, 39: 4,
    34: 8, 35: 8, 36: 8, 38: 8,
}  # fmt: skip


# ----------------------------------------------------------------------------------------------------
# Enums used as op properties (printed as bare keywords)
# ----------------------------------------------------------------------------------------------------


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


# ----------------------------------------------------------------------------------------------------
# Types
# ----------------------------------------------------------------------------------------------------


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


def _check_index(index: IntegerAttr, what: str) -> None:
    if index.value.data < 0:
        raise VerifyException(f"{what} index must be non-negative, got {index.value.data}")


def _index_operands(context: SSAValue, at: SSAValue | None) -> list[SSAValue | list[SSAValue]]:
    """The operands of a tensor query. Its tensor index is the `index` property plus, when present, the
    runtime value of its `at` operand: `context->GetInputShape(i)` in a loop over the inputs (foreach ops)
    has `i` there, printed `%ctx[0 + %i]`."""
    return [context, [at] if at is not None else []]


# ----------------------------------------------------------------------------------------------------
# Tensor queries
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class InputShapeOp(IRDLOperation):
    """`context->GetInputShape(i)->GetOriginShape()` (or `GetStorageShape()`); on an InferShape context,
    `context->GetInputShape(i)` itself, which is the origin shape."""

    name = "host.input_shape"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    kind = prop_def(ShapeKindAttr)
    result = result_def(ShapeType)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` $kind custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, kind: ShapeKind = ShapeKind.ORIGIN,
                 at: SSAValue | None = None) -> None:
        super().__init__(
            operands=_index_operands(context, at),
            properties={"index": IntegerAttr(index, i64), "kind": ShapeKindAttr(kind)},
            result_types=[ShapeType()],
        )

    def verify_(self) -> None:
        _check_index(self.index, "input")


@irdl_op_definition
class OutputShapeOp(IRDLOperation):
    """`context->GetOutputShape(i)->GetOriginShape()` (or `GetStorageShape()`)."""

    name = "host.output_shape"

    context = operand_def(TilingContextType)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    kind = prop_def(ShapeKindAttr)
    result = result_def(ShapeType)

    traits = traits_def(Pure())
    assembly_format = "$context `[` $index (`+` $at^)? `]` $kind attr-dict"

    def __init__(self, context: SSAValue, index: int, kind: ShapeKind = ShapeKind.ORIGIN,
                 at: SSAValue | None = None) -> None:
        super().__init__(
            operands=_index_operands(context, at),
            properties={"index": IntegerAttr(index, i64), "kind": ShapeKindAttr(kind)},
            result_types=[ShapeType()],
        )

    def verify_(self) -> None:
        _check_index(self.index, "output")


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
class HasInputOp(IRDLOperation):
    """`context->GetOptionalInputShape(i) != nullptr`: whether an optional input is present."""

    name = "host.has_input"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(i1)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(operands=_index_operands(context, at), properties={"index": IntegerAttr(index, i64)},
                         result_types=[i1])

    def verify_(self) -> None:
        _check_index(self.index, "input")


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
class InputDtypeOp(IRDLOperation):
    """`context->GetInputDesc(i)->GetDataType()` as its `ge::DataType` number."""

    name = "host.input_dtype"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(i32)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(
            operands=_index_operands(context, at), properties={"index": IntegerAttr(index, i64)},
            result_types=[i32],
        )

    def verify_(self) -> None:
        _check_index(self.index, "input")


@irdl_op_definition
class OutputDtypeOp(IRDLOperation):
    """`context->GetOutputDesc(i)->GetDataType()` as its `ge::DataType` number."""

    name = "host.output_dtype"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(i32)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(
            operands=_index_operands(context, at), properties={"index": IntegerAttr(index, i64)},
            result_types=[i32],
        )

    def verify_(self) -> None:
        _check_index(self.index, "output")


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


# ----------------------------------------------------------------------------------------------------
# Output shapes of an InferShape function
# ----------------------------------------------------------------------------------------------------

# gert::Shape::kMaxDimNum: the dims a gert::Shape holds, in a fixed array.
MAX_DIM_NUM = 25


@irdl_op_definition
class OutputShapeBufferOp(IRDLOperation):
    """`context->GetOutputShape(i)` of an InferShape context: the output's shape, which the function fills."""

    name = "host.output_shape_buffer"

    context = operand_def(InferShapeContextType)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(ShapeBufferType)

    # the same object every time: reading or writing it goes through the ops below
    traits = traits_def(Pure())
    assembly_format = "$context `[` $index (`+` $at^)? `]` attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(
            operands=_index_operands(context, at),
            properties={"index": IntegerAttr(index, i64)},
            result_types=[ShapeBufferType()],
        )

    def verify_(self) -> None:
        _check_index(self.index, "output")


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


# ----------------------------------------------------------------------------------------------------
# Operator attributes
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class AttrOp(IRDLOperation):
    """`context->GetAttrs()->GetInt(i)` and friends; the getter follows the result type.

    `i64` GetInt, `f32` GetFloat, `i1` GetBool, `!host.string` GetStr, `!host.int_list` GetListInt.
    """

    name = "host.attr"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    result = result_def(AnyAttr())

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index `]` custom<ContextOf>(type($context)) attr-dict `:` type($result)"

    def __init__(self, context: SSAValue, index: int, kind: str) -> None:
        super().__init__(
            operands=[context],
            properties={"index": IntegerAttr(index, i64)},
            result_types=[ATTR_RESULT_TYPES[kind]],
        )

    @property
    def kind(self) -> str:
        """The attribute kind read: int, float, bool, str or list_int."""
        for kind, typ in ATTR_RESULT_TYPES.items():
            if typ == self.result.type:
                return kind
        raise ValueError(f"host.attr has no kind for result type {self.result.type}")

    def verify_(self) -> None:
        _check_index(self.index, "attribute")
        if self.result.type not in ATTR_RESULT_TYPES.values():
            allowed = ", ".join(str(t) for t in ATTR_RESULT_TYPES.values())
            raise VerifyException(f"host.attr result must be one of {allowed}, got {self.result.type}")


@irdl_op_definition
class HasAttrOp(IRDLOperation):
    """`context->GetAttrs()->GetAttrPointer<T>(i) != nullptr`: whether an optional attribute is set."""

    name = "host.has_attr"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    result = result_def(i1)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int) -> None:
        super().__init__(operands=[context], properties={"index": IntegerAttr(index, i64)}, result_types=[i1])

    def verify_(self) -> None:
        _check_index(self.index, "attribute")


@irdl_op_definition
class StrEqOp(IRDLOperation):
    """`strcmp(s, "literal") == 0` / `std::string(s) == "literal"`."""

    name = "host.str_eq"

    value = operand_def(StringType)
    literal = prop_def(StringAttr)
    result = result_def(i1)

    traits = traits_def(Pure())
    assembly_format = "$value `,` $literal attr-dict"

    def __init__(self, value: SSAValue, literal: str) -> None:
        super().__init__(operands=[value], properties={"literal": StringAttr(literal)}, result_types=[i1])


@irdl_op_definition
class InputValuesOp(IRDLOperation):
    """`context->GetInputTensor(i)->GetData<T>()` of an integer T: the input tensor's element values (a host
    tiling function that reads a shape or index list passed as a tensor: Fill's dims, StridedSlice's begin/end),
    read as a list like a list-of-int attribute's."""

    name = "host.input_values"

    context = operand_def(AnyContext)
    index = prop_def(IntegerAttr[I64])
    at = opt_operand_def(i64)
    result = result_def(IntListType)

    traits = traits_def(Pure())
    custom_directives = (ContextOf,)
    assembly_format = "$context `[` $index (`+` $at^)? `]` custom<ContextOf>(type($context)) attr-dict"

    def __init__(self, context: SSAValue, index: int, at: SSAValue | None = None) -> None:
        super().__init__(operands=_index_operands(context, at), properties={"index": IntegerAttr(index, i64)},
                         result_types=[IntListType()])

    def verify_(self) -> None:
        _check_index(self.index, "input")


@irdl_op_definition
class ListSizeOp(IRDLOperation):
    """`list->GetSize()` of a list-of-int attribute."""

    name = "host.list_size"

    list = operand_def(IntListType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$list attr-dict"

    def __init__(self, list_value: SSAValue) -> None:
        super().__init__(operands=[list_value], result_types=[i64])


@irdl_op_definition
class ListGetOp(IRDLOperation):
    """`list->GetData()[i]` of a list-of-int attribute."""

    name = "host.list_get"

    list = operand_def(IntListType)
    position = operand_def(i64)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$list `[` $position `]` attr-dict"

    def __init__(self, list_value: SSAValue, position: SSAValue) -> None:
        super().__init__(operands=[list_value, position], result_types=[i64])


# ----------------------------------------------------------------------------------------------------
# Platform
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class PlatformOp(IRDLOperation):
    """`platform_ascendc::PlatformAscendC(context->GetPlatformInfo())`."""

    name = "host.platform"

    context = operand_def(TilingContextType)
    result = result_def(PlatformType)

    traits = traits_def(Pure())
    assembly_format = "$context attr-dict"

    def __init__(self, context: SSAValue) -> None:
        super().__init__(operands=[context], result_types=[PlatformType()])


@irdl_op_definition
class CoreNumOp(IRDLOperation):
    """`platform.GetCoreNumAiv()` / `GetCoreNumAic()` / `GetCoreNumVector()`."""

    name = "host.core_num"

    platform = operand_def(PlatformType)
    kind = prop_def(CoreKindAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform $kind attr-dict"

    def __init__(self, platform: SSAValue, kind: CoreKind) -> None:
        super().__init__(operands=[platform], properties={"kind": CoreKindAttr(kind)}, result_types=[i64])


@irdl_op_definition
class MemSizeOp(IRDLOperation):
    """`platform.GetCoreMemSize(CoreMemType::X, size)`: bytes of one memory."""

    name = "host.mem_size"

    platform = operand_def(PlatformType)
    space = prop_def(MemSpaceAttr)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform $space attr-dict"

    def __init__(self, platform: SSAValue, space: MemSpace) -> None:
        super().__init__(operands=[platform], properties={"space": MemSpaceAttr(space)}, result_types=[i64])


# platform_ascendc::SocVersion (asc-devkit include/utils/tiling/platform/platform_ascendc.h)
SOC_VERSIONS: dict[str, int] = {
    "ASCEND910": 0, "ASCEND910B": 1, "ASCEND310P": 2, "ASCEND310B": 3, "ASCEND950": 4, "ASCEND910_95": 4,
    "ASCEND910_55": 5,
}  # fmt: skip


@irdl_op_definition
class SocVersionOp(IRDLOperation):
    """`platform.GetSocVersion()`: the chip's platform_ascendc::SocVersion, as its number."""

    name = "host.soc_version"

    platform = operand_def(PlatformType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform attr-dict"

    def __init__(self, platform: SSAValue) -> None:
        super().__init__(operands=[platform], result_types=[i64])


@irdl_op_definition
class LibWorkspaceSizeOp(IRDLOperation):
    """`platform.GetLibApiWorkSpaceSize()`: the system workspace the high-level APIs need."""

    name = "host.lib_workspace_size"

    platform = operand_def(PlatformType)
    result = result_def(i64)

    traits = traits_def(Pure())
    assembly_format = "$platform attr-dict"

    def __init__(self, platform: SSAValue) -> None:
        super().__init__(operands=[platform], result_types=[i64])


# ----------------------------------------------------------------------------------------------------
# Effects on the context
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class SetBlockDimOp(IRDLOperation):
    """`context->SetBlockDim(n)`."""

    name = "host.set_block_dim"

    context = operand_def(TilingContextType)
    value = operand_def(IntegerType)

    assembly_format = "$context `,` $value attr-dict `:` type($value)"

    def __init__(self, context: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[context, value])


@irdl_op_definition
class SetTilingKeyOp(IRDLOperation):
    """`context->SetTilingKey(k)`."""

    name = "host.set_tiling_key"

    context = operand_def(TilingContextType)
    value = operand_def(IntegerType)

    assembly_format = "$context `,` $value attr-dict `:` type($value)"

    def __init__(self, context: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[context, value])


@irdl_op_definition
class SetWorkspaceOp(IRDLOperation):
    """`context->GetWorkspaceSizes(n)[i] = bytes`."""

    name = "host.set_workspace"

    context = operand_def(TilingContextType)
    index = prop_def(IntegerAttr[I64])
    value = operand_def(IntegerType)

    assembly_format = "$context `[` $index `]` `,` $value attr-dict `:` type($value)"

    def __init__(self, context: SSAValue, index: int, value: SSAValue) -> None:
        super().__init__(operands=[context, value], properties={"index": IntegerAttr(index, i64)})

    def verify_(self) -> None:
        _check_index(self.index, "workspace")


# ----------------------------------------------------------------------------------------------------
# Tiling struct
# ----------------------------------------------------------------------------------------------------


@irdl_op_definition
class TilingDataOp(IRDLOperation):
    """`context->GetTilingData<S>()`: the context's tiling buffer viewed as struct S."""

    name = "host.tiling_data"

    context = operand_def(TilingContextType)
    result = result_def(TilingDataType)

    assembly_format = "$context attr-dict `:` type($result)"

    def __init__(self, context: SSAValue, struct_name: str) -> None:
        super().__init__(operands=[context], result_types=[TilingDataType(struct_name)])


@irdl_op_definition
class TilingLocalOp(IRDLOperation):
    """`S tiling;` for a legacy `BEGIN_TILING_DATA_DEF(S)` class: zero-filled, saved with `host.tiling_save`."""

    name = "host.tiling_local"

    result = result_def(TilingDataType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, struct_name: str) -> None:
        super().__init__(result_types=[TilingDataType(struct_name)])


def _is_field_value_type(typ: Attribute) -> bool:
    if isinstance(typ, IntegerType | AnyFloat):
        return True
    # a C array assigned whole (`tiling.set_shape(shapeArr)`)
    return isinstance(typ, MemRefType) and isinstance(typ.element_type, IntegerType | AnyFloat)


@irdl_op_definition
class TilingSetOp(IRDLOperation):
    """`tiling.set_f(v)` / `td->f = v`, or `td->f[i] = v` with an index; `unsigned` for unsigned fields."""

    name = "host.tiling_set"

    data = operand_def(TilingDataType)
    field = prop_def(StringAttr)
    position = opt_operand_def(i64)
    value = operand_def(AnyAttr())
    is_unsigned = opt_prop_def(UnitAttr, prop_name="unsigned")

    assembly_format = (
        "$data `[` $field `]` (`` `[` $position^ `]`)? `,` $value (`unsigned` $unsigned^)? "
        "attr-dict `:` type($data) `,` type($value)"
    )

    def __init__(
        self,
        data: SSAValue,
        field: str,
        value: SSAValue,
        position: SSAValue | None = None,
        is_unsigned: bool = False,
    ) -> None:
        super().__init__(
            operands=[data, position, value],
            properties={"field": StringAttr(field), **({"unsigned": UnitAttr()} if is_unsigned else {})},
        )

    def verify_(self) -> None:
        if not _is_field_value_type(self.value.type):
            raise VerifyException(
                f"host.tiling_set value must be an integer, a float or a memref of them, got {self.value.type}"
            )
        if self.position is not None and isinstance(self.value.type, MemRefType):
            raise VerifyException("host.tiling_set with an index takes a scalar value")


@irdl_op_definition
class TilingGetOp(IRDLOperation):
    """Reads back a field (`tiling.get_f()` / `td->f`), or `td->f[i]` with an index."""

    name = "host.tiling_get"

    data = operand_def(TilingDataType)
    field = prop_def(StringAttr)
    position = opt_operand_def(i64)
    result = result_def(base(IntegerType) | AnyFloatConstr)

    assembly_format = (
        "$data `[` $field `]` (`` `[` $position^ `]`)? attr-dict `:` type($data) `->` type($result)"
    )

    def __init__(
        self, data: SSAValue, field: str, result_type: Attribute, position: SSAValue | None = None
    ) -> None:
        super().__init__(
            operands=[data, position], properties={"field": StringAttr(field)}, result_types=[result_type]
        )


@irdl_op_definition
class TilingSaveOp(IRDLOperation):
    """`tiling.SaveToBuffer(...)` + `SetDataSize(...)`: copies a local tiling struct into the context."""

    name = "host.tiling_save"

    data = operand_def(TilingDataType)
    context = operand_def(TilingContextType)

    assembly_format = "$data `,` $context attr-dict `:` type($data)"

    def __init__(self, data: SSAValue, context: SSAValue) -> None:
        super().__init__(operands=[data, context])


# ----------------------------------------------------------------------------------------------------
# Matmul API tiling objects
# ----------------------------------------------------------------------------------------------------
#
# `matmul_tiling::MultiCoreMatmulTiling` / `MatmulApiTiling` are library objects: the setters record the
# configuration, `host.matmul_get_tiling` runs the checks of the library's GetTiling that reject a
# configuration outright. Where none of them does, GetTiling's result and the TCubeTiling it fills are
# not modelled.


@irdl_op_definition
class MatmulCreateOp(IRDLOperation):
    """`MultiCoreMatmulTiling t(platform);` (`multi_core`) or `MatmulApiTiling t(platform);`.

    Without a platform the object has the library's built-in 910B buffer sizes.
    """

    name = "host.matmul_create"

    platform = opt_operand_def(PlatformType)
    multi_core = opt_prop_def(UnitAttr, prop_name="multi_core")
    result = result_def(MatmulTilingType)

    assembly_format = "(`(` $platform^ `)`)? (`multi_core` $multi_core^)? attr-dict"

    def __init__(self, platform: SSAValue | None, multi_core: bool) -> None:
        super().__init__(
            operands=[platform],
            properties={"multi_core": UnitAttr()} if multi_core else {},
            result_types=[MatmulTilingType()],
        )


@irdl_op_definition
class MatmulSetDimOp(IRDLOperation):
    """`t.SetDim(n)`: how many cores the multi-core split may use."""

    name = "host.matmul_set_dim"

    tiling = operand_def(MatmulTilingType)
    dim = operand_def(i32)

    assembly_format = "$tiling `,` $dim attr-dict"

    def __init__(self, tiling: SSAValue, dim: SSAValue) -> None:
        super().__init__(operands=[tiling, dim])


@irdl_op_definition
class MatmulSetTypeOp(IRDLOperation):
    """`t.SetAType(pos, format, dtype, isTrans)` and `SetBType`, `SetCType`, `SetBiasType` (enum values)."""

    name = "host.matmul_set_type"

    tiling = operand_def(MatmulTilingType)
    matrix = prop_def(MatmulMatrixAttr)
    position = operand_def(i32)
    format = operand_def(i32)
    dtype = operand_def(i32)
    transposed = operand_def(i1)

    assembly_format = "$tiling $matrix `,` $position `,` $format `,` $dtype `,` $transposed attr-dict"

    def __init__(
        self,
        tiling: SSAValue,
        matrix: MatmulMatrix,
        position: SSAValue,
        format: SSAValue,
        dtype: SSAValue,
        transposed: SSAValue,
    ) -> None:
        super().__init__(
            operands=[tiling, position, format, dtype, transposed],
            properties={"matrix": MatmulMatrixAttr(matrix)},
        )


@irdl_op_definition
class MatmulSetShapeOp(IRDLOperation):
    """`t.SetShape(m, n, k)`, `t.SetOrgShape(m, n, ka[, kb])` or `t.SetSingleShape(m, n, k)`."""

    name = "host.matmul_set_shape"

    tiling = operand_def(MatmulTilingType)
    kind = prop_def(MatmulShapeKindAttr)
    m = operand_def(i32)
    n = operand_def(i32)
    k = operand_def(i32)
    kb = opt_operand_def(i32)

    assembly_format = "$tiling $kind `,` $m `,` $n `,` $k (`,` $kb^)? attr-dict"

    def __init__(
        self,
        tiling: SSAValue,
        kind: MatmulShapeKind,
        m: SSAValue,
        n: SSAValue,
        k: SSAValue,
        kb: SSAValue | None = None,
    ) -> None:
        super().__init__(operands=[tiling, m, n, k, kb], properties={"kind": MatmulShapeKindAttr(kind)})

    def verify_(self) -> None:
        if self.kb is not None and self.kind.data != MatmulShapeKind.ORG:
            raise VerifyException("only SetOrgShape takes a separate K of B")


@irdl_op_definition
class MatmulSetFixSplitOp(IRDLOperation):
    """`t.SetFixSplit(baseM, baseN, baseK)`: fixed base block sizes (-1 leaves one free); returns 0 or -1."""

    name = "host.matmul_set_fix_split"

    tiling = operand_def(MatmulTilingType)
    base_m = operand_def(i32)
    base_n = operand_def(i32)
    base_k = operand_def(i32)
    result = result_def(i32)

    assembly_format = "$tiling `,` $base_m `,` $base_n `,` $base_k attr-dict"

    def __init__(self, tiling: SSAValue, base_m: SSAValue, base_n: SSAValue, base_k: SSAValue) -> None:
        super().__init__(operands=[tiling, base_m, base_n, base_k], result_types=[i32])


@irdl_op_definition
class MatmulSetBiasOp(IRDLOperation):
    """`t.SetBias(b)` / `t.EnableBias(b)`."""

    name = "host.matmul_set_bias"

    tiling = operand_def(MatmulTilingType)
    enabled = operand_def(i1)

    assembly_format = "$tiling `,` $enabled attr-dict"

    def __init__(self, tiling: SSAValue, enabled: SSAValue) -> None:
        super().__init__(operands=[tiling, enabled])


@irdl_op_definition
class MatmulSetBufferSpaceOp(IRDLOperation):
    """`t.SetBufferSpace(l1, l0c, ub, bt)`: the bytes the tiling may use (-1: all); returns 0 or -1."""

    name = "host.matmul_set_buffer_space"

    tiling = operand_def(MatmulTilingType)
    l1 = operand_def(i32)
    l0c = operand_def(i32)
    ub = operand_def(i32)
    bt = operand_def(i32)
    result = result_def(i32)

    assembly_format = "$tiling `,` $l1 `,` $l0c `,` $ub `,` $bt attr-dict"

    def __init__(self, tiling: SSAValue, l1: SSAValue, l0c: SSAValue, ub: SSAValue, bt: SSAValue) -> None:
        super().__init__(operands=[tiling, l1, l0c, ub, bt], result_types=[i32])


@irdl_op_definition
class MatmulConfigureOp(IRDLOperation):
    """A setter such as `SetTraverse` or `SetMatmulConfigParams`, recorded by name only.

    None of them changes what the early checks of GetTiling read (the base sizes, the buffer sizes, the
    shapes, the types, the bias); they do steer the later search, which is then not modelled.
    """

    name = "host.matmul_configure"

    tiling = operand_def(MatmulTilingType)
    method = prop_def(StringAttr)

    assembly_format = "$tiling `,` $method attr-dict"

    def __init__(self, tiling: SSAValue, method: str) -> None:
        super().__init__(operands=[tiling], properties={"method": StringAttr(method)})


@irdl_op_definition
class MatmulUnknownOp(IRDLOperation):
    """A call on the object that the lowering left out: from here on the object's state is unknown."""

    name = "host.matmul_unknown"

    tiling = operand_def(MatmulTilingType)
    what = prop_def(StringAttr)

    assembly_format = "$tiling `,` $what attr-dict"

    def __init__(self, tiling: SSAValue, what: str) -> None:
        super().__init__(operands=[tiling], properties={"what": StringAttr(what)})


@irdl_op_definition
class MatmulGetTilingOp(IRDLOperation):
    """`t.GetTiling(tilingData.cubeTilingData)`: -1 where the library's checks provably reject the
    configuration; otherwise 0, and the TCubeTiling at `path` of `data` (when the argument names a tiling
    struct field) is filled from a model of the library's split (ascendir.matmul_tiling)."""

    name = "host.matmul_get_tiling"

    tiling = operand_def(MatmulTilingType)
    data = opt_operand_def(TilingDataType)
    path = opt_prop_def(StringAttr)
    result = result_def(i64)

    assembly_format = "$tiling (`into` $data^ `:` type($data))? attr-dict"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, tiling: SSAValue, data: SSAValue | None = None, path: str | None = None) -> None:
        super().__init__(operands=[tiling, data], result_types=[i64],
                         properties={"path": StringAttr(path)} if path is not None else {})


Host = Dialect(
    "host",
    [
        InputShapeOp,
        OutputShapeOp,
        DynamicInputIndexOp,
        InputCountOp,
        HasInputOp,
        ShapeDimOp,
        ShapeDimNumOp,
        ShapeSizeOp,
        InputDtypeOp,
        OutputDtypeOp,
        DtypeSizeOp,
        OutputShapeBufferOp,
        ShapeLocalOp,
        ShapeReadOp,
        ShapeEqOp,
        MakeShapeOp,
        ShapeAssignOp,
        ShapeSetDimNumOp,
        ShapeSetDimOp,
        ShapeAppendDimOp,
        AttrOp,
        HasAttrOp,
        StrEqOp,
        ListSizeOp,
        ListGetOp,
        InputValuesOp,
        InputInstanceNumOp,
        PlatformOp,
        CoreNumOp,
        MemSizeOp,
        LibWorkspaceSizeOp,
        SocVersionOp,
        SetBlockDimOp,
        SetTilingKeyOp,
        SetWorkspaceOp,
        TilingDataOp,
        TilingLocalOp,
        TilingSetOp,
        TilingGetOp,
        TilingSaveOp,
        MatmulCreateOp,
        MatmulSetDimOp,
        MatmulSetTypeOp,
        MatmulSetShapeOp,
        MatmulSetFixSplitOp,
        MatmulSetBiasOp,
        MatmulSetBufferSpaceOp,
        MatmulConfigureOp,
        MatmulUnknownOp,
        MatmulGetTilingOp,
    ],
    [
        TilingContextType,
        InferShapeContextType,
        ShapeType,
        ShapeBufferType,
        PlatformType,
        StringType,
        IntListType,
        TilingDataType,
        MatmulTilingType,
        ShapeKindAttr,
        CoreKindAttr,
        MemSpaceAttr,
        MatmulMatrixAttr,
        MatmulShapeKindAttr,
    ],
)
