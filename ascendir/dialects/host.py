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

The dialect's parts live in modules of their own, by family; this module assembles the dialect (`Host`) and
re-exports every name, so `from ascendir.dialects import host as hd; hd.InputShapeOp` keeps working:

- host_data.py: ge::DataType numbers and sizes, graphStatus, the matmul tiling API's enum values;
- host_types.py: the types, the enum properties, and what the ops share (`of !host.infer_shape_context`,
  the operands of a tensor query);
- host_tensor_ops.py: tensor queries (shapes, dtypes, presence, tensor lists) and reading a shape;
- host_shape_ops.py: the shape buffers an InferShape function writes;
- host_attr_ops.py: operator attributes, strings and lists;
- host_platform_ops.py: the platform (core counts, memory sizes, SoC version);
- host_tiling_ops.py: effects on the context (block dim, tiling key, workspace) and the tiling struct;
- host_matmul_ops.py: matmul API tiling objects.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from ascendir.dialects.host_attr_ops import (
    AttrOp as AttrOp,
    HasAttrOp as HasAttrOp,
    InputValuesOp as InputValuesOp,
    ListGetOp as ListGetOp,
    ListSizeOp as ListSizeOp,
    StrEqOp as StrEqOp,
    StrFindOp as StrFindOp,
    StrConstOp as StrConstOp,
    StrAdvanceOp as StrAdvanceOp,
    StrCharOp as StrCharOp,
    StrIsNullOp as StrIsNullOp,
    StrNullOp as StrNullOp,
    PlatformResOp as PlatformResOp,
)
from ascendir.dialects.host_matmul_ops import (
    MatmulConfigureOp as MatmulConfigureOp,
    MatmulCreateOp as MatmulCreateOp,
    MatmulGetTilingOp as MatmulGetTilingOp,
    MatmulSetBiasOp as MatmulSetBiasOp,
    MatmulSetBufferSpaceOp as MatmulSetBufferSpaceOp,
    MatmulSetDimOp as MatmulSetDimOp,
    MatmulSetFixSplitOp as MatmulSetFixSplitOp,
    MatmulSetShapeOp as MatmulSetShapeOp,
    MatmulSetTypeOp as MatmulSetTypeOp,
    MatmulUnknownOp as MatmulUnknownOp,
)
from ascendir.dialects.host_platform_ops import (
    CHIP_FACTS as CHIP_FACTS,
    ChipFactOp as ChipFactOp,
    CoreNumOp as CoreNumOp,
    LibWorkspaceSizeOp as LibWorkspaceSizeOp,
    MemSizeOp as MemSizeOp,
    PlatformOp as PlatformOp,
    SocVersionOp as SocVersionOp,
)
from ascendir.dialects.host_shape_ops import (
    MakeShapeOp as MakeShapeOp,
    OutputShapeBufferOp as OutputShapeBufferOp,
    ShapeAppendDimOp as ShapeAppendDimOp,
    ShapeAssignOp as ShapeAssignOp,
    ShapeEqOp as ShapeEqOp,
    ShapeLocalOp as ShapeLocalOp,
    ShapeReadOp as ShapeReadOp,
    ShapeSetDimNumOp as ShapeSetDimNumOp,
    ShapeSetDimOp as ShapeSetDimOp,
)
from ascendir.dialects.host_tensor_ops import (
    DtypeSizeOp as DtypeSizeOp,
    DynamicInputIndexOp as DynamicInputIndexOp,
    HasInputOp as HasInputOp,
    InputCountOp as InputCountOp,
    InputDtypeOp as InputDtypeOp,
    InputInstanceNumOp as InputInstanceNumOp,
    InputShapeOp as InputShapeOp,
    OutputDtypeOp as OutputDtypeOp,
    OutputShapeOp as OutputShapeOp,
    ShapeDimNumOp as ShapeDimNumOp,
    ShapeDimOp as ShapeDimOp,
    ShapeSizeOp as ShapeSizeOp,
)
from ascendir.dialects.host_tiling_ops import (
    LeftOutOp as LeftOutOp,
    SetBlockDimOp as SetBlockDimOp,
    SetLocalMemorySizeOp as SetLocalMemorySizeOp,
    SetNeedAtomicOp as SetNeedAtomicOp,
    SetTilingKeyOp as SetTilingKeyOp,
    SetWorkspaceOp as SetWorkspaceOp,
    WorkspaceGetOp as WorkspaceGetOp,
    TilingDataOp as TilingDataOp,
    TilingGetOp as TilingGetOp,
    TilingLocalOp as TilingLocalOp,
    TilingSaveOp as TilingSaveOp,
    TilingSetOp as TilingSetOp,
)
from ascendir.dialects.host_types import (
    CoreKindAttr as CoreKindAttr,
    InferShapeContextType as InferShapeContextType,
    IntListType as IntListType,
    MatmulMatrixAttr as MatmulMatrixAttr,
    MatmulShapeKindAttr as MatmulShapeKindAttr,
    MatmulTilingType as MatmulTilingType,
    MemSpaceAttr as MemSpaceAttr,
    PlatformType as PlatformType,
    ShapeBufferType as ShapeBufferType,
    ShapeKindAttr as ShapeKindAttr,
    ShapeType as ShapeType,
    StringType as StringType,
    TensorQueryOp as TensorQueryOp,
    TilingContextType as TilingContextType,
    TilingDataType as TilingDataType,
)

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.dialects.host_data import (
    GE_DATA_TYPES as GE_DATA_TYPES,
    GE_DATA_TYPE_SIZES as GE_DATA_TYPE_SIZES,
    GRAPH_FAILED as GRAPH_FAILED,
    GRAPH_SUCCESS as GRAPH_SUCCESS,
    MATMUL_DATA_TYPES as MATMUL_DATA_TYPES,
    MATMUL_DTYPE_BITS as MATMUL_DTYPE_BITS,
    MATMUL_FORMATS as MATMUL_FORMATS,
    MATMUL_POSITIONS as MATMUL_POSITIONS,
    NUMPY_TO_GE as NUMPY_TO_GE,
)
from ascendir.dialects.host_platform_ops import SOC_VERSIONS as SOC_VERSIONS
from ascendir.dialects.host_shape_ops import MAX_DIM_NUM as MAX_DIM_NUM
from ascendir.dialects.host_types import (
    ATTR_RESULT_TYPES as ATTR_RESULT_TYPES,
    AnyContext as AnyContext,
    ContextOf as ContextOf,
    CoreKind as CoreKind,
    MatmulMatrix as MatmulMatrix,
    MatmulShapeKind as MatmulShapeKind,
    MemSpace as MemSpace,
    ShapeKind as ShapeKind,
    check_index as check_index,
)


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
        StrFindOp,
        StrConstOp,
        StrAdvanceOp,
        StrCharOp,
        StrIsNullOp,
        StrNullOp,
        ListSizeOp,
        ListGetOp,
        InputValuesOp,
        InputInstanceNumOp,
        PlatformOp,
        CoreNumOp,
        MemSizeOp,
        LibWorkspaceSizeOp,
        SocVersionOp,
        ChipFactOp,
        PlatformResOp,
        SetBlockDimOp,
        SetLocalMemorySizeOp,
        SetNeedAtomicOp,
        SetTilingKeyOp,
        LeftOutOp,
        SetWorkspaceOp,
        WorkspaceGetOp,
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
