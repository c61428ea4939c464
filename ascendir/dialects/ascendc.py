"""The `ascendc` dialect: one op per AscendC API concept, types for its objects.

Scalar C++ (arithmetic, control flow, mutable locals) is not here: the lowering uses `arith`, `scf` and
`memref` cells for it. This dialect holds what is AscendC-specific:

* types for the runtime objects (`!ascendc.tpipe`, `!ascendc.tque<VECIN, 2>`, `!ascendc.tbuf<VECCALC>`,
  `!ascendc.global_tensor<f16>`, `!ascendc.local_tensor<f16, VECIN>`, `!ascendc.gm_ptr<f16>`, events,
  parameter structs and tiling structs);
* dedicated ops for the queue/buffer protocol, whose operand types carry the facts the verifier needs;
* one op per API family for everything else (`ascendc.vec_binary "Add" ...`). Each call keeps the API
  name, the catalog overload it resolved to and its C++ arguments in order, so rules and the simulator
  read the meaning of an argument from the catalog instead of from op-specific code.

Element types use the builtin types with signedness (`si32`, `ui8`, `f16`, `bf16`, `f32`, `i1` for bool);
scalar SSA values use signless integers as `arith` requires.

The dialect's parts live in modules of their own, by kind; this module assembles the dialect (`ASCENDC`) and
re-exports every name, so `from ascendir.dialects import ascendc as asc; asc.DataCopyOp` keeps working:

- ascendc_types.py: the TPositions and the types of the runtime objects, pointers and structs;
- ascendc_kernel.py: the kernel, its terminator, and the ops for what the lowering could not resolve;
- ascendc_objects.py: the objects a kernel declares and the queue/buffer protocol on them;
- ascendc_memory.py: global and local tensors' views and values, raw `__gm__` pointers;
- ascendc_values.py: tiling data, core and tiling-key tests, enumerators and parameter structs;
- ascendc_calls.py: the calls of catalogued APIs, one op per API family (FAMILY_OPS);
- ascendc_register.py: the calls of arch35's register API (RegCallOp);
- ascendc_simt.py: a SIMT launch's barrier, warp functions and atomics (SimtSyncOp, SimtWarpOp,
  SimtAtomicOp).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from ascendir.dialects.ascendc_calls import FAMILY_OPS as FAMILY_OPS
from ascendir.dialects.ascendc_calls import VECTOR_PIPE_FAMILIES as VECTOR_PIPE_FAMILIES
from ascendir.dialects.ascendc_kernel import (
    KernelOp as KernelOp,
    LeftOutOp as LeftOutOp,
    OpaqueCallOp as OpaqueCallOp,
    ReturnOp as ReturnOp,
    UndefOp as UndefOp,
)
from ascendir.dialects.ascendc_register import RegCallOp as RegCallOp
from ascendir.dialects.ascendc_simt import (
    SimtAtomicOp as SimtAtomicOp,
    SimtSyncOp as SimtSyncOp,
    SimtWarpOp as SimtWarpOp,
)
from ascendir.dialects.ascendc_memory import (
    GetValueOp as GetValueOp,
    GmLoadOp as GmLoadOp,
    GmPtrCastOp as GmPtrCastOp,
    GmPtrFromIntOp as GmPtrFromIntOp,
    GmPtrOffsetOp as GmPtrOffsetOp,
    GmPtrToIntOp as GmPtrToIntOp,
    GmStoreOp as GmStoreOp,
    UbPtrTensorOp as UbPtrTensorOp,
    ReinterpretCastOp as ReinterpretCastOp,
    SetGlobalBufferOp as SetGlobalBufferOp,
    SetValueOp as SetValueOp,
    SubTensorOp as SubTensorOp,
)
from ascendir.dialects.ascendc_objects import (
    AllocTensorOp as AllocTensorOp,
    DeQueOp as DeQueOp,
    EnQueOp as EnQueOp,
    FreeTensorOp as FreeTensorOp,
    GlobalTensorOp as GlobalTensorOp,
    InitBufferOp as InitBufferOp,
    LocalAllocOp as LocalAllocOp,
    LocalTensorAtOp as LocalTensorAtOp,
    MatmulObjectOp as MatmulObjectOp,
    ObjectOp as ObjectOp,
    TBufGetOp as TBufGetOp,
    TBufOp as TBufOp,
    TPipeOp as TPipeOp,
    TQueOp as TQueOp,
)
from ascendir.dialects.ascendc_types import (
    EnumType as EnumType,
    EventIdType as EventIdType,
    GlobalTensorType as GlobalTensorType,
    GmPtrType as GmPtrType,
    LocalTensorType as LocalTensorType,
    ObjectType as ObjectType,
    StructType as StructType,
    TBufType as TBufType,
    TPipeType as TPipeType,
    TQueType as TQueType,
    TilingType as TilingType,
)
from ascendir.dialects.ascendc_values import (
    CoreIsOp as CoreIsOp,
    EnumConstantOp as EnumConstantOp,
    GetTilingDataOp as GetTilingDataOp,
    StructGetOp as StructGetOp,
    StructInitOp as StructInitOp,
    StructSetOp as StructSetOp,
    TilingFieldOp as TilingFieldOp,
    TilingKeyIsOp as TilingKeyIsOp,
)

# Defined in the modules this one was split into; other modules import them from here.
from ascendir.dialects.ascendc_calls import (
    ApiCallOp as ApiCallOp,
    BrcbOp as BrcbOp,
    BufferCallOp as BufferCallOp,
    CastOp as CastOp,
    CompareOp as CompareOp,
    CubeOp as CubeOp,
    DataCopyOp as DataCopyOp,
    DuplicateOp as DuplicateOp,
    GatherOp as GatherOp,
    GlobalTensorCallOp as GlobalTensorCallOp,
    HighLevelOp as HighLevelOp,
    LocalTensorCallOp as LocalTensorCallOp,
    MaskOp as MaskOp,
    MatmulCallOp as MatmulCallOp,
    PipeCallOp as PipeCallOp,
    QueueCallOp as QueueCallOp,
    ReduceOp as ReduceOp,
    SelectOp as SelectOp,
    SortOp as SortOp,
    SyncOp as SyncOp,
    SystemOp as SystemOp,
    TransposeOp as TransposeOp,
    VecBinaryOp as VecBinaryOp,
    VecScalarOp as VecScalarOp,
    VecUnaryOp as VecUnaryOp,
)
from ascendir.dialects.ascendc_kernel import (
    KERNEL_TYPES as KERNEL_TYPES,
    SOURCE_NAME_ATTR as SOURCE_NAME_ATTR,
    UNDEF_WHAT_ATTR as UNDEF_WHAT_ATTR,
    UNMODELLED_TYPE_ATTR as UNMODELLED_TYPE_ATTR,
)
from ascendir.dialects.ascendc_types import POSITIONS as POSITIONS, UNKNOWN_POSITION as UNKNOWN_POSITION


ASCENDC = Dialect(
    "ascendc",
    [
        KernelOp, ReturnOp, TPipeOp, TQueOp, TBufOp, GlobalTensorOp, InitBufferOp, AllocTensorOp,
        FreeTensorOp, EnQueOp, DeQueOp, TBufGetOp, LocalAllocOp, LocalTensorAtOp, SetGlobalBufferOp, SubTensorOp, GetValueOp, SetValueOp,
        ReinterpretCastOp, GmPtrOffsetOp, GmPtrCastOp, GmLoadOp, GmStoreOp, GetTilingDataOp, TilingFieldOp,
        GmPtrFromIntOp, GmPtrToIntOp, UbPtrTensorOp,
        TilingKeyIsOp, CoreIsOp, EnumConstantOp, StructInitOp, StructGetOp, StructSetOp, MatmulObjectOp, ObjectOp,
        OpaqueCallOp, UndefOp, LeftOutOp, RegCallOp, SimtSyncOp, SimtWarpOp, SimtAtomicOp,
        *FAMILY_OPS.values(),
    ],
    [
        TPipeType, TQueType, TBufType, GlobalTensorType, LocalTensorType, GmPtrType, StructType, TilingType,
        EnumType, EventIdType, ObjectType,
    ],
)  # fmt: skip
