"""Matmul API tiling objects in the host dialect (`matmul_tiling::MultiCoreMatmulTiling`, `MatmulApiTiling`):
the object made, its setters, and GetTiling, whose first checks the evaluator runs.

They are library objects: the setters record the configuration, `host.matmul_get_tiling` runs the checks of
the library's GetTiling that reject a configuration outright. Where none of them does, GetTiling's result and
the TCubeTiling it fills are not modelled.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, UnitAttr, i1, i32, i64
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from ascendir.dialects.host_types import (
    MatmulMatrix,
    MatmulMatrixAttr,
    MatmulShapeKind,
    MatmulShapeKindAttr,
    MatmulTilingType,
    PlatformType,
    TilingDataType,
)


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
