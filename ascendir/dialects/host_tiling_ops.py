"""Effects on the context and the tiling struct in the host dialect: block dim, tiling key and workspace sizes
set, the context's tiling buffer or a legacy local struct, their fields set and read, and a local struct saved
to the context.
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
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.host_types import TilingContextType, TilingDataType, check_index


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
class SetLocalMemorySizeOp(IRDLOperation):
    """`context->SetLocalMemorySize(n)` (renamed SetDynUBufSize): the bytes of UB a SIMT kernel takes as its dynamic
    unified buffer; 0 (no SIMT local memory) unless set."""

    name = "host.set_local_memory_size"

    context = operand_def(TilingContextType)
    value = operand_def(IntegerType)

    assembly_format = "$context `,` $value attr-dict `:` type($value)"

    def __init__(self, context: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[context, value])


@irdl_op_definition
class SetNeedAtomicOp(IRDLOperation):
    """`context->SetNeedAtomic(flag)`: with it true, the runtime initialises the outputs whose OpDef says
    InitValue before the launch (asc-devkit docs, OpParamDef/InitValue.md: InitValue takes effect only together
    with SetNeedAtomic(true)); kernels that accumulate into an output with atomic adds rely on it."""

    name = "host.set_need_atomic"

    context = operand_def(TilingContextType)
    value = operand_def(IntegerType)

    assembly_format = "$context `,` $value attr-dict `:` type($value)"

    def __init__(self, context: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[context, value])


@irdl_op_definition
class LeftOutOp(IRDLOperation):
    """Where the host lowering left a statement out (an ASC103 gap): `at` is the statement's source span,
    `file:line:col:end_line:end_col`. Running it does nothing; the evaluator notes that the run reached it, so
    that a gap the run never reached (a branch for another chip) does not make the run's values untrusted."""

    name = "host.left_out"

    at = prop_def(StringAttr)

    assembly_format = "$at attr-dict"

    def __init__(self, at: str) -> None:
        super().__init__(properties={"at": StringAttr(at)})


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
        check_index(self.index, "workspace")


@irdl_op_definition
class WorkspaceGetOp(IRDLOperation):
    """`context->GetWorkspaceSizes(n)[i]` read back (`workspaces[0] += bytes;` after `workspaces[0] = base;`): the
    size the function wrote there last; one it never wrote holds what the runtime left in the array (the
    evaluator stops)."""

    name = "host.workspace_get"

    context = operand_def(TilingContextType)
    index = prop_def(IntegerAttr[I64])
    result = result_def(i64)

    assembly_format = "$context `[` $index `]` attr-dict"

    def __init__(self, context: SSAValue, index: int) -> None:
        super().__init__(operands=[context], properties={"index": IntegerAttr(index, i64)}, result_types=[i64])

    def verify_(self) -> None:
        check_index(self.index, "workspace")


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
    """`tiling.SaveToBuffer(...)` + `SetDataSize(...)`: copies a local tiling struct into the context; with
    `bind`, `tiling.SetDataPtr(raw->GetData())`: the context's buffer is the local struct from then on."""

    name = "host.tiling_save"

    data = operand_def(TilingDataType)
    context = operand_def(TilingContextType)
    bind = opt_prop_def(UnitAttr, prop_name="bind")

    assembly_format = "(`bind` $bind^)? $data `,` $context attr-dict `:` type($data)"

    def __init__(self, data: SSAValue, context: SSAValue, bind: bool = False) -> None:
        super().__init__(operands=[data, context], properties={"bind": UnitAttr()} if bind else {})
