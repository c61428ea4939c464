"""Calls of catalogued AscendC APIs in the `ascendc` dialect: one op per API family (`ascendc.vec_binary "Add"
...`), each keeping the API name, the catalog overload it resolved to and its C++ arguments in order, so rules
and the simulator read an argument's meaning from the catalog. Separate because the families share one class
body and their checks live with the catalog (ascendir.dialects.families).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import UNKNOWN_LOC, ArrayAttr, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_prop_def,
    opt_result_def,
    prop_def,
    var_operand_def,
)


class ApiCallOp(IRDLOperation):
    """A call of a catalogued AscendC API.

    `api` names the catalog entry, `overload` the overload the call resolved to (empty when the lowering
    already reported that none matched), `template_args` the explicit template arguments (types, integers,
    or enumerator names), and `args` the C++ arguments in order: the catalog overload's parameter i
    describes `args[i]`.
    """

    FAMILY: ClassVar[str]

    api = prop_def(StringAttr)
    overload = prop_def(StringAttr)
    template_args = opt_prop_def(ArrayAttr)
    args = var_operand_def()
    result = opt_result_def()

    assembly_format = "$api `(` $args `)` attr-dict `:` functional-type($args, $result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        api: str,
        args: Sequence[SSAValue],
        *,
        overload: str = "",
        template_args: Sequence[Attribute] = (),
        result_type: Attribute | None = None,
    ) -> None:
        properties: dict[str, Attribute] = {"api": StringAttr(api), "overload": StringAttr(overload)}
        if template_args:
            properties["template_args"] = ArrayAttr(list(template_args))
        # Operation.__init__ directly, as Op.create does: the IRDL constructor costs 3-4x more and the
        # lowering builds hundreds of these per kernel (the module is verified as a whole afterwards). The
        # location is the default one; naming it saves xDSL looking that up for each op.
        Operation.__init__(self, operands=list(args), result_types=[result_type] if result_type else [],
                           properties=properties, location=UNKNOWN_LOC)

    def verify_(self) -> None:
        from ascendir.dialects.families import check_call

        check_call(self)


def _family_op(op_name: str, family_name: str, doc: str) -> type[ApiCallOp]:
    """Declares the op of one API family; the class body is the same, the family decides the checks."""
    cls = type(
        "".join(part.capitalize() for part in family_name.split("_")) + "Op",
        (ApiCallOp,),
        {
            "name": op_name,
            "FAMILY": family_name,
            "__annotations__": {"FAMILY": ClassVar[str]},
            "__doc__": doc,
            "__module__": __name__,
        },
    )
    return irdl_op_definition(cls)


PipeCallOp = _family_op("ascendc.pipe_call", "pipe", "TPipe methods other than InitBuffer (Reset, AllocEventID, ...).")
QueueCallOp = _family_op("ascendc.queue_call", "queue", "TQue queries (VacantInQue, HasTensorInQue, ...).")
BufferCallOp = _family_op("ascendc.buffer_call", "buffer", "TBuf methods not covered by tbuf_get.")
GlobalTensorCallOp = _family_op(
    "ascendc.global_tensor_call", "global_tensor", "GlobalTensor methods (GetSize, SetL2CacheHint, ...)."
)
LocalTensorCallOp = _family_op(
    "ascendc.local_tensor_call", "local_tensor", "LocalTensor methods (GetSize, GetLength, SetSize, ...)."
)
DataCopyOp = _family_op("ascendc.data_copy", "data_copy", "DataCopy and DataCopyPad in all their forms.")
VecBinaryOp = _family_op("ascendc.vec_binary", "vec_binary", "Element-wise tensor-tensor ops (Add, Mul, Max, ...).")
VecScalarOp = _family_op("ascendc.vec_scalar", "vec_scalar", "Tensor-scalar ops (Adds, Muls, LeakyRelu, ...).")
VecUnaryOp = _family_op("ascendc.vec_unary", "vec_unary", "Element-wise unary ops (Exp, Ln, Abs, Relu, ...).")
DuplicateOp = _family_op("ascendc.duplicate", "duplicate", "Duplicate: fills a tensor with a scalar.")
CastOp = _family_op("ascendc.cast", "cast", "Cast between element types with a RoundMode.")
CompareOp = _family_op("ascendc.compare", "compare", "Compare / CompareScalar: a bit mask per element.")
SelectOp = _family_op("ascendc.select", "select", "Select by a bit mask.")
ReduceOp = _family_op("ascendc.reduce", "reduce", "ReduceSum/Max/Min, WholeReduce*, BlockReduce*.")
BrcbOp = _family_op("ascendc.brcb", "brcb", "Brcb: broadcasts each source element to a 32-byte block.")
GatherOp = _family_op("ascendc.gather", "gather", "Gather, GatherMask, CreateVecIndex.")
TransposeOp = _family_op("ascendc.transpose", "transpose", "Transpose of 16x16 blocks and its extended forms.")
SortOp = _family_op("ascendc.sort", "sort", "Sort and MrgSort.")
HighLevelOp = _family_op(
    "ascendc.high_level", "high_level", "Library operators with temp space (SoftMax, LayerNorm, Sigmoid, ...)."
)
MaskOp = _family_op("ascendc.mask", "mask", "Vector mask state: SetMaskCount, SetMaskNorm, SetVectorMask, ...")
CubeOp = _family_op("ascendc.cube", "cube", "Cube unit: LoadData, Mmad, Fixpipe.")
MatmulCallOp = _family_op("ascendc.matmul_call", "matmul", "Methods of the high-level Matmul object.")
SyncOp = _family_op("ascendc.sync", "sync", "SetFlag, WaitFlag, PipeBarrier, SyncAll, cross-core flags, atomics.")
SystemOp = _family_op("ascendc.system", "system", "GetBlockIdx, GetBlockNum, workspace and core queries.")

FAMILY_OPS: dict[str, type[ApiCallOp]] = {
    op.FAMILY: op
    for op in (
        PipeCallOp, QueueCallOp, BufferCallOp, GlobalTensorCallOp, LocalTensorCallOp, DataCopyOp,
        VecBinaryOp, VecScalarOp, VecUnaryOp, DuplicateOp, CastOp, CompareOp, SelectOp, ReduceOp, BrcbOp,
        GatherOp, TransposeOp, SortOp, HighLevelOp, MaskOp, CubeOp, MatmulCallOp, SyncOp, SystemOp,
    )
}  # fmt: skip

# The families of single vector instructions (PIPE_V): the rules and the simulator's kernel typing start from this
# one set. HighLevelOp's APIs (SoftMax, LayerNorm, ...) run on the vector unit too, as composites of these.
VECTOR_PIPE_FAMILIES = frozenset({
    "vec_binary", "vec_scalar", "vec_unary", "duplicate", "cast", "compare", "select", "reduce", "brcb", "gather",
    "transpose", "sort",
})  # fmt: skip
