"""Values a kernel reads that are not tensors, in the `ascendc` dialect: the tiling data (GET_TILING_DATA, its
fields, TILING_KEY_IS), which kind of core runs (ASCEND_IS_AIV/AIC), enumerators and parameter structs built,
read and updated field by field. Separate because the host's tiling values and the calls' parameters arrive
through them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.ascendc_types import EnumType, GmPtrType, ObjectType, StructType, TilingType


@irdl_op_definition
class GetTilingDataOp(IRDLOperation):
    """`GET_TILING_DATA(td, tiling)`, or a hand-parsed `reinterpret_cast<__gm__ S*>(tiling)`."""

    name = "ascendc.get_tiling_data"
    pointer = operand_def(GmPtrType)
    result = result_def(TilingType)
    assembly_format = "$pointer attr-dict `:` type($pointer) `->` type($result)"


@irdl_op_definition
class TilingFieldOp(IRDLOperation):
    """Reads `td.field` (`field` may be a dotted path into nested structs; `index` for array fields)."""

    name = "ascendc.tiling_field"
    tiling = operand_def(TilingType)
    field = prop_def(StringAttr)
    index = opt_operand_def()
    result = result_def()
    assembly_format = (
        "$tiling $field (`[` $index^ `:` type($index) `]`)? attr-dict `:` type($tiling) `->` type($result)"
    )


@irdl_op_definition
class TilingKeyIsOp(IRDLOperation):
    """`TILING_KEY_IS(k)`: true when the host chose tiling key `k`."""

    name = "ascendc.tiling_key_is"
    key = prop_def(IntegerAttr)
    result = result_def()
    assembly_format = "$key attr-dict `->` type($result)"


@irdl_op_definition
class CoreIsOp(IRDLOperation):
    """`ASCEND_IS_AIV` / `ASCEND_IS_AIC`: which kind of core runs this copy of a mixed kernel."""

    name = "ascendc.core_is"
    core = prop_def(StringAttr)
    result = result_def()
    assembly_format = "$core attr-dict `->` type($result)"

    def verify_(self) -> None:
        if self.core.data not in ("AIV", "AIC"):
            raise VerifyException(f"core kind must be AIV or AIC, not '{self.core.data}'")


@irdl_op_definition
class EnumConstantOp(IRDLOperation):
    """An enumerator such as `RoundMode::CAST_RINT`, `CMPMODE::LT`, `HardEvent::MTE2_V`."""

    name = "ascendc.enum_constant"
    value = prop_def(StringAttr)
    result = result_def(EnumType)
    assembly_format = "$value attr-dict `:` type($result)"


@irdl_op_definition
class StructInitOp(IRDLOperation):
    """A parameter struct built from field values: `DataCopyParams{1, len, 0, 0}`; missing fields are 0."""

    name = "ascendc.struct_init"
    fields = prop_def(ArrayAttr[StringAttr])
    values = var_operand_def()
    result = result_def(StructType | TilingType | ObjectType)
    assembly_format = "$fields `(` $values `)` attr-dict `:` functional-type($values, $result)"

    def verify_(self) -> None:
        if len(self.fields.data) != len(self.values):
            raise VerifyException(f"{len(self.fields.data)} field names for {len(self.values)} values")


@irdl_op_definition
class StructGetOp(IRDLOperation):
    """Reads one field of a parameter struct."""

    name = "ascendc.struct_get"
    struct = operand_def(StructType | TilingType | ObjectType)
    field = prop_def(StringAttr)
    result = result_def()
    assembly_format = "$struct $field attr-dict `:` type($struct) `->` type($result)"


@irdl_op_definition
class StructSetOp(IRDLOperation):
    """A copy of a parameter struct with one field replaced (`p.blockLen = n` on a struct cell)."""

    name = "ascendc.struct_set"
    struct = operand_def(StructType | TilingType | ObjectType)
    field = prop_def(StringAttr)
    value = operand_def()
    result = result_def(StructType | TilingType | ObjectType)
    assembly_format = "$struct $field `,` $value attr-dict `:` type($struct) `,` type($value) `->` type($result)"

    def verify_(self) -> None:
        if self.struct.type != self.result.type:
            raise VerifyException("struct_set keeps the struct type")
